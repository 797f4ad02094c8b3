/**
 * Conformance of the v3 events endpoints: update, and the series update modes on occurrences and masters,
 * one test per rule of the interface and of the notes on where it is silent.
 * Over real HTTP against an in-process sandbox; the setup and helpers the events test files share are in
 * `support/events.ts`.
 */
import {
	ACC_A,
	ACC_BOB,
	ACC_EXPIRED,
	ACC_REVOKED,
	ALERT_15,
	ALERT_15_ID,
	ALERT_60_ID,
	CAL_BOB,
	CAL_EXPIRED,
	CAL_REVOKED,
	IN_A,
	M,
	allDay,
	b64,
	timed,
	useEventsApi,
	weekly,
} from './support/events';
import { expectErrorBody, expectValidation } from './support/http';

const { api, ev, freeze, advance, setConnection, series } = useEventsApi();

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

	it('update: useDefaultAlerts false on an event with the calendar\'s defaults leaves it without any alert, in the answer and the list', async () => {
		const { id } = await ev.create();
		const quiet = await ev.updated({ id, useDefaultAlerts: false });
		expect(quiet.useDefaultAlerts).toBe(false);
		expect(quiet).not.toHaveProperty('alerts');
		const listed = (await ev.list()).body.data.events.find((event: { id: string }) => event.id === id);
		expect(listed.useDefaultAlerts).toBe(false);
		expect(listed).not.toHaveProperty('alerts');
		// Own alerts removed by their IDs in the same patch: none is left.
		const { id: withOwn } = await ev.create({ alerts: { [ALERT_15_ID]: ALERT_15 } });
		expect((await ev.updated({ id: withOwn, useDefaultAlerts: false, alerts: { [ALERT_15_ID]: null } })).alerts).toEqual({});
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
