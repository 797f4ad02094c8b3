/**
 * Event Delete.
 *
 * The CTS Event node (v3) run by n8n's real engine against the sandbox over HTTP. What the node
 * sent is read from the sandbox's request log; what it changed is read back through the API.
 */
import { CtsEvent } from '../../../../nodes/CtsEvent/CtsEvent.node';
import { Engine, type NodeRunOptions } from '../../../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent() });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

function run(parameters: Record<string, unknown>, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsEvent',
		parameters: { resource: 'event', output: 'raw', ...parameters },
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

async function createEvent(fields: Record<string, unknown> = {}) {
	const { status, body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent(fields) });
	if (status !== 200) throw new Error(`create event answered ${status}: ${JSON.stringify(body)}`);
	return body.data.event as Record<string, any>;
}

async function getEvent(id: string) {
	return await sandbox.api('GET', '/v3/events', { qs: { id } });
}

async function listEvents(start: string, end: string, calendarIds = 'cal-alice-a-primary') {
	const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId: 'acc-alice-a', calendarIds, start, end } });
	return body.data.events as Array<Record<string, any>>;
}

describe('Delete', () => {
	it('deletes, then counts a second delete of the gone event as success (or fails, when switched off)', async () => {
		const created = await createEvent();
		const first = await run({ operation: 'delete', eventId: created.id, ...target });
		expect(first.error).toBeUndefined();
		expect(first.items[0].json).toEqual({ id: created.id, deleted: true });
		expect((await getEvent(created.id)).status).toBe(404);
		const again = await run({ operation: 'delete', eventId: created.id, ...target });
		expect(again.error).toBeUndefined();
		expect(again.items[0].json).toEqual({ id: created.id, deleted: true, alreadyDeleted: true });
		const strict = await run({ operation: 'delete', eventId: created.id, ...target, goneIsSuccess: false });
		expect(strict.error?.message).toMatch(/^Event not found/);
	});

	it('deletes one occurrence, this and following, or the whole series', async () => {
		const series = await createEvent({
			start: '2026-12-07T09:00:00',
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1, count: 6 }],
		});
		const list = () => listEvents('2026-12-01T00:00:00Z', '2027-02-01T00:00:00Z');
		const occurrences = await list();
		expect((await run({ operation: 'delete', eventId: occurrences[1].id, ...target, seriesUpdateMode: 'single' })).error).toBeUndefined();
		expect((await list()).map((event) => event.id)).toEqual(occurrences.filter((_, index) => index !== 1).map((event) => event.id));
		expect((await run({ operation: 'delete', eventId: occurrences[4].id, ...target, seriesUpdateMode: 'future' })).error).toBeUndefined();
		expect((await list()).map((event) => event.recurrenceId)).toEqual([0, 2, 3].map((index) => occurrences[index].recurrenceId));
		expect((await run({ operation: 'delete', eventId: occurrences[0].id, ...target, seriesUpdateMode: 'all' })).error).toBeUndefined();
		expect(await list()).toEqual([]);
		expect((await getEvent(series.id)).status).toBe(404);
	});
});
