/**
 * Task → Plan Tasks of the CTS Task node, run by n8n's real engine against the sandbox over
 * HTTP: many tasks placed by priority and due date with one read of the tasks and calendars,
 * one write per block, blocks kept while free and moved when not, Preview, the reasons of tasks
 * that do not fit, daylight-saving days, every option and every error. What the node asked is
 * read from the sandbox's request log.
 */
import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { Engine, type NodeRunOptions } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });

sandboxWithFreshLists(sandbox);

const A = 'acc-alice-a/cal-alice-a-primary';
const B = 'acc-alice-b/cal-alice-b-primary';

type Json = Record<string, any>;

function plan(ids: string[], parameters: Record<string, unknown> = {}, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsTask',
		parameters: {
			resource: 'task',
			operation: 'plan',
			tasksFrom: 'input',
			calendarId: { mode: 'list', value: A },
			checkCalendars: [A, B],
			timeZone: 'Europe/Berlin',
			notBefore: '2026-12-01T08:00:00',
			...parameters,
		},
		items: ids.map((id) => ({ id })),
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

async function task(title: string, fields: Record<string, unknown> = {}) {
	return await sandbox.createTask({ title, estimatedDuration: 'PT90M', timeZone: 'Europe/Berlin', ...fields });
}

async function blocksIn(calendarId = 'cal-alice-a-primary', accountId = 'acc-alice-a') {
	const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId, calendarIds: calendarId, start: '2026-11-25T00:00:00Z', end: '2027-01-20T00:00:00Z' } });
	return (body.data.events as Json[]).filter((event) => String(event.description ?? '').includes('Task ID:'));
}

const json = (items: Array<{ json: unknown }>) => items.map((item) => item.json as Json);
const spans = (items: Array<{ json: unknown }>) => json(items).map((item) => [item.title, item.action, item.start, item.end]);
const posts = async () => (await sandbox.requests()).filter((request) => request.method === 'POST' && request.path.startsWith('/v3/events'));

describe('Plan Tasks', () => {
	it('orders by priority, then due, then input order, and gives each the first free slot; one read for all, one write per block', async () => {
		const none = await task('No priority', { estimatedDuration: 'PT60M' });
		const laterDue = await task('Priority 5, due Thursday', { priority: 5, due: '2026-12-03T17:00:00' });
		const first = await task('Priority 1', { priority: 1, estimatedDuration: 'PT30M', due: '2026-12-05T17:00:00' });
		const soonerDue = await task('Priority 5, due Wednesday', { priority: 5, estimatedDuration: 'PT45M', due: '2026-12-02T17:00:00' });
		await sandbox.createEvent(timedEvent({ title: 'Standup', start: '2026-12-01T09:00:00', duration: 'PT1H' }));
		await sandbox.createEvent(timedEvent({ title: 'Other account', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-12-01T10:00:00', duration: 'PT30M' }));
		await sandbox.clearRequests();
		const { items, error } = await plan([none, laterDue, first, soonerDue]);
		expect(error).toBeUndefined();
		// Output in the input's order, each item paired with the input item that named its task.
		expect(spans(items)).toEqual([
			['No priority', 'created', '2026-12-01T13:15:00+01:00', '2026-12-01T14:15:00+01:00'],
			['Priority 5, due Thursday', 'created', '2026-12-01T11:45:00+01:00', '2026-12-01T13:15:00+01:00'],
			['Priority 1', 'created', '2026-12-01T10:30:00+01:00', '2026-12-01T11:00:00+01:00'],
			['Priority 5, due Wednesday', 'created', '2026-12-01T11:00:00+01:00', '2026-12-01T11:45:00+01:00'],
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(json(items)[2]).toMatchObject({
			taskId: first,
			priority: 1,
			due: '2026-12-05T17:00:00+01:00',
			durationMinutes: 30,
			timeZone: 'Europe/Berlin',
			calendarId: 'cal-alice-a-primary',
			accountId: 'acc-alice-a',
			calendarName: 'Personal',
			eventId: expect.any(String),
			preview: false,
		});
		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.method} ${request.path} ${request.points}`)).toEqual([
			'GET /v3/tasks 1',
			'GET /v3/tasks 1',
			'GET /v3/tasks 1',
			'GET /v3/tasks 1',
			'GET /v3/calendars/list 10',
			'GET /v3/events/list 10',
			'GET /v3/events/list 10',
			'POST /v3/events/create 1',
			'POST /v3/events/create 1',
			'POST /v3/events/create 1',
			'POST /v3/events/create 1',
			// The blocks' calendar again over their time: another process's block of the same task at the same moment.
			'GET /v3/events/list 10',
		]);
		// The blocks are the events the output names, with Schedule in Calendar's marker line.
		const blocks = await blocksIn();
		expect(blocks.map((event) => [event.id, event.title, event.start, event.duration]).sort()).toEqual(
			json(items).map((item) => [item.eventId, item.title, item.start.slice(0, 19), `PT${item.durationMinutes >= 60 ? `${Math.floor(item.durationMinutes / 60)}H` : ''}${item.durationMinutes % 60 ? `${item.durationMinutes % 60}M` : ''}`]).sort(),
		);
		expect(blocks.find((event) => event.title === 'Priority 1')?.description).toBe(`Time blocked for the task Priority 1.\n\nTask ID: ${first}`);
	});

	it('Preview outputs the plan and writes nothing; the run that writes gives the same plan; a re-run writes nothing', async () => {
		const ids = [await task('One', { priority: 2 }), await task('Two', { priority: 1 }), await task('Three')];
		await sandbox.clearRequests();
		const preview = await plan(ids, { preview: true });
		expect(preview.error).toBeUndefined();
		expect(json(preview.items).map((item) => [item.action, item.eventId, item.preview])).toEqual([
			['create', null, true],
			['create', null, true],
			['create', null, true],
		]);
		expect(await posts()).toEqual([]);
		expect(await blocksIn()).toEqual([]);
		const written = await plan(ids);
		const times = (items: Array<{ json: unknown }>) => json(items).map((item) => [item.start, item.end]);
		expect(times(written.items)).toEqual(times(preview.items));
		expect(json(written.items).map((item) => item.action)).toEqual(['created', 'created', 'created']);
		await sandbox.clearRequests();
		const again = await plan(ids);
		expect(json(again.items).map((item) => [item.action, item.eventId])).toEqual(json(written.items).map((item) => ['kept', item.eventId]));
		expect(times(again.items)).toEqual(times(written.items));
		expect(await posts()).toEqual([]);
		const againPreview = await plan(ids, { preview: true });
		expect(json(againPreview.items).map((item) => item.action)).toEqual(['keep', 'keep', 'keep']);
	});

	it('a block the user moved to a free time stays there, a deleted one is made again, one that became busy moves: never two blocks per task', async () => {
		const [moved, deleted, crowded] = [await task('Moved', { priority: 1 }), await task('Deleted', { priority: 2 }), await task('Crowded', { priority: 3 })];
		const first = json((await plan([moved, deleted, crowded])).items);
		expect(first.map((item) => item.start)).toEqual(['2026-12-01T09:00:00+01:00', '2026-12-01T10:30:00+01:00', '2026-12-01T12:00:00+01:00']);
		const update = await sandbox.api('POST', '/v3/events/update', { body: { id: first[0].eventId, accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary', start: '2026-12-02T14:00:00', duration: 'PT1H30M', timeZone: 'Europe/Berlin', showWithoutTime: false } });
		expect(update.status).toBe(200);
		const removal = await sandbox.api('POST', '/v3/events/delete', { body: { id: first[1].eventId, accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' } });
		expect(removal.status).toBe(204);
		await sandbox.createEvent(timedEvent({ title: 'Customer call', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-12-01T12:30:00', duration: 'PT30M' }));
		const again = json((await plan([moved, deleted, crowded])).items);
		expect(again.map((item) => [item.title, item.action, item.start])).toEqual([
			['Moved', 'kept', '2026-12-02T14:00:00+01:00'],
			['Deleted', 'created', '2026-12-01T09:00:00+01:00'],
			['Crowded', 'moved', '2026-12-01T10:30:00+01:00'],
		]);
		expect(again[2]).toMatchObject({ eventId: first[2].eventId, previousStart: '2026-12-01T12:00:00+01:00' });
		const blocks = await blocksIn();
		expect(blocks).toHaveLength(3);
		expect(new Set(blocks.map((event) => event.description)).size).toBe(3);
	});

	it('a block made by Schedule in Calendar is the same block for Plan Tasks', async () => {
		const id = await task('Scheduled once');
		const scheduled = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'schedule', taskId: { mode: 'id', value: id }, calendarId: { mode: 'list', value: A }, checkCalendars: [A, B], timeZone: 'Europe/Berlin', notBefore: '2026-12-01T08:00:00' },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		const event = (scheduled.items[0].json as Json).event;
		const planned = json((await plan([id])).items);
		expect(planned).toEqual([expect.objectContaining({ action: 'kept', eventId: event.id, start: '2026-12-01T09:00:00+01:00' })]);
	});

	it('tasks with and without due date and estimated duration; the reasons of those that do not fit', async () => {
		const noEstimate = await task('No estimate', { estimatedDuration: undefined, priority: 1 });
		const tooSoon = await task('Due too soon', { due: '2026-12-01T10:00:00', priority: 2 });
		const overdue = await task('Overdue', { due: '2026-11-30T17:00:00' });
		const noDue = await task('No due date', { estimatedDuration: 'PT2H' });
		await sandbox.createEvent(timedEvent({ title: 'Morning', start: '2026-12-01T09:00:00', duration: 'PT30M' }));
		const run = await plan([noEstimate, tooSoon, overdue, noDue]);
		expect(run.error).toBeUndefined();
		expect(json(run.items).map((item) => [item.title, item.action, item.start ?? item.reason])).toEqual([
			['No estimate', 'created', '2026-12-01T09:30:00+01:00'],
			['Due too soon', 'notPlaced', 'no free slot of 90 minutes before its due (2026-12-01 10:00) within the working hours 09:00–17:00'],
			['Overdue', 'notPlaced', 'its due (2026-11-30 17:00) is not after Not Before (2026-12-01 08:00)'],
			['No due date', 'created', '2026-12-01T10:30:00+01:00'],
		]);
		expect(json(run.items)[0].durationMinutes).toBe(60);
		expect(await blocksIn()).toHaveLength(2);
		// Default Length 0: a task without estimate is left out, with the reason; a given default is used.
		const zero = await plan([noEstimate], { defaultLengthMinutes: 0, preview: true });
		expect(json(zero.items)[0]).toMatchObject({ action: 'notPlaced', reason: 'the task has no estimated duration, and Default Length is 0' });
		const given = await plan([await task('Given', { estimatedDuration: undefined })], { defaultLengthMinutes: 25, preview: true });
		expect(json(given.items)[0]).toMatchObject({ action: 'create', durationMinutes: 25 });
	});

	it('Not After bounds every block; a task whose block is no longer free and finds no slot keeps it, with a notice', async () => {
		const id = await task('Squeezed');
		const [first] = json((await plan([id])).items);
		expect(first.start).toBe('2026-12-01T09:00:00+01:00');
		await sandbox.createEvent(timedEvent({ title: 'All morning', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-12-01T09:00:00', duration: 'PT2H' }));
		const run = await plan([id], { notAfter: '2026-12-01T12:00:00' });
		expect(json(run.items)[0]).toMatchObject({
			action: 'notPlaced',
			reason: 'no free slot of 90 minutes before Not After (2026-12-01 12:00) within the working hours 09:00–17:00',
			notices: [`Its block (event ${String(first.eventId)}, 2026-12-01 09:00) is no longer free and was left as it is`],
		});
		expect((await blocksIn()).map((event) => event.start)).toEqual(['2026-12-01T09:00:00']);
		const later = await plan([id], { notAfter: '2026-12-01T13:00:00' });
		expect(json(later.items)[0]).toMatchObject({ action: 'moved', start: '2026-12-01T11:00:00+01:00', eventId: first.eventId });
	});

	it('a block left as it is counts as busy for the tasks after it', async () => {
		// Without estimate, the task takes the Default Length: 90 minutes, then 240.
		const id = await task('Grown', { priority: 1, estimatedDuration: undefined });
		const [first] = json((await plan([id], { defaultLengthMinutes: 90 })).items);
		expect(first.start).toBe('2026-12-01T09:00:00+01:00');
		const small = await task('Small', { priority: 2, estimatedDuration: 'PT30M' });
		const run = json((await plan([id, small], { notAfter: '2026-12-01T12:00:00', defaultLengthMinutes: 240 })).items);
		expect(run.map((item) => [item.title, item.action, item.start ?? item.reason])).toEqual([
			['Grown', 'notPlaced', 'no free slot of 240 minutes before Not After (2026-12-01 12:00) within the working hours 09:00–17:00'],
			['Small', 'created', '2026-12-01T10:30:00+01:00'],
		]);
	});

	it('honours Any Time, working days and hours, round starts, all-day events and the checked calendars', async () => {
		const id = await task('Flexible', { estimatedDuration: 'PT50M' });
		await sandbox.createEvent(timedEvent({ title: 'Early', start: '2026-12-01T07:00:00', duration: 'PT2H10M' }));
		await sandbox.createEvent({ ...timedEvent({ title: 'Offsite', start: '2026-12-02T00:00:00', duration: 'P1D' }), timeZone: null, showWithoutTime: true });
		const at = async (parameters: Record<string, unknown>) => json((await plan([id], { preview: true, ...parameters })).items)[0].start;
		expect(await at({ workingHours: 'any', notBefore: '2026-12-01T06:00:00' })).toBe('2026-12-01T06:00:00+01:00');
		expect(await at({ workingHours: 'any', notBefore: '2026-12-01T06:20:00' })).toBe('2026-12-01T09:15:00+01:00');
		expect(await at({ workingHours: 'any', notBefore: '2026-12-01T06:20:00', options: { slotStep: 1 } })).toBe('2026-12-01T09:10:00+01:00');
		// Not on Tuesday, and the all-day event makes Wednesday busy, unless all-day events are ignored.
		expect(await at({ workingDays: [3, 4] })).toBe('2026-12-03T09:00:00+01:00');
		expect(await at({ workingDays: [3, 4], options: { allDayEvents: 'ignore' } })).toBe('2026-12-02T09:00:00+01:00');
		expect(await at({ workFrom: '14:30', workTo: '18:00' })).toBe('2026-12-01T14:30:00+01:00');
		// Events in a calendar not checked do not count; the blocks' own calendar always does.
		await sandbox.createEvent(timedEvent({ title: 'B only', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-12-01T09:10:00', duration: 'PT3H' }));
		expect(await at({})).toBe('2026-12-01T12:15:00+01:00');
		expect(await at({ checkCalendars: [], options: { unreadableCalendars: 'skip' } })).toBe('2026-12-01T12:15:00+01:00');
		expect(await at({ checkCalendars: [A] })).toBe('2026-12-01T09:15:00+01:00');
	});

	it('Open Tasks Matching Filters: the open tasks of the filters, once for the run, output in the plan\'s order', async () => {
		const low = await task('Low', { priority: 7, taskListId: 'work' });
		const high = await task('High', { priority: 2, taskListId: 'work' });
		await task('Other list', { priority: 1, taskListId: 'home' });
		await task('Done', { priority: 1, taskListId: 'work', progress: 'completed' });
		await sandbox.clearRequests();
		const run = await plan([], { tasksFrom: 'filters', filters: { taskListId: 'work' } }, { items: [{}, {}] });
		expect(run.error).toBeUndefined();
		expect(json(run.items).map((item) => [item.taskId, item.action, item.start])).toEqual([
			[high, 'created', '2026-12-01T09:00:00+01:00'],
			[low, 'created', '2026-12-01T10:30:00+01:00'],
		]);
		expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		expect((await sandbox.requests()).filter((request) => request.method === 'GET').map((request) => request.path)).toEqual([
			'/v3/tasks/list',
			'/v3/calendars/list',
			'/v3/events/list',
			'/v3/events/list',
			'/v3/events/list',
		]);
		const priorities = await plan([], { tasksFrom: 'filters', filters: { priorities: [1] }, preview: true }, { items: [{}] });
		expect(json(priorities.items).map((item) => item.title)).toEqual(['Other list']);
	});

	it('no task matching the filters: no output and no calendar read; an item whose Task IDs expression gives no ID is that item\'s error', async () => {
		await task('Elsewhere', { taskListId: 'home' });
		await sandbox.clearRequests();
		const none = await plan([], { tasksFrom: 'filters', filters: { taskListId: 'work' } }, { items: [{}] });
		expect([none.error, none.items]).toEqual([undefined, []]);
		expect((await sandbox.requests()).map((request) => request.path)).toEqual(['/v3/tasks/list']);
		const good = await task('Good');
		const run = await plan([], { taskIds: '={{ $json.ids ? $json.ids.join(",") : $json.other.toFixed(2).notAFunction() }}' }, { continueOnFail: true, items: [{ ids: [good] }, { other: 1 }] });
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => [item.pairedItem, (item.json as Json).action ?? 'error'])).toEqual([
			[{ item: 0 }, 'created'],
			[{ item: 1 }, 'error'],
		]);
		// The item whose expression gives no ID fails on its own; the other is planned.
		expect((run.items[1].json as Json).error).toBe('Task IDs: give at least one task ID');
	});

	it('ten or more task IDs are read with one list call; several IDs in one item; a task named twice is planned once', async () => {
		const ids: string[] = [];
		for (let index = 0; index < 11; index++) ids.push(await task(`Task ${index}`, { estimatedDuration: 'PT15M' }));
		await sandbox.clearRequests();
		const run = await plan([], {}, { items: [{ id: ids.slice(0, 6).join(', ') }, { id: ids.slice(6).join(',') }, { id: ids[0] }] });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(12);
		expect(run.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2]);
		expect(json(run.items)[11]).toEqual(json(run.items)[0]);
		const requests = await sandbox.requests();
		expect(requests.filter((request) => request.path.startsWith('/v3/tasks')).map((request) => request.path)).toEqual(['/v3/tasks/list']);
		expect(requests.filter((request) => request.method === 'POST')).toHaveLength(11);
		expect(await blocksIn()).toHaveLength(11);
	});

	it('ten or more task IDs, more than 100 open tasks sharing one updated value: what the list cannot reach is read by ID before a task is called unknown', async () => {
		await sandbox.control('limits', { points: 1000, windowSeconds: 900 });
		// One instant for all: the list pages by `updated` and cannot page past 100 tasks that share it.
		await sandbox.control('clock', { now: '2026-11-20T09:00:00.000Z' });
		const ids: string[] = [];
		for (let index = 0; index < 110; index++) ids.push(await task(`Same instant ${index}`, { estimatedDuration: 'PT15M' }));
		await sandbox.control('clock', { now: null });
		await sandbox.clearRequests();
		const run = await plan(ids, { preview: true, notAfter: '2026-12-31T18:00:00' });
		expect(run.error).toBeUndefined();
		expect(json(run.items).map((item) => item.taskId).sort()).toEqual([...ids].sort());
		const reads = (await sandbox.requests()).filter((request) => request.path.startsWith('/v3/tasks'));
		// 100 tasks, the same 100 again (no way past them), then the end of the list.
		expect(reads.filter((request) => request.path === '/v3/tasks/list')).toHaveLength(3);
		// The 10 the list could not reach, 1 point each.
		expect(reads.filter((request) => request.path === '/v3/tasks').map((request) => request.query.id).sort()).toEqual([...ids].sort().slice(100));
		// An ID no task has is still called unknown, now with the service's word for it.
		const unknown = await plan([...ids.slice(0, 9), 'no-such-task'], { preview: true });
		expect(unknown.error?.message).toBe('Task IDs: no task with ID "no-such-task" exists in this account');
	});

	it('fails naming the field before any request: time zone, dates, lengths, step, empty Task IDs', async () => {
		const id = await task('Any');
		await sandbox.clearRequests();
		const cases: Array<[Record<string, unknown>, string | RegExp]> = [
			[{ timeZone: 'CET' }, /^Time Zone: "CET" is not an IANA time zone/],
			[{ notBefore: 'tomorrow' }, 'Not Before: "tomorrow" is not a date and time'],
			[{ notAfter: 'soon' }, 'Not After: "soon" is not a date and time'],
			[{ notAfter: '2026-12-01T07:00:00' }, 'Not After: 2026-12-01 07:00 is not after Not Before (2026-12-01 08:00)'],
			[{ notAfter: '2027-07-01T07:00:00' }, 'Not After: must be at most 6 months after Not Before'],
			[{ defaultLengthMinutes: 1441 }, 'Default Length (Minutes): must be a whole number of minutes from 0 to 1440'],
			[{ options: { slotStep: 0 } }, 'Block Starts Every (Minutes): must be a whole number of minutes from 1 to 1440'],
			[{ workFrom: '9am' }, 'From: "9am" is not a time of day: use HH:mm, e.g. 09:00'],
			[{ taskIds: '  ' }, 'Task IDs: give at least one task ID'],
		];
		for (const [parameters, message] of cases) {
			const { error } = await plan([id], parameters);
			expect(error?.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
		}
		expect(await sandbox.requests()).toEqual([]);
	});

	it('fails naming the task and the calendar: unknown, completed or deleted tasks; a calendar not writable or not readable', async () => {
		const id = await task('Good');
		const done = await task('Finished', { progress: 'completed' });
		expect((await plan(['no-such-task'])).error?.message).toBe('Task IDs: no task with ID "no-such-task" exists in this account');
		expect((await plan([id, done])).error?.message).toBe('Task IDs: the task "Finished" is completed: there is nothing left to plan');
		const gone = await task('Gone');
		await sandbox.api('POST', '/v3/tasks/delete', { body: { id: gone } });
		expect((await plan([gone])).error?.message).toMatch(/^Task IDs: (the task "Gone" is deleted|no task with ID)/);
		const many = [id, ...(await Promise.all(Array.from({ length: 9 }, (_, index) => task(`More ${index}`))))];
		expect((await plan([...many, done])).error?.message).toBe(`Task IDs: no open task with ID "${done}": it is unknown, completed or deleted`);
		expect(await posts()).toEqual([]);
		expect((await plan([id], { calendarId: { mode: 'id', value: 'cal-alice-a-holidays' } })).error?.message).toBe('Calendar: the user may not write to "Holidays in Germany"');
		const expired = await plan([id], { checkCalendars: [A, 'acc-alice-expired/cal-alice-expired'] });
		expect(expired.error?.message).toMatch(/^Check Calendars: cannot read "Side Project" \(cal-alice-expired\)/);
		const skipped = await plan([id], { checkCalendars: [A, 'acc-alice-expired/cal-alice-expired'], options: { unreadableCalendars: 'skip' } });
		expect(json(skipped.items)[0]).toMatchObject({ action: 'created', notices: [expect.stringMatching(/^Skipped "Side Project" \(cal-alice-expired\): it cannot be read/)] });
		const own = await plan([id], { calendarId: { mode: 'id', value: 'cal-alice-expired' }, checkCalendars: [], options: { unreadableCalendars: 'skip' } });
		expect(own.error?.message).toBe('Calendar: cannot read "Side Project" (cal-alice-expired), so the blocks of the tasks cannot be looked for');
		expect(await blocksIn()).toHaveLength(1);
	});

	it('with Continue On Fail, an item that fails is one error item and the others are planned; a problem of the whole plan fails every item', async () => {
		const good = await task('Good');
		const { items, error } = await plan([], {}, { continueOnFail: true, items: [{ id: 'no-such-task' }, { id: good }, { id: '' }] });
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.pairedItem, (item.json as Json).error ?? (item.json as Json).action])).toEqual([
			[{ item: 0 }, 'Task IDs: no task with ID "no-such-task" exists in this account'],
			[{ item: 1 }, 'created'],
			[{ item: 2 }, 'Task IDs: give at least one task ID'],
		]);
		// A failed item's other task takes no time: the next task gets the slot it would have had.
		const [mixed, next] = [await task('With a bad ID', { priority: 1 }), await task('Next', { priority: 2 })];
		const partly = await plan([], {}, { continueOnFail: true, items: [{ id: `${mixed}, no-such-task` }, { id: next }] });
		expect(partly.items.map((item) => [item.pairedItem, (item.json as Json).error ?? (item.json as Json).start])).toEqual([
			[{ item: 0 }, 'Task IDs: no task with ID "no-such-task" exists in this account'],
			[{ item: 1 }, '2026-12-01T10:30:00+01:00'],
		]);
		const whole = await plan([good, good], { timeZone: 'Mars/Olympus' }, { continueOnFail: true });
		const wrongZone = expect.stringMatching(/^Time Zone: "Mars\/Olympus" is not an IANA time zone/);
		expect(whole.items.map((item) => [item.pairedItem, (item.json as Json).error])).toEqual([
			[{ item: 0 }, wrongZone],
			[{ item: 1 }, wrongZone],
		]);
		// Without it, nothing is written when one item names a task that cannot be planned.
		await sandbox.clearRequests();
		const stopped = await plan([good, 'no-such-task']);
		expect(stopped.error?.message).toBe('Task IDs: no task with ID "no-such-task" exists in this account');
		expect(await posts()).toEqual([]);
	});

	it.each([
		// Clocks skip 02:00–03:00: 90 minutes from 01:30 end at 04:00.
		['Europe/Berlin', '2026-03-29', 90, '2026-03-29T01:30:00+01:00', '2026-03-29T04:00:00+02:00'],
		// Clocks go back at 02:00: 60 minutes from 01:30 (summer time) end at 01:30 again (standard time).
		['America/New_York', '2026-11-01', 60, '2026-11-01T01:30:00-04:00', '2026-11-01T01:30:00-05:00'],
		// Clocks skip 02:00–02:30: 60 minutes from 01:45 end at 03:15.
		['Australia/Lord_Howe', '2026-10-04', 60, '2026-10-04T01:45:00+10:30', '2026-10-04T03:15:00+11:00'],
	])('on the daylight-saving day in %s the blocks last their real length and a re-run keeps them', async (zone, day, minutes, start, end) => {
		const busyUntil = start.slice(11, 16);
		await sandbox.createEvent(timedEvent({ title: 'Night shift', start: `${day}T00:00:00`, duration: `PT${Number(busyUntil.slice(0, 2)) * 60 + Number(busyUntil.slice(3))}M`, timeZone: zone }));
		const id = await task('Night work', { estimatedDuration: `PT${minutes}M`, timeZone: zone });
		const after = await task('After it', { estimatedDuration: 'PT15M', timeZone: zone });
		const parameters = { timeZone: zone, notBefore: `${day}T00:00:00`, workingDays: [7], workFrom: '00:00', workTo: '06:00' };
		const run = await plan([id, after], parameters);
		expect(run.error).toBeUndefined();
		expect(json(run.items).map((item) => [item.action, item.start, item.end, item.durationMinutes])).toEqual([
			['created', start, end, minutes],
			['created', end, expect.any(String), 15],
		]);
		await sandbox.clearRequests();
		const again = await plan([id, after], parameters);
		expect(json(again.items).map((item) => [item.action, item.start])).toEqual([
			['kept', start],
			['kept', end],
		]);
		expect(await posts()).toEqual([]);
	});
});

describe('Plan Tasks points: 20 tasks over calendars of 3 accounts', () => {
	const CHECKED = [A, B, 'acc-alice-c/cal-alice-c-home'];

	/** Points a run costs, from the service's RateLimit-Remaining before and after it (each probe costs 1). */
	async function pointsOf(run: () => Promise<unknown>): Promise<number> {
		const probe = async () => Number((await sandbox.api('GET', '/v3/tasks', { qs: { id: 'probe' } })).headers.get('ratelimit-remaining'));
		const before = await probe();
		await run();
		return before - (await probe()) - 1;
	}

	async function twentyTasks(): Promise<string[]> {
		await sandbox.control('limits', { points: 1000, windowSeconds: 900 });
		await sandbox.createEvent(timedEvent({ title: 'Standup', start: '2026-12-01T09:00:00', duration: 'PT30M' }));
		await sandbox.createEvent(timedEvent({ title: 'B', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-12-01T11:00:00', duration: 'PT1H' }));
		await sandbox.createEvent(timedEvent({ title: 'C', accountId: 'acc-alice-c', calendarId: 'cal-alice-c-home', start: '2026-12-01T14:00:00', duration: 'PT1H' }));
		const ids: string[] = [];
		for (let index = 0; index < 20; index++) ids.push(await task(`Task ${index}`, { estimatedDuration: 'PT30M', priority: (index % 9) + 1 }));
		await sandbox.clearRequests();
		return ids;
	}

	it('Plan Tasks costs the reads of one batch (tasks 10, calendar list 10, 3 accounts × 10) plus 1 per block written and 10 to read the new blocks again: 80', async () => {
		const ids = await twentyTasks();
		let run: Awaited<ReturnType<typeof plan>> | undefined;
		const points = await pointsOf(async () => (run = await plan(ids, { checkCalendars: CHECKED })));
		expect(run?.error).toBeUndefined();
		expect(json(run!.items).filter((item) => item.action === 'created')).toHaveLength(20);
		const logged = (await sandbox.requests()).filter((request) => request.query.id !== 'probe');
		expect(points).toBe(logged.reduce((sum, request) => sum + request.points, 0));
		expect(points).toBe(10 + 10 + 3 * 10 + 20 + 10);
		// Run again: the reads alone, nothing written.
		expect(await pointsOf(async () => await plan(ids, { checkCalendars: CHECKED }))).toBe(10 + 3 * 10);
	});

	it('20 × Schedule in Calendar over the same calendars costs a task read, the calendars of 3 accounts, a write and a read of the new block per item: 850', async () => {
		const ids = await twentyTasks();
		let run: Awaited<ReturnType<typeof plan>> | undefined;
		const points = await pointsOf(async () => {
			run = await engine.runNode({
				type: 'ctsTask',
				parameters: {
					resource: 'task',
					operation: 'schedule',
					taskId: { mode: 'id', value: '={{ $json.id }}' },
					calendarId: { mode: 'list', value: A },
					checkCalendars: CHECKED,
					timeZone: 'Europe/Berlin',
					notBefore: '2026-12-01T08:00:00',
				},
				items: ids.map((id) => ({ id })),
				credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
			});
		});
		expect(run?.error).toBeUndefined();
		expect(run!.items).toHaveLength(20);
		// The calendar list is read once and reused within the minute.
		expect(points).toBe(10 + 20 * (1 + 3 * 10 + 1 + 10));
	});
});
