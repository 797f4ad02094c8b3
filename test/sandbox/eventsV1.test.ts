/**
 * Conformance of the v1 events endpoints (bearer token, same origin): list, create, update,
 * delete and RSVP, one test per rule of the interface and of the notes on where it is silent.
 */
import {
	ACC_A,
	ACC_B,
	ACC_EXPIRED,
	ACC_REVOKED,
	ALICE_EMAIL,
	CAL_A,
	CAL_A_TEAM,
	CAL_B,
	CAL_BOB,
	CAL_EXPIRED,
	CAL_REVOKED,
	Events,
	allDay,
	b64,
	timed,
	weekly,
} from './support/events';
import { BOB, expectErrorBody, expectValidation, useSandbox, type CallOptions, type Response } from './support/http';

const ctx = useSandbox();
const api = () => ctx.client;
const v3 = new Events(api);

async function token(user = 'alice', ttlSeconds = 3600): Promise<string> {
	return (await api().control('POST', 'token', { user, ttlSeconds })).body.token as string;
}

/** A v1 call as alice (or with the given bearer token). */
async function v1(method: 'GET' | 'POST', path: string, options: CallOptions & { token?: string } = {}): Promise<Response> {
	const bearer = options.token ?? (await token());
	return api().call(method, `/v1/events/${path}`, { ...options, authorization: `Bearer ${bearer}` });
}

const list = (query: Record<string, string> = {}, options: CallOptions & { token?: string } = {}) =>
	v1('GET', 'list', { ...options, query: { calendarIds: CAL_A, start: '2026-03-01T00:00:00Z', end: '2026-04-01T00:00:00Z', ...query } });

async function listEvents(query: Record<string, string> = {}) {
	const res = await list(query);
	if (res.status !== 200) throw new Error(`v1 list failed: ${res.status} ${res.text}`);
	return res.body.data.events;
}

const create = (body: Record<string, unknown>) => v1('POST', 'create', { body: { calendarId: CAL_A, title: 'Meeting', ...timed(), ...body } });
const update = (body: Record<string, unknown>, mode?: string) =>
	v1('POST', 'update', { body, query: mode === undefined ? {} : { seriesUpdateMode: mode } });
const remove = (body: Record<string, unknown>, mode?: string) =>
	v1('POST', 'delete', { body, query: mode === undefined ? {} : { seriesUpdateMode: mode } });
const rsvp = (action: string, body: Record<string, unknown>, mode?: string) =>
	v1('POST', action, { body, query: mode === undefined ? {} : { seriesUpdateMode: mode } });

const ALICE_PARTICIPANT = { [b64(ALICE_EMAIL)]: { email: ALICE_EMAIL } };
const CAROL = 'carol@example.com';

const HIDDEN = ['uid', 'masterEventId', 'recurrenceId', 'recurrenceIdTimeZone', 'useDefaultAlerts', 'service.example:metadata'];

/** The v3 event without the fields v1 does not show. */
function asV1(event: Record<string, unknown>): Record<string, unknown> {
	const out = { ...event };
	for (const key of HIDDEN) delete out[key];
	return out;
}

const setConnection = (accountId: string, connection: 'active' | 'expired' | 'revoked') => {
	api().sandbox.store.accounts.get(accountId)!.connection = connection;
};

describe('authentication', () => {
	it('v1: a bearer token from /_sandbox/token is accepted; an API key is not', async () => {
		expect((await list()).status).toBe(200);
		expectErrorBody(await api().call('GET', '/v1/events/list', { query: { calendarIds: CAL_A, start: '2026-03-01T00:00:00Z', end: '2026-04-01T00:00:00Z' } }), 401);
	});

	it('v1: an expired or badly signed token answers 401; the plan-less user 403', async () => {
		expectErrorBody(await list({}, { token: await token('alice', -10) }), 401);
		const good = await token();
		expectErrorBody(await list({}, { token: `${good.slice(0, -2)}xx` }), 401);
		expectErrorBody(await list({}, { token: await token('noplan') }), 403);
	});

	it('v1: update with body {} and a valid token answers 400, is charged 1 point and changes nothing (credential test)', async () => {
		await api().control('POST', 'limits', { points: 300 });
		const before = JSON.stringify(api().sandbox.store.snapshot().events);
		const res = await update({});
		expectValidation(res, ['id must be a string']);
		expect(res.headers.get('ratelimit-remaining')).toBe('299');
		expect(JSON.stringify(api().sandbox.store.snapshot().events)).toBe(before);
		const log = (await api().control('GET', 'requests')).body.requests;
		expect(log[log.length - 1]).toMatchObject({ path: '/v1/events/update', status: 400, points: 1, user: 'alice' });
	});

	it('v1: update with body {} and an invalid or expired token answers 401; the plan-less user 403', async () => {
		expectErrorBody(await api().call('POST', '/v1/events/update', { body: {}, authorization: 'Bearer not.a.token' }), 401);
		expectErrorBody(await update({}).then(() => v1('POST', 'update', { body: {}, token: 'x' })), 401);
		expectErrorBody(await v1('POST', 'update', { body: {}, token: await token('alice', -1) }), 401);
		expectErrorBody(await v1('POST', 'update', { body: {}, token: await token('noplan') }), 403);
	});
});

describe('list', () => {
	it('v1 list: answers { data: { events } } with the same events and ids as v3', async () => {
		const single = await v3.create();
		await v3.create({ title: 'Weekly', recurrenceRules: weekly() });
		const res = await list();
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['data']);
		const v3Events = await v3.listEvents();
		expect(res.body.data.events.map((e: { id: string }) => e.id)).toEqual(v3Events.map((e) => e.id));
		expect(res.body.data.events.find((e: { id: string }) => e.id === single.id)).toEqual(asV1(single));
	});

	it('v1 list: events lack uid, masterEventId, recurrenceId, recurrenceIdTimeZone, useDefaultAlerts and metadata', async () => {
		const master = await v3.create({ recurrenceRules: weekly() });
		const taskId = await api().createTask();
		await api().control('POST', 'events/link-task', { user: 'alice', eventId: master.id, taskId });
		const [first] = await listEvents();
		for (const key of HIDDEN) expect(first).not.toHaveProperty([key]);
		expect(first).toMatchObject({ '@type': 'Event', calendarId: CAL_A, accountId: ACC_A, integrationId: 'providerA', baseEventId: master.id, masterBaseEventId: master.id });
	});

	it('v1 list: calendarIds, start and end are required; accountId and anything else answer 400', async () => {
		for (const name of ['calendarIds', 'start', 'end']) {
			const query = { calendarIds: CAL_A, start: '2026-03-01T00:00:00Z', end: '2026-04-01T00:00:00Z' } as Record<string, string>;
			delete query[name];
			expectErrorBody(await v1('GET', 'list', { query }), 400);
		}
		expectValidation(await list({ accountId: ACC_A }), ['property accountId should not exist']);
	});

	it('v1 list: the same window rules as v3 (end > start, at most 6 months, offsets)', async () => {
		expectValidation(await list({ end: '2026-03-01T00:00:00Z' }), ['end must be greater than start']);
		expectValidation(await list({ start: '2026-01-01T00:00:00Z', end: '2026-07-02T00:00:00Z' }), ['The window from start to end must not be longer than 6 months']);
		expectValidation(await list({ start: '2026-03-01' }), ['start must be a valid ISO 8601 date-time with Z or an offset']);
		expect((await list({ start: '2026-01-01T00:00:00Z', end: '2026-07-01T00:00:00Z' })).status).toBe(200);
	});

	it('v1 list: several calendars of one account; calendars of different accounts answer 400', async () => {
		await v3.create({ calendarId: CAL_A_TEAM });
		expect(await listEvents({ calendarIds: `${CAL_A},${CAL_A_TEAM}` })).toHaveLength(1);
		expectErrorBody(await list({ calendarIds: `${CAL_A},${CAL_B}` }), 400, 'calendarIds must all belong to one account');
	});

	it('v1 list: a calendar that is unknown or another user\'s answers 400', async () => {
		expectErrorBody(await list({ calendarIds: CAL_BOB }), 400, `calendar ${CAL_BOB} is not a calendar of this user`);
		expectErrorBody(await list({ calendarIds: 'cal-none' }), 400);
	});

	it('v1 list: an expired connection answers 401 and a revoked one 403', async () => {
		expectErrorBody(await list({ calendarIds: CAL_EXPIRED }), 401, `The calendar connection of account ${ACC_EXPIRED} has expired: reconnect the account`);
		expectErrorBody(await list({ calendarIds: CAL_REVOKED }), 403, `The calendar connection of account ${ACC_REVOKED} was revoked: reconnect the account`);
	});

	it('v1 list: costs 10 points', async () => {
		await api().control('POST', 'limits', { points: 300 });
		expect((await list()).headers.get('ratelimit-remaining')).toBe('290');
	});
});

describe('create', () => {
	it('v1 create: answers 200 { data: { event } }; the event is the v3 event without the fields v1 does not show', async () => {
		const res = await create({});
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['data']);
		const event = res.body.data.event;
		expect(event).toEqual(asV1(await v3.getEvent(event.id)));
		expect(event).toMatchObject({ calendarId: CAL_A, accountId: ACC_A, integrationId: 'providerA', title: 'Meeting' });
	});

	it('v1 create: the account is the calendar\'s; accountId in the body answers 400', async () => {
		expect((await create({ calendarId: CAL_B })).body.data.event.accountId).toBe(ACC_B);
		expectValidation(await create({ accountId: ACC_A }), ['property accountId should not exist']);
	});

	it('v1 create: a calendar that is unknown or another user\'s answers 400', async () => {
		expectErrorBody(await create({ calendarId: CAL_BOB }), 400, `calendar ${CAL_BOB} is not a calendar of this user`);
		expectValidation(await create({ calendarId: undefined }), ['calendarId must be a string']);
	});

	it('v1 create: the event fields are validated as in v3', async () => {
		expectValidation(await create({ timeZone: 'EST' }), ['Event timeZone should be a valid IANA time zone']);
		expectValidation(await create({ duration: 'one hour' }), ['Event duration should be a valid ISO8601 duration']);
		expectValidation(await create({ id: 'x' }), ['id is read-only']);
		expect((await create(allDay())).body.data.event).toMatchObject(allDay());
	});

	it('v1 create: may carry service.example:requestVirtualRoom = default; other room kinds answer 400', async () => {
		const event = (await create({ 'service.example:requestVirtualRoom': 'default' })).body.data.event;
		expect(event['service.example:derived'].virtualRoom.url).toBe(event['provider.example:hangoutLink']);
		expectValidation(await create({ 'service.example:requestVirtualRoom': 'providerAMeetingRoom' }), [
			"service.example:requestVirtualRoom must be 'default' in version 1",
		]);
	});

	it('v1 create: an expired connection answers 401 and a revoked one 403', async () => {
		expectErrorBody(await create({ calendarId: CAL_EXPIRED }), 401);
		expectErrorBody(await create({ calendarId: CAL_REVOKED }), 403);
	});

	it('v1 create: a recurring event answers its master, listed as occurrences in v1 and v3', async () => {
		const master = (await create({ recurrenceRules: weekly({ count: 3 }) })).body.data.event;
		const events = await listEvents();
		expect(events).toHaveLength(3);
		for (const e of events) expect(e.masterBaseEventId).toBe(master.id);
		expect((await v3.listEvents()).map((e) => e.masterEventId)).toEqual([master.id, master.id, master.id]);
	});
});

describe('update', () => {
	it('v1 update: answers 200 with the event as the top-level body', async () => {
		const { id } = await v3.create();
		const res = await update({ id, title: 'Renamed' });
		expect(res.status).toBe(200);
		expect(res.body).not.toHaveProperty('data');
		expect(res.body).toEqual(asV1(await v3.getEvent(id)));
		expect(res.body.title).toBe('Renamed');
	});

	it('v1 update: patch semantics, timing fields together, participants patched', async () => {
		const event = await v3.create({ participants: { [b64(CAROL)]: { email: CAROL } } });
		expectValidation(await update({ id: event.id, start: '2026-03-02T10:00:00' }), [
			'start, duration, timeZone and showWithoutTime must be provided together (timeZone may be null)',
		]);
		const res = await update({ id: event.id, ...allDay('2026-03-03'), participants: { [b64('dave@example.com')]: { email: 'dave@example.com' } } });
		expect(res.body).toMatchObject({ ...allDay('2026-03-03'), title: 'Meeting' });
		expect(Object.keys(res.body.participants).sort()).toEqual([b64(CAROL), b64('dave@example.com')].sort());
	});

	it('v1 update: only seriesUpdateMode single is supported; all and future answer 400', async () => {
		const master = await v3.create({ recurrenceRules: weekly() });
		expect((await update({ id: master.id, title: 'x' }, 'single')).status).toBe(200);
		expectValidation(await update({ id: master.id, title: 'x' }, 'all'), ["seriesUpdateMode must be 'single': only single is supported in version 1"]);
		expectValidation(await update({ id: master.id, title: 'x' }, 'future'), ["seriesUpdateMode must be 'single': only single is supported in version 1"]);
		expectValidation(await update({ id: master.id, title: 'x', seriesUpdateMode: 'single' }), ['seriesUpdateMode must be given in the query string, not in the body']);
	});

	it('v1 update: id is required; accountId, calendarId and masterEventId are not v1 fields', async () => {
		const { id } = await v3.create();
		expectValidation(await update({ title: 'x' }), ['id must be a string']);
		expectValidation(await update({ id, accountId: ACC_A }), ['property accountId should not exist']);
		expectValidation(await update({ id, calendarId: CAL_A }), ['property calendarId should not exist']);
		expectValidation(await update({ id, masterEventId: id, recurrenceId: '2026-03-02T09:00:00' }), [
			'property masterEventId should not exist',
			'property recurrenceId should not exist',
		]);
	});

	it('v1 update: on an occurrence edits that occurrence only, with the same id', async () => {
		await v3.create({ title: 'Weekly', recurrenceRules: weekly() });
		const before = await listEvents();
		const res = await update({ id: before[1].id, title: 'Second' });
		expect(res.body.id).toBe(before[1].id);
		expect((await listEvents()).map((e: { title: string }) => e.title)).toEqual(['Weekly', 'Second', 'Weekly', 'Weekly', 'Weekly']);
	});

	it('v1 update: an unknown, deleted or foreign id answers 404', async () => {
		const { id } = await v3.create();
		const bobs = await v3.create({ accountId: 'acc-bob-a', calendarId: CAL_BOB }, BOB);
		await v3.delete(id);
		expectErrorBody(await update({ id, title: 'x' }), 404);
		expectErrorBody(await update({ id: bobs.id, title: 'x' }), 404);
		expectErrorBody(await update({ id: 'nothing', title: 'x' }), 404);
	});

	it('v1 update: an expired connection answers 401 and a revoked one 403', async () => {
		const { id } = await v3.create();
		setConnection(ACC_A, 'expired');
		expectErrorBody(await update({ id, title: 'x' }), 401);
		setConnection(ACC_A, 'revoked');
		expectErrorBody(await update({ id, title: 'x' }), 403);
	});
});

describe('delete', () => {
	it('v1 delete: answers 204 with an empty body; repeated delete answers 404; v3 get then 404', async () => {
		const { id } = await v3.create();
		const res = await remove({ id });
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
		expectErrorBody(await remove({ id }), 404);
		expectErrorBody(await v3.get(id), 404);
	});

	it('v1 delete: only single; the body takes only id', async () => {
		const master = await v3.create({ recurrenceRules: weekly() });
		expectValidation(await remove({ id: master.id }, 'all'), ["seriesUpdateMode must be 'single': only single is supported in version 1"]);
		expectValidation(await remove({}), ['id must be a string']);
		expectValidation(await remove({ id: master.id, calendarId: CAL_A }), ['property calendarId should not exist']);
		const [, second] = await listEvents();
		expect((await remove({ id: second.id }, 'single')).status).toBe(204);
		expect(await listEvents()).toHaveLength(4);
	});

	it('v1 delete: an expired connection answers 401 and a revoked one 403', async () => {
		const { id } = await v3.create();
		setConnection(ACC_A, 'expired');
		expectErrorBody(await remove({ id }), 401);
		setConnection(ACC_A, 'revoked');
		expectErrorBody(await remove({ id }), 403);
	});
});

describe('rsvp', () => {
	it.each([
		['accept', 'accepted'],
		['decline', 'declined'],
		['tentativelyAccept', 'tentative'],
	])('v1 rsvp: %s sets the account owner\'s participationStatus to %s and answers 204 with an empty body', async (action, status) => {
		const { id } = await v3.create({ participants: { ...ALICE_PARTICIPANT, [b64(CAROL)]: { email: CAROL } } });
		const res = await rsvp(action, { id });
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
		const event = await v3.getEvent(id);
		expect(event.participants[b64(ALICE_EMAIL)].participationStatus).toBe(status);
		expect(event.participants[b64(CAROL)].participationStatus).toBe('needs-action');
	});

	it('v1 rsvp: the owner is found by accountOwner true as well as by the owner\'s e-mail address', async () => {
		const alias = 'alice.team@sandbox.example';
		const { id } = await v3.create({ participants: { [b64(alias)]: { email: alias, accountOwner: true } } });
		expect((await rsvp('accept', { id })).status).toBe(204);
		expect((await v3.getEvent(id)).participants[b64(alias)].participationStatus).toBe('accepted');
	});

	it('v1 rsvp: the account owner not a participant answers 400', async () => {
		const { id } = await v3.create({ participants: { [b64(CAROL)]: { email: CAROL } } });
		expectErrorBody(await rsvp('accept', { id }), 400, `The account owner (${ALICE_EMAIL}) is not a participant of this event`);
		const bare = await v3.create();
		expectErrorBody(await rsvp('decline', { id: bare.id }), 400);
	});

	it('v1 rsvp: comment (string) and notifyOrganizer (boolean) are accepted; other body fields answer 400', async () => {
		const { id } = await v3.create({ participants: ALICE_PARTICIPANT });
		expect((await rsvp('decline', { id, comment: 'Sorry, travelling', notifyOrganizer: false })).status).toBe(204);
		expect((await rsvp('accept', { id, notifyOrganizer: true })).status).toBe(204);
		expectValidation(await rsvp('accept', { id, comment: 5 }), ['comment must be a string']);
		expectValidation(await rsvp('accept', { id, notifyOrganizer: 'yes' }), ['notifyOrganizer must be a boolean value']);
		expectValidation(await rsvp('accept', { id, status: 'accepted' }), ['property status should not exist']);
		expectValidation(await rsvp('accept', {}), ['id must be a string']);
	});

	it('v1 rsvp: only seriesUpdateMode single; on an occurrence it answers for that occurrence only', async () => {
		await v3.create({ recurrenceRules: weekly(), participants: ALICE_PARTICIPANT });
		const before = await v3.listEvents();
		expectValidation(await rsvp('accept', { id: before[1].id }, 'all'), ["seriesUpdateMode must be 'single': only single is supported in version 1"]);
		expect((await rsvp('accept', { id: before[1].id }, 'single')).status).toBe(204);
		const statuses = (await v3.listEvents()).map((e) => e.participants[b64(ALICE_EMAIL)].participationStatus);
		expect(statuses).toEqual(['needs-action', 'accepted', 'needs-action', 'needs-action', 'needs-action']);
	});

	it('v1 rsvp: on a series master it answers for the whole series', async () => {
		const master = await v3.create({ recurrenceRules: weekly({ count: 2 }), participants: ALICE_PARTICIPANT });
		expect((await rsvp('tentativelyAccept', { id: master.id })).status).toBe(204);
		expect((await v3.listEvents()).map((e) => e.participants[b64(ALICE_EMAIL)].participationStatus)).toEqual(['tentative', 'tentative']);
	});

	it('v1 rsvp: an unknown, deleted or foreign id answers 404', async () => {
		const { id } = await v3.create({ participants: ALICE_PARTICIPANT });
		await v3.delete(id);
		expectErrorBody(await rsvp('accept', { id }), 404);
		expectErrorBody(await rsvp('accept', { id: 'nothing' }), 404);
	});

	it('v1 rsvp: an expired connection answers 401 and a revoked one 403', async () => {
		const { id } = await v3.create({ participants: ALICE_PARTICIPANT });
		setConnection(ACC_A, 'expired');
		expectErrorBody(await rsvp('accept', { id }), 401);
		setConnection(ACC_A, 'revoked');
		expectErrorBody(await rsvp('accept', { id }), 403);
	});

	it('v1 rsvp: updates the event\'s updated timestamp', async () => {
		await api().control('POST', 'clock', { now: '2026-02-01T10:00:00Z' });
		const { id } = await v3.create({ participants: ALICE_PARTICIPANT });
		await api().control('POST', 'clock', { advanceSeconds: 5 });
		await rsvp('accept', { id });
		expect((await v3.getEvent(id)).updated).toBe('2026-02-01T10:00:05.000Z');
	});
});
