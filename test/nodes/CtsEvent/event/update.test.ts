/**
 * Event Update.
 *
 * The CTS Event node (v3) run by n8n's real engine against the sandbox over HTTP. What the node
 * sent is read from the sandbox's request log; what it changed is read back through the API.
 */
import { withEnd } from '../../../../nodes/shared/output/simplifyEvent';
import { eventApi, eventNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = eventNodeSuite();
const { createEvent, getEvent, listEvents } = eventApi(sandbox);
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

async function lastBody() {
	return (await sandbox.requests()).at(-1)!.body as Record<string, unknown>;
}

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
