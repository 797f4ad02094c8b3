/**
 * Event Delete.
 *
 * The CTS Event node (v3) run by n8n's real engine against the sandbox over HTTP. What the node
 * sent is read from the sandbox's request log; what it changed is read back through the API.
 */
import { eventApi, eventNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = eventNodeSuite();
const { createEvent, getEvent, listEvents } = eventApi(sandbox);

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

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
