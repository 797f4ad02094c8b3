/**
 * Conformance of the v3 events endpoints: create, one test per rule of the interface and of the notes on
 * where it is silent.
 * Over real HTTP against an in-process sandbox; the setup and helpers the events test files share are in
 * `support/events.ts`.
 */
import {
	ACC_A,
	ACC_B,
	ACC_BOB,
	ACC_C,
	ACC_EXPIRED,
	ACC_REVOKED,
	ALERT_15,
	ALERT_15_ID,
	ALERT_60_ID,
	ALICE_EMAIL,
	CAL_A,
	CAL_B,
	CAL_BOB,
	CAL_C,
	CAL_EXPIRED,
	CAL_REVOKED,
	M,
	allDay,
	b64,
	eventBody,
	timed,
	useEventsApi,
	weekly,
} from './support/events';
import { TIMESTAMP, expectErrorBody, expectValidation } from './support/http';

const { api, ev, freeze, series } = useEventsApi();

describe('create', () => {
	it('create: answers 200 (not 201) with { data: { event } }, the full event', async () => {
		const res = await api().post('/v3/events/create', eventBody());
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['data']);
		expect(Object.keys(res.body.data)).toEqual(['event']);
		expect(await ev.getEvent(res.body.data.event.id)).toEqual(res.body.data.event);
	});

	it('create: a new event carries @type, id, uid, calendarId, accountId, integrationId, baseEventId = id, created = updated, and the defaults', async () => {
		await freeze('2026-02-01T10:00:00.125Z');
		const event = await ev.create();
		expect(event).toEqual({
			'@type': 'Event',
			id: event.id,
			uid: expect.any(String),
			calendarId: CAL_A,
			accountId: ACC_A,
			integrationId: 'providerA',
			baseEventId: event.id,
			created: '2026-02-01T10:00:00.125Z',
			updated: '2026-02-01T10:00:00.125Z',
			title: 'Meeting',
			descriptionContentType: 'text/plain',
			start: '2026-03-02T09:00:00',
			timeZone: 'Europe/Berlin',
			duration: 'PT1H',
			showWithoutTime: false,
			privacy: 'public',
			freeBusyStatus: 'busy',
			useDefaultAlerts: true,
		});
		expect(event.uid).not.toBe(event.id);
	});

	it('create: created and updated are UTC ISO 8601 with milliseconds on the sandbox clock', async () => {
		const event = await ev.create();
		expect(event.created).toMatch(TIMESTAMP);
		expect(event.updated).toBe(event.created);
	});

	it('create: fields with no value are omitted, never null (timeZone is null only where the interface types it so)', async () => {
		const event = await ev.create({ description: null, locations: null, participants: null, alerts: null, recurrenceRules: null });
		for (const field of ['description', 'locations', 'participants', 'alerts', 'recurrenceRules', 'masterEventId', 'recurrenceId', 'service.example:metadata', 'service.example:derived']) {
			expect(event).not.toHaveProperty([field]);
		}
		expect(JSON.stringify(event)).not.toContain('null');
		const day = await ev.create(allDay());
		expect(day.timeZone).toBeNull();
	});

	it('create: an empty object (alerts: {}) is a value and is returned as is', async () => {
		const event = await ev.create({ alerts: {}, locations: {}, participants: {}, recurrenceRules: [] });
		expect(event.recurrenceRules).toEqual([]);
		expect((await ev.listEvents()).map((e) => e.id)).toEqual([event.id]);
		expect(event.alerts).toEqual({});
		expect(event.locations).toEqual({});
		expect(event.participants).toEqual({});
		expect((await ev.getEvent(event.id)).alerts).toEqual({});
	});

	it('create: integrationId comes from the account (providerA, providerB, caldav)', async () => {
		expect((await ev.create()).integrationId).toBe('providerA');
		expect((await ev.create({ accountId: ACC_B, calendarId: CAL_B })).integrationId).toBe('providerB');
		expect((await ev.create({ accountId: ACC_C, calendarId: CAL_C })).integrationId).toBe('caldav');
	});

	it('create: every optional field is stored and returned', async () => {
		const body = {
			title: 'Planning',
			description: '<p>Agenda</p>',
			descriptionContentType: 'text/html',
			locations: { room: { '@type': 'Location', name: 'Room 1' } },
			participants: {
				[b64('carol@example.com')]: {
					'@type': 'Participant',
					name: 'Carol',
					email: 'carol@example.com',
					roles: { attendee: true, optional: true },
					participationStatus: 'accepted',
					expectReply: true,
					kind: 'individual',
				},
			},
			alerts: { [ALERT_15_ID]: ALERT_15 },
			useDefaultAlerts: false,
			privacy: 'private',
			freeBusyStatus: 'free',
			status: 'tentative',
			color: 'teal',
			keywords: { planning: true },
			categories: { work: true },
			locale: 'en',
			priority: 3,
			'provider.example:colorId': '7',
		};
		const event = await ev.create(body);
		expect(event).toMatchObject({ ...body, participants: { [b64('carol@example.com')]: { ...body.participants[b64('carol@example.com')], accountOwner: false } } });
		expect(await ev.getEvent(event.id)).toEqual(event);
	});

	it.each([
		['id', 'x'],
		['uid', 'x@example.com'],
		['baseEventId', 'x'],
		['created', '2026-01-01T00:00:00.000Z'],
		['updated', '2026-01-01T00:00:00.000Z'],
		['integrationId', 'providerA'],
		['masterEventId', 'x'],
		['masterBaseEventId', 'x'],
		['recurrenceId', '2026-03-02T09:00:00'],
		['service.example:derived', {}],
		['service.example:metadata', {}],
		['provider.example:hangoutLink', 'https://meet.provider-a.example/abc-defg-hij'],
	])('create: read-only field %s answers 400', async (field, value) => {
		expectValidation(await api().post('/v3/events/create', eventBody({ [field]: value })), [`${field} is read-only`]);
	});

	it('create: the response cannot be sent back to create as is (read-only fields answer 400)', async () => {
		const event = await ev.create({ 'service.example:requestVirtualRoom': 'default' });
		const res = await api().post('/v3/events/create', event);
		expect(res.status).toBe(400);
		const messages = JSON.parse(res.body.message);
		for (const field of ['id', 'uid', 'baseEventId', 'created', 'updated', 'integrationId', 'service.example:derived', 'provider.example:hangoutLink']) {
			expect(messages).toContain(`${field} is read-only`);
		}
	});

	it('create: unknown properties in the body answer 400', async () => {
		expectValidation(await api().post('/v3/events/create', eventBody({ colour: 'red' })), ['property colour should not exist']);
		expectValidation(await api().post('/v3/events/create', eventBody({ seriesUpdateMode: 'all' })), ['property seriesUpdateMode should not exist']);
		expectValidation(await api().post('/v3/events/create', eventBody({ locations: { l: { name: 'x', floor: 2 } } })), [
			'property floor should not exist',
		]);
	});

	it('create: query parameters answer 400', async () => {
		const res = await api().call('POST', '/v3/events/create', { body: eventBody(), query: { accountId: ACC_A } });
		expectValidation(res, ['property accountId should not exist']);
	});

	it('create: required fields missing answer 400 naming every one', async () => {
		expectValidation(await api().post('/v3/events/create', {}), [
			'accountId must be a string',
			'calendarId must be a string',
			'title must be longer than or equal to 1 characters',
			M.start,
			M.duration,
			'timeZone is required: an IANA time zone, or null for all-day events',
			'showWithoutTime must be a boolean value',
		]);
	});

	it('create: title must be a non-empty string', async () => {
		expectValidation(await api().post('/v3/events/create', eventBody({ title: '' })), ['title must be longer than or equal to 1 characters']);
		expectValidation(await api().post('/v3/events/create', eventBody({ title: 7 })), ['title must be a string']);
	});

	it.each([
		['date only', '2026-03-02'],
		['with Z', '2026-03-02T09:00:00Z'],
		['with offset', '2026-03-02T09:00:00+01:00'],
		['with milliseconds', '2026-03-02T09:00:00.000'],
		['without seconds', '2026-03-02T09:00'],
		['not a real date', '2026-02-30T09:00:00'],
		['year 0', '0000-03-02T09:00:00'],
		['a number', 20260302],
	])('create: start %s answers 400 (LocalDateTime, exactly 19 characters)', async (_case, start) => {
		expectValidation(await api().post('/v3/events/create', eventBody({ start })), [M.start]);
	});

	it.each([['EST'], ['CET'], ['GMT+1'], ['Etc/GMT+1'], ['Etc/GMT'], ['+01:00'], ['Mars/Olympus'], ['Europe/Berlin '], [''], [42]])(
		'create: timeZone %p answers 400 "Event timeZone should be a valid IANA time zone"',
		async (timeZone) => {
			expectValidation(await api().post('/v3/events/create', eventBody({ timeZone })), [M.timeZone]);
		},
	);

	it('create: UTC, Etc/UTC and region names are valid time zones', async () => {
		for (const timeZone of ['UTC', 'Etc/UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata']) {
			expect((await ev.create({ timeZone })).timeZone).toBe(timeZone);
		}
	});

	it.each([['1 hour'], ['PT'], ['P'], ['-PT1H'], ['PT1H30'], ['60'], [3600], ['']])(
		'create: duration %p answers 400 "Event duration should be a valid ISO8601 duration"',
		async (duration) => {
			expectValidation(await api().post('/v3/events/create', eventBody({ duration })), [M.duration]);
		},
	);

	it('create: ISO 8601 durations such as PT25M, PT1H, P1D, P1DT2H30M are accepted', async () => {
		for (const duration of ['PT25M', 'PT1H', 'P1D', 'P1DT2H30M', 'PT0S']) {
			expect((await ev.create({ duration })).duration).toBe(duration);
		}
	});

	it('create: descriptionContentType is text/plain by default, text/html accepted, anything else 400', async () => {
		expect((await ev.create({ description: 'x' })).descriptionContentType).toBe('text/plain');
		expect((await ev.create({ descriptionContentType: 'text/html' })).descriptionContentType).toBe('text/html');
		expectValidation(await api().post('/v3/events/create', eventBody({ descriptionContentType: 'text/markdown' })), [
			'descriptionContentType must be one of the following values: text/plain, text/html',
		]);
	});

	it('create: privacy is public by default; private and secret accepted; anything else 400', async () => {
		expect((await ev.create()).privacy).toBe('public');
		expect((await ev.create({ privacy: 'private' })).privacy).toBe('private');
		expect((await ev.create({ privacy: 'secret' })).privacy).toBe('secret');
		expectValidation(await api().post('/v3/events/create', eventBody({ privacy: 'confidential' })), [
			'privacy must be one of the following values: public, private, secret',
		]);
	});

	it('create: freeBusyStatus is busy by default; free accepted; anything else 400', async () => {
		expect((await ev.create()).freeBusyStatus).toBe('busy');
		expect((await ev.create({ freeBusyStatus: 'free' })).freeBusyStatus).toBe('free');
		expectValidation(await api().post('/v3/events/create', eventBody({ freeBusyStatus: 'tentative' })), [
			'freeBusyStatus must be one of the following values: free, busy',
		]);
	});

	it('create: an all-day event has timeZone null, starts at midnight and lasts whole days', async () => {
		const event = await ev.create(allDay('2026-03-02', 2));
		expect(event).toMatchObject({ start: '2026-03-02T00:00:00', duration: 'P2D', timeZone: null, showWithoutTime: true });
		expectValidation(await api().post('/v3/events/create', eventBody({ ...allDay(), timeZone: 'Europe/Berlin' })), [
			'timeZone must be null when showWithoutTime is true (all-day events have no time zone)',
		]);
		expectValidation(await api().post('/v3/events/create', eventBody({ ...allDay(), start: '2026-03-02T09:00:00' })), [
			'start of an all-day event must be at midnight (T00:00:00)',
		]);
		expectValidation(await api().post('/v3/events/create', eventBody({ ...allDay(), duration: 'PT24H' })), [
			'duration of an all-day event must be a whole number of days or weeks (e.g. P1D)',
		]);
		expect((await ev.create({ ...allDay(), duration: 'P1W' })).duration).toBe('P1W');
	});

	it('create: floating timed events (timeZone null, showWithoutTime false) are kept on provider A, given UTC on provider B, refused on CalDAV', async () => {
		const floating = timed('2026-03-02T09:00:00', null);
		expect((await ev.create(floating)).timeZone).toBeNull();
		expect((await ev.create({ ...floating, accountId: ACC_B, calendarId: CAL_B })).timeZone).toBe('UTC');
		expectErrorBody(
			await api().post('/v3/events/create', eventBody({ ...floating, accountId: ACC_C, calendarId: CAL_C })),
			400,
			'Floating timed events (timeZone null with showWithoutTime false) are not supported by CalDAV calendars: give an explicit timeZone',
		);
	});

	it('create: participants are keyed by the base64-encoded e-mail address; a raw address as key is stored under its base64 key', async () => {
		const event = await ev.create({
			participants: {
				[b64('dave@example.com')]: { email: 'dave@example.com' },
				'erin@example.com': { email: 'erin@example.com', name: 'Erin' },
			},
		});
		expect(Object.keys(event.participants).sort()).toEqual([b64('dave@example.com'), b64('erin@example.com')].sort());
	});

	it('create: a participant key that is neither the e-mail address nor its base64 answers 400', async () => {
		expectValidation(await api().post('/v3/events/create', eventBody({ participants: { p1: { email: 'dave@example.com' } } })), [
			'participants must be keyed by the base64-encoded e-mail address of the participant',
		]);
		expectValidation(
			await api().post('/v3/events/create', eventBody({ participants: { [b64('x@example.com')]: { email: 'dave@example.com' } } })),
			['participants must be keyed by the base64-encoded e-mail address of the participant'],
		);
	});

	it('create: a participant needs an e-mail address; @type, roles, accountOwner and participationStatus get their defaults', async () => {
		expectValidation(await api().post('/v3/events/create', eventBody({ participants: { [b64('x@y.z')]: { name: 'X' } } })), [
			'each participant must have an email address',
		]);
		const event = await ev.create({
			participants: { [b64(ALICE_EMAIL)]: { email: ALICE_EMAIL }, [b64('dave@example.com')]: { email: 'dave@example.com' } },
		});
		expect(event.participants[b64(ALICE_EMAIL)]).toEqual({
			'@type': 'Participant',
			email: ALICE_EMAIL,
			roles: { attendee: true },
			accountOwner: true,
			participationStatus: 'needs-action',
		});
		expect(event.participants[b64('dave@example.com')].accountOwner).toBe(false);
	});

	it('create: alerts are keyed by the base64 of {"a":<action>,"to":<offset>}, whatever key was sent', async () => {
		const event = await ev.create({
			alerts: { mine: { trigger: { offset: '-PT15M' } }, other: { trigger: { offset: '-PT1H', relativeTo: 'start' }, action: 'email' } },
		});
		expect(event.alerts).toEqual({
			[ALERT_15_ID]: ALERT_15,
			[ALERT_60_ID]: { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: '-PT1H', relativeTo: 'start' }, action: 'email' },
		});
		expect(event.useDefaultAlerts).toBe(false);
	});

	it('create: only alerts relative to the start are supported', async () => {
		expectValidation(await api().post('/v3/events/create', eventBody({ alerts: { a: { trigger: { offset: '-PT5M', relativeTo: 'end' } } } })), [
			'alert trigger relativeTo must be start: only alerts relative to the start are supported',
		]);
		expectValidation(await api().post('/v3/events/create', eventBody({ alerts: { a: { trigger: { offset: '15 minutes' } } } })), [
			'alert trigger offset must be an ISO 8601 duration (negative = before the start, e.g. -PT15M)',
		]);
	});

	it('create: alerts cannot be combined with useDefaultAlerts true', async () => {
		expectValidation(await api().post('/v3/events/create', eventBody({ alerts: { [ALERT_15_ID]: ALERT_15 }, useDefaultAlerts: true })), [
			M.alertsWithDefault,
		]);
	});

	it('create: useDefaultAlerts is true without alerts and false with them, unless given', async () => {
		expect((await ev.create()).useDefaultAlerts).toBe(true);
		expect((await ev.create({ alerts: { [ALERT_15_ID]: ALERT_15 } })).useDefaultAlerts).toBe(false);
		const none = await ev.create({ useDefaultAlerts: false });
		expect(none.useDefaultAlerts).toBe(false);
		expect(none).not.toHaveProperty('alerts');
	});

	it('create: provider.example:colorId takes "1" to "11" on provider A calendars', async () => {
		expect((await ev.create({ 'provider.example:colorId': '1' }))['provider.example:colorId']).toBe('1');
		expect((await ev.create({ 'provider.example:colorId': '11' }))['provider.example:colorId']).toBe('11');
		for (const colorId of ['0', '12', 5, 'red']) {
			expectValidation(await api().post('/v3/events/create', eventBody({ 'provider.example:colorId': colorId })), [
				'provider.example:colorId must be one of the following values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11',
			]);
		}
	});

	it('create: provider.example:colorId on provider B and CalDAV calendars is accepted with no effect', async () => {
		const b = await ev.create({ accountId: ACC_B, calendarId: CAL_B, 'provider.example:colorId': '4' });
		const c = await ev.create({ accountId: ACC_C, calendarId: CAL_C, 'provider.example:colorId': '4' });
		expect(b).not.toHaveProperty(['provider.example:colorId']);
		expect(c).not.toHaveProperty(['provider.example:colorId']);
	});

	it('create: recurrenceRules are validated and returned on the master', async () => {
		const master = await series({ recurrenceRules: weekly({ interval: 2, byDay: [{ '@type': 'NDay', day: 'mo' }] }) });
		expect(master.recurrenceRules).toEqual(weekly({ interval: 2, byDay: [{ '@type': 'NDay', day: 'mo' }] }));
		expect(master.baseEventId).toBe(master.id);
		expect(master).not.toHaveProperty('masterEventId');
		const res = await api().post('/v3/events/create', eventBody({ recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'hourly' }] }));
		expect(res.status).toBe(400);
		expect(JSON.parse(res.body.message)[0]).toMatch(/^recurrenceRules\[0\]\.frequency must be one of/);
		expectValidation(await api().post('/v3/events/create', eventBody({ recurrenceRules: 'weekly' })), ['recurrenceRules must be an array']);
	});

	it('create: a recurring event answers its master; the list shows its occurrences, matched by masterEventId', async () => {
		const master = await series();
		const events = await ev.listEvents();
		expect(events.length).toBeGreaterThan(1);
		for (const instance of events) expect(instance.masterEventId).toBe(master.id);
		expect(events.map((e) => e.id)).not.toContain(master.id);
	});

	it('create: service.example:requestVirtualRoom default on provider A writes the join link into the description and fills hangoutLink and derived.virtualRoom.url', async () => {
		const event = await ev.create({ description: 'Agenda', 'service.example:requestVirtualRoom': 'default' });
		const url = event['provider.example:hangoutLink'];
		expect(url).toMatch(/^https:\/\/meet\.provider-a\.example\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
		expect(event.description).toBe(`Agenda\n\nJoin the meeting: ${url}`);
		expect(event['service.example:derived']).toEqual({ virtualRoom: { url } });
		expect(event).not.toHaveProperty(['service.example:requestVirtualRoom']);
	});

	it('create: default on provider B gives provider B\'s room: link in the description and derived, no hangoutLink', async () => {
		const event = await ev.create({ accountId: ACC_B, calendarId: CAL_B, 'service.example:requestVirtualRoom': 'default' });
		const url = event['service.example:derived'].virtualRoom.url;
		expect(url).toMatch(/^https:\/\/meetings\.provider-b\.example\/join\/[0-9a-f]{24}$/);
		expect(event.description).toBe(`Join the meeting: ${url}`);
		expect(event).not.toHaveProperty(['provider.example:hangoutLink']);
		const named = await ev.create({ accountId: ACC_B, calendarId: CAL_B, 'service.example:requestVirtualRoom': 'providerBMeetingRoom' });
		expect(named['service.example:derived'].virtualRoom.url).toMatch(/provider-b/);
	});

	it('create: a room kind of one provider on the other provider\'s calendar answers 400; CalDAV calendars have no rooms', async () => {
		expectErrorBody(
			await api().post('/v3/events/create', eventBody({ 'service.example:requestVirtualRoom': 'providerBMeetingRoom' })),
			400,
			'providerBMeetingRoom rooms cannot be used on providerA calendars',
		);
		expectErrorBody(
			await api().post('/v3/events/create', eventBody({ accountId: ACC_B, calendarId: CAL_B, 'service.example:requestVirtualRoom': 'providerAMeetingRoom' })),
			400,
			'providerAMeetingRoom rooms cannot be used on providerB calendars',
		);
		expectErrorBody(
			await api().post('/v3/events/create', eventBody({ accountId: ACC_C, calendarId: CAL_C, 'service.example:requestVirtualRoom': 'default' })),
			400,
			'Virtual rooms are not available on caldav calendars',
		);
		expectValidation(await api().post('/v3/events/create', eventBody({ 'service.example:requestVirtualRoom': 'zoom' })), [
			'service.example:requestVirtualRoom must be one of the following values: default, providerAMeetingRoom, providerBMeetingRoom',
		]);
	});

	it('create: an HTML description gets the join link as HTML', async () => {
		const event = await ev.create({ description: '<p>Hi</p>', descriptionContentType: 'text/html', 'service.example:requestVirtualRoom': 'default' });
		const url = event['provider.example:hangoutLink'];
		expect(event.description).toBe(`<p>Hi</p><p>Join the meeting: <a href="${url}">${url}</a></p>`);
	});

	it('create: derived.virtualRoom is the meeting link found in the description, even one written there by hand', async () => {
		const url = 'https://meet.provider-a.example/abc-defg-hij';
		const event = await ev.create({ description: `Dial in: ${url}` });
		expect(event['service.example:derived']).toEqual({ virtualRoom: { url } });
		expect(event).not.toHaveProperty(['provider.example:hangoutLink']);
	});

	it('create: an account that is unknown or another user\'s answers 400; a calendar of another account 400', async () => {
		expectErrorBody(await api().post('/v3/events/create', eventBody({ accountId: 'acc-none' })), 400, M.account);
		expectErrorBody(await api().post('/v3/events/create', eventBody({ accountId: ACC_BOB, calendarId: CAL_BOB })), 400, M.account);
		expectErrorBody(
			await api().post('/v3/events/create', eventBody({ calendarId: CAL_B })),
			400,
			`calendar ${CAL_B} is not a calendar of account ${ACC_A}`,
		);
		expectErrorBody(await api().post('/v3/events/create', eventBody({ calendarId: 'cal-none' })), 400);
	});

	it('create: an expired connection answers 401 and a revoked one 403, saying so', async () => {
		expectErrorBody(
			await api().post('/v3/events/create', eventBody({ accountId: ACC_EXPIRED, calendarId: CAL_EXPIRED })),
			401,
			`The calendar connection of account ${ACC_EXPIRED} has expired: reconnect the account`,
		);
		expectErrorBody(
			await api().post('/v3/events/create', eventBody({ accountId: ACC_REVOKED, calendarId: CAL_REVOKED })),
			403,
			`The calendar connection of account ${ACC_REVOKED} was revoked: reconnect the account`,
		);
	});

	it('create: a refused create stores nothing', async () => {
		await api().post('/v3/events/create', eventBody({ 'service.example:requestVirtualRoom': 'providerBMeetingRoom' }));
		await api().post('/v3/events/create', eventBody({ timeZone: 'EST' }));
		expect(api().sandbox.store.eventsOf('alice').size).toBe(0);
	});

	it('create: a body that is not a JSON object answers 400', async () => {
		expectValidation(await api().post('/v3/events/create', [eventBody()]), ['request body must be a JSON object']);
	});
});
