/**
 * The CTS Event node (v3) run by n8n's real engine against the sandbox over HTTP. What the node
 * sent is read from the sandbox's request log; what it changed is read back through the API.
 */
import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { withEnd } from '../../nodes/shared/output/simplifyEvent';
import { Engine, type NodeRunOptions } from '../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent() });
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

async function lastBody() {
	return (await sandbox.requests()).at(-1)!.body as Record<string, unknown>;
}

describe('Create', () => {
	it('creates a timed event from start and end, computing the duration, and outputs it with its end', async () => {
		const { items, error } = await run({
			operation: 'create',
			...target,
			title: 'Planning',
			start: '2026-12-01T09:00:00',
			endMode: 'end',
			end: '2026-12-01T10:30:00',
			timeZone: 'Europe/Berlin',
		});
		expect(error).toBeUndefined();
		expect(await lastBody()).toEqual({
			...target,
			title: 'Planning',
			start: '2026-12-01T09:00:00',
			duration: 'PT1H30M',
			timeZone: 'Europe/Berlin',
			showWithoutTime: false,
		});
		expect(withEnd(items[0].json)).toMatchObject({ '@type': 'Event', title: 'Planning', start: '2026-12-01T09:00:00', end: '2026-12-01T10:30:00' });
		expect((await getEvent(items[0].json.id as string)).status).toBe(200);
	});

	it('converts a start with an offset into the event zone, and takes a duration as given', async () => {
		const { error } = await run({
			operation: 'create',
			...target,
			title: 'Call',
			start: '2026-07-01T09:00:00Z',
			endMode: 'duration',
			duration: 'PT45M',
			timeZone: 'America/New_York',
		});
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ start: '2026-07-01T05:00:00', duration: 'PT45M', timeZone: 'America/New_York' });
	});

	it('creates an all-day event: timeZone null, showWithoutTime true, the end day inclusive', async () => {
		const { items, error } = await run({ operation: 'create', ...target, title: 'Trip', allDay: true, start: '2026-12-01', end: '2026-12-03' });
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ start: '2026-12-01T00:00:00', duration: 'P3D', timeZone: null, showWithoutTime: true });
		expect(withEnd(items[0].json)).toMatchObject({ showWithoutTime: true, end: '2026-12-04T00:00:00' });
	});

	it('keys participants by the base64 of their e-mail and alerts by their computed id', async () => {
		const { items, error } = await run({
			operation: 'create',
			...target,
			title: 'Review',
			start: '2026-12-02T14:00:00',
			end: '2026-12-02T15:00:00',
			timeZone: 'Europe/Berlin',
			additionalFields: {
				attendees: 'Ann <ann@example.com> (attendee, optional)',
				alerts: { alert: [{ minutesBefore: 15, action: 'display' }, { minutesBefore: 90, action: 'email' }] },
				description: 'Agenda',
				privacy: 'private',
				freeBusyStatus: 'free',
				locations: { location: [{ name: 'Room 1' }] },
				colorId: '5',
			},
		});
		expect(error).toBeUndefined();
		const stored = (await getEvent(items[0].json.id as string)).body.data.event;
		expect(Object.keys(stored.participants)).toContain(base64('ann@example.com'));
		expect(stored.participants[base64('ann@example.com')]).toMatchObject({ email: 'ann@example.com', name: 'Ann', roles: { attendee: true, optional: true } });
		expect(Object.keys(stored.alerts).sort()).toEqual(
			[base64('{"a":"display","to":"-PT15M"}'), base64('{"a":"email","to":"-PT1H30M"}')].sort(),
		);
		expect(stored).toMatchObject({ description: 'Agenda', privacy: 'private', freeBusyStatus: 'free', 'provider.example:colorId': '5' });
		expect(Object.values(stored.locations)).toEqual([{ '@type': 'Location', name: 'Room 1' }]);
	});

	it('creates a weekly series; the list shows its occurrences with their own ids', async () => {
		const { items, error } = await run({
			operation: 'create',
			...target,
			title: 'Standup',
			start: '2026-12-07T09:00:00',
			endMode: 'duration',
			duration: 'PT15M',
			timeZone: 'Europe/Berlin',
			additionalFields: { recurrence: { rule: { frequency: 'weekly', interval: 1, byDay: ['mo', 'we'], ends: 'count', count: 4 } } },
		});
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([
			{
				'@type': 'RecurrenceRule',
				frequency: 'weekly',
				interval: 1,
				byDay: [
					{ '@type': 'NDay', day: 'mo' },
					{ '@type': 'NDay', day: 'we' },
				],
				count: 4,
			},
		]);
		const occurrences = await listEvents('2026-12-01T00:00:00Z', '2027-01-31T00:00:00Z');
		expect(occurrences.map((event) => event.start)).toEqual([
			'2026-12-07T09:00:00',
			'2026-12-09T09:00:00',
			'2026-12-14T09:00:00',
			'2026-12-16T09:00:00',
		]);
		expect(occurrences.every((event) => event.masterEventId === items[0].json.id && event.id !== items[0].json.id)).toBe(true);
	});

	it.each([
		['a title of spaces only', { title: '   ' }, 'Title: must not be empty'],
		['an empty title from an expression', { title: '={{ "" }}' }, 'Title: must not be empty'],
		['a time zone abbreviation', { timeZone: 'EST' }, 'Time Zone: "EST" is not an IANA time zone'],
		['an end before the start', { end: '2026-12-01T08:00:00' }, 'End: must be after Start'],
		['a duration that is not ISO 8601', { endMode: 'duration', duration: '90 minutes' }, 'Duration: Event duration should be a valid ISO8601 duration'],
		[
			'alerts together with the default alerts',
			{ additionalFields: { useDefaultAlerts: true, alerts: { alert: [{ minutesBefore: 10, action: 'display' }] } } },
			'Use Default Alerts: cannot be combined with Alerts',
		],
		['an attendee without an e-mail address', { additionalFields: { attendees: 'ann (optional)' } }, 'Attendees: "ann" is not an e-mail address'],
		['an attendee role that does not exist', { additionalFields: { attendees: 'Ann <ann@example.com> (optinal)' } }, 'Attendees: "optinal" after "ann@example.com" is not a role: use attendee, chair, contact, informational, optional, owner'],
	])('refuses %s before any request, naming the field', async (_name, parameters, message) => {
		const { error } = await run({
			operation: 'create',
			...target,
			title: 'x',
			start: '2026-12-01T09:00:00',
			end: '2026-12-01T10:00:00',
			timeZone: 'Europe/Berlin',
			...parameters,
		});
		expect(error?.message).toContain(message);
		expect(await sandbox.requests()).toHaveLength(0);
	});

	it('keeps the length the user typed when the start falls into a daylight-saving gap, and says so', async () => {
		const { items, error } = await run({
			operation: 'create',
			...target,
			title: 'Early call',
			start: '2026-03-29T02:30:00',
			end: '2026-03-29T03:30:00',
			timeZone: 'Europe/Berlin',
		});
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ start: '2026-03-29T03:30:00', duration: 'PT1H', timeZone: 'Europe/Berlin' });
		expect(withEnd(items[0].json)).toMatchObject({ start: '2026-03-29T03:30:00', end: '2026-03-29T04:30:00' });
		expect(items[0].json.notices).toEqual([
			'Start: 2026-03-29 02:30:00 does not exist in Europe/Berlin (the clocks skip that hour for daylight saving time), so it was taken as 2026-03-29 03:30:00',
		]);
	});

	it('converts a recurrence Until with an offset into the event zone, keeping the last occurrence', async () => {
		const { items, error } = await run({
			operation: 'create',
			...target,
			title: 'Evening',
			start: '2026-12-07T23:00:00',
			endMode: 'duration',
			duration: 'PT30M',
			timeZone: 'Europe/Berlin',
			// 22:30 UTC is 23:30 in Berlin: the occurrence of Dec 9 at 23:00 is the last one.
			additionalFields: { recurrence: { rule: { frequency: 'daily', interval: 1, ends: 'until', until: '2026-12-09T22:30:00Z' } } },
		});
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1, until: '2026-12-09T23:30:00' }]);
		const occurrences = await listEvents('2026-12-01T00:00:00Z', '2027-01-31T00:00:00Z');
		expect(occurrences.map((event) => event.start)).toEqual(['2026-12-07T23:00:00', '2026-12-08T23:00:00', '2026-12-09T23:00:00']);
		expect(occurrences.every((event) => event.masterEventId === items[0].json.id)).toBe(true);
	});

	it('requests a virtual room; its link appears in the description', async () => {
		const { items, error } = await run({
			operation: 'create',
			...target,
			title: 'Video call',
			start: '2026-12-01T09:00:00',
			end: '2026-12-01T10:00:00',
			timeZone: 'Europe/Berlin',
			additionalFields: { requestVirtualRoom: 'default', description: 'Join here' },
		});
		expect(error).toBeUndefined();
		expect((await lastBody())['service.example:requestVirtualRoom']).toBe('default');
		const url = (items[0].json['service.example:derived'] as { virtualRoom: { url: string } }).virtualRoom.url;
		expect(url).toMatch(/^https:\/\/meet\.provider-a\.example\/\w{3}-\w{4}-\w{3}$/);
		expect(items[0].json.description).toBe(`Join here\n\nJoin the meeting: ${url}`);
		expect(items[0].json).not.toHaveProperty('service.example:requestVirtualRoom');
	});
});

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

describe('Get Many', () => {
	it('Search keeps events whose title, description or location contains the text; Order sorts them; Limit counts what is kept', async () => {
		await createEvent({ title: 'Budget review', start: '2026-12-03T10:00:00' });
		await createEvent({ title: 'Standup', start: '2026-12-01T09:00:00' });
		await createEvent({ title: 'Planning', description: 'The BUDGET for 2027', start: '2026-12-02T09:00:00' });
		await createEvent({ title: 'Offsite', start: '2026-12-04T09:00:00', locations: { bG9j: { '@type': 'Location', name: 'Budget room' } } });
		const list = (options: Record<string, unknown>, limit?: number) =>
			run({
				operation: 'getAll',
				...target,
				calendarIds: 'cal-alice-a-primary',
				start: '2026-11-30T00:00:00Z',
				end: '2026-12-10T00:00:00Z',
				returnAll: limit === undefined,
				...(limit === undefined ? {} : { limit }),
				options,
			});
		const titles = async (options: Record<string, unknown>, limit?: number) => (await list(options, limit)).items.map((item) => item.json.title);
		expect(await titles({ search: 'budget' })).toEqual(['Planning', 'Budget review', 'Offsite']);
		expect(await titles({ search: 'budget', orderBy: 'startDescending' })).toEqual(['Offsite', 'Budget review', 'Planning']);
		expect(await titles({ search: 'budget' }, 2)).toEqual(['Planning', 'Budget review']);
		expect(await titles({})).toEqual(['Standup', 'Planning', 'Budget review', 'Offsite']);
		expect(await titles({ search: 'nothing like this' })).toEqual([]);
	});

	it('splits a long range into windows of at most 2 months and merges them without duplicates', async () => {
		const spanning = await createEvent({ title: 'Across', start: '2027-01-31T23:00:00', duration: 'PT4H', timeZone: 'UTC' });
		await createEvent({ title: 'Early', start: '2026-12-05T10:00:00' });
		await createEvent({ title: 'Late', start: '2027-06-20T10:00:00' });
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary, cal-alice-a-team',
			start: '2026-12-01T00:00:00Z',
			end: '2027-07-01T00:00:00Z',
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.title)).toEqual(['Early', 'Across', 'Late']);
		expect(items.filter((item) => item.json.id === spanning.id)).toHaveLength(1);
		const calls = await sandbox.requests();
		expect(calls.map((call) => [call.query.start, call.query.end])).toEqual([
			['2026-12-01T00:00:00Z', '2027-02-01T00:00:00Z'],
			['2027-02-01T00:00:00Z', '2027-04-01T00:00:00Z'],
			['2027-04-01T00:00:00Z', '2027-06-01T00:00:00Z'],
			['2027-06-01T00:00:00Z', '2027-07-01T00:00:00Z'],
		]);
		expect(calls.every((call) => call.query.calendarIds === 'cal-alice-a-primary,cal-alice-a-team')).toBe(true);
	});

	it('uses fewer calls with a larger window, up to 6 months', async () => {
		const { error } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-12-01T00:00:00Z',
			returnAll: true,
			options: { windowMonths: 6 },
		});
		expect(error).toBeUndefined();
		expect(await sandbox.requests()).toHaveLength(2);
	});

	it('refuses End before Start and a window over 6 months before any request', async () => {
		const reversed = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2027-01-01T00:00:00Z',
			end: '2026-12-01T00:00:00Z',
			returnAll: true,
		});
		expect(reversed.error?.message).toContain('End: must be after Start');
		const tooWide = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-01-01T00:00:00Z',
			returnAll: true,
			options: { windowMonths: 7 },
		});
		expect(tooWide.error?.message).toContain('Window Size (Months): must be a whole number from 1 to 6');
		expect(await sandbox.requests()).toHaveLength(0);
	});

	it.each([0, -1, 2.5, '={{ NaN }}', 'many'])('refuses Limit %p before any request', async (limit) => {
		const { error, items } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-01-01T00:00:00Z',
			returnAll: false,
			limit,
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/^Limit: ".*" is not a whole number of 1 or more$/);
		expect(await sandbox.requests()).toHaveLength(0);
	});

	it('outputs one item per series when asked, reading each master once', async () => {
		const series = await createEvent({
			title: 'Weekly',
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1 }],
		});
		await createEvent({ title: 'Single', start: '2026-12-03T12:00:00' });
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-01-01T00:00:00Z',
			returnAll: true,
			options: { recurringEvents: 'series' },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items.map((item) => item.json.id)).toContain(series.id);
		expect(items.find((item) => item.json.id === series.id)!.json.recurrenceRules).toEqual([{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1 }]);
		const calls = await sandbox.requests();
		expect(calls.map((call) => call.path)).toEqual(['/v3/events/list', '/v3/events']);
	});

	it('Limit stops after that many events', async () => {
		await createEvent({ recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1 }] });
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-06-01T00:00:00Z',
			returnAll: false,
			limit: 5,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		expect(await sandbox.requests()).toHaveLength(1);
	});
});

describe('Update', () => {
	it('changes only the fields given; attendees are added, changed and removed individually', async () => {
		const created = await createEvent({
			participants: {
				[base64('ann@example.com')]: { '@type': 'Participant', email: 'ann@example.com', roles: { attendee: true } },
				[base64('bob@example.com')]: { '@type': 'Participant', email: 'bob@example.com', roles: { attendee: true } },
			},
			description: 'keep',
		});
		const { items, error } = await run({
			operation: 'update',
			eventId: created.id,
			...target,
			updateFields: {
				title: 'Renamed',
				attendees: 'Cid <cid@example.com>',
				participantsToRemove: 'bob@example.com',
			},
		});
		expect(error).toBeUndefined();
		expect(await lastBody()).toEqual({
			id: created.id,
			...target,
			title: 'Renamed',
			participants: {
				[base64('cid@example.com')]: { '@type': 'Participant', email: 'cid@example.com', name: 'Cid', roles: { attendee: true } },
				'bob@example.com': null,
			},
		});
		expect((await sandbox.requests()).at(-1)!.query).toEqual({ seriesUpdateMode: 'single' });
		const emails = Object.values(items[0].json.participants as Record<string, { email: string }>).map((p) => p.email).sort();
		expect(emails).toEqual(['ann@example.com', 'cid@example.com']);
		expect(items[0].json).toMatchObject({ title: 'Renamed', description: 'keep' });
	});

	it('adds and removes alerts by their computed id', async () => {
		const id15 = base64('{"a":"display","to":"-PT15M"}');
		const created = await createEvent({
			alerts: { [id15]: { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: '-PT15M', relativeTo: 'start' }, action: 'display' } },
		});
		const { items, error } = await run({
			operation: 'update',
			eventId: created.id,
			...target,
			updateFields: {
				alerts: { alert: [{ minutesBefore: 60, action: 'display' }] },
				alertsToRemove: { alert: [{ minutesBefore: 15, action: 'display' }] },
			},
		});
		expect(error).toBeUndefined();
		expect(Object.keys(items[0].json.alerts as object)).toEqual([base64('{"a":"display","to":"-PT1H"}')]);
	});

	it('removes an alert created elsewhere with another spelling of the same offset (-PT60M), reading the event once', async () => {
		const id60 = base64('{"a":"display","to":"-PT60M"}');
		const created = await createEvent({
			alerts: { [id60]: { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: '-PT60M', relativeTo: 'start' }, action: 'display' } },
		});
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'update',
			eventId: created.id,
			...target,
			updateFields: { alertsToRemove: { alert: [{ minutesBefore: 60, action: 'display' }] } },
		});
		expect(error).toBeUndefined();
		expect((await sandbox.requests()).map((call) => call.path)).toEqual(['/v3/events', '/v3/events/update']);
		expect((await lastBody()).alerts).toEqual({ [id60]: null });
		expect(items[0].json.alerts ?? {}).toEqual({});
		expect((await getEvent(created.id)).body.data.event.alerts ?? {}).toEqual({});
	});

	it('refuses to remove an alert the event does not have, before changing anything', async () => {
		const created = await createEvent({ title: 'unchanged' });
		const { error } = await run({
			operation: 'update',
			eventId: created.id,
			...target,
			updateFields: { title: 'changed', alertsToRemove: { alert: [{ minutesBefore: 10, action: 'display' }] } },
		});
		expect(error?.message).toBe('Alerts to Remove: the event has no "display" alert 10 minutes before the start');
		expect((await sandbox.requests()).map((call) => call.path)).toEqual(['/v3/events/create', '/v3/events']);
		expect((await getEvent(created.id)).body.data.event.title).toBe('unchanged');
	});

	it('reports an alert removal the service could not carry out (occurrence named by series), instead of success', async () => {
		const id60 = base64('{"a":"display","to":"-PT60M"}');
		const series = await createEvent({
			start: '2026-12-07T09:00:00',
			alerts: { [id60]: { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: '-PT60M', relativeTo: 'start' }, action: 'display' } },
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1, count: 3 }],
		});
		const { error } = await run({
			operation: 'update',
			identifyBy: 'occurrence',
			masterEventId: series.id,
			recurrenceId: '2026-12-08T09:00:00',
			recurrenceIdTimeZone: 'Europe/Berlin',
			...target,
			updateFields: { alertsToRemove: { alert: [{ minutesBefore: 60, action: 'display' }] } },
		});
		expect(error?.message).toBe('The event was updated, but the "display" alert 60 minutes before the start could not be removed');
	});

	it('adds a location without replacing the others, removes one by name, and keeps the service\'s keys', async () => {
		const created = await createEvent({
			locations: { 'room-key': { '@type': 'Location', name: 'Room 1' }, lobby: { '@type': 'Location', name: 'Lobby' } },
		});
		const { items, error } = await run({
			operation: 'update',
			eventId: created.id,
			...target,
			updateFields: { locations: { location: [{ name: 'Room 2' }] }, locationsToRemove: 'Lobby' },
		});
		expect(error).toBeUndefined();
		expect((await lastBody()).locations).toEqual({ [base64('Room 2')]: { '@type': 'Location', name: 'Room 2' }, lobby: null });
		expect(items[0].json.locations).toEqual({
			'room-key': { '@type': 'Location', name: 'Room 1' },
			[base64('Room 2')]: { '@type': 'Location', name: 'Room 2' },
		});
	});

	it('makes a series a single event with Remove Recurrence', async () => {
		const series = await createEvent({
			start: '2026-12-07T09:00:00',
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1, count: 3 }],
		});
		const { items, error } = await run({
			operation: 'update',
			eventId: series.id,
			...target,
			seriesUpdateMode: 'all',
			updateFields: { removeRecurrence: true },
		});
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toBeNull();
		expect(items[0].json).not.toHaveProperty('recurrenceRules');
		expect(await listEvents('2026-12-01T00:00:00Z', '2027-01-31T00:00:00Z')).toHaveLength(1);
	});

	it('converts a recurrence Until with an offset on update into the event\'s own zone, read once', async () => {
		const series = await createEvent({
			start: '2026-12-07T23:00:00',
			timeZone: 'Europe/Berlin',
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1, count: 10 }],
		});
		const { error } = await run({
			operation: 'update',
			eventId: series.id,
			...target,
			seriesUpdateMode: 'all',
			updateFields: { recurrence: { rule: { frequency: 'daily', interval: 1, ends: 'until', until: '2026-12-09T22:30:00Z' } } },
		});
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1, until: '2026-12-09T23:30:00' }]);
		expect(await listEvents('2026-12-01T00:00:00Z', '2027-01-31T00:00:00Z')).toHaveLength(3);
	});

	it('adding an alert to an event on the calendar\'s default alerts switches the defaults off', async () => {
		const created = await createEvent({ useDefaultAlerts: true });
		const { items, error } = await run({
			operation: 'update',
			eventId: created.id,
			...target,
			updateFields: { alerts: { alert: [{ minutesBefore: 5, action: 'display' }] } },
		});
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ useDefaultAlerts: false });
		expect(items[0].json).toMatchObject({ useDefaultAlerts: false });
		expect(Object.keys(items[0].json.alerts as object)).toEqual([base64('{"a":"display","to":"-PT5M"}')]);
	});

	it('fills the missing timing fields from the event (one read) when only the start changes', async () => {
		const created = await createEvent({ duration: 'PT30M', timeZone: 'Asia/Tokyo', start: '2026-12-01T09:00:00' });
		await sandbox.clearRequests();
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { start: '2026-12-01T11:00:00' } });
		expect(error).toBeUndefined();
		const calls = await sandbox.requests();
		expect(calls.map((call) => call.path)).toEqual(['/v3/events', '/v3/events/update']);
		expect(calls[1].body).toMatchObject({ start: '2026-12-01T11:00:00', duration: 'PT30M', timeZone: 'Asia/Tokyo', showWithoutTime: false });
		expect(withEnd(items[0].json)).toMatchObject({ start: '2026-12-01T11:00:00', end: '2026-12-01T11:30:00' });
	});

	it('switches a timed event to all-day and back', async () => {
		const created = await createEvent();
		const toAllDay = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { allDay: true } });
		expect(toAllDay.error).toBeUndefined();
		expect(toAllDay.items[0].json).toMatchObject({ showWithoutTime: true, start: '2026-12-01T00:00:00', duration: 'P1D', timeZone: null });
		const missingStart = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { allDay: false, timeZone: 'Europe/Paris' } });
		expect(missingStart.error?.message).toContain('Start: give the start time when an all-day event becomes a timed one');
		const toTimed = await run({
			operation: 'update',
			eventId: created.id,
			...target,
			updateFields: { allDay: false, start: '2026-12-01T15:00:00', timeZone: 'Europe/Paris', duration: 'PT2H' },
		});
		expect(toTimed.error).toBeUndefined();
		expect(toTimed.items[0].json).toMatchObject({ showWithoutTime: false, start: '2026-12-01T15:00:00', timeZone: 'Europe/Paris', duration: 'PT2H' });
	});

	it('shows the service message for a series mode on a non-recurring event', async () => {
		const created = await createEvent();
		const { error } = await run({ operation: 'update', eventId: created.id, ...target, seriesUpdateMode: 'all', updateFields: { title: 'x' } });
		expect(error?.message).toContain("Cannot apply 'all' series update mode to non-recurring events");
		expect(error?.httpCode).toBe('400');
	});

	it('edits one occurrence, this and following, and all occurrences of a series', async () => {
		const series = await createEvent({
			title: 'Weekly',
			start: '2026-12-07T09:00:00',
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1, count: 6 }],
		});
		const list = () => listEvents('2026-12-01T00:00:00Z', '2027-02-01T00:00:00Z');
		const occurrences = await list();
		expect(occurrences).toHaveLength(6);

		expect((await run({ operation: 'update', eventId: occurrences[1].id, ...target, seriesUpdateMode: 'single', updateFields: { title: 'Moved' } })).error).toBeUndefined();
		expect((await list()).map((event) => event.title)).toEqual(['Weekly', 'Moved', 'Weekly', 'Weekly', 'Weekly', 'Weekly']);

		const byRecurrenceId = await run({
			operation: 'update',
			identifyBy: 'occurrence',
			masterEventId: series.id,
			recurrenceId: occurrences[2].recurrenceId,
			recurrenceIdTimeZone: 'Europe/Berlin',
			...target,
			updateFields: { description: 'third' },
		});
		expect(byRecurrenceId.error).toBeUndefined();
		expect((await list())[2].description).toBe('third');

		expect((await run({ operation: 'update', eventId: occurrences[3].id, ...target, seriesUpdateMode: 'future', updateFields: { title: 'Later' } })).error).toBeUndefined();
		expect((await list()).map((event) => event.title)).toEqual(['Weekly', 'Moved', 'Weekly', 'Later', 'Later', 'Later']);

		expect((await run({ operation: 'update', eventId: occurrences[0].id, ...target, seriesUpdateMode: 'all', updateFields: { privacy: 'private' } })).error).toBeUndefined();
		// The series that "this and following" split off keeps its own privacy.
		expect((await list()).map((event) => event.privacy)).toEqual(['private', 'private', 'private', 'public', 'public', 'public']);
	});

	it('identifies an occurrence without an id only with all timing fields', async () => {
		const { error } = await run({
			operation: 'update',
			identifyBy: 'occurrence',
			masterEventId: 'm',
			recurrenceId: '2026-12-07T09:00:00',
			...target,
			updateFields: { start: '2026-12-07T10:00:00' },
		});
		expect(error?.message).toContain('Update Fields: start, duration, timeZone and showWithoutTime must be provided together');
		expect(await sandbox.requests()).toHaveLength(0);
	});
});

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
