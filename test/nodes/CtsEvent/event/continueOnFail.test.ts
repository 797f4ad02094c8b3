/**
 * Continue On Fail with input refused before any request.
 *
 * The CTS Event node through n8n's real engine against the sandbox over HTTP.
 */
import { timedEvent } from '../../../harness/sandboxClient';
import { eventNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = eventNodeSuite();

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

/** Create parameters of a timed event on 1 December 2026, 09:00–10:00 Berlin time. */
const createParameters = (extra: Record<string, unknown> = {}) => ({
	operation: 'create',
	...target,
	title: 'Covered',
	start: '2026-12-01T09:00:00',
	end: '2026-12-01T10:00:00',
	timeZone: 'Europe/Berlin',
	...extra,
});

/** An event made through the API, before the node runs; the request log starts after it. */
async function createEvent(fields: Record<string, unknown> = {}) {
	const event = await sandbox.createEvent(timedEvent(fields));
	await sandbox.clearRequests();
	return event;
}

describe('Continue On Fail with input refused before any request', () => {
	it('Create: the refused item becomes an error item naming the field; the others are created', async () => {
		const { items, error } = await run(createParameters({ title: '={{ $json.title }}', timeZone: '={{ $json.zone }}' }), {
			items: [
				{ title: 'one', zone: 'Europe/Berlin' },
				{ title: 'two', zone: 'EST' },
				{ title: 'three', zone: 'UTC' },
			],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toMatchObject({ title: 'one', timeZone: 'Europe/Berlin' });
		expect(items[1].json).toEqual({ error: expect.stringMatching(/^Time Zone: "EST" is not an IANA time zone/) });
		expect(items[2].json).toMatchObject({ title: 'three', timeZone: 'UTC' });
		expect((await sandbox.requests()).map((call) => (call.body as { title: string }).title)).toEqual(['one', 'three']);
	});

	it('Get Many: an item with a bad range becomes an error item; the others are listed', async () => {
		await createEvent({ title: 'December' });
		const { items, error } = await run(
			{ operation: 'getAll', accountId: target.accountId, calendarIds: target.calendarId, start: '={{ $json.start }}', end: '2027-01-01T00:00:00Z', returnAll: true },
			{ items: [{ start: '2026-12-01T00:00:00Z' }, { start: 'soon' }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.title ?? item.json.error)).toEqual(['December', 'Start: "soon" is not a date and time']);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(await sandbox.requests()).toHaveLength(1);
	});
});
