/**
 * Conformance of the v3 events endpoints, one test per rule of the interface and of the notes on
 * where it is silent. Over real HTTP against an in-process sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSandbox } from './server';
import {
	ACC_A,
	ACC_B,
	ACC_BOB,
	ACC_C,
	ACC_EXPIRED,
	ACC_REVOKED,
	ALICE_EMAIL,
	CAL_A,
	CAL_A_TEAM,
	CAL_B,
	CAL_BOB,
	CAL_C,
	CAL_EXPIRED,
	CAL_REVOKED,
	Events,
	IN_A,
	allDay,
	b64,
	eventBody,
	timed,
	weekly,
} from './support/events';
import { BOB, Client, TIMESTAMP, expectErrorBody, expectValidation, useSandbox } from './support/http';

const ctx = useSandbox();
const api = () => ctx.client;
const ev = new Events(api);

const freeze = (now: string) => api().control('POST', 'clock', { now });
const advance = (advanceSeconds: number) => api().control('POST', 'clock', { advanceSeconds });
const setConnection = (accountId: string, connection: 'active' | 'expired' | 'revoked') => {
	api().sandbox.store.accounts.get(accountId)!.connection = connection;
};

const M = {
	timing: 'start, duration, timeZone and showWithoutTime must be provided together (timeZone may be null)',
	timeZone: 'Event timeZone should be a valid IANA time zone',
	duration: 'Event duration should be a valid ISO8601 duration',
	identify: 'Event must have either id or both masterEventId and recurrenceId',
	start: 'start must be a valid LocalDateTime (YYYY-MM-DDTHH:mm:ss)',
	alertsWithDefault: 'alerts cannot be combined with useDefaultAlerts true',
	inBody: 'seriesUpdateMode must be given in the query string, not in the body',
	account: 'accountId does not name a calendar account of this user',
	windowLength: 'The window from start to end must not be longer than 6 months',
};

const ALERT_15 = { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: '-PT15M', relativeTo: 'start' }, action: 'display' };
const ALERT_15_ID = b64('{"a":"display","to":"-PT15M"}');
const ALERT_60_ID = b64('{"a":"email","to":"-PT1H"}');

/** A weekly series on Mondays from 2 March 2026, 09:00 Berlin. */
const series = (extra: Record<string, unknown> = {}) => ev.create({ title: 'Weekly', recurrenceRules: weekly(), ...extra });

// ---------------------------------------------------------------------------------------------

describe('ids', () => {
	it('ids: event ids are opaque, mixed case, and contain +, / and =', async () => {
		for (let i = 0; i < 20; i++) {
			const { id } = await ev.create();
			expect(id).toMatch(/\+/);
			expect(id).toMatch(/\//);
			expect(id).toMatch(/=/);
			expect(id).toMatch(/[A-Z]/);
			expect(id).toMatch(/[a-z]/);
		}
	});

	it('ids: ids with +, / and = round trip through get, update and delete when percent-encoded', async () => {
		const { id } = await ev.create();
		const raw = await api().call('GET', `/v3/events?id=${encodeURIComponent(id)}`);
		expect(raw.status).toBe(200);
		expect(raw.body.data.event.id).toBe(id);
		expect((await ev.updated({ id, title: 'Renamed' })).id).toBe(id);
		expect((await ev.delete(id)).status).toBe(204);
	});

	it('ids: an id sent in a query without percent-encoding is another id (+ reads as a space): 404', async () => {
		const { id } = await ev.create();
		expectErrorBody(await api().call('GET', `/v3/events?id=${id}`), 404);
	});

	it('ids: a changed id (case, trimmed padding, re-encoded) names no event: 404', async () => {
		const { id } = await ev.create();
		for (const changed of [id.toLowerCase(), id.replace(/=+$/, ''), id.replace(/\+/g, '-').replace(/\//g, '_'), ` ${id}`]) {
			expectErrorBody(await ev.get(changed), 404);
		}
	});

	it('ids: instance ids differ from the master id, are stable across lists, and are accepted by get, update and delete', async () => {
		const master = await series();
		const first = await ev.listEvents();
		const second = await ev.listEvents();
		expect(first.map((e) => e.id)).toEqual(second.map((e) => e.id));
		expect(new Set(first.map((e) => e.id)).size).toBe(first.length);
		for (const instance of first) {
			expect(instance.id).not.toBe(master.id);
			expect(instance.masterEventId).toBe(master.id);
			expect(instance.id).toMatch(/\+/);
			expect(instance.id).toMatch(/\//);
			expect(instance.id).toMatch(/=/);
		}
		const [a, b] = first;
		expect((await ev.getEvent(a.id)).id).toBe(a.id);
		expect((await ev.updated({ id: a.id, title: 'One' })).id).toBe(a.id);
		expect((await ev.delete(b.id)).status).toBe(204);
		expectErrorBody(await ev.get(b.id), 404);
	});

	it('ids: uid is not an id: get, update and delete by uid answer 404', async () => {
		const { uid } = await ev.create();
		expectErrorBody(await ev.get(uid), 404);
		expectErrorBody(await ev.update({ id: uid, title: 'x' }), 404);
		expectErrorBody(await ev.delete(uid), 404);
	});

	it('ids: an id of another user\'s event is unknown: 404 on get, update and delete, and the event is unchanged', async () => {
		const bobs = await ev.create({ accountId: ACC_BOB, calendarId: CAL_BOB }, BOB);
		expectErrorBody(await ev.get(bobs.id), 404);
		expectErrorBody(await ev.update({ id: bobs.id, title: 'Mine' }), 404);
		expectErrorBody(await ev.delete(bobs.id), 404);
		expect((await ev.getEvent(bobs.id, BOB)).title).toBe('Meeting');
	});

	it('ids: an id is meaningful only with its account and calendar: another calendar or account of the same user answers 404', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.update({ id, calendarId: CAL_A_TEAM, title: 'x' }), 404);
		expectErrorBody(await ev.update({ id, accountId: ACC_B, calendarId: CAL_B, title: 'x' }), 404);
		expectErrorBody(await ev.delete(id, undefined, { accountId: ACC_B, calendarId: CAL_B }), 404);
		expect((await ev.getEvent(id)).title).toBe('Meeting');
	});

	it('ids: id and calendarId are not interchangeable', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.get(CAL_A), 404);
		expectErrorBody(await ev.update({ id: CAL_A, title: 'x' }), 404);
		expect((await ev.update({ id, calendarId: id, title: 'x' })).status).toBe(400);
	});
});

// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------

describe('list', () => {
	it('list: answers 200 { data: { events } } with the events in the window', async () => {
		const event = await ev.create();
		const res = await ev.list();
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['data']);
		expect(Object.keys(res.body.data)).toEqual(['events']);
		expect(res.body.data.events).toEqual([event]);
	});

	it.each([['accountId'], ['calendarIds'], ['start'], ['end']])('list: the query parameter %s is required', async (name) => {
		const query = { accountId: ACC_A, calendarIds: CAL_A, start: '2026-03-01T00:00:00Z', end: '2026-04-01T00:00:00Z' } as Record<string, string>;
		delete query[name];
		const res = await api().get('/v3/events/list', query);
		expect(res.status).toBe(400);
		expectErrorBody(res, 400);
	});

	it('list: any other query parameter answers 400', async () => {
		expectValidation(await ev.list({ limit: '10' }), ['property limit should not exist']);
		expectValidation(await ev.list({ expand: 'true' }), ['property expand should not exist']);
	});

	it('list: a repeated parameter answers 400', async () => {
		const res = await api().get('/v3/events/list', { accountId: [ACC_A, ACC_A], calendarIds: CAL_A, start: '2026-03-01T00:00:00Z', end: '2026-04-01T00:00:00Z' });
		expectValidation(res, ['accountId must be a string']);
	});

	it.each([['2026-03-01'], ['2026-03-01T00:00:00'], ['yesterday'], ['2026-02-30T00:00:00Z'], ['']])(
		'list: start %p (not an ISO 8601 date-time with Z or an offset) answers 400',
		async (start) => {
			expectValidation(await ev.list({ start }), ['start must be a valid ISO 8601 date-time with Z or an offset']);
		},
	);

	it('list: start and end accept Z, offsets and fractions of seconds', async () => {
		await ev.create();
		expect(await ev.listEvents({ start: '2026-03-02T09:30:00+01:00', end: '2026-03-02T10:00:00.5+01:00' })).toHaveLength(1);
		expectValidation(await ev.list({ end: '2026-04-01' }), ['end must be a valid ISO 8601 date-time with Z or an offset']);
	});

	it('list: end must be greater than start', async () => {
		expectValidation(await ev.list({ start: '2026-03-01T00:00:00Z', end: '2026-03-01T00:00:00Z' }), ['end must be greater than start']);
		expectValidation(await ev.list({ start: '2026-03-01T00:00:00Z', end: '2026-02-01T00:00:00Z' }), ['end must be greater than start']);
		expectValidation(await ev.list({ start: '2026-03-01T01:00:00+01:00', end: '2026-03-01T00:00:00Z' }), ['end must be greater than start']);
	});

	it('list: the window is at most 6 calendar months, counted in UTC from start', async () => {
		expect((await ev.list({ start: '2026-01-01T00:00:00Z', end: '2026-07-01T00:00:00Z' })).status).toBe(200);
		expectValidation(await ev.list({ start: '2026-01-01T00:00:00Z', end: '2026-07-01T00:00:00.001Z' }), [M.windowLength]);
		expect((await ev.list({ start: '2026-08-31T00:00:00Z', end: '2027-02-28T00:00:00Z' })).status).toBe(200);
		expectValidation(await ev.list({ start: '2026-08-31T00:00:00Z', end: '2027-03-01T00:00:00Z' }), [M.windowLength]);
		expect((await ev.list({ start: '2026-01-01T00:00:00+02:00', end: '2026-06-30T22:00:00Z' })).status).toBe(200);
	});

	it('list: every calendar must belong to the account', async () => {
		expectErrorBody(await ev.list({ calendarIds: `${CAL_A},${CAL_B}` }), 400, `calendar ${CAL_B} is not a calendar of account ${ACC_A}`);
		expectErrorBody(await ev.list({ calendarIds: CAL_BOB }), 400, `calendar ${CAL_BOB} is not a calendar of account ${ACC_A}`);
		expectErrorBody(await ev.list({ calendarIds: 'cal-none' }), 400);
	});

	it('list: an account that is unknown or another user\'s answers 400', async () => {
		expectErrorBody(await ev.list({ accountId: 'acc-none' }), 400, M.account);
		expectErrorBody(await ev.list({ accountId: ACC_BOB, calendarIds: CAL_BOB }), 400, M.account);
	});

	it('list: calendarIds is comma-separated: several calendars of the account at once; an empty item answers 400', async () => {
		const a = await ev.create({ title: 'Primary' });
		const b = await ev.create({ title: 'Team', calendarId: CAL_A_TEAM });
		expect((await ev.listEvents({ calendarIds: `${CAL_A},${CAL_A_TEAM}` })).map((e) => e.id).sort()).toEqual([a.id, b.id].sort());
		expect((await ev.listEvents({ calendarIds: CAL_A_TEAM })).map((e) => e.id)).toEqual([b.id]);
		expectValidation(await ev.list({ calendarIds: `${CAL_A},` }), ['calendarIds must be a comma-separated list of calendar ids']);
		expectValidation(await ev.list({ calendarIds: '' }), ['calendarIds must be a comma-separated list of calendar ids']);
	});

	it('list: events overlapping the window are listed: eventStart < end && eventEnd > start', async () => {
		const { id } = await ev.create(); // 08:00Z to 09:00Z
		const ids = async (start: string, end: string) => (await ev.listEvents({ start, end })).map((e) => e.id);
		expect(await ids('2026-03-02T07:00:00Z', '2026-03-02T08:00:00Z')).toEqual([]);
		expect(await ids('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z')).toEqual([]);
		expect(await ids('2026-03-02T07:00:00Z', '2026-03-02T08:00:00.001Z')).toEqual([id]);
		expect(await ids('2026-03-02T08:59:59.999Z', '2026-03-02T10:00:00Z')).toEqual([id]);
		expect(await ids('2026-03-02T08:20:00Z', '2026-03-02T08:40:00Z')).toEqual([id]);
	});

	it('list: a zero-length event is listed only when it lies strictly inside the window', async () => {
		const { id } = await ev.create({ duration: 'PT0S' }); // 08:00Z
		expect((await ev.listEvents({ start: '2026-03-02T08:00:00Z', end: '2026-03-02T09:00:00Z' })).map((e) => e.id)).toEqual([]);
		expect((await ev.listEvents({ start: '2026-03-02T07:59:59Z', end: '2026-03-02T09:00:00Z' })).map((e) => e.id)).toEqual([id]);
	});

	it('list: an all-day event\'s start is read in UTC', async () => {
		const { id } = await ev.create(allDay('2026-03-02')); // 2026-03-02T00:00Z to 2026-03-03T00:00Z
		const ids = async (start: string, end: string) => (await ev.listEvents({ start, end })).map((e) => e.id);
		expect(await ids('2026-03-03T00:30:00+01:00', '2026-03-04T00:00:00Z')).toEqual([id]);
		expect(await ids('2026-03-03T00:00:00Z', '2026-03-04T00:00:00Z')).toEqual([]);
		expect(await ids('2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z')).toEqual([]);
		expect(await ids('2026-03-01T00:00:00Z', '2026-03-02T00:30:00+01:00')).toEqual([]);
	});

	it('list: a floating timed event is read in UTC', async () => {
		const { id } = await ev.create(timed('2026-03-02T09:00:00', null));
		expect((await ev.listEvents({ start: '2026-03-02T09:00:00Z', end: '2026-03-02T09:00:01Z' })).map((e) => e.id)).toEqual([id]);
	});

	it('list: recurring series are expanded to occurrences with instance id, masterEventId, masterBaseEventId, recurrenceId and recurrenceIdTimeZone; masters are not listed', async () => {
		const master = await series();
		const events = await ev.listEvents();
		expect(events.map((e) => e.start)).toEqual([
			'2026-03-02T09:00:00',
			'2026-03-09T09:00:00',
			'2026-03-16T09:00:00',
			'2026-03-23T09:00:00',
			'2026-03-30T09:00:00',
		]);
		for (const instance of events) {
			expect(instance).toMatchObject({
				'@type': 'Event',
				uid: master.uid,
				masterEventId: master.id,
				masterBaseEventId: master.id,
				baseEventId: master.id,
				recurrenceId: instance.start,
				recurrenceIdTimeZone: 'Europe/Berlin',
				title: 'Weekly',
				timeZone: 'Europe/Berlin',
				duration: 'PT1H',
				created: master.created,
			});
			expect(instance).not.toHaveProperty('recurrenceRules');
		}
	});

	it('list: occurrences of an all-day series carry no recurrenceIdTimeZone', async () => {
		await series(allDay('2026-03-02'));
		const [first] = await ev.listEvents();
		expect(first.recurrenceId).toBe('2026-03-02T00:00:00');
		expect(first).not.toHaveProperty('recurrenceIdTimeZone');
	});

	it('list: a weekly series across a daylight-saving change keeps its wall-clock time', async () => {
		await series({ start: '2026-03-16T09:00:00' }); // Europe/Berlin moves to summer time on 2026-03-29
		const events = await ev.listEvents({ start: '2026-03-15T00:00:00Z', end: '2026-04-15T00:00:00Z' });
		expect(events.map((e) => e.start)).toEqual(['2026-03-16T09:00:00', '2026-03-23T09:00:00', '2026-03-30T09:00:00', '2026-04-06T09:00:00', '2026-04-13T09:00:00']);
		const at = async (instant: string) => (await ev.listEvents({ start: instant, end: instant.replace('00Z', '01Z') })).map((e) => e.start);
		expect(await at('2026-03-23T08:00:00Z')).toEqual(['2026-03-23T09:00:00']);
		expect(await at('2026-03-30T07:00:00Z')).toEqual(['2026-03-30T09:00:00']);
		expect(await at('2026-03-30T08:00:00Z')).toEqual([]); // 07:00Z to 08:00Z: it has ended by then
	});

	it('list: ordered by start ascending, then by id', async () => {
		const late = await ev.create({ ...timed('2026-03-05T09:00:00') });
		const early = await ev.create({ ...timed('2026-03-03T09:00:00') });
		const same1 = await ev.create({ ...timed('2026-03-04T09:00:00') });
		const same2 = await ev.create({ ...timed('2026-03-04T08:00:00', 'Europe/London') });
		const tie = [same1.id, same2.id].sort();
		expect((await ev.listEvents()).map((e) => e.id)).toEqual([early.id, ...tie, late.id]);
	});

	it('list: deleted events and deleted occurrences are omitted', async () => {
		const single = await ev.create();
		const master = await series();
		const [, second] = (await ev.listEvents()).filter((e) => e.masterEventId === master.id);
		await ev.delete(single.id);
		await ev.delete(second.id);
		const ids = (await ev.listEvents()).map((e) => e.id);
		expect(ids).not.toContain(single.id);
		expect(ids).not.toContain(second.id);
		expect(ids).toHaveLength(4);
		expect((await ev.getEvent(master.id)).id).toBe(master.id);
	});

	it('list: each user sees only their own events', async () => {
		await ev.create({ accountId: ACC_BOB, calendarId: CAL_BOB }, BOB);
		const mine = await ev.create();
		expect((await ev.listEvents()).map((e) => e.id)).toEqual([mine.id]);
		expect(await ev.listEvents({ accountId: ACC_BOB, calendarIds: CAL_BOB }, BOB)).toHaveLength(1);
	});

	it('list: an expired connection answers 401 and a revoked one 403', async () => {
		expectErrorBody(await ev.list({ accountId: ACC_EXPIRED, calendarIds: CAL_EXPIRED }), 401, `The calendar connection of account ${ACC_EXPIRED} has expired: reconnect the account`);
		expectErrorBody(await ev.list({ accountId: ACC_REVOKED, calendarIds: CAL_REVOKED }), 403, `The calendar connection of account ${ACC_REVOKED} was revoked: reconnect the account`);
	});

	it('list: events in the list have the same shape as get', async () => {
		const single = await ev.create({ participants: { [b64(ALICE_EMAIL)]: { email: ALICE_EMAIL } }, 'service.example:requestVirtualRoom': 'default' });
		await series();
		for (const event of await ev.listEvents()) expect(await ev.getEvent(event.id)).toEqual(event);
		expect((await ev.listEvents()).find((e) => e.id === single.id)).toEqual(single);
	});

	it('list: costs 10 points; get, create, update and delete 1', async () => {
		await api().control('POST', 'limits', { points: 300 });
		const remaining = (res: { headers: Headers }) => Number(res.headers.get('ratelimit-remaining'));
		const created = await api().post('/v3/events/create', eventBody());
		expect(remaining(created)).toBe(299);
		expect(remaining(await ev.list())).toBe(289);
		expect(remaining(await ev.get(created.body.data.event.id))).toBe(288);
		expect(remaining(await ev.update({ id: created.body.data.event.id, title: 'x' }))).toBe(287);
		expect(remaining(await ev.delete(created.body.data.event.id))).toBe(286);
	});
});

// ---------------------------------------------------------------------------------------------

describe('get', () => {
	it('get: answers 200 { data: { event } } with exactly the event of that id', async () => {
		const event = await ev.create();
		const res = await ev.get(event.id);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ data: { event } });
	});

	it('get: a master id returns the master with its recurrenceRules, not an occurrence', async () => {
		const master = await series();
		expect(await ev.getEvent(master.id)).toEqual(master);
	});

	it('get: an instance id returns that occurrence', async () => {
		await series();
		const [, second] = await ev.listEvents();
		expect(await ev.getEvent(second.id)).toEqual(second);
	});

	it('get: needs no time window: an event years away is found', async () => {
		const far = await ev.create(timed('2031-07-01T09:00:00'));
		expect((await ev.getEvent(far.id)).start).toBe('2031-07-01T09:00:00');
	});

	it('get: an id that never existed answers 404 with the error body', async () => {
		expectErrorBody(await ev.get('nothing'), 404);
		expectErrorBody(await ev.get('9PzA+QsglwBe2FcV/4ldKA=='), 404);
		expectErrorBody(await ev.get('9PzA+QsglwBe2FcV/4ldKBse26U4BQ=='), 404);
	});

	it('get: a deleted event answers 404 (message varies by provider)', async () => {
		const a = await ev.create();
		const b = await ev.create({ accountId: ACC_B, calendarId: CAL_B });
		await ev.delete(a.id);
		await ev.delete(b.id, undefined, { accountId: ACC_B, calendarId: CAL_B });
		expectErrorBody(await ev.get(a.id), 404, 'Not Found');
		expectErrorBody(await ev.get(b.id), 404, 'The specified object was not found in the store.');
	});

	it('get: id is required; no other parameter is accepted', async () => {
		expectValidation(await api().get('/v3/events', {}), ['id must be a string']);
		expectValidation(await api().get('/v3/events', { id: 'x', accountId: ACC_A }), ['property accountId should not exist']);
		expectValidation(await api().get('/v3/events', { id: ['a', 'b'] }), ['id must be a string']);
	});

	it('get: an event whose account connection has expired answers 401, revoked 403 (never 404)', async () => {
		const event = await ev.create();
		await ev.delete((await ev.create()).id);
		setConnection(ACC_A, 'expired');
		expectErrorBody(await ev.get(event.id), 401);
		setConnection(ACC_A, 'revoked');
		expectErrorBody(await ev.get(event.id), 403);
	});
});

// ---------------------------------------------------------------------------------------------

describe('update', () => {
	it('update: answers 200 with the updated event as the top-level body, no data envelope', async () => {
		const { id } = await ev.create();
		const res = await ev.update({ id, title: 'Renamed' });
		expect(res.status).toBe(200);
		expect(res.body).not.toHaveProperty('data');
		expect(res.body).toEqual(await ev.getEvent(id));
		expect(res.body.title).toBe('Renamed');
	});

	it('update: patch semantics: only supplied fields change', async () => {
		const event = await ev.create({ description: 'D', privacy: 'private', locations: { l: { name: 'Room' } } });
		const updated = await ev.updated({ id: event.id, title: 'New' });
		expect({ ...updated, updated: event.updated }).toEqual({ ...event, title: 'New' });
	});

	it('update: updated changes and created stays', async () => {
		await freeze('2026-02-01T10:00:00Z');
		const event = await ev.create();
		await advance(60);
		const updated = await ev.updated({ id: event.id, title: 'x' });
		expect(updated.created).toBe('2026-02-01T10:00:00.000Z');
		expect(updated.updated).toBe('2026-02-01T10:01:00.000Z');
	});

	it('update: every updatable field can be set; null clears description, locations, status and colorId', async () => {
		const event = await ev.create({ description: 'D', locations: { l: { name: 'Room' } }, status: 'tentative', 'provider.example:colorId': '3' });
		const patch = { title: 'T', descriptionContentType: 'text/html', privacy: 'secret', freeBusyStatus: 'free', color: 'red', locale: 'de', priority: 1, keywords: { k: true } };
		expect(await ev.updated({ id: event.id, ...patch })).toMatchObject(patch);
		const cleared = await ev.updated({ id: event.id, description: null, locations: null, status: null, 'provider.example:colorId': null });
		for (const field of ['description', 'locations', 'status', 'provider.example:colorId']) expect(cleared).not.toHaveProperty([field]);
	});

	it('update: null for title, privacy, freeBusyStatus, descriptionContentType or useDefaultAlerts answers 400', async () => {
		const { id } = await ev.create();
		for (const field of ['title', 'privacy', 'freeBusyStatus', 'descriptionContentType', 'useDefaultAlerts']) {
			expect((await ev.update({ id, [field]: null })).status).toBe(400);
		}
	});

	it('update: seriesUpdateMode in the body answers 400', async () => {
		const master = await series();
		expectValidation(await ev.update({ id: master.id, seriesUpdateMode: 'all', title: 'x' }), [M.inBody]);
		expectValidation(await ev.update({ id: master.id, seriesUpdateMode: 'single', title: 'x' }), [M.inBody]);
	});

	it('update: any other query parameter answers 400; seriesUpdateMode takes single, future or all', async () => {
		const { id } = await ev.create();
		const res = await api().call('POST', '/v3/events/update', { body: { ...IN_A, id, title: 'x' }, query: { accountId: ACC_A } });
		expectValidation(res, ['property accountId should not exist']);
		expectValidation(await ev.update({ id, title: 'x' }, 'this'), ['seriesUpdateMode must be one of the following values: single, future, all']);
		expect((await ev.update({ id, title: 'x' }, 'single')).status).toBe(200);
	});

	it('update: on a non-recurring event "all" answers 400 "Cannot apply \'all\' series update mode to non-recurring events"', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.update({ id, title: 'x' }, 'all'), 400, "Cannot apply 'all' series update mode to non-recurring events");
	});

	it('update: on a non-recurring event "future" answers 400 with \'future\' in the message', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.update({ id, title: 'x' }, 'future'), 400, "Cannot apply 'future' series update mode to non-recurring events");
		expect((await ev.getEvent(id)).title).toBe('Meeting');
	});

	it('update: an event must be identified by id or by both masterEventId and recurrenceId', async () => {
		const master = await series();
		expectValidation(await ev.update({ title: 'x' }), [M.identify]);
		expectValidation(await ev.update({ masterEventId: master.id, title: 'x' }), [M.identify]);
		expectValidation(await ev.update({ recurrenceId: '2026-03-09T09:00:00', title: 'x' }), [M.identify]);
	});

	it('update: accountId and calendarId are required', async () => {
		const { id } = await ev.create();
		expectValidation(await api().post('/v3/events/update', { id, title: 'x' }), ['accountId must be a string', 'calendarId must be a string']);
	});

	it('update: masterEventId and recurrenceId address one occurrence', async () => {
		const master = await series();
		const updated = await ev.updated({ masterEventId: master.id, recurrenceId: '2026-03-09T09:00:00', title: 'Second' });
		const events = await ev.listEvents();
		expect(updated.id).toBe(events[1].id);
		expect(events.map((e) => e.title)).toEqual(['Weekly', 'Second', 'Weekly', 'Weekly', 'Weekly']);
	});

	it('update: recurrenceIdTimeZone gives the zone of recurrenceId', async () => {
		const master = await series();
		const updated = await ev.updated({ masterEventId: master.id, recurrenceId: '2026-03-09T08:00:00', recurrenceIdTimeZone: 'UTC', title: 'Second' });
		expect(updated.recurrenceId).toBe('2026-03-09T09:00:00');
		expectValidation(
			await ev.update({ masterEventId: master.id, recurrenceId: '2026-03-09T09:00:00', recurrenceIdTimeZone: 'CET', title: 'x' }),
			['recurrenceIdTimeZone should be a valid IANA time zone'],
		);
	});

	it('update: a recurrenceId the series does not have, or a masterEventId that is not a series, answers 404', async () => {
		const master = await series();
		const single = await ev.create();
		expectErrorBody(await ev.update({ masterEventId: master.id, recurrenceId: '2026-03-10T09:00:00', title: 'x' }), 404);
		expectErrorBody(await ev.update({ masterEventId: single.id, recurrenceId: single.start, title: 'x' }), 404);
	});

	it('update: id together with masterEventId and recurrenceId must name the same event', async () => {
		const master = await series();
		const [first, second] = await ev.listEvents();
		expect((await ev.update({ id: first.id, masterEventId: master.id, recurrenceId: first.recurrenceId, title: 'x' })).status).toBe(200);
		expectErrorBody(await ev.update({ id: second.id, masterEventId: master.id, recurrenceId: first.recurrenceId, title: 'x' }), 400, 'id and masterEventId/recurrenceId name different events');
	});

	it.each([
		[{ start: '2026-03-02T10:00:00' }],
		[{ duration: 'PT2H' }],
		[{ timeZone: 'Europe/Paris' }],
		[{ timeZone: null }],
		[{ showWithoutTime: true }],
		[{ start: '2026-03-02T10:00:00', duration: 'PT2H', timeZone: 'Europe/Berlin' }],
	])('update: timing fields partly supplied (%p) answer 400 with the interface\'s message', async (partial) => {
		const { id } = await ev.create();
		expectValidation(await ev.update({ id, ...partial }), [M.timing]);
	});

	it('update: timing fields supplied together move the event', async () => {
		const { id } = await ev.create();
		const updated = await ev.updated({ id, ...timed('2026-03-03T14:30:00', 'America/New_York', 'PT45M') });
		expect(updated).toMatchObject(timed('2026-03-03T14:30:00', 'America/New_York', 'PT45M'));
	});

	it('update: switching a timed event to all-day and back works when all four timing fields are given', async () => {
		const { id } = await ev.create();
		expect(await ev.updated({ id, ...allDay('2026-03-02') })).toMatchObject(allDay('2026-03-02'));
		expect(await ev.list().then((r) => r.body.data.events[0])).toMatchObject({ id, showWithoutTime: true, timeZone: null });
		expect(await ev.updated({ id, ...timed('2026-03-02T11:00:00') })).toMatchObject(timed('2026-03-02T11:00:00'));
	});

	it('update: timing is validated as on create (zone, duration, all-day rules)', async () => {
		const { id } = await ev.create();
		expectValidation(await ev.update({ id, ...timed('2026-03-02T10:00:00', 'EST') }), [M.timeZone]);
		expectValidation(await ev.update({ id, ...timed('2026-03-02T10:00:00', 'UTC', '2h') }), [M.duration]);
		expectValidation(await ev.update({ id, ...allDay(), timeZone: 'UTC' }), ['timeZone must be null when showWithoutTime is true (all-day events have no time zone)']);
	});

	it('update: alerts patch: add one by supplying it under its id, remove one by null; the others remain', async () => {
		const { id } = await ev.create({ alerts: { [ALERT_15_ID]: ALERT_15 } });
		const added = await ev.updated({ id, alerts: { [ALERT_60_ID]: { trigger: { offset: '-PT1H' }, action: 'email' } } });
		expect(Object.keys(added.alerts).sort()).toEqual([ALERT_15_ID, ALERT_60_ID].sort());
		const removed = await ev.updated({ id, alerts: { [ALERT_15_ID]: null } });
		expect(Object.keys(removed.alerts)).toEqual([ALERT_60_ID]);
		const none = await ev.updated({ id, alerts: { [ALERT_60_ID]: null } });
		expect(none.alerts).toEqual({});
	});

	it('update: useDefaultAlerts true replaces the event\'s alerts; alerts with useDefaultAlerts true answer 400', async () => {
		const { id } = await ev.create({ alerts: { [ALERT_15_ID]: ALERT_15 } });
		expectValidation(await ev.update({ id, useDefaultAlerts: true, alerts: { [ALERT_60_ID]: { trigger: { offset: '-PT1H' } } } }), [M.alertsWithDefault]);
		const defaults = await ev.updated({ id, useDefaultAlerts: true });
		expect(defaults.useDefaultAlerts).toBe(true);
		expect(defaults).not.toHaveProperty('alerts');
		expectValidation(await ev.update({ id, alerts: { [ALERT_15_ID]: ALERT_15 } }), [M.alertsWithDefault]);
		const own = await ev.updated({ id, useDefaultAlerts: false, alerts: { [ALERT_15_ID]: ALERT_15 } });
		expect(own).toMatchObject({ useDefaultAlerts: false, alerts: { [ALERT_15_ID]: ALERT_15 } });
	});

	it('update: participants patch: participants not mentioned remain, supplied ones are added or changed, null removes one (key = base64 e-mail or the address)', async () => {
		const carol = 'carol@example.com';
		const dave = 'dave@example.com';
		const erin = 'erin@example.com';
		const { id } = await ev.create({ participants: { [b64(carol)]: { email: carol }, [b64(dave)]: { email: dave } } });
		const added = await ev.updated({ id, participants: { [b64(erin)]: { email: erin, name: 'Erin' } } });
		expect(Object.keys(added.participants).sort()).toEqual([b64(carol), b64(dave), b64(erin)].sort());
		const changed = await ev.updated({ id, participants: { [dave]: { email: dave, participationStatus: 'declined' } } });
		expect(changed.participants[b64(dave)].participationStatus).toBe('declined');
		expect(Object.keys(changed.participants)).toHaveLength(3);
		const removed = await ev.updated({ id, participants: { [b64(carol)]: null, [erin]: null } });
		expect(Object.keys(removed.participants)).toEqual([b64(dave)]);
	});

	it('update: updating other fields never touches the participants', async () => {
		const { id, participants } = await ev.create({ participants: { [b64('carol@example.com')]: { email: 'carol@example.com' } } });
		expect((await ev.updated({ id, title: 'x', ...timed('2026-03-04T09:00:00') })).participants).toEqual(participants);
	});

	it.each([['uid'], ['baseEventId'], ['created'], ['updated'], ['integrationId'], ['masterBaseEventId'], ['service.example:derived'], ['service.example:metadata'], ['provider.example:hangoutLink']])(
		'update: read-only field %s answers 400',
		async (field) => {
			const { id } = await ev.create();
			expectValidation(await ev.update({ id, [field]: 'x' }), [`${field} is read-only`]);
		},
	);

	it('update: unknown properties answer 400', async () => {
		const { id } = await ev.create();
		expectValidation(await ev.update({ id, attendees: [] }), ['property attendees should not exist']);
	});

	it('update: a virtual room can be requested on update; the link goes into the description', async () => {
		const { id } = await ev.create({ description: 'Agenda' });
		const updated = await ev.updated({ id, 'service.example:requestVirtualRoom': 'default' });
		const url = updated['provider.example:hangoutLink'];
		expect(updated.description).toBe(`Agenda\n\nJoin the meeting: ${url}`);
		expect(updated['service.example:derived']).toEqual({ virtualRoom: { url } });
	});

	it('update: the room stays for the event\'s life: a new description keeps the link, null cannot remove it, a new request keeps the same room', async () => {
		const { id, ...event } = await ev.create({ 'service.example:requestVirtualRoom': 'default' });
		const url = event['provider.example:hangoutLink'];
		expect((await ev.updated({ id, description: 'New text' })).description).toBe(`New text\n\nJoin the meeting: ${url}`);
		expect((await ev.updated({ id, description: null })).description).toBe(`Join the meeting: ${url}`);
		expectValidation(await ev.update({ id, 'service.example:requestVirtualRoom': null }), ['A virtual room cannot be removed from an event']);
		expect((await ev.updated({ id, 'service.example:requestVirtualRoom': 'default' }))['provider.example:hangoutLink']).toBe(url);
		expectErrorBody(await ev.update({ id, 'service.example:requestVirtualRoom': 'providerBMeetingRoom' }), 400, 'providerBMeetingRoom rooms cannot be used on providerA calendars');
	});

	it('update: an unknown, deleted or foreign id answers 404', async () => {
		const { id } = await ev.create();
		await ev.delete(id);
		expectErrorBody(await ev.update({ id, title: 'x' }), 404);
		expectErrorBody(await ev.update({ id: 'nothing', title: 'x' }), 404);
	});

	it('update: an account that is not the caller\'s answers 400', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.update({ id, accountId: ACC_BOB, calendarId: CAL_BOB, title: 'x' }), 400, M.account);
	});

	it('update: an expired connection answers 401 and a revoked one 403', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.update({ id, accountId: ACC_EXPIRED, calendarId: CAL_EXPIRED, title: 'x' }), 401);
		expectErrorBody(await ev.update({ id, accountId: ACC_REVOKED, calendarId: CAL_REVOKED, title: 'x' }), 403);
		setConnection(ACC_A, 'expired');
		expectErrorBody(await ev.update({ id, title: 'x' }), 401);
	});

	it('update: a refused update changes nothing', async () => {
		const master = await series();
		const [, second] = await ev.listEvents();
		const before = JSON.stringify(api().sandbox.store.snapshot().events);
		await ev.update({ id: second.id, title: 'x', 'service.example:requestVirtualRoom': 'providerBMeetingRoom' }, 'future');
		await ev.update({ id: master.id, title: 'x', alerts: { a: { trigger: { offset: '-PT1M' } } } });
		await ev.update({ id: second.id, title: 'x', ...timed('2026-03-09T10:00:00', 'EST') }, 'all');
		expect(JSON.stringify(api().sandbox.store.snapshot().events)).toBe(before);
	});
});

// ---------------------------------------------------------------------------------------------

describe('series', () => {
	it('series: single (the default) on an occurrence edits that occurrence only, listed with the same id', async () => {
		const master = await series();
		const before = await ev.listEvents();
		const updated = await ev.updated({ id: before[2].id, title: 'Moved', ...timed('2026-03-17T15:00:00') });
		expect(updated).toMatchObject({ id: before[2].id, masterEventId: master.id, recurrenceId: '2026-03-16T09:00:00', start: '2026-03-17T15:00:00', title: 'Moved' });
		const after = await ev.listEvents();
		expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
		expect(after.map((e) => [e.start, e.title])).toEqual([
			['2026-03-02T09:00:00', 'Weekly'],
			['2026-03-09T09:00:00', 'Weekly'],
			['2026-03-17T15:00:00', 'Moved'],
			['2026-03-23T09:00:00', 'Weekly'],
			['2026-03-30T09:00:00', 'Weekly'],
		]);
		expect((await ev.getEvent(master.id)).title).toBe('Weekly');
	});

	it('series: a moved occurrence is listed where it now lies', async () => {
		await series();
		const [, second] = await ev.listEvents();
		await ev.updated({ id: second.id, ...timed('2026-04-10T09:00:00') });
		expect((await ev.listEvents()).map((e) => e.start)).not.toContain('2026-04-10T09:00:00');
		const april = await ev.listEvents({ start: '2026-04-01T00:00:00Z', end: '2026-05-01T00:00:00Z' });
		expect(april.filter((e) => e.id === second.id).map((e) => e.start)).toEqual(['2026-04-10T09:00:00']);
	});

	it('series: recurrenceRules cannot be changed on a single occurrence', async () => {
		await series();
		const [first] = await ev.listEvents();
		expectErrorBody(await ev.update({ id: first.id, recurrenceRules: weekly({ interval: 2 }) }), 400, 'recurrenceRules can only be changed on the whole series (seriesUpdateMode all or future)');
	});

	it('series: all on an occurrence edits the whole series; the answer carries the master\'s id', async () => {
		const master = await series();
		const [, second] = await ev.listEvents();
		const updated = await ev.updated({ id: second.id, title: 'Renamed' }, 'all');
		expect(updated.id).toBe(master.id);
		expect(updated.recurrenceRules).toEqual(weekly());
		expect((await ev.listEvents()).map((e) => e.title)).toEqual(Array(5).fill('Renamed'));
	});

	it('series: all with a new time on an occurrence moves every occurrence by the same amount', async () => {
		const master = await series();
		const [, second] = await ev.listEvents();
		const updated = await ev.updated({ id: second.id, ...timed('2026-03-09T11:30:00') }, 'all');
		expect(updated).toMatchObject({ id: master.id, start: '2026-03-02T11:30:00' });
		expect((await ev.listEvents()).map((e) => e.start)).toEqual(['2026-03-02T11:30:00', '2026-03-09T11:30:00', '2026-03-16T11:30:00', '2026-03-23T11:30:00', '2026-03-30T11:30:00']);
	});

	it('series: all on the master id edits the series', async () => {
		const master = await series();
		const updated = await ev.updated({ id: master.id, title: 'All', recurrenceRules: weekly({ count: 2 }) }, 'all');
		expect(updated.id).toBe(master.id);
		expect((await ev.listEvents()).map((e) => [e.start, e.title])).toEqual([
			['2026-03-02T09:00:00', 'All'],
			['2026-03-09T09:00:00', 'All'],
		]);
	});

	it('series: a change to the whole series replaces the same field changed on one occurrence; other changes of that occurrence stay', async () => {
		await series();
		const [, second] = await ev.listEvents();
		await ev.updated({ id: second.id, title: 'Special', description: 'Only here' });
		await ev.updated({ id: second.id, title: 'Everywhere' }, 'all');
		const events = await ev.listEvents();
		expect(events.map((e) => e.title)).toEqual(Array(5).fill('Everywhere'));
		expect(events[1].description).toBe('Only here');
	});

	it('series: a deleted occurrence stays deleted when the whole series moves to another time', async () => {
		const master = await series();
		const [, second] = await ev.listEvents();
		await ev.delete(second.id);
		await ev.updated({ id: master.id, ...timed('2026-03-02T10:00:00') }, 'all');
		expect((await ev.listEvents()).map((e) => e.start)).toEqual(['2026-03-02T10:00:00', '2026-03-16T10:00:00', '2026-03-23T10:00:00', '2026-03-30T10:00:00']);
	});

	it('series: future splits the series at the occurrence: the original ends before it, a new series (new id) starts at it with the changes', async () => {
		const master = await series();
		const before = await ev.listEvents();
		const updated = await ev.updated({ id: before[2].id, title: 'Later' }, 'future');
		expect(updated.id).not.toBe(master.id);
		expect(updated).toMatchObject({ baseEventId: updated.id, start: '2026-03-16T09:00:00', title: 'Later', recurrenceRules: weekly() });
		const after = await ev.listEvents();
		expect(after.map((e) => [e.start, e.title, e.masterEventId])).toEqual([
			['2026-03-02T09:00:00', 'Weekly', master.id],
			['2026-03-09T09:00:00', 'Weekly', master.id],
			['2026-03-16T09:00:00', 'Later', updated.id],
			['2026-03-23T09:00:00', 'Later', updated.id],
			['2026-03-30T09:00:00', 'Later', updated.id],
		]);
		expect(after.slice(0, 2).map((e) => e.id)).toEqual(before.slice(0, 2).map((e) => e.id));
		expect((await ev.getEvent(master.id)).recurrenceRules).toEqual(weekly({ until: '2026-03-09T09:00:00' }));
	});

	it('series: future with a new time moves this and the following occurrences only', async () => {
		await series();
		const before = await ev.listEvents();
		await ev.updated({ id: before[3].id, ...timed('2026-03-24T08:00:00') }, 'future');
		expect((await ev.listEvents()).map((e) => e.start)).toEqual(['2026-03-02T09:00:00', '2026-03-09T09:00:00', '2026-03-16T09:00:00', '2026-03-24T08:00:00', '2026-03-31T08:00:00']);
	});

	it('series: future keeps a count: the two parts together have the original number of occurrences', async () => {
		await series({ recurrenceRules: weekly({ count: 4 }) });
		const before = await ev.listEvents();
		await ev.updated({ id: before[1].id, title: 'B' }, 'future');
		expect((await ev.listEvents()).map((e) => [e.start, e.title])).toEqual([
			['2026-03-02T09:00:00', 'Weekly'],
			['2026-03-09T09:00:00', 'B'],
			['2026-03-16T09:00:00', 'B'],
			['2026-03-23T09:00:00', 'B'],
		]);
	});

	it('series: future at the first occurrence edits the whole series (same master)', async () => {
		const master = await series();
		const [first] = await ev.listEvents();
		expect((await ev.updated({ id: first.id, title: 'All' }, 'future')).id).toBe(master.id);
		expect((await ev.listEvents()).map((e) => e.title)).toEqual(Array(5).fill('All'));
	});

	it('series: after a future split the old ids of the moved occurrences answer 404; the new ones work', async () => {
		await series();
		const before = await ev.listEvents();
		await ev.updated({ id: before[2].id, title: 'Later' }, 'future');
		expectErrorBody(await ev.get(before[3].id), 404);
		const after = await ev.listEvents();
		expect((await ev.getEvent(after[3].id)).title).toBe('Later');
	});

	it('series: recurrenceRules on a single event make it a series; null makes a series a single event again', async () => {
		const { id } = await ev.create();
		const made = await ev.updated({ id, recurrenceRules: weekly({ count: 3 }) });
		expect(made.id).toBe(id);
		expect(await ev.listEvents()).toHaveLength(3);
		await ev.updated({ id, recurrenceRules: null }, 'all');
		const events = await ev.listEvents();
		expect(events.map((e) => e.id)).toEqual([id]);
		expect(events[0]).not.toHaveProperty('recurrenceRules');
	});

	it('series: single on the master id edits the series (the master is the event with that id)', async () => {
		const master = await series();
		expect((await ev.updated({ id: master.id, title: 'M' })).id).toBe(master.id);
		expect((await ev.listEvents()).map((e) => e.title)).toEqual(Array(5).fill('M'));
	});
});

// ---------------------------------------------------------------------------------------------

describe('delete', () => {
	it('delete: answers 204 with an empty body; get then answers 404 and the list omits it', async () => {
		const { id } = await ev.create();
		const res = await ev.delete(id);
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
		expectErrorBody(await ev.get(id), 404);
		expect(await ev.listEvents()).toEqual([]);
	});

	it('delete: not idempotent: a repeated delete answers 404', async () => {
		const { id } = await ev.create();
		expect((await ev.delete(id)).status).toBe(204);
		expectErrorBody(await ev.delete(id), 404);
	});

	it('delete: the body accepts only id, accountId and calendarId, all required strings', async () => {
		const { id } = await ev.create();
		expectValidation(await api().post('/v3/events/delete', { id }), ['accountId must be a string', 'calendarId must be a string']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A }), ['id must be a string']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A, id: 5 }), ['id must be a string']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A, id, title: 'x' }), ['property title should not exist']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A, id, masterEventId: 'x' }), ['property masterEventId should not exist']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A, id, seriesUpdateMode: 'all' }), [M.inBody]);
		expect((await ev.getEvent(id)).id).toBe(id);
	});

	it('delete: seriesUpdateMode is accepted only in the query; other query parameters answer 400', async () => {
		const { id } = await ev.create();
		const res = await api().call('POST', '/v3/events/delete', { body: { ...IN_A, id }, query: { id } });
		expectValidation(res, ['property id should not exist']);
		expectValidation(await ev.delete(id, 'every'), ['seriesUpdateMode must be one of the following values: single, future, all']);
	});

	it('delete: all or future on a non-recurring event answers 400', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.delete(id, 'all'), 400, "Cannot apply 'all' series update mode to non-recurring events");
		expectErrorBody(await ev.delete(id, 'future'), 400, "Cannot apply 'future' series update mode to non-recurring events");
		expect((await ev.delete(id, 'single')).status).toBe(204);
	});

	it('delete: single on an occurrence removes that occurrence only; get by its id then answers 404', async () => {
		const master = await series();
		const before = await ev.listEvents();
		expect((await ev.delete(before[1].id)).status).toBe(204);
		expectErrorBody(await ev.get(before[1].id), 404);
		expect((await ev.listEvents()).map((e) => e.id)).toEqual(before.filter((_, i) => i !== 1).map((e) => e.id));
		expect((await ev.getEvent(master.id)).id).toBe(master.id);
		expectErrorBody(await ev.delete(before[1].id), 404);
	});

	it('delete: future on an occurrence ends the series before it', async () => {
		const master = await series();
		const before = await ev.listEvents();
		expect((await ev.delete(before[2].id, 'future')).status).toBe(204);
		expect((await ev.listEvents()).map((e) => e.start)).toEqual(['2026-03-02T09:00:00', '2026-03-09T09:00:00']);
		expect((await ev.getEvent(master.id)).recurrenceRules).toEqual(weekly({ until: '2026-03-09T09:00:00' }));
		expectErrorBody(await ev.get(before[3].id), 404);
		expectErrorBody(await ev.delete(before[2].id, 'future'), 404);
	});

	it('delete: future on the first occurrence deletes the series', async () => {
		const master = await series();
		const [first] = await ev.listEvents();
		expect((await ev.delete(first.id, 'future')).status).toBe(204);
		expect(await ev.listEvents()).toEqual([]);
		expectErrorBody(await ev.get(master.id), 404);
	});

	it('delete: all on an occurrence deletes the series', async () => {
		const master = await series();
		const [, second] = await ev.listEvents();
		expect((await ev.delete(second.id, 'all')).status).toBe(204);
		expect(await ev.listEvents()).toEqual([]);
		expectErrorBody(await ev.get(master.id), 404);
		expectErrorBody(await ev.delete(master.id), 404);
	});

	it('delete: the master id deletes the series', async () => {
		const master = await series();
		expect((await ev.delete(master.id)).status).toBe(204);
		expect(await ev.listEvents()).toEqual([]);
	});

	it('delete: another user\'s event answers 404 and stays', async () => {
		const bobs = await ev.create({ accountId: ACC_BOB, calendarId: CAL_BOB }, BOB);
		expectErrorBody(await ev.delete(bobs.id), 404);
		expect((await ev.getEvent(bobs.id, BOB)).id).toBe(bobs.id);
	});

	it('delete: an expired connection answers 401 and a revoked one 403', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.delete(id, undefined, { accountId: ACC_EXPIRED, calendarId: CAL_EXPIRED }), 401);
		expectErrorBody(await ev.delete(id, undefined, { accountId: ACC_REVOKED, calendarId: CAL_REVOKED }), 403);
		setConnection(ACC_A, 'revoked');
		expectErrorBody(await ev.delete(id), 403);
		setConnection(ACC_A, 'active');
		expect((await ev.delete(id)).status).toBe(204);
	});
});

// ---------------------------------------------------------------------------------------------

describe('derived and metadata', () => {
	it('metadata: service.example:metadata is present only on an event that links a task, and makes the task scheduled', async () => {
		const taskId = await api().createTask({ title: 'Write report' });
		const { id } = await ev.create();
		expect(await ev.getEvent(id)).not.toHaveProperty(['service.example:metadata']);
		const link = await api().control('POST', 'events/link-task', { user: 'alice', eventId: id, taskId });
		expect(link.status).toBe(200);
		const task = await api().getTask(taskId);
		expect((await ev.getEvent(id))['service.example:metadata']).toEqual({ updated: task.updated, progress: 'needs-action', taskId });
		expect(task['service.example:derived'].scheduled).toBe(true);
		await api().post('/v3/tasks/close', { id: taskId });
		expect((await ev.getEvent(id))['service.example:metadata'].progress).toBe('completed');
		await ev.delete(id);
		expect((await api().getTask(taskId))['service.example:derived'].scheduled).toBe(false);
	});

	it('metadata: the link-task control endpoint validates its body', async () => {
		const { id } = await ev.create();
		expect((await api().control('POST', 'events/link-task', { user: 'alice', eventId: id, taskId: 'none' })).status).toBe(400);
		expect((await api().control('POST', 'events/link-task', { user: 'alice', eventId: 'none', taskId: null })).status).toBe(404);
		expect((await api().control('POST', 'events/link-task', { user: 'nobody', eventId: id, taskId: null })).status).toBe(400);
		expect((await api().control('POST', 'events/link-task', { user: 'alice', eventId: id, taskId: null })).status).toBe(200);
	});

	it('derived: service.example:derived is absent when the description holds no meeting link', async () => {
		expect(await ev.create({ description: 'See https://example.com' })).not.toHaveProperty(['service.example:derived']);
	});
});

describe('persistence', () => {
	it('persistence: events, series and their exceptions survive a restart with the same ids', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-events-'));
		const dataFile = join(dir, 'state.json');
		try {
			const first = await startSandbox({ port: 0, dataFile });
			const one = new Events(() => new Client(first));
			await one.create({ recurrenceRules: weekly() });
			const before = await one.listEvents();
			expect((await one.delete(before[1].id)).status).toBe(204);
			const expected = await one.listEvents();
			await first.close();
			const second = await startSandbox({ port: 0, dataFile });
			const after = await new Events(() => new Client(second)).listEvents();
			await second.close();
			expect(after).toEqual(expected);
			expect(after).toHaveLength(4);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
