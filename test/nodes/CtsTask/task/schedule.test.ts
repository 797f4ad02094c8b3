/**
 * Task → Schedule in Calendar of the CTS Task node, run by n8n's real engine against the sandbox
 * over HTTP: the first free slot, booked once, kept while free and moved when not; every option
 * and every error. What the node asked is read from the sandbox's request log.
 */
import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { Engine, type NodeRunOptions } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });

// Each test starts with the calendar list unread.
sandboxWithFreshLists(sandbox);

const A = 'acc-alice-a/cal-alice-a-primary';
const B = 'acc-alice-b/cal-alice-b-primary';

function schedule(taskId: string, parameters: Record<string, unknown> = {}, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsTask',
		parameters: {
			resource: 'task',
			operation: 'schedule',
			taskId: { mode: 'id', value: taskId },
			calendarId: { mode: 'list', value: A },
			checkCalendars: [A, B],
			timeZone: 'Europe/Berlin',
			notBefore: '2026-12-01T08:00:00',
			...parameters,
		},
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

async function task(fields: Record<string, unknown> = {}) {
	return await sandbox.createTask({ title: 'Write report', estimatedDuration: 'PT90M', due: '2026-12-03T17:00:00', timeZone: 'Europe/Berlin', ...fields });
}

async function blocksIn(calendarId = 'cal-alice-a-primary') {
	const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId: 'acc-alice-a', calendarIds: calendarId, start: '2026-11-25T00:00:00Z', end: '2027-01-31T00:00:00Z' } });
	return (body.data.events as Array<Record<string, any>>).filter((event) => String(event.description ?? '').includes('Task ID:'));
}

describe('Schedule in Calendar', () => {
	it('books the first free slot in working hours, titled after the task, with the task ID in the description; outputs event and task', async () => {
		const id = await task();
		await sandbox.createEvent(timedEvent({ title: 'Standup', start: '2026-12-01T09:00:00', duration: 'PT1H' }));
		await sandbox.createEvent(timedEvent({ title: 'Other account', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-12-01T10:00:00', duration: 'PT30M' }));
		await sandbox.clearRequests();
		const { items, error } = await schedule(id);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const { action, event, task: output } = items[0].json as Record<string, any>;
		expect(action).toBe('created');
		expect(event).toMatchObject({ title: 'Write report', start: '2026-12-01T10:30:00+01:00', duration: 'PT1H30M', timeZone: 'Europe/Berlin', calendarId: 'cal-alice-a-primary' });
		expect(event.description).toBe(`Time blocked for the task Write report.\n\nTask ID: ${id}`);
		expect(output).toMatchObject({ id, title: 'Write report' });
		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.method} ${request.path} ${request.points}`)).toEqual([
			'GET /v3/tasks 1',
			'GET /v3/calendars/list 10',
			'GET /v3/events/list 10',
			'GET /v3/events/list 10',
			'POST /v3/events/create 1',
			// The block's calendar again over its time: a block another process created at the same moment.
			'GET /v3/events/list 10',
		]);
		expect(requests[5].query).toMatchObject({ accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary' });
	});

	it('run again, keeps a block that is still free (no write), and moves one that is not: never two blocks', async () => {
		const id = await task();
		const first = await schedule(id);
		const block = (first.items[0].json as Record<string, any>).event;
		await sandbox.clearRequests();
		const again = await schedule(id);
		expect(again.items[0].json).toMatchObject({ action: 'kept', event: { id: block.id, start: '2026-12-01T09:00:00+01:00' } });
		expect((await sandbox.requests()).filter((request) => request.method === 'POST')).toEqual([]);
		await sandbox.createEvent(timedEvent({ title: 'Urgent', start: '2026-12-01T10:00:00', duration: 'PT15M' }));
		const moved = await schedule(id);
		expect(moved.error).toBeUndefined();
		expect(moved.items[0].json).toMatchObject({ action: 'moved', event: { id: block.id, start: '2026-12-01T10:15:00+01:00', duration: 'PT1H30M', previousStart: '2026-12-01T08:00:00Z' }, task: { id } });
		expect((await blocksIn()).map((event) => event.start)).toEqual(['2026-12-01T10:15:00']);
	});

	it('finds its block by the Task ID line even when the user marked it free or edited the rest of the description', async () => {
		const id = await task();
		const block = ((await schedule(id)).items[0].json as Record<string, any>).event;
		const edited = await sandbox.api('POST', '/v3/events/update', {
			body: { id: block.id, accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary', freeBusyStatus: 'free', description: `Notes first\n  Task ID: ${id}  \nmore notes` },
		});
		expect(edited.status).toBe(200);
		const again = await schedule(id);
		expect(again.items[0].json).toMatchObject({ action: 'kept', event: { id: block.id } });
		// Another task's ID on the line is not this task's block; marked free, the block does not make time busy.
		const other = await task({ title: 'Other' });
		expect((await schedule(other)).items[0].json).toMatchObject({ action: 'created', event: { title: 'Other', start: '2026-12-01T09:00:00+01:00' } });
		expect(await blocksIn()).toHaveLength(2);
	});

	it('moves a block whose length no longer matches, and one outside the working hours', async () => {
		const id = await task();
		await schedule(id);
		const longer = await schedule(id, { lengthFrom: 'minutes', lengthMinutes: 120 });
		expect(longer.items[0].json).toMatchObject({ action: 'moved', event: { start: '2026-12-01T09:00:00+01:00', duration: 'PT2H' } });
		const later = await schedule(id, { lengthFrom: 'minutes', lengthMinutes: 120, workFrom: '13:00' });
		expect(later.items[0].json).toMatchObject({ action: 'moved', event: { start: '2026-12-01T13:00:00+01:00' } });
		expect(await blocksIn()).toHaveLength(1);
	});

	it('honours Not Before, Not After, Any Time, round starts and the task\'s due date', async () => {
		const id = await task({ due: '2026-12-01T12:00:00' });
		await sandbox.createEvent(timedEvent({ title: 'Early', start: '2026-12-01T07:00:00', duration: 'PT2H10M' }));
		const rounded = await schedule(id, { workingHours: 'any', notBefore: '2026-12-01T06:00:00' });
		expect(rounded.items[0].json).toMatchObject({ event: { start: '2026-12-01T09:15:00+01:00' } });
		const noRoom = await schedule(id, { notBefore: '2026-12-01T11:00:00' });
		expect(noRoom.error?.message).toBe('No free slot of 90 minutes between 2026-12-01 11:00 and 2026-12-01 12:00 (Europe/Berlin) within the working hours 09:00–17:00');
		expect(noRoom.error?.description).toContain('The block the task has is no longer free and was left as it is.');
		const other = await task({ title: 'Plan', due: undefined });
		const far = await schedule(other, { notBefore: '2026-12-05T00:00:00', options: { slotStep: 60 } });
		// Saturday and Sunday are not working days.
		expect(far.items[0].json).toMatchObject({ event: { title: 'Plan', start: '2026-12-07T09:00:00+01:00' } });
		// The first task's block (09:15–10:45) is busy time for the next one.
		const given = await schedule(await task({ title: 'Given' }), { notAfter: '2026-12-01T11:30:00', lengthFrom: 'minutes', lengthMinutes: 45 });
		expect(given.items[0].json).toMatchObject({ event: { title: 'Given', start: '2026-12-01T10:45:00+01:00', duration: 'PT45M' } });
	});

	it('fails naming the field: a task without estimated duration, an unknown or completed task, a bad zone, an end before the start', async () => {
		const noEstimate = await schedule(await task({ estimatedDuration: undefined }));
		expect(noEstimate.error?.message).toBe('Length: the task "Write report" has no estimated duration');
		const unknown = await schedule('no-such-task');
		expect(unknown.error?.message).toBe('Task: no task with ID "no-such-task" exists in this account');
		const done = await task({ progress: 'completed' });
		expect((await schedule(done)).error?.message).toBe('Task: the task "Write report" is completed: there is nothing left to schedule');
		await sandbox.clearRequests();
		const zone = await schedule('any', { timeZone: 'CET' });
		expect(zone.error?.message).toMatch(/^Time Zone: "CET" is not an IANA time zone/);
		expect(await sandbox.requests()).toEqual([]);
		const overdue = await schedule(await task({ due: '2026-11-30T17:00:00' }));
		expect(overdue.error?.message).toBe("Not Before: The task's due date (2026-11-30 17:00) is not after Not Before (2026-12-01 08:00)");
		const before = await schedule(await task(), { notAfter: '2026-12-01T07:00:00' });
		expect(before.error?.message).toBe('Not After: Not After (2026-12-01 07:00) is not after Not Before (2026-12-01 08:00)');
		expect(await blocksIn()).toEqual([]);
	});

	it('refuses a calendar the user may not write to, and a checked calendar it cannot read', async () => {
		const id = await task();
		const readOnly = await schedule(id, { calendarId: { mode: 'id', value: 'cal-alice-a-holidays' } });
		expect(readOnly.error?.message).toBe('Calendar: the user may not write to "Holidays in Germany"');
		const expired = await schedule(id, { checkCalendars: [A, 'acc-alice-expired/cal-alice-expired'] });
		expect(expired.error?.message).toMatch(/^Check Calendars: cannot read "Side Project" \(cal-alice-expired\)/);
		expect(await blocksIn()).toEqual([]);
		// Skipped when asked: the block is booked and the output says what was left out.
		const skipped = await schedule(id, { checkCalendars: [A, 'acc-alice-expired/cal-alice-expired'], options: { unreadableCalendars: 'skip' } });
		expect(skipped.items[0].json).toMatchObject({ action: 'created', notices: [expect.stringMatching(/^Skipped "Side Project" \(cal-alice-expired\): it cannot be read/)] });
		// Never the block's own calendar: its block could not be found again.
		const own = await schedule(id, { calendarId: { mode: 'id', value: 'cal-alice-expired' }, checkCalendars: [], options: { unreadableCalendars: 'skip' } });
		expect(own.error?.message).toBe('Calendar: cannot read "Side Project" (cal-alice-expired), so its block for the task cannot be looked for');
	});

	it('with Continue On Fail, a task that cannot be scheduled is one error item; the others are scheduled', async () => {
		const good = await task({ title: 'Good' });
		const { items, error } = await schedule('={{ $json.task }}' as string, {}, { continueOnFail: true, items: [{ task: 'no-such-task' }, { task: good }] });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toBe('Task: no task with ID "no-such-task" exists in this account');
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json).toMatchObject({ action: 'created', event: { title: 'Good' } });
	});
});
