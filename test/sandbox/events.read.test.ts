/**
 * Conformance of the v3 events endpoints: list and get, and the derived fields and metadata an event
 * carries, one test per rule of the interface and of the notes on where it is silent.
 * Over real HTTP against an in-process sandbox; the setup and helpers the events test files share are in
 * `support/events.ts`.
 */
import {
	ACC_A,
	ACC_B,
	ACC_BOB,
	ACC_EXPIRED,
	ACC_REVOKED,
	ALICE_EMAIL,
	CAL_A,
	CAL_A_TEAM,
	CAL_B,
	CAL_BOB,
	CAL_EXPIRED,
	CAL_REVOKED,
	M,
	allDay,
	b64,
	eventBody,
	timed,
	useEventsApi,
} from './support/events';
import { BOB, expectErrorBody, expectValidation } from './support/http';

const { api, ev, setConnection, series } = useEventsApi();

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
