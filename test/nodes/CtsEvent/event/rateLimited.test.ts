/**
 * 429 answers (operations and the trigger).
 *
 * The CTS Event node through n8n's real engine against the sandbox over HTTP.
 */
import { CtsEventTrigger } from '../../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { PollHarness } from '../../../harness/engine';
import { ALICE_KEY, timedEvent } from '../../../harness/sandboxClient';
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

async function calls() {
	return (await sandbox.requests()).map((call) => `${call.method} ${call.path} ${call.status}`);
}

describe('429 answers', () => {
	const arrange: Record<string, () => Promise<Record<string, unknown>>> = {
		create: async () => createParameters(),
		get: async () => ({ operation: 'get', eventId: (await createEvent()).id }),
		'get many': async () => {
			await createEvent();
			return { operation: 'getAll', accountId: target.accountId, calendarIds: target.calendarId, start: '2026-12-01T00:00:00Z', end: '2027-01-01T00:00:00Z', returnAll: true };
		},
		update: async () => ({ operation: 'update', eventId: (await createEvent()).id, ...target, updateFields: { title: 'Renamed' } }),
		'update with a read first': async () => ({ operation: 'update', eventId: (await createEvent()).id, ...target, updateFields: { start: '2026-12-01T11:00:00' } }),
		delete: async () => ({ operation: 'delete', eventId: (await createEvent()).id, ...target }),
	};

	it.each(Object.keys(arrange))('%s: waits out a 429 and sends the request again, once', async (name) => {
		const parameters = await arrange[name]();
		await sandbox.control('faults', { status: 429, count: 1, retryAfterSeconds: 1 });
		const { items, error } = await run(parameters);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const log = await calls();
		// The first call met the 429; the same call followed and succeeded, then any others, each once.
		expect(log[0]).toMatch(/ 429$/);
		expect(log[1]).toMatch(new RegExp(`^${log[0].replace(/ 429$/, '')} 20[04]$`));
		expect(log.slice(1).every((call) => / 20[04]$/.test(call))).toBe(true);
		expect(new Set(log.slice(1)).size).toBe(log.length - 1);
		const events = (await sandbox.api('GET', '/v3/events/list', {
			qs: { accountId: target.accountId, calendarIds: target.calendarId, start: '2026-11-01T00:00:00Z', end: '2027-01-01T00:00:00Z' },
		})).body.data.events;
		expect(events).toHaveLength(name === 'delete' ? 0 : 1);
	});

	it('a 429 that outlasts Maximum Wait fails the item with the budget and the service\'s own answer, errorRef included', async () => {
		const { id } = await createEvent();
		// Another client of the account used the budget: the node learns it from the refusal.
		await sandbox.control('limits', { points: 5 });
		for (let call = 0; call < 5; call++) await sandbox.api('GET', '/v3/events', { qs: { id } });
		await sandbox.clearRequests();
		const { error } = await run({ operation: 'get', eventId: id, options: { maxWaitSeconds: 0 } });
		const refused = (await sandbox.requests()).filter((call) => call.status === 429);
		expect(refused).toHaveLength(1);
		expect(error?.message).toMatch(/^Rate limit: the account's point budget is used up \(0 of 5 points left; /);
		const description = (error as Error & { description?: string }).description ?? '';
		expect(description).toMatch(/^This run still needed 1 point for 1 waiting request\./);
		expect(description).toMatch(/ The service answered: Rate limit exceeded: not enough points left in this window.* \(errorRef [^)]+\)$/);
	});

	it('a 429 for one item does not repeat the other items\' requests', async () => {
		await sandbox.control('faults', { status: 429, count: 1 });
		const { items, error } = await run(createParameters({ title: '={{ $json.title }}' }), { items: [{ title: 'one' }, { title: 'two' }, { title: 'three' }] });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.title).sort()).toEqual(['one', 'three', 'two']);
		const creates = (await sandbox.requests()).filter((call) => call.status === 200).map((call) => (call.body as { title: string }).title);
		expect(creates.sort()).toEqual(['one', 'three', 'two']);
	});

	it('the Event Trigger waits out a 429 within the poll and fires once', async () => {
		await sandbox.control('clock', { now: '2026-12-01T08:00:00.000Z' });
		const poller = new PollHarness(
			new CtsEventTrigger(),
			'ctsEventTrigger',
			{ accountId: target.accountId, calendarIds: target.calendarId, events: ['created', 'updated', 'cancelled'], lookAheadDays: 14 },
			{ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		);
		expect(await poller.poll()).toBeNull();
		await sandbox.control('clock', { advanceSeconds: 60 });
		const event = await createEvent({ title: 'limited', start: '2026-12-03T09:00:00', timeZone: 'UTC' });
		await sandbox.control('clock', { advanceSeconds: 60 });
		await sandbox.control('faults', { status: 429, count: 1 });
		const result = await poller.poll();
		expect((result?.[0] ?? []).map((item) => `${item.json.triggerEvent}:${item.json.id}`)).toEqual([`created:${event.id}`]);
		expect(await calls()).toEqual(['GET /v3/events/list 429', 'GET /v3/events/list 200']);
		await sandbox.control('clock', { advanceSeconds: 60 });
		expect(await poller.poll()).toBeNull();
	});
});
