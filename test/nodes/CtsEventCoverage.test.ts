/**
 * The CTS Event node's less travelled paths, through n8n's real engine against the sandbox:
 * recurrence rule parts on the wire and in the occurrences they make, virtual rooms of each
 * kind (create and update), description format, the calendar's default alerts, a new end on
 * update, 429 answers (operations and the trigger), and Continue On Fail with input refused
 * before any request.
 */
import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { withEnd } from '../../nodes/shared/output/simplifyEvent';
import { Engine, PollHarness, type NodeRunOptions } from '../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

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
const providerB = { accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' };
const caldav = { accountId: 'acc-alice-c', calendarId: 'cal-alice-c-home' };
const PROVIDER_A_ROOM = /^https:\/\/meet\.provider-a\.example\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/;
const PROVIDER_B_ROOM = /^https:\/\/meetings\.provider-b\.example\/join\/[0-9a-f]{24}$/;

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

async function storedEvent(id: string) {
	const { status, body } = await sandbox.api('GET', '/v3/events', { qs: { id } });
	expect(status).toBe(200);
	return body.data.event as Record<string, any>;
}

async function occurrenceStarts(start: string, end: string, calendar = target) {
	const { status, body } = await sandbox.api('GET', '/v3/events/list', {
		qs: { accountId: calendar.accountId, calendarIds: calendar.calendarId, start, end },
	});
	expect(status).toBe(200);
	return (body.data.events as Array<{ start: string }>).map((event) => event.start);
}

async function calls() {
	return (await sandbox.requests()).map((call) => `${call.method} ${call.path} ${call.status}`);
}

async function lastBody() {
	return (await sandbox.requests()).at(-1)!.body as Record<string, unknown>;
}

describe('recurrence rule parts', () => {
	it('On Month Days: a comma-separated list, -1 the last day of the month', async () => {
		const { items, error } = await run(
			createParameters({
				endMode: 'duration',
				duration: 'PT30M',
				additionalFields: { recurrence: { rule: { frequency: 'monthly', interval: 1, byMonthDay: '1, 15, -1', ends: 'count', count: 6 } } },
			}),
		);
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'monthly', interval: 1, byMonthDay: [1, 15, -1], count: 6 },
		]);
		expect(items[0].json.recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'monthly', interval: 1, byMonthDay: [1, 15, -1], count: 6 },
		]);
		expect(await occurrenceStarts('2026-11-30T00:00:00Z', '2027-03-01T00:00:00Z')).toEqual([
			'2026-12-01T09:00:00',
			'2026-12-15T09:00:00',
			'2026-12-31T09:00:00',
			'2027-01-01T09:00:00',
			'2027-01-15T09:00:00',
			'2027-01-31T09:00:00',
		]);
	});

	it('In Months: month numbers as strings, with a month day, every year', async () => {
		const { error } = await run(
			createParameters({
				start: '2027-03-10T09:00:00',
				end: '2027-03-10T10:00:00',
				additionalFields: { recurrence: { rule: { frequency: 'yearly', interval: 1, byMonth: ['3', '6'], byMonthDay: '10', ends: 'count', count: 4 } } },
			}),
		);
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'yearly', interval: 1, byMonthDay: [10], byMonth: ['3', '6'], count: 4 },
		]);
		expect(await occurrenceStarts('2027-03-01T00:00:00Z', '2027-09-01T00:00:00Z')).toEqual(['2027-03-10T09:00:00', '2027-06-10T09:00:00']);
		expect(await occurrenceStarts('2028-03-01T00:00:00Z', '2028-09-01T00:00:00Z')).toEqual(['2028-03-10T09:00:00', '2028-06-10T09:00:00']);
	});

	it('Nth Weekday of the Period: -1 is the last such weekday of the month', async () => {
		const { error } = await run(
			createParameters({
				start: '2026-12-28T09:00:00',
				end: '2026-12-28T10:00:00',
				additionalFields: { recurrence: { rule: { frequency: 'monthly', interval: 1, byDay: ['mo'], nthOfPeriod: -1, ends: 'count', count: 3 } } },
			}),
		);
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'monthly', interval: 1, byDay: [{ '@type': 'NDay', day: 'mo', nthOfPeriod: -1 }], count: 3 },
		]);
		// The last Mondays of December 2026, January and February 2027.
		expect(await occurrenceStarts('2026-12-01T00:00:00Z', '2027-03-01T00:00:00Z')).toEqual([
			'2026-12-28T09:00:00',
			'2027-01-25T09:00:00',
			'2027-02-22T09:00:00',
		]);
	});

	it('Nth Weekday of the Period applies to each weekday chosen', async () => {
		const { error } = await run(
			createParameters({
				start: '2026-12-08T09:00:00',
				end: '2026-12-08T10:00:00',
				additionalFields: { recurrence: { rule: { frequency: 'monthly', interval: 1, byDay: ['tu', 'th'], nthOfPeriod: 2, ends: 'count', count: 4 } } },
			}),
		);
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([
			{
				'@type': 'RecurrenceRule',
				frequency: 'monthly',
				interval: 1,
				byDay: [
					{ '@type': 'NDay', day: 'tu', nthOfPeriod: 2 },
					{ '@type': 'NDay', day: 'th', nthOfPeriod: 2 },
				],
				count: 4,
			},
		]);
		// The second Tuesday and the second Thursday of December 2026 and January 2027.
		expect(await occurrenceStarts('2026-12-01T00:00:00Z', '2027-02-01T00:00:00Z')).toEqual([
			'2026-12-08T09:00:00',
			'2026-12-10T09:00:00',
			'2027-01-12T09:00:00',
			'2027-01-14T09:00:00',
		]);
	});

	it.each([
		['a month day of 0', { byMonthDay: '0' }, 'Recurrence: month days must be whole numbers from 1 to 31 or -31 to -1, got "0"'],
		['a month day that is not a number', { byMonthDay: '1, x' }, 'Recurrence: month days must be whole numbers from 1 to 31 or -31 to -1, got "1, x"'],
		['an nth weekday that is not whole', { byDay: ['mo'], nthOfPeriod: 1.5 }, 'Recurrence: nth weekday must be a whole number'],
	])('refuses %s before any request, naming the field', async (_name, rule, message) => {
		const { error } = await run(
			createParameters({ additionalFields: { recurrence: { rule: { frequency: 'monthly', interval: 1, ends: 'never', ...rule } } } }),
		);
		expect(error?.message).toBe(message);
		expect(await sandbox.requests()).toHaveLength(0);
	});
});

describe('virtual rooms', () => {
	it.each([
		['the default room on a provider A calendar', target, 'default', PROVIDER_A_ROOM],
		['a provider A room on a provider A calendar', target, 'providerAMeetingRoom', PROVIDER_A_ROOM],
		['the default room on a provider B calendar', providerB, 'default', PROVIDER_B_ROOM],
		['a provider B room on a provider B calendar', providerB, 'providerBMeetingRoom', PROVIDER_B_ROOM],
	])('creates %s; the link is written into the description', async (_name, calendar, kind, url) => {
		const { items, error } = await run(createParameters({ ...calendar, additionalFields: { requestVirtualRoom: kind } }));
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ 'service.example:requestVirtualRoom': kind });
		const room = (items[0].json['service.example:derived'] as { virtualRoom: { url: string } }).virtualRoom.url;
		expect(room).toMatch(url);
		expect(items[0].json.description).toBe(`Join the meeting: ${room}`);
		expect((await storedEvent(items[0].json.id as string)).description).toBe(`Join the meeting: ${room}`);
	});

	it.each([
		['a provider B room on a provider A calendar', target, 'providerBMeetingRoom', 'providerBMeetingRoom rooms cannot be used on providerA calendars'],
		['a provider A room on a provider B calendar', providerB, 'providerAMeetingRoom', 'providerAMeetingRoom rooms cannot be used on providerB calendars'],
		['any room on a CalDAV calendar', caldav, 'default', 'Virtual rooms are not available on caldav calendars'],
	])('shows the service error for %s, and creates nothing', async (_name, calendar, kind, message) => {
		const { error } = await run(createParameters({ ...calendar, additionalFields: { requestVirtualRoom: kind } }));
		expect(error?.message).toBe(`The service rejected the request: ${message}`);
		expect(error?.httpCode).toBe('400');
		expect(await occurrenceStarts('2026-11-01T00:00:00Z', '2027-01-01T00:00:00Z', calendar)).toEqual([]);
	});

	it('adds a room on update, and a later update keeps it', async () => {
		const created = await createEvent({ description: 'Agenda' });
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { requestVirtualRoom: 'default' } });
		expect(error).toBeUndefined();
		expect(await lastBody()).toEqual({ id: created.id, ...target, 'service.example:requestVirtualRoom': 'default' });
		const room = (items[0].json['service.example:derived'] as { virtualRoom: { url: string } }).virtualRoom.url;
		expect(room).toMatch(PROVIDER_A_ROOM);
		expect(items[0].json.description).toBe(`Agenda\n\nJoin the meeting: ${room}`);

		const renamed = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { title: 'Renamed' } });
		expect(renamed.error).toBeUndefined();
		expect(renamed.items[0].json).toMatchObject({ title: 'Renamed', 'service.example:derived': { virtualRoom: { url: room } } });
	});

	it('writes the link as HTML into an HTML description', async () => {
		const { items, error } = await run(
			createParameters({ additionalFields: { requestVirtualRoom: 'default', description: '<p>Agenda</p>', descriptionContentType: 'text/html' } }),
		);
		expect(error).toBeUndefined();
		const room = (items[0].json['service.example:derived'] as { virtualRoom: { url: string } }).virtualRoom.url;
		expect(items[0].json.description).toBe(`<p>Agenda</p><p>Join the meeting: <a href="${room}">${room}</a></p>`);
	});
});

describe('description format and default alerts', () => {
	it('sends Description Format on create and on update', async () => {
		const created = await run(createParameters({ additionalFields: { description: '<b>Agenda</b>', descriptionContentType: 'text/html' } }));
		expect(created.error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ description: '<b>Agenda</b>', descriptionContentType: 'text/html' });
		const id = created.items[0].json.id as string;
		expect(await storedEvent(id)).toMatchObject({ description: '<b>Agenda</b>', descriptionContentType: 'text/html' });

		const updated = await run({ operation: 'update', eventId: id, ...target, updateFields: { description: 'Agenda', descriptionContentType: 'text/plain' } });
		expect(updated.error).toBeUndefined();
		expect(await lastBody()).toEqual({ id, ...target, description: 'Agenda', descriptionContentType: 'text/plain' });
		expect(updated.items[0].json).toMatchObject({ description: 'Agenda', descriptionContentType: 'text/plain' });
	});

	it('Use Default Alerts on: sent as true, the event keeps no alerts of its own', async () => {
		const { items, error } = await run(createParameters({ additionalFields: { useDefaultAlerts: true } }));
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ useDefaultAlerts: true });
		expect(await lastBody()).not.toHaveProperty('alerts');
		expect(await storedEvent(items[0].json.id as string)).toMatchObject({ useDefaultAlerts: true });
	});

	it('Use Default Alerts switched on by update removes the event\'s own alerts', async () => {
		const id15 = base64('{"a":"display","to":"-PT15M"}');
		const created = await createEvent({
			alerts: { [id15]: { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: '-PT15M', relativeTo: 'start' }, action: 'display' } },
		});
		expect(created.useDefaultAlerts).toBe(false);
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { useDefaultAlerts: true } });
		expect(error).toBeUndefined();
		expect(await lastBody()).toEqual({ id: created.id, ...target, useDefaultAlerts: true });
		expect(items[0].json.useDefaultAlerts).toBe(true);
		expect(items[0].json).not.toHaveProperty('alerts');
	});
});

describe('a new end on update', () => {
	it('reads the event once and sends its start and zone with the new duration', async () => {
		const created = await createEvent({ start: '2026-12-01T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin' });
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { end: '2026-12-01T11:30:00' } });
		expect(error).toBeUndefined();
		expect(await calls()).toEqual(['GET /v3/events 200', 'POST /v3/events/update 200']);
		expect(await lastBody()).toEqual({
			id: created.id,
			...target,
			start: '2026-12-01T09:00:00',
			duration: 'PT2H30M',
			timeZone: 'Europe/Berlin',
			showWithoutTime: false,
		});
		expect(withEnd(items[0].json)).toMatchObject({ start: '2026-12-01T09:00:00', end: '2026-12-01T11:30:00', duration: 'PT2H30M' });
	});

	it('an end with an offset is converted into the event\'s zone', async () => {
		const created = await createEvent({ start: '2026-12-01T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin' });
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { end: '2026-12-01T10:30:00Z' } });
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ start: '2026-12-01T09:00:00', duration: 'PT2H30M', timeZone: 'Europe/Berlin' });
		expect(withEnd(items[0].json).end).toBe('2026-12-01T11:30:00');
	});

	it('for an all-day event End is the new last day', async () => {
		const created = await createEvent({ start: '2026-12-01T00:00:00', duration: 'P1D', timeZone: null, showWithoutTime: true });
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { end: '2026-12-03' } });
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ start: '2026-12-01T00:00:00', duration: 'P3D', timeZone: null, showWithoutTime: true });
		expect(withEnd(items[0].json)).toMatchObject({ duration: 'P3D', end: '2026-12-04T00:00:00' });
	});

	it('an end before the event\'s start is refused after the read, before any change', async () => {
		const created = await createEvent({ start: '2026-12-01T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin' });
		const { error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { end: '2026-12-01T08:00:00' } });
		expect(error?.message).toBe('End: must be after Start');
		expect(await calls()).toEqual(['GET /v3/events 200']);
	});
});

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

describe('Delete with an Event ID that an expression left empty', () => {
	// An empty ID names no event: "already deleted" would report a deletion that never happened.
	it.each(['v3', 'v1'])('%s: refused before any request, naming the field, not reported as deleted', async (version) => {
		const token = await sandbox.token('alice');
		const { items, error } = await engine.runNode({
			type: version === 'v3' ? 'ctsEvent' : 'ctsEventV1',
			parameters: { resource: 'event', operation: 'delete', eventId: '={{ $json.id }}', ...(version === 'v3' ? target : {}) },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url }, ctsSyncApi: { token, syncUrl: sandbox.url } },
			items: [{ id: '' }],
		});
		expect(items).toEqual([]);
		expect(error?.message).toMatch(/^Event ID: /);
		expect(await sandbox.requests()).toHaveLength(0);
	});
});
