/**
 * The Task and Event nodes with values as an AI agent fills them in (`$fromAI` placeholders of
 * the example MCP workflow, resolved): IDs in "By ID" fields (or in a field the editor left in
 * "From List" mode), optional values given as empty strings, e-mail addresses as one text,
 * times with or without offset, and mistakes an agent makes. Run through n8n's real engine
 * against the sandbox; bad input must be refused before any request, naming the field.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { DATE_TIME_HINT } from '../../nodes/shared/time/dates';
import { asTool, Engine } from '../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1(), ctsTask: new CtsTask() });
const apiKey = () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

const apiCalls = async () => (await sandbox.requests()).filter((call) => !call.path.startsWith('/_sandbox'));
const runEvent = (parameters: IDataObject) =>
	engine.runNode({ type: 'ctsEvent', parameters: { resource: 'event', ...parameters }, credentials: apiKey(), timezone: 'UTC' });

/** What the example's create_event tool sends when the agent gives only the required values. */
const createEvent = (values: IDataObject = {}) =>
	runEvent({
		operation: 'create',
		calendarId: byId('cal-alice-a-primary'),
		title: 'Planning',
		start: '2026-12-01T09:00:00',
		endMode: 'end',
		end: '2026-12-01T10:00:00',
		timeZone: 'Europe/Berlin',
		additionalFields: { description: '', attendees: '', requestVirtualRoom: undefined },
		...values,
	});

describe('create event with values an agent fills in', () => {
	it('a calendar ID alone is enough (the account is looked up), and empty optional values send nothing', async () => {
		const { items, error } = await createEvent();
		expect(error).toBeUndefined();
		const create = (await apiCalls()).find((call) => call.path === '/v3/events/create');
		expect(create?.body).toEqual({
			accountId: 'acc-alice-a',
			calendarId: 'cal-alice-a-primary',
			title: 'Planning',
			start: '2026-12-01T09:00:00',
			duration: 'PT1H',
			timeZone: 'Europe/Berlin',
			showWithoutTime: false,
		});
		// The simplified event: flat, with the IDs a follow-up call needs.
		expect(items[0].json).toMatchObject({
			title: 'Planning',
			start: '2026-12-01T09:00:00+01:00',
			end: '2026-12-01T10:00:00+01:00',
			timeZone: 'Europe/Berlin',
			calendarId: 'cal-alice-a-primary',
			accountId: 'acc-alice-a',
		});
		expect(typeof items[0].json.id).toBe('string');
	});

	it('a calendar ID in a Calendar field left in "From List" mode is still found', async () => {
		const { error } = await createEvent({ calendarId: { __rl: true, mode: 'list', value: 'cal-alice-a-team' } });
		expect(error).toBeUndefined();
		const create = (await apiCalls()).find((call) => call.path === '/v3/events/create');
		expect(create?.body).toMatchObject({ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' });
	});

	it('attendees as one text of e-mail addresses become participants; the video room gives a meeting URL', async () => {
		const { items, error } = await createEvent({
			additionalFields: { attendees: ' ann@example.com,bob@example.com ,', requestVirtualRoom: 'default' },
		});
		expect(error).toBeUndefined();
		const create = (await apiCalls()).find((call) => call.path === '/v3/events/create');
		expect((create?.body as IDataObject | undefined)?.participants).toEqual({
			[base64('ann@example.com')]: { '@type': 'Participant', email: 'ann@example.com', roles: { attendee: true } },
			[base64('bob@example.com')]: { '@type': 'Participant', email: 'bob@example.com', roles: { attendee: true } },
		});
		expect(items[0].json.participants).toEqual([
			{ email: 'ann@example.com', status: 'needs-action', roles: ['attendee'], accountOwner: false },
			{ email: 'bob@example.com', status: 'needs-action', roles: ['attendee'], accountOwner: false },
		]);
		expect(items[0].json.meetingUrl).toMatch(/^https:\/\//);
	});

	it('attendees separated by semicolons or lines, written "Name <address>" (a quoted name may hold a comma), keep their names', async () => {
		const { error } = await createEvent({
			additionalFields: { attendees: 'Carol <carol@example.com>; dave@example.com\n"Doe, Jane" <jane@example.com>' },
		});
		expect(error).toBeUndefined();
		const create = (await apiCalls()).find((call) => call.path === '/v3/events/create');
		expect((create?.body as IDataObject | undefined)?.participants).toEqual({
			[base64('carol@example.com')]: { '@type': 'Participant', email: 'carol@example.com', name: 'Carol', roles: { attendee: true } },
			[base64('dave@example.com')]: { '@type': 'Participant', email: 'dave@example.com', roles: { attendee: true } },
			[base64('jane@example.com')]: { '@type': 'Participant', email: 'jane@example.com', name: 'Doe, Jane', roles: { attendee: true } },
		});
	});

	it('dates without a time make an all-day event (End is its last day), with a notice saying so', async () => {
		const { items, error } = await createEvent({ start: '2026-12-10', end: '2026-12-11' });
		expect(error).toBeUndefined();
		const create = (await apiCalls()).find((call) => call.path === '/v3/events/create');
		expect(create?.body).toMatchObject({ start: '2026-12-10T00:00:00', duration: 'P2D', timeZone: null, showWithoutTime: true });
		expect(items[0].json.notices).toEqual(['Start and End are dates without a time, so the event is all-day (End is its last day).']);
	});

	it('a series given as an RRULE text becomes the recurrence rule the interface takes', async () => {
		const { items, error } = await createEvent({ additionalFields: { rrule: 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4' } });
		expect(error).toBeUndefined();
		const create = (await apiCalls()).find((call) => call.path === '/v3/events/create');
		expect((create?.body as IDataObject).recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1, byDay: [{ '@type': 'NDay', day: 'mo' }, { '@type': 'NDay', day: 'we' }], count: 4 },
		]);
		// The simplified event carries the rule without any @type, its weekdays included.
		expect(items[0].json.recurrenceRules).toEqual([{ frequency: 'weekly', interval: 1, byDay: [{ day: 'mo' }, { day: 'we' }], count: 4 }]);
	});

	it('an RRULE with the last Friday of each month until a date, read in the event\'s zone', async () => {
		const { error } = await createEvent({ additionalFields: { rrule: 'FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR;UNTIL=20270630' } });
		expect(error).toBeUndefined();
		const create = (await apiCalls()).find((call) => call.path === '/v3/events/create');
		expect((create?.body as IDataObject).recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'monthly', interval: 2, byDay: [{ '@type': 'NDay', day: 'fr', nthOfPeriod: -1 }], until: '2027-06-30T23:59:59' },
		]);
	});

	it.each([
		['FREQ=HOURLY;COUNT=3', 'Repeat (RRULE): FREQ "HOURLY" is not one of DAILY, WEEKLY, MONTHLY, YEARLY'],
		['FREQ=WEEKLY;BYDAY=MONDAY', 'Repeat (RRULE): BYDAY "MONDAY" is not a weekday such as MO, 1MO or -1FR'],
		['FREQ=DAILY;BYSETPOS=1', 'Repeat (RRULE): "BYSETPOS" is not supported: use FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, COUNT or UNTIL'],
	])('an RRULE the interface cannot take (%s) is refused before any request', async (rrule, message) => {
		const { error } = await createEvent({ additionalFields: { rrule } });
		expect(error?.message).toBe(message);
		expect((await apiCalls()).filter((call) => call.method === 'POST')).toEqual([]);
	});

	it('a time with an offset is converted into the event\'s time zone', async () => {
		const { items, error } = await createEvent({ start: '2026-12-01T09:00:00+01:00', end: '2026-12-01T10:30:00+01:00', timeZone: 'Europe/London' });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ start: '2026-12-01T08:00:00+00:00', end: '2026-12-01T09:30:00+00:00', duration: 'PT1H30M', timeZone: 'Europe/London' });
	});

	it.each([
		['a start in words', { start: 'tomorrow at 9' }, 'Start: "tomorrow at 9" is not a date and time', DATE_TIME_HINT],
		['an offset as the time zone', { timeZone: '+01:00' }, /^Time Zone: "\+01:00" is not an IANA time zone/, undefined],
		['an abbreviation as the time zone', { timeZone: 'CET+1' }, /^Time Zone: "CET\+1" is not an IANA time zone/, undefined],
		['an end before the start', { end: '2026-12-01T08:00:00' }, 'End: must be after Start', undefined],
		['a name where an e-mail address belongs', { additionalFields: { attendees: 'Ann Smith' } }, 'Attendees: "Ann Smith" is not an e-mail address', undefined],
		// An expression (as $fromAI is) that gives nothing: n8n's check of required fields does not see it.
		['an empty calendar', { calendarId: byId('={{ "" }}') }, 'Calendar: choose a calendar from the list or enter its ID', undefined],
	])('%s is refused before any request, naming the field', async (_, values, message, description) => {
		const { error } = await createEvent(values as IDataObject);
		expect(error?.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
		expect(error?.description).toBe(description);
		expect(await apiCalls()).toEqual([]);
	});

	it('a calendar ID that is no calendar of the user is refused after the calendar list, before any write', async () => {
		const { error } = await createEvent({ calendarId: byId('primary') });
		expect(error?.message).toBe('Calendar: no calendar with ID "primary" in the accounts of this credential');
		// The calendar list is read (or reused from the last minute); nothing else is sent.
		expect((await apiCalls()).filter((call) => call.path !== '/v3/calendars/list')).toEqual([]);
	});
});

describe('update event and answer an invitation with values an agent fills in', () => {
	const update = (eventId: string, updateFields: IDataObject) =>
		runEvent({
			operation: 'update',
			calendarId: byId('cal-alice-a-primary'),
			identifyBy: 'id',
			eventId: byId(eventId),
			seriesUpdateMode: 'single',
			updateFields: { title: '', start: '', end: '', timeZone: '', description: '', ...updateFields },
		});

	it('only the fields given change; the event ID passes byte for byte', async () => {
		const event = await sandbox.createEvent(timedEvent({ title: 'Before' }));
		await sandbox.clearRequests();
		const { items, error } = await update(String(event.id), { title: 'After' });
		expect(error).toBeUndefined();
		const calls = (await apiCalls()).filter((call) => call.path !== '/v3/calendars/list');
		expect(calls.map((call) => call.path)).toEqual(['/v3/events/update']);
		expect(calls[0].body).toEqual({ id: event.id, accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary', title: 'After' });
		expect(items[0].json).toMatchObject({ id: event.id, title: 'After', start: '2026-12-01T09:00:00+01:00', timeZone: 'Europe/Berlin' });
	});

	it('a new start alone keeps the length and zone of the event (read once)', async () => {
		const event = await sandbox.createEvent(timedEvent());
		await sandbox.clearRequests();
		const { items, error } = await update(String(event.id), { start: '2026-12-02T14:00:00' });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ start: '2026-12-02T14:00:00+01:00', end: '2026-12-02T15:00:00+01:00', timeZone: 'Europe/Berlin' });
	});

	it('an empty event ID is refused before any request', async () => {
		const { error } = await update('  ', { title: 'After' });
		expect(error?.message).toBe('Event ID: enter the ID of the event (it is empty)');
		expect(await apiCalls()).toEqual([]);
	});

	it('an event ID that does not exist comes back as the service\'s reason and errorRef', async () => {
		const { error } = await update('bm90LWFuLWV2ZW50', { title: 'After' });
		expect(error?.message).toMatch(/^Event not found/);
		expect(error?.description).toMatch(/^HTTP 404 · errorRef [\w-]+/);
	});

	it('an answer other than accept, decline or tentativelyAccept is refused before any request', async () => {
		const token = await sandbox.token('alice');
		const { error } = await engine.runNode({
			type: 'ctsEventV1',
			parameters: { resource: 'event', operation: 'rsvp', eventId: 'ZXZ0', rsvpAction: 'yes', comment: '', notifyOrganizer: true },
			credentials: { ctsSyncApi: { token, syncUrl: sandbox.url } },
		});
		expect(error?.message).toBe('Response: "yes" is not an answer: use accept, decline or tentativelyAccept');
		expect(await apiCalls()).toEqual([]);
	});
});

describe('as a tool (the node type n8n names <type>Tool), errors give advice a caller can follow', () => {
	const tools = new Engine({ ctsEventTool: asTool(new CtsEvent()), ctsTaskTool: asTool(new CtsTask()) });

	it.each([
		['Event Create', 'ctsEventTool', { resource: 'event', operation: 'create', calendarId: byId('cal-alice-a-primary'), title: 'x', start: 'tomorrow at ten', endMode: 'end', end: '2026-12-01T10:00:00', timeZone: 'Europe/Berlin' }],
		['Event Get Many', 'ctsEventTool', { resource: 'event', operation: 'getAll', accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: 'next week', end: '2026-12-08T00:00:00', returnAll: true }],
		['Task Create', 'ctsTaskTool', { resource: 'task', operation: 'create', title: 'x', additionalFields: { due: 'friday', timeZone: 'Europe/Berlin' } }],
	])('%s: a date in words is refused with how to write one, never with an expression', async (_name, type, parameters) => {
		const { error } = await tools.runNode({ type, parameters: parameters as IDataObject, credentials: apiKey() });
		expect(error?.message).toMatch(/is not a date/);
		expect(error?.description).toMatch(/^Use ISO 8601, for example 2026-11-25T17:00:00/);
		expect(error?.description).not.toContain('expression');
		expect(await apiCalls()).toEqual([]);
	});

	it('Task Update: empty values an agent leaves mean "keep it", and a priority written as text is a number', async () => {
		const id = await sandbox.createTask({ title: 'Keep me' });
		await sandbox.clearRequests();
		const { error } = await tools.runNode({
			type: 'ctsTaskTool',
			parameters: { resource: 'task', operation: 'update', taskId: byId(id), updateFields: { title: '', due: '', timeZone: '', priority: '3', description: '' }, returnTask: false },
			credentials: apiKey(),
		});
		expect(error).toBeUndefined();
		expect((await apiCalls()).map((call) => call.body)).toEqual([{ id, priority: 3 }]);
	});

	it('a wrong value names the argument the caller sent for the field ($fromAI key), not the field label', async () => {
		const fromAI = (key: string) => `={{ $fromAI('${key}', 'a value', 'string') }}`;
		const { error } = await tools.runNode({
			type: 'ctsEventTool',
			parameters: { resource: 'event', operation: 'getAll', accountId: fromAI('accountId'), calendarIds: fromAI('calendarIds'), start: fromAI('rangeStart'), end: fromAI('rangeEnd'), returnAll: true },
			items: [{ accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', rangeStart: 'today', rangeEnd: '2026-12-08T00:00:00' }],
			credentials: apiKey(),
		});
		expect(error?.message).toBe('rangeStart: "today" is not a date and time');
		const byIdField = await tools.runNode({
			type: 'ctsEventTool',
			parameters: { resource: 'event', operation: 'update', calendarId: byId('cal-alice-a-primary'), identifyBy: 'id', eventId: { __rl: true, mode: 'id', value: fromAI('theEvent') }, seriesUpdateMode: 'single', updateFields: { title: 'x' } },
			items: [{ theEvent: '' }],
			credentials: apiKey(),
		});
		expect(byIdField.error?.message).toMatch(/^theEvent: /);
		expect((await apiCalls()).filter((call) => call.method === 'POST')).toEqual([]);
	});

	it('in a workflow the same error still suggests an expression', async () => {
		const { error } = await runEvent({ operation: 'getAll', accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: 'next week', end: '2026-12-08T00:00:00', returnAll: true });
		expect(error?.description).toContain('or an expression such as {{ $now.plus({ days: 1 }) }}');
	});
});

describe('list events in the time zone an agent names', () => {
	it('a range without offset is read in the Time Zone option: a 01:00 Berlin event on that day is listed', async () => {
		await sandbox.api('POST', '/v3/events/create', {
			body: timedEvent({ title: 'Early in Berlin', start: '2026-12-07T01:00:00', timeZone: 'Europe/Berlin', duration: 'PT30M' }),
		});
		await sandbox.clearRequests();
		const { items, error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: {
				resource: 'event',
				operation: 'getAll',
				accountId: 'acc-alice-a',
				calendarIds: 'cal-alice-a-primary',
				start: '2026-12-07T00:00:00',
				end: '2026-12-08T00:00:00',
				returnAll: true,
				options: { timeZone: 'Europe/Berlin' },
			},
			credentials: apiKey(),
			timezone: 'America/New_York',
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.title)).toEqual(['Early in Berlin']);
		const [list] = await apiCalls();
		expect(new Date(String(list.query.start)).toISOString()).toBe('2026-12-06T23:00:00.000Z');
	});

	it('a Time Zone that is not an IANA zone is refused before any request', async () => {
		const { error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'event', operation: 'getAll', accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: '2026-12-07T00:00:00', end: '2026-12-08T00:00:00', returnAll: true, options: { timeZone: '+01:00' } },
			credentials: apiKey(),
		});
		expect(error?.message).toMatch(/^Time Zone: /);
		expect(await apiCalls()).toEqual([]);
	});
});

describe('tasks with values an agent fills in', () => {
	const createTask = (additionalFields: IDataObject) =>
		engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'create', title: 'Report', additionalFields, returnTask: true },
			credentials: apiKey(),
			timezone: 'UTC',
		});

	it('empty optional values send nothing; a due time is sent in the zone given', async () => {
		const { items, error } = await createTask({ due: '2026-12-01T17:00:00', timeZone: 'Europe/Berlin', priority: 0, description: '' });
		expect(error).toBeUndefined();
		const create = (await apiCalls()).find((call) => call.path === '/v3/tasks/create');
		expect(create?.body).toEqual({ title: 'Report', due: '2026-12-01T17:00:00', timeZone: 'Europe/Berlin', priority: 0 });
		expect(items[0].json).toMatchObject({ title: 'Report', due: '2026-12-01T17:00:00+01:00', timeZone: 'Europe/Berlin' });
	});

	it('no due date: neither due nor time zone is sent', async () => {
		const { error } = await createTask({ due: '', timeZone: '', priority: 0, description: '' });
		expect(error).toBeUndefined();
		const create = (await apiCalls()).find((call) => call.path === '/v3/tasks/create');
		expect(create?.body).toEqual({ title: 'Report', priority: 0 });
	});

	it.each([
		['a due date in words', { due: 'next friday' }, 'Due: "next friday" is not a date and time'],
		['a priority out of range', { priority: 12 }, 'Priority: must be a whole number from 0 to 9'],
	])('%s is refused before any request, naming the field', async (_, values, message) => {
		const { error } = await createTask(values);
		expect(error?.message).toBe(message);
		expect(await apiCalls()).toEqual([]);
	});
});
