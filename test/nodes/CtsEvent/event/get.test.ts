/**
 * Event Get.
 *
 * The CTS Event node (v3) run by n8n's real engine against the sandbox over HTTP. What the node
 * sent is read from the sandbox's request log; what it changed is read back through the API.
 */
import { withEnd } from '../../../../nodes/shared/output/simplifyEvent';
import { eventApi, eventNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = eventNodeSuite();
const { createEvent } = eventApi(sandbox);

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

describe('Get', () => {
	it('reads an event by an id full of characters that need encoding, passed byte for byte', async () => {
		const created = await createEvent();
		expect(created.id).toMatch(/[+/=]/);
		const { items, error } = await run({ operation: 'get', eventId: created.id });
		expect(error).toBeUndefined();
		expect(withEnd(items[0].json)).toMatchObject({ id: created.id, title: 'Meeting', end: '2026-12-01T10:00:00' });
		expect((await sandbox.requests()).at(-1)!.query).toEqual({ id: created.id });
	});

	it('raises "Event not found" for an unknown or deleted event; one error item under Continue On Fail', async () => {
		const created = await createEvent();
		await sandbox.api('POST', '/v3/events/delete', { body: { id: created.id, ...target } });
		const { error } = await run({ operation: 'get', eventId: created.id });
		expect(error?.message).toMatch(/^Event not found/);
		expect(error?.httpCode).toBe('404');
		const { items } = await run(
			{ operation: 'get', eventId: '={{ $json.id }}' },
			{ items: [{ id: 'unknown' }, { id: (await createEvent()).id }], continueOnFail: true },
		);
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toMatch(/^Event not found/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.title).toBe('Meeting');
	});

	it('explains an expired (401) and a revoked (403) calendar connection', async () => {
		const list401 = await run({
			operation: 'getAll',
			accountId: 'acc-alice-expired',
			calendarIds: 'cal-alice-expired',
			start: '2026-12-01T00:00:00Z',
			end: '2026-12-31T00:00:00Z',
			returnAll: true,
		});
		expect(list401.error?.message).toMatch(/^Authentication failed/);
		expect(list401.error?.description).toContain('Reconnect the account in the service');
		expect(list401.error?.description).not.toContain('API key');
		const list403 = await run({
			operation: 'getAll',
			accountId: 'acc-alice-revoked',
			calendarIds: 'cal-alice-revoked',
			start: '2026-12-01T00:00:00Z',
			end: '2026-12-31T00:00:00Z',
			returnAll: true,
		});
		expect(list403.error?.message).toMatch(/^Access denied/);
		expect(list403.error?.description).toContain('revoked');
	});
});
