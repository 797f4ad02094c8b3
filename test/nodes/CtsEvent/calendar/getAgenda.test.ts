/**
 * Calendar → Get Agenda of the CTS Event node, run by n8n's real engine against the sandbox over
 * HTTP: events of the chosen calendars (series as occurrences, all-day first, declined left out,
 * free marked), open tasks due and overdue, time blocks shown once with their task, the Digest,
 * days on which the clocks change, every option and every error. What the node asked is read
 * from the sandbox's request log.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { CtsEvent } from '../../../../nodes/CtsEvent/CtsEvent.node';
import { AlteringProxy } from '../../../harness/alteringProxy';
import { asTool, Engine, type NodeRunOptions } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent() });

sandboxWithFreshLists(sandbox);

const A = 'acc-alice-a/cal-alice-a-primary';
const TEAM = 'acc-alice-a/cal-alice-a-team';
const B = 'acc-alice-b/cal-alice-b-primary';
const EXPIRED = 'acc-alice-expired/cal-alice-expired';

function run(parameters: Record<string, unknown>, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsEvent',
		parameters: { resource: 'calendar', operation: 'getAgenda', calendars: [A, TEAM, B], timeZone: 'Europe/Berlin', day: '2026-12-01', ...parameters },
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

const create = async (fields: Record<string, unknown>) => await sandbox.createEvent(timedEvent(fields));
const allDay = async (fields: Record<string, unknown>) =>
	await sandbox.createEvent(timedEvent({ showWithoutTime: true, start: '2026-12-01T00:00:00', duration: 'P1D', timeZone: null, ...fields }));
const task = async (fields: Record<string, unknown>) => await sandbox.createTask({ title: 'Task', timeZone: 'Europe/Berlin', ...fields });
const DECLINED = { participants: { 'alice@sandbox.example': { email: 'alice@sandbox.example', participationStatus: 'declined' } } };

/** Entries as "kind start–end title" with local times, for readable comparisons. */
function lines(items: Array<{ json: Record<string, unknown> }>) {
	return items.map(({ json }) => `${String(json.kind)} ${String(json.start).slice(5, 16)}${json.end ? `–${String(json.end).slice(11, 16)}` : ''} ${String(json.title)}`);
}

describe('Get Agenda: entries', () => {
	it('lists a day of events across accounts in time order, all-day first, with offsets in the zone; one list call per account', async () => {
		await create({ title: 'Standup', start: '2026-12-01T09:00:00', duration: 'PT15M' });
		const review = await create({ title: 'Review', calendarId: 'cal-alice-a-team', start: '2026-12-01T14:00:00', duration: 'PT1H' });
		await create({ title: 'London call', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-12-01T10:00:00', duration: 'PT30M', timeZone: 'Europe/London' });
		await allDay({ title: 'Conference' });
		await create({ title: 'Yesterday', start: '2026-11-30T09:00:00' });
		await create({ title: 'Late night', start: '2026-12-01T23:30:00', duration: 'PT1H' });
		await sandbox.clearRequests();
		const { items, error } = await run({ includeTasks: false });
		expect(error).toBeUndefined();
		expect(lines(items)).toEqual([
			'event 12-01T00:00–00:00 Conference',
			'event 12-01T09:00–09:15 Standup',
			'event 12-01T11:00–11:30 London call',
			'event 12-01T14:00–15:00 Review',
			'event 12-01T23:30–00:30 Late night',
		]);
		expect(items[3].json).toEqual({
			kind: 'event',
			title: 'Review',
			start: '2026-12-01T14:00:00+01:00',
			end: '2026-12-01T15:00:00+01:00',
			allDay: false,
			timeZone: 'Europe/Berlin',
			calendarId: 'cal-alice-a-team',
			calendarName: 'Team Platform',
			accountId: 'acc-alice-a',
			eventId: review.id,
		});
		expect(items[0].json).toMatchObject({ allDay: true, start: '2026-12-01T00:00:00+01:00', end: '2026-12-02T00:00:00+01:00', calendarName: 'Personal' });
		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.path} ${request.query.accountId ?? ''}`)).toEqual(['/v3/calendars/list ', '/v3/events/list acc-alice-a', '/v3/events/list acc-alice-b']);
	});

	it('shows a series as its occurrences on the day, leaves declined invitations and deleted occurrences out, and marks free events', async () => {
		const series = await create({ title: 'Daily', start: '2026-11-29T08:00:00', duration: 'PT30M', recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', count: 5 }] });
		await create({ title: 'Declined', start: '2026-12-01T12:00:00', ...DECLINED });
		await create({ title: 'Focus (free)', start: '2026-12-01T13:00:00', freeBusyStatus: 'free' });
		const { items, error } = await run({ includeTasks: false });
		expect(error).toBeUndefined();
		expect(lines(items)).toEqual(['event 12-01T08:00–08:30 Daily', 'event 12-01T13:00–14:00 Focus (free)']);
		expect(items[0].json).toMatchObject({ masterEventId: series.id });
		expect(items[0].json.eventId).not.toBe(series.id);
		expect(items[1].json).toMatchObject({ free: true });
		const declined = await run({ includeTasks: false, options: { includeDeclined: true } });
		expect(lines(declined.items)).toEqual(['event 12-01T08:00–08:30 Daily', 'event 12-01T12:00–13:00 Declined', 'event 12-01T13:00–14:00 Focus (free)']);
		expect(declined.items[1].json).toMatchObject({ declined: true });
	});

	it('adds open tasks due on the day (not those without due, due another day or completed), and overdue ones first when asked', async () => {
		await create({ title: 'Standup', start: '2026-12-01T09:00:00' });
		const due = await task({ title: 'Send report', due: '2026-12-01T17:00:00', priority: 1, estimatedDuration: 'PT30M' });
		await task({ title: 'No due date' });
		await task({ title: 'Next week', due: '2026-12-08T17:00:00' });
		const overdue = await task({ title: 'Pay invoice', due: '2026-11-20T12:00:00', timeZone: 'America/New_York' });
		const done = await task({ title: 'Done already', due: '2026-12-01T10:00:00' });
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: done } });
		await sandbox.clearRequests();
		const { items, error } = await run({});
		expect(error).toBeUndefined();
		expect(lines(items)).toEqual(['event 12-01T09:00–10:00 Standup', 'task 12-01T17:00 Send report']);
		expect(items[1].json).toEqual({
			kind: 'task',
			title: 'Send report',
			start: '2026-12-01T17:00:00+01:00',
			allDay: false,
			timeZone: 'Europe/Berlin',
			taskId: due,
			due: '2026-12-01T17:00:00+01:00',
			priority: 1,
			progress: 'needs-action',
			estimatedDuration: 'PT30M',
			taskListId: 'default',
		});
		expect((await sandbox.requests()).filter((request) => request.path === '/v3/tasks/list')).toHaveLength(1);
		const withOverdue = await run({ options: { includeOverdue: true } });
		expect(lines(withOverdue.items)).toEqual(['task 11-20T18:00 Pay invoice', 'event 12-01T09:00–10:00 Standup', 'task 12-01T17:00 Send report']);
		expect(withOverdue.items[0].json).toMatchObject({ taskId: overdue, overdue: true, due: '2026-11-20T18:00:00+01:00' });
	});

	it('shows a time block once, with its task (found by the marker line or the service\'s link), and not the task again at its due time', async () => {
		const write = await task({ title: 'Write spec', due: '2026-12-01T18:00:00', priority: 2, estimatedDuration: 'PT90M' });
		const linked = await task({ title: 'Plan sprint' });
		const closed = await task({ title: 'Closed task' });
		await create({ title: 'Write spec', start: '2026-12-01T10:00:00', duration: 'PT90M', description: `Time blocked for the task Write spec.\n\nTask ID: ${write}` });
		const serviceBlock = await create({ title: 'Plan sprint', start: '2026-12-01T15:00:00' });
		await sandbox.control('events/link-task', { user: 'alice', eventId: serviceBlock.id, taskId: linked });
		await create({ title: 'Closed task', start: '2026-12-01T16:00:00', description: `Task ID: ${closed}` });
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: closed } });
		const { items, error } = await run({});
		expect(error).toBeUndefined();
		expect(lines(items)).toEqual(['timeBlock 12-01T10:00–11:30 Write spec', 'timeBlock 12-01T15:00–16:00 Plan sprint', 'timeBlock 12-01T16:00–17:00 Closed task']);
		expect(items[0].json).toMatchObject({ kind: 'timeBlock', taskId: write, due: '2026-12-01T18:00:00+01:00', priority: 2, progress: 'needs-action', calendarName: 'Personal' });
		expect(items[1].json).toMatchObject({ taskId: linked, due: null, eventId: serviceBlock.id });
		expect(items[2].json).toMatchObject({ taskId: closed, taskOpen: false });
		// Without tasks: no task list read; blocks still known by their marker, without task fields.
		await sandbox.clearRequests();
		const withoutTasks = await run({ includeTasks: false });
		expect(withoutTasks.items[0].json).toMatchObject({ kind: 'timeBlock', taskId: write, title: 'Write spec' });
		expect(withoutTasks.items[0].json).not.toHaveProperty('priority');
		expect(withoutTasks.items[2].json).not.toHaveProperty('taskOpen');
		expect((await sandbox.requests()).map((request) => request.path)).not.toContain('/v3/tasks/list');
	});

	it('shows an event listed once per account (a shared calendar) once: the same uid and occurrence', async () => {
		await create({ title: 'All hands', start: '2026-12-01T16:00:00' });
		await create({ title: 'All hands', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-12-01T16:00:00' });
		await create({ title: 'Other', start: '2026-12-01T17:00:00' });
		// The sandbox gives every event its own uid (read-only): the proxy makes the two copies share one, as a shared calendar's do.
		const proxy = new AlteringProxy(sandbox.url, (_method, path, answer) => {
			if (path !== '/v3/events/list') return answer;
			const body = JSON.parse(answer.body.toString());
			for (const event of body.data.events) if (event.title === 'All hands') event.uid = 'all-hands@example.com';
			return { ...answer, body: Buffer.from(JSON.stringify(body)) };
		});
		await proxy.start();
		try {
			const { items } = await run({ includeTasks: false }, { credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: proxy.url } } });
			expect(lines(items)).toEqual(['event 12-01T16:00–17:00 All hands', 'event 12-01T17:00–18:00 Other']);
		} finally {
			await proxy.stop();
		}
		const direct = await run({ includeTasks: false });
		expect(lines(direct.items)).toEqual(['event 12-01T16:00–17:00 All hands', 'event 12-01T16:00–17:00 All hands', 'event 12-01T17:00–18:00 Other']);
	});

	it('defaults to today in the workflow\'s time zone', async () => {
		const today = DateTime.now().setZone('Asia/Tokyo').toISODate();
		await create({ title: 'Today in Tokyo', start: `${today}T12:00:00`, timeZone: 'Asia/Tokyo' });
		const { items, error } = await run({ day: '', timeZone: '', includeTasks: false }, { timezone: 'Asia/Tokyo' });
		expect(error).toBeUndefined();
		expect(items.map(({ json }) => json.start)).toEqual([`${today}T12:00:00+09:00`]);
	});

	it('takes a range and groups nothing away: entries of several days in order, each day\'s all-day events first', async () => {
		await allDay({ title: 'Trip', start: '2026-12-02T00:00:00', duration: 'P2D' });
		await create({ title: 'Tuesday', start: '2026-12-01T09:00:00' });
		await create({ title: 'Wednesday', start: '2026-12-02T08:00:00' });
		await create({ title: 'Thursday', start: '2026-12-03T07:00:00' });
		const { items, error } = await run({ agendaPeriod: 'range', start: '2026-12-01T00:00:00', end: '2026-12-04T00:00:00', includeTasks: false });
		expect(error).toBeUndefined();
		expect(lines(items)).toEqual(['event 12-01T09:00–10:00 Tuesday', 'event 12-02T00:00–00:00 Trip', 'event 12-02T08:00–09:00 Wednesday', 'event 12-03T07:00–08:00 Thursday']);
	});

	it('outputs one item with a notice when there is nothing', async () => {
		const { items } = await run({});
		expect(items.map(({ json }) => json)).toEqual([{ notices: ['Nothing on the agenda between 2026-12-01 00:00 and 2026-12-02 00:00 (Europe/Berlin)'] }]);
	});
});

describe('Get Agenda: days on which the clocks change', () => {
	it('Berlin, 27 October 2030 (25 hours): offsets change within the day; the day ends at midnight +01:00', async () => {
		await create({ title: 'Before', start: '2030-10-27T01:30:00' });
		await create({ title: 'After', start: '2030-10-27T03:30:00' });
		await create({ title: 'Late', start: '2030-10-27T23:30:00', duration: 'PT30M' });
		await allDay({ title: 'Sunday', start: '2030-10-27T00:00:00' });
		const { items } = await run({ day: '2030-10-27', includeTasks: false });
		expect(items.map(({ json }) => `${String(json.start)} ${String(json.end)}`)).toEqual([
			'2030-10-27T00:00:00+02:00 2030-10-28T00:00:00+01:00',
			'2030-10-27T01:30:00+02:00 2030-10-27T02:30:00+02:00',
			'2030-10-27T03:30:00+01:00 2030-10-27T04:30:00+01:00',
			'2030-10-27T23:30:00+01:00 2030-10-28T00:00:00+01:00',
		]);
		const summary = await run({ day: '2030-10-27', includeTasks: false, agendaOutput: 'digest', workingHours: 'any', options: { allDayEvents: 'ignore' } });
		// 25 hours less three hours of events.
		expect(summary.items[0].json.freeMinutes).toBe(25 * 60 - 150);
	});

	it('New York, 10 March 2030 (23 hours): a 02:30 start that the clocks skip is read as 03:30, as the service reads it', async () => {
		await create({ title: 'Skipped time', start: '2030-03-10T02:30:00', duration: 'PT30M', timeZone: 'America/New_York' });
		await create({ title: 'Evening', start: '2030-03-10T20:00:00', timeZone: 'America/New_York' });
		const { items } = await run({ day: '2030-03-10', timeZone: 'America/New_York', includeTasks: false, agendaOutput: 'digest', workingHours: 'any' });
		expect((items[0].json.entries as Array<Record<string, unknown>>).map((entry) => entry.start)).toEqual(['2030-03-10T03:30:00-04:00', '2030-03-10T20:00:00-04:00']);
		expect(items[0].json).toMatchObject({ start: '2030-03-10T00:00:00-05:00', end: '2030-03-11T00:00:00-04:00', freeMinutes: 23 * 60 - 90 });
	});

	it('Lord Howe, 6 October 2030 (23.5 hours, a 30-minute change): times and free time in the zone', async () => {
		await create({ title: 'Morning', start: '2030-10-06T09:00:00', timeZone: 'Australia/Lord_Howe' });
		const due = await task({ title: 'Due at night', due: '2030-10-06T23:45:00', timeZone: 'Australia/Lord_Howe' });
		const { items } = await run({ day: '2030-10-06', timeZone: 'Australia/Lord_Howe', agendaOutput: 'digest', workingHours: 'hours', workFrom: '00:00', workTo: '24:00', workingDays: [1, 2, 3, 4, 5, 6, 7] });
		const json = items[0].json as Record<string, any>;
		expect(json.entries.map((entry: Record<string, unknown>) => `${String(entry.kind)} ${String(entry.start)}`)).toEqual(['event 2030-10-06T09:00:00+11:00', 'task 2030-10-06T23:45:00+11:00']);
		expect(json.entries[1].taskId).toBe(due);
		expect(json.start).toBe('2030-10-06T00:00:00+10:30');
		expect(json.freeMinutes).toBe(23 * 60 + 30 - 60);
	});
});

describe('Get Agenda: Digest', () => {
	it('one item: Markdown text for chat, an HTML table for e-mail (titles escaped), counts and the free time left in working hours', async () => {
		await allDay({ title: 'Company day', start: '2030-12-03T00:00:00' });
		await create({ title: 'Standup', start: '2030-12-03T09:00:00', duration: 'PT30M' });
		await create({ title: 'Lunch <with> Bob & co', start: '2030-12-03T12:00:00', freeBusyStatus: 'free' });
		const block = await task({ title: 'Write spec', priority: 2 });
		await create({ title: 'Write spec', start: '2030-12-03T14:00:00', duration: 'PT2H', description: `Task ID: ${block}` });
		await task({ title: 'Send report', due: '2030-12-03T17:00:00' });
		await task({ title: 'Old one', due: '2026-11-01T09:00:00' });
		const { items, error } = await run({ day: '2030-12-03', agendaOutput: 'digest', options: { includeOverdue: true, allDayEvents: 'ignore' } });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const json = items[0].json as Record<string, any>;
		expect(json.counts).toEqual({ events: 3, allDayEvents: 1, timeBlocks: 1, tasksDue: 1, overdueTasks: 1 });
		// 09:00–17:00 less Standup (30 min) and the block (2 h); the free lunch does not count.
		expect(json.freeMinutes).toBe(8 * 60 - 150);
		expect(json.freeSlots).toEqual([
			{ start: '2030-12-03T09:30:00+01:00', end: '2030-12-03T14:00:00+01:00' },
			{ start: '2030-12-03T16:00:00+01:00', end: '2030-12-03T17:00:00+01:00' },
		]);
		expect(json.text).toBe(
			[
				'*Agenda for Tuesday, 3 December 2030* (Europe/Berlin)',
				'',
				'*Overdue*',
				'• due 1 Nov 09:00  Old one — task',
				'• All day  Company day _(Personal)_',
				'• 09:00–09:30  Standup _(Personal)_',
				'• 12:00–13:00  Lunch <with> Bob & co _(Personal)_ — free',
				'• 14:00–16:00  Write spec _(Personal)_ — time block, priority 2',
				'• 17:00 due  Send report — task',
				'',
				'3 events · 1 time block · 1 task due · 1 overdue. Free time left in working hours (09:00–17:00): 5 h 30 min.',
			].join('\n'),
		);
		expect(json.html).toContain('<td style="padding:4px 8px;border-bottom:1px solid #ddd">Lunch &lt;with&gt; Bob &amp; co</td>');
		expect(json.html).toContain('<h3>Agenda for Tuesday, 3 December 2030 (Europe/Berlin)</h3>');
		expect(json.entries).toHaveLength(6);
	});

	it('counts the free time left: today from now on', async () => {
		const zone = 'Europe/Berlin';
		const { items } = await run({ day: '', agendaOutput: 'digest', workingHours: 'any', includeTasks: false });
		const after = Date.now();
		const endOfDay = DateTime.now().setZone(zone).plus({ days: 1 }).startOf('day').toMillis();
		const left = Number(items[0].json.freeMinutes);
		// Counted from the minute the node ran in, which lies between the test's start and `after`.
		expect(left).toBeLessThanOrEqual(Math.ceil((endOfDay - after) / 60_000) + 2);
		expect(left).toBeGreaterThanOrEqual(Math.floor((endOfDay - after) / 60_000) - 2);
		expect((items[0].json.freeSlots as Array<{ end: string }>).at(-1)?.end).toBe(DateTime.fromMillis(endOfDay, { zone }).toISO({ suppressMilliseconds: true }));
	});

	it('the example morning briefing\'s Get Agenda node gives one Digest of today, overdue tasks included', async () => {
		// scripts/examples.mjs is an ES module: read the workflow in a child process.
		const script = "import { exampleWorkflows } from './scripts/examples.mjs'; const c = { id: '1', name: 'c', type: 'ctsApi' }; process.stdout.write(JSON.stringify(exampleWorkflows('p', { api: c, sync: c }, { tasksCsv: '/tmp/tasks.csv', tasksTable: { id: 't', name: 't' } })));";
		const workflows = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: join(__dirname, '../../../..'), encoding: 'utf8' })) as Array<{ name: string; nodes: Array<{ name: string; type: string; parameters: IDataObject }>; connections: Record<string, unknown> }>;
		const briefing = workflows.find((workflow) => workflow.name === 'CTS example: morning briefing')!;
		expect(briefing.nodes.map((node) => node.type).filter((type) => type !== 'n8n-nodes-base.stickyNote')).toEqual(['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.manualTrigger', 'p.ctsEvent', 'n8n-nodes-base.noOp']);
		const node = briefing.nodes.find((candidate) => candidate.type === 'p.ctsEvent')!;
		const today = DateTime.now().setZone('Europe/Berlin').toISODate();
		await create({ title: 'Standup', start: `${today}T23:00:00` });
		await task({ title: 'Late already', due: '2026-01-05T09:00:00' });
		const { items, error } = await engine.runNode({ type: 'ctsEvent', parameters: node.parameters, credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } }, timezone: 'Europe/Berlin' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.counts).toMatchObject({ events: 1, overdueTasks: 1 });
		expect(String(items[0].json.text)).toContain('Standup');
		// Every readable calendar, the expired and revoked ones skipped with one notice.
		expect(items[0].json.notices).toEqual([expect.stringMatching(/^Skipped 2 calendars that cannot be read/)]);
	});

	it('over a range: a heading per day; nothing left when the period is over', async () => {
		await create({ title: 'Past', start: '2026-01-05T09:00:00' });
		const { items } = await run({ agendaOutput: 'digest', agendaPeriod: 'range', start: '2026-01-05T00:00:00', end: '2026-01-07T00:00:00', includeTasks: false });
		const json = items[0].json as Record<string, any>;
		expect(json.text.split('\n').slice(0, 4)).toEqual(['*Agenda 5 January 2026 – 6 January 2026* (Europe/Berlin)', '', '*Monday, 5 January 2026*', '• 09:00–10:00  Past _(Personal)_']);
		expect(json.freeMinutes).toBe(0);
		expect(json.freeSlots).toEqual([]);
	});

	it('a weekend without working hours says so instead of 0 minutes left; a working day that is over says 0 min; Any Time counts the whole period', async () => {
		const weekend = await run({ agendaOutput: 'digest', agendaPeriod: 'range', start: '2026-01-10T00:00:00', end: '2026-01-12T00:00:00', includeTasks: false });
		const summary = (result: typeof weekend) => String(result.items[0].json.text).split('\n').pop();
		expect(summary(weekend)).toBe('0 events · 0 time blocks · 0 tasks due. No working hours in the period.');
		const sunday = await run({ agendaOutput: 'digest', day: '2026-01-11', includeTasks: false });
		expect(summary(sunday)).toBe('0 events · 0 time blocks · 0 tasks due. No working hours on this day.');
		const monday = await run({ agendaOutput: 'digest', day: '2026-01-12', includeTasks: false });
		expect(summary(monday)).toBe('0 events · 0 time blocks · 0 tasks due. Free time left in working hours (09:00–17:00): 0 min.');
		const anyTime = await run({ agendaOutput: 'digest', day: '2026-01-11', includeTasks: false, workingHours: 'any' });
		expect(summary(anyTime)).toBe('0 events · 0 time blocks · 0 tasks due. Free time left in the period: 0 min.');
	});

	it('names the calendars left out in the text and the HTML, and says so once in notices', async () => {
		const { items, error } = await run({ agendaOutput: 'digest', day: '2026-01-12', includeTasks: false, calendars: [A, EXPIRED], options: { unreadableCalendars: 'skip' } });
		expect(error).toBeUndefined();
		const json = items[0].json as Record<string, any>;
		expect(json.text.split('\n').pop()).toBe('Not included (this calendar cannot be read): Side Project.');
		expect(json.html).toContain('<p>Not included (this calendar cannot be read): Side Project.</p>');
		expect(json.notices).toEqual([expect.stringMatching(/^Skipped "Side Project" \(cal-alice-expired\): it cannot be read, so its events are not included\./)]);
	});
});

describe('Get Agenda as a tool', () => {
	const tools = new Engine({ ctsEventTool: asTool(new CtsEvent()) });
	const toolNode = new CtsEvent();
	const toolField = (name: string) => toolNode.description.properties.find((property) => property.name === name && property.displayOptions?.show?.['@tool']?.[0] === true && (property.displayOptions.show.operation as string[]).includes('getAgenda'));

	it('the model gives the day and the time zone (both optional: empty is today in the workflow\'s zone)', async () => {
		await create({ title: 'Standup', start: '2026-12-01T09:00:00' });
		const parameters = { resource: 'calendar', operation: 'getAgenda', calendars: [A], day: toolField('day')?.default, timeZone: toolField('timeZone')?.default, includeTasks: false };
		expect(parameters.day).toMatch(/^=\{\{ .*\$fromAI\('Day', `The day to show, e\.g\. 2026-12-01/);
		const { items, error } = await tools.runNode({ type: 'ctsEventTool', parameters, items: [{ Day: '2026-12-01', Time_Zone: 'America/New_York' }], credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });
		expect(error).toBeUndefined();
		expect(items.map(({ json }) => json.start)).toEqual(['2026-12-01T03:00:00-05:00']);
		const wrong = await tools.runNode({ type: 'ctsEventTool', parameters, items: [{ Day: 'next Tuesday', Time_Zone: '' }], credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });
		expect(wrong.error?.message).toBe('Day: "next Tuesday" is not a date');
	});
});

describe('Get Agenda: errors and cost', () => {
	it.each([
		['a zone that is not an IANA zone', { timeZone: 'CET' }, 'Time Zone: "CET" is not an IANA time zone'],
		['a day that is not a date', { day: 'someday' }, 'Day: "someday" is not a date'],
		['an end before the start', { agendaPeriod: 'range', start: '2026-12-02T00:00:00', end: '2026-12-01T00:00:00' }, 'End: must be after Start'],
		['a range over 31 days', { agendaPeriod: 'range', start: '2026-12-01T00:00:00', end: '2027-01-01T00:01:00' }, 'End: must be at most 31 days after Start'],
		['a start that is not a date', { agendaPeriod: 'range', start: 'soon' }, 'Start: "soon" is not a date and time'],
		['working hours that end before they start', { agendaOutput: 'digest', workFrom: '17:00', workTo: '09:00' }, 'To: 09:00 is not after From (17:00)'],
	])('refuses %s before any request, naming the field', async (_case, parameters, message) => {
		const { error } = await run(parameters);
		expect(error?.message).toContain(message);
		expect(await sandbox.requests()).toEqual([]);
	});

	it('refuses a calendar ID that no account has, after reading the calendar list', async () => {
		const { error } = await run({ calendars: 'cal-nobody' });
		expect(error?.message).toBe('Calendars: no calendar with ID "cal-nobody" in the accounts of this credential');
	});

	it('reads every readable calendar by default and skips one that cannot be read with a notice; fails on it when asked', async () => {
		await create({ title: 'Home', accountId: 'acc-alice-c', calendarId: 'cal-alice-c-home', start: '2026-12-01T19:00:00' });
		await sandbox.clearRequests();
		const { items, error } = await run({ calendars: [] });
		expect(error).toBeUndefined();
		expect(lines(items)).toEqual(['event 12-01T19:00–20:00 Home']);
		expect(items[0].json.notices).toEqual([
			expect.stringMatching(/^Skipped 2 calendars that cannot be read, so their events are not included\. "Side Project" \(cal-alice-expired\).*"Former Employer" \(cal-alice-revoked\)/),
		]);
		// The accounts list marks both as needing reconnection: only the three working accounts are read.
		const paths = (await sandbox.requests()).map((request) => `${request.path} ${request.points}`);
		expect(paths.filter((path) => path.startsWith('/v3/events/list'))).toHaveLength(3);
		const failed = await run({ calendars: [A, EXPIRED], options: { unreadableCalendars: 'fail' } });
		expect(failed.error?.message).toMatch(/^Calendars: cannot read "Side Project" \(cal-alice-expired\)/);
	});

	it('costs the calendar list, one list call per account and one per 100 open tasks (10 points each)', async () => {
		for (let index = 0; index < 101; index++) await task({ title: `Task ${index}` });
		await sandbox.clearRequests();
		const { error } = await run({ calendars: [A, B] });
		expect(error).toBeUndefined();
		expect((await sandbox.requests()).map((request) => `${request.path} ${request.points}`)).toEqual([
			'/v3/calendars/list 10',
			'/v3/events/list 10',
			'/v3/events/list 10',
			'/v3/tasks/list 10',
			'/v3/tasks/list 10',
		]);
	});

	it('with Continue On Fail, outputs one error item per failed input item and the agenda of the others', async () => {
		await create({ title: 'Standup', start: '2026-12-01T09:00:00' });
		const { items, error } = await run({ day: '={{ $json.day }}', includeTasks: false }, { continueOnFail: true, items: [{ day: '2026-12-01' }, { day: 'never' }] });
		expect(error).toBeUndefined();
		expect(items.filter((item) => (item.pairedItem as { item: number }).item === 0).map(({ json }) => json.title)).toEqual(['Standup']);
		const failed = items.filter((item) => (item.pairedItem as { item: number }).item === 1);
		expect(failed).toHaveLength(1);
		expect(failed[0].json.error).toContain('Day: "never" is not a date');
	});
});
