/**
 * Event Create.
 *
 * The CTS Event node (v3) run by n8n's real engine against the sandbox over HTTP. What the node
 * sent is read from the sandbox's request log; what it changed is read back through the API.
 */
import { withEnd } from '../../../../nodes/shared/output/simplifyEvent';
import { eventApi, eventNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = eventNodeSuite();
const { getEvent, listEvents } = eventApi(sandbox);
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

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
