/**
 * Calendar → Mirror Busy Time of the CTS Event node, run by n8n's real engine against the sandbox
 * over HTTP: busy events of source calendars copied into a target as busy blocks with a marker
 * line only, kept in step over runs. What the node wrote is read back from the sandbox.
 */
import { DateTime, Duration } from 'luxon';

import { CtsEvent } from '../../../../nodes/CtsEvent/CtsEvent.node';
import { Engine, type NodeRunOptions } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent() });

sandboxWithFreshLists(sandbox);
// The tests read the calendars back far more often than a run does: a budget that never runs out.
beforeEach(async () => await sandbox.control('limits', { points: 1_000_000 }));

const A = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
const TEAM = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' };
const B = { accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' };
type Calendar = typeof A;
const ref = (calendar: Calendar) => `${calendar.accountId}/${calendar.calendarId}`;
const RANGE = { start: '2026-11-30T00:00:00', end: '2026-12-07T00:00:00' };
const DECLINED = { participants: { 'alice@sandbox.example': { email: 'alice@sandbox.example', participationStatus: 'declined' } } };

type Event = Record<string, any>;

function run(parameters: Record<string, unknown> = {}, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsEvent',
		parameters: {
			resource: 'calendar',
			operation: 'mirrorBusyTime',
			sourceCalendars: [ref(A)],
			calendarId: { __rl: true, mode: 'list', value: ref(B) },
			timeZone: 'Europe/Berlin',
			...RANGE,
			...parameters,
		},
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

async function create(fields: Record<string, unknown>, calendar: Calendar = A): Promise<Event> {
	return await sandbox.createEvent(timedEvent({ ...calendar, ...fields }));
}

/** The calendar's events (series as occurrences), read in windows of a month. */
async function list(calendar: Calendar, start = '2026-11-01T00:00:00Z', end = '2027-01-01T00:00:00Z'): Promise<Event[]> {
	const events = new Map<string, Event>();
	for (let from = DateTime.fromISO(start, { zone: 'utc' }); from < DateTime.fromISO(end, { zone: 'utc' }); from = from.plus({ months: 1 })) {
		const qs = { accountId: calendar.accountId, calendarIds: calendar.calendarId, start: from.toISO({ suppressMilliseconds: true })!, end: from.plus({ months: 1 }).toISO({ suppressMilliseconds: true })! };
		const { status, body } = await sandbox.api('GET', '/v3/events/list', { qs });
		if (status !== 200) throw new Error(`list answered ${status}: ${JSON.stringify(body)}`);
		for (const event of body.data.events as Event[]) events.set(String(event.id), event);
	}
	return [...events.values()];
}

const MARKER = /^Busy copy of: /;
const copiesIn = async (calendar: Calendar) => (await list(calendar, '2026-02-01T00:00:00Z', '2027-01-01T00:00:00Z')).filter((event) => MARKER.test(String(event.description ?? '')));

async function writes(): Promise<string[]> {
	return (await sandbox.requests()).filter((request) => request.method === 'POST').map((request) => request.path);
}

/** An event's instants as "start/end" in UTC (all-day: its dates). */
function instants(event: Event): string {
	if (event.showWithoutTime) return `${String(event.start).slice(0, 10)} all-day ${String(event.duration)}`;
	const start = DateTime.fromISO(String(event.start), { zone: String(event.timeZone ?? 'UTC') });
	return `${start.toUTC().toISO()}/${start.plus(Duration.fromISO(String(event.duration))).toUTC().toISO()}`;
}

describe('Mirror Busy Time: copies', () => {
	it('copies each busy event as a busy block with the same times, the title and a marker line only; a second run writes nothing', async () => {
		const meeting = await create({
			title: 'Salary talk',
			description: 'Confidential notes',
			start: '2026-12-01T10:00:00',
			duration: 'PT1H30M',
			locations: { office: { '@type': 'Location', name: 'Room 4' } },
			participants: { 'bob@example.com': { '@type': 'Participant', email: 'bob@example.com', name: 'Bob', roles: { attendee: true }, participationStatus: 'accepted' } },
		});
		const london = await create({ title: 'Dentist', start: '2026-12-02T08:00:00', duration: 'PT45M', timeZone: 'Europe/London' });
		await create({ title: 'Outside', start: '2026-12-09T08:00:00' });
		await sandbox.clearRequests();
		const first = await run();
		expect(first.error).toBeUndefined();
		expect(first.items.map(({ json }) => [json.action, json.title, json.start, json.end, json.sourceEventId])).toEqual([
			['created', 'Busy', '2026-12-01T10:00:00+01:00', '2026-12-01T11:30:00+01:00', meeting.id],
			['created', 'Busy', '2026-12-02T09:00:00+01:00', '2026-12-02T09:45:00+01:00', london.id],
		]);
		const requests = await sandbox.requests();
		// The calendar list, one list per account (sources and target) for the range, then one write per copy.
		expect(requests.map((request) => request.path)).toEqual(['/v3/calendars/list', '/v3/events/list', '/v3/events/list', '/v3/events/create', '/v3/events/create']);
		const copies = await copiesIn(B);
		expect(copies).toHaveLength(2);
		const copy = copies.find((event) => event.id === first.items[0].json.copyId)!;
		expect(copy).toMatchObject({ title: 'Busy', start: '2026-12-01T10:00:00', duration: 'PT1H30M', timeZone: 'Europe/Berlin', freeBusyStatus: 'busy', showWithoutTime: false });
		const [label, fingerprint] = [String(copy.description).slice(0, -16), String(copy.description).slice(-16)];
		expect(label).toBe(`Busy copy of: acc-alice-a | cal-alice-a-primary | ${String(meeting.id).replace(/%/g, '%25').replace(/\|/g, '%7C')} | `);
		expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
		const text = JSON.stringify(copies);
		for (const leaked of ['Salary', 'Confidential', 'Room 4', 'bob@example.com', 'Dentist']) expect(text).not.toContain(leaked);
		expect(copy.locations ?? null).toBeNull();
		expect(Object.keys(copy.participants ?? {})).toHaveLength(0);
		// No alerts: not the target calendar's default alerts either (the source reminds from its own calendar).
		for (const each of copies) {
			expect(each.useDefaultAlerts).toBe(false);
			expect(Object.keys(each.alerts ?? {})).toEqual([]);
		}
		expect(requests.filter((request) => request.path === '/v3/events/create').map((request) => (request.body as Event).useDefaultAlerts)).toEqual([false, false]);
		expect(instants(copies.find((event) => event.id === first.items[1].json.copyId)!)).toBe(instants(london));

		await sandbox.clearRequests();
		const second = await run();
		expect(second.items.map(({ json }) => json.action)).toEqual(['unchanged', 'unchanged']);
		expect(await writes()).toEqual([]);
	});

	it('copies the source title when asked, and updates it when the source is renamed', async () => {
		const event = await create({ title: 'Dentist', start: '2026-12-01T10:00:00' });
		await run({ copyTitle: 'source' });
		await sandbox.api('POST', '/v3/events/update', { body: { id: event.id, ...A, title: 'Dentist (Dr. K)' } });
		const { items } = await run({ copyTitle: 'source' });
		expect(items.map(({ json }) => [json.action, json.title])).toEqual([['updated', 'Dentist (Dr. K)']]);
		expect((await copiesIn(B)).map((copy) => copy.title)).toEqual(['Dentist (Dr. K)']);
	});

	it('moves the copy of a moved event; removes copies of cancelled, deleted, declined and free-marked events; re-creates a copy the user deleted', async () => {
		const moving = await create({ title: 'Moving', start: '2026-12-01T09:00:00' });
		const deleted = await create({ title: 'Deleted', start: '2026-12-01T11:00:00' });
		const declining = await create({ title: 'Declining', start: '2026-12-01T13:00:00' });
		const freeing = await create({ title: 'Freeing', start: '2026-12-01T15:00:00' });
		const kept = await create({ title: 'Kept', start: '2026-12-02T09:00:00' });
		await create({ title: 'Declined from the start', start: '2026-12-03T09:00:00', ...DECLINED });
		await create({ title: 'Free from the start', start: '2026-12-03T11:00:00', freeBusyStatus: 'free' });
		const first = await run();
		expect(first.items.map(({ json }) => json.action)).toEqual(['created', 'created', 'created', 'created', 'created']);

		await sandbox.api('POST', '/v3/events/update', { body: { id: moving.id, ...A, start: '2026-12-04T16:00:00', duration: 'PT2H', timeZone: 'Europe/Berlin', showWithoutTime: false } });
		await sandbox.api('POST', '/v3/events/delete', { body: { id: deleted.id, ...A } });
		await sandbox.api('POST', '/v3/events/update', { body: { id: declining.id, ...A, ...DECLINED } });
		await sandbox.api('POST', '/v3/events/update', { body: { id: freeing.id, ...A, freeBusyStatus: 'free' } });
		const keptCopy = first.items.find(({ json }) => json.sourceEventId === kept.id)!.json.copyId as string;
		await sandbox.api('POST', '/v3/events/delete', { body: { id: keptCopy, ...B } });

		const second = await run();
		expect(second.error).toBeUndefined();
		const bySource = Object.fromEntries(second.items.map(({ json }) => [json.sourceEventId as string, json]));
		expect(bySource[moving.id]).toMatchObject({ action: 'moved', start: '2026-12-04T16:00:00+01:00', end: '2026-12-04T18:00:00+01:00', previousStart: '2026-12-01T09:00:00+01:00' });
		for (const gone of [deleted, declining, freeing]) expect(bySource[gone.id]).toMatchObject({ action: 'removed', reason: expect.stringContaining('no longer busy') });
		// A copy deleted in the target is made again while its source is busy: the target shows the source's busy time.
		expect(bySource[kept.id]).toMatchObject({ action: 'created' });
		const copies = await copiesIn(B);
		expect(copies.map((copy) => `${String(copy.start)} ${String(copy.duration)}`).sort()).toEqual(['2026-12-02T09:00:00 PT1H', '2026-12-04T16:00:00 PT2H']);
		const third = await run();
		expect(third.items.map(({ json }) => json.action)).toEqual(['unchanged', 'unchanged']);
	});

	it('moves a copy the user moved back to its source time, and makes a copy marked free busy again', async () => {
		await create({ title: 'One', start: '2026-12-01T09:00:00' });
		await create({ title: 'Two', start: '2026-12-01T11:00:00' });
		const first = await run();
		const [one, two] = first.items.map(({ json }) => json.copyId as string);
		await sandbox.api('POST', '/v3/events/update', { body: { id: one, ...B, start: '2026-12-01T20:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin', showWithoutTime: false } });
		await sandbox.api('POST', '/v3/events/update', { body: { id: two, ...B, freeBusyStatus: 'free' } });
		const { items } = await run();
		expect(items.map(({ json }) => [json.action, json.start])).toEqual([
			['moved', '2026-12-01T09:00:00+01:00'],
			['updated', '2026-12-01T11:00:00+01:00'],
		]);
		expect((await copiesIn(B)).map((copy) => [copy.start, copy.freeBusyStatus])).toEqual([
			['2026-12-01T09:00:00', 'busy'],
			['2026-12-01T11:00:00', 'busy'],
		]);
	});

	it('takes the alerts off copies that remind (written before copies carried none, or given alerts by hand): an update each, then nothing', async () => {
		const ALERT = { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: '-PT5M', relativeTo: 'start' }, action: 'display' };
		const ALERT_ID = Buffer.from(JSON.stringify({ a: 'display', to: '-PT5M' })).toString('base64');
		const withDefaults = await create({ title: 'One', start: '2026-12-01T09:00:00' });
		const withOwn = await create({ title: 'Two', start: '2026-12-01T11:00:00' });
		const movedWithDefaults = await create({ title: 'Three', start: '2026-12-01T13:00:00' });
		const quiet = await create({ title: 'Four', start: '2026-12-01T15:00:00' });
		const first = await run();
		const copyOf = (source: Event) => first.items.find(({ json }) => json.sourceEventId === source.id)!.json.copyId as string;
		// Copies as an earlier version wrote them (the calendar's default alerts), or with an alert added in the calendar.
		for (const source of [withDefaults, movedWithDefaults]) await sandbox.api('POST', '/v3/events/update', { body: { id: copyOf(source), ...B, useDefaultAlerts: true } });
		await sandbox.api('POST', '/v3/events/update', { body: { id: copyOf(withOwn), ...B, alerts: { [ALERT_ID]: ALERT } } });
		await sandbox.api('POST', '/v3/events/update', { body: { id: movedWithDefaults.id, ...A, start: '2026-12-01T14:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin', showWithoutTime: false } });
		expect((await copiesIn(B)).filter((copy) => copy.useDefaultAlerts === true || Object.keys(copy.alerts ?? {}).length > 0)).toHaveLength(3);

		await sandbox.clearRequests();
		const second = await run();
		expect(second.error).toBeUndefined();
		expect(second.items.map(({ json }) => [json.sourceEventId, json.action])).toEqual([
			[withDefaults.id, 'updated'],
			[withOwn.id, 'updated'],
			[movedWithDefaults.id, 'moved'],
			[quiet.id, 'unchanged'],
		]);
		// One write per copy, the move included: defaults off, each own alert removed by its ID.
		const updates = (await sandbox.requests()).filter((request) => request.method === 'POST');
		expect(updates.map((request) => [request.path, (request.body as Event).id])).toEqual([
			['/v3/events/update', copyOf(withDefaults)],
			['/v3/events/update', copyOf(withOwn)],
			['/v3/events/update', copyOf(movedWithDefaults)],
		]);
		expect((updates[1].body as Event)).toMatchObject({ useDefaultAlerts: false, alerts: { [ALERT_ID]: null } });
		for (const copy of await copiesIn(B)) {
			expect(copy.useDefaultAlerts).toBe(false);
			expect(Object.keys(copy.alerts ?? {})).toEqual([]);
		}
		await sandbox.clearRequests();
		expect((await run()).items.map(({ json }) => json.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
		expect(await writes()).toEqual([]);
	});

	it('leaves alone every event of the target it did not make: own events, task blocks, copies of calendars that are not its sources', async () => {
		const own = await create({ title: 'Own event', description: 'mine', start: '2026-12-01T09:00:00' }, B);
		const block = await create({ title: 'Write report', description: 'Task ID: task-1', start: '2026-12-01T10:00:00' }, B);
		const otherCopy = await create({ title: 'Busy', description: 'Busy copy of: acc-alice-c | cal-alice-c-home | ev-1 | 0123456789abcdef', start: '2026-12-01T12:00:00' }, B);
		await create({ title: 'Source', start: '2026-12-02T09:00:00' });
		await sandbox.clearRequests();
		const { items } = await run();
		expect(items.map(({ json }) => json.action)).toEqual(['created']);
		expect(await writes()).toEqual(['/v3/events/create']);
		const after = await list(B);
		for (const untouched of [own, block, otherCopy]) expect(after.find((event) => event.id === untouched.id)).toMatchObject({ title: untouched.title, description: untouched.description, start: untouched.start });
	});
});

describe('Mirror Busy Time: what it reads', () => {
	const EXPIRED = { accountId: 'acc-alice-expired', calendarId: 'cal-alice-expired' };

	it('reads the sources and the target with one list per account and started 2 months; an unreadable source fails, or is skipped with its copies left alone', async () => {
		await create({ title: 'In A', start: '2026-12-01T09:00:00' });
		await create({ title: 'In Team', start: '2027-01-20T09:00:00' }, TEAM);
		const orphanOfSkipped = await create({ title: 'Busy', description: 'Busy copy of: acc-alice-expired | cal-alice-expired | ev-9 | 0123456789abcdef', start: '2026-12-02T09:00:00' }, B);
		const range = { start: '2026-11-30T00:00:00', end: '2027-02-15T00:00:00' };
		await sandbox.clearRequests();
		const { items, error } = await run({ sourceCalendars: [ref(A), ref(TEAM)], ...range });
		expect(error).toBeUndefined();
		expect(items.map(({ json }) => [json.action, json.sourceCalendarName])).toEqual([
			['created', 'Personal'],
			['created', 'Team Platform'],
		]);
		const lists = (await sandbox.requests()).filter((request) => request.path === '/v3/events/list');
		expect(lists.map((request) => `${String(request.query.accountId)} ${String(request.query.calendarIds)}`)).toEqual([
			'acc-alice-a cal-alice-a-primary,cal-alice-a-team',
			'acc-alice-a cal-alice-a-primary,cal-alice-a-team',
			'acc-alice-b cal-alice-b-primary',
			'acc-alice-b cal-alice-b-primary',
		]);

		const failed = await run({ sourceCalendars: [ref(A), ref(EXPIRED)], ...range });
		expect(failed.error?.message).toMatch(/Source Calendars: cannot read "Side Project"/);
		const skipped = await run({ sourceCalendars: [ref(A), ref(EXPIRED)], ...range, options: { unreadableCalendars: 'skip' } });
		expect(skipped.error).toBeUndefined();
		expect(skipped.items[0].json.notices).toEqual([expect.stringContaining('Skipped "Side Project"')]);
		expect(skipped.items.map(({ json }) => json.action)).toEqual(['unchanged']);
		expect((await list(B)).find((event) => event.id === orphanOfSkipped.id)).toBeDefined();
	});
});

describe('Mirror Busy Time: all-day events, series, daylight saving', () => {
	it('copies an all-day event as all-day on the same dates, or leaves all-day events out (removing their copies) when asked', async () => {
		await create({ title: 'Holiday', start: '2026-12-02T00:00:00', duration: 'P2D', timeZone: null, showWithoutTime: true });
		const { items } = await run({ timeZone: 'America/New_York' });
		expect(items.map(({ json }) => [json.action, json.allDay, json.startDate, json.endDate, json.start])).toEqual([['created', true, '2026-12-02', '2026-12-04', '2026-12-02T00:00:00-05:00']]);
		expect((await copiesIn(B)).map((copy) => [copy.start, copy.duration, copy.showWithoutTime, copy.freeBusyStatus])).toEqual([['2026-12-02T00:00:00', 'P2D', true, 'busy']]);
		expect((await run({ timeZone: 'America/New_York' })).items.map(({ json }) => json.action)).toEqual(['unchanged']);
		const ignored = await run({ timeZone: 'America/New_York', options: { allDayEvents: 'ignore' } });
		expect(ignored.items.map(({ json }) => json.action)).toEqual(['removed']);
		expect(await copiesIn(B)).toEqual([]);
	});

	it('copies a series as its occurrences, with exceptions: a moved occurrence is moved, a cancelled one removed', async () => {
		const series = await create({ title: 'Daily', start: '2026-11-30T16:00:00', duration: 'PT30M', recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', count: 4 }] });
		const occurrences = (await list(A, '2026-11-29T00:00:00Z', '2026-12-10T00:00:00Z')).filter((event) => event.masterEventId === series.id);
		expect(occurrences).toHaveLength(4);
		// An exception before the first run: Tuesday's occurrence at 18:00.
		await sandbox.api('POST', '/v3/events/update', { qs: { seriesUpdateMode: 'single' }, body: { id: occurrences[1].id, ...A, start: '2026-12-01T18:00:00', duration: 'PT30M', timeZone: 'Europe/Berlin', showWithoutTime: false } });
		const first = await run();
		expect(first.items.map(({ json }) => [json.action, json.start, json.sourceSeriesId])).toEqual([
			['created', '2026-11-30T16:00:00+01:00', series.id],
			['created', '2026-12-01T18:00:00+01:00', series.id],
			['created', '2026-12-02T16:00:00+01:00', series.id],
			['created', '2026-12-03T16:00:00+01:00', series.id],
		]);
		const copies = await copiesIn(B);
		expect(copies.every((copy) => !copy.recurrenceRules && !copy.masterEventId)).toBe(true);
		// Then Wednesday's occurrence moves and Thursday's is cancelled.
		await sandbox.api('POST', '/v3/events/update', { qs: { seriesUpdateMode: 'single' }, body: { id: occurrences[2].id, ...A, start: '2026-12-02T07:00:00', duration: 'PT30M', timeZone: 'Europe/Berlin', showWithoutTime: false } });
		await sandbox.api('POST', '/v3/events/delete', { qs: { seriesUpdateMode: 'single' }, body: { id: occurrences[3].id, ...A } });
		const second = await run();
		expect(second.items.map(({ json }) => [json.action, json.start])).toEqual([
			['unchanged', '2026-11-30T16:00:00+01:00'],
			['unchanged', '2026-12-01T18:00:00+01:00'],
			['moved', '2026-12-02T07:00:00+01:00'],
			['removed', '2026-12-03T16:00:00+01:00'],
		]);
		expect((await copiesIn(B)).map((copy) => copy.start).sort()).toEqual(['2026-11-30T16:00:00', '2026-12-01T18:00:00', '2026-12-02T07:00:00']);
	});

	it.each([
		['Europe/Berlin', '2026-03-29', '2026-10-25'],
		['America/New_York', '2026-03-08', '2026-11-01'],
		['Australia/Lord_Howe', '2026-10-04', '2026-04-05'],
	])('keeps the instants of events on the daylight-saving days of %s', async (zone, springDay, fallDay) => {
		const events = [
			await create({ title: 'Across the gap', start: `${springDay}T01:30:00`, duration: 'PT2H', timeZone: zone }),
			await create({ title: 'Repeated hour', start: `${fallDay}T01:15:00`, duration: 'PT1H', timeZone: zone }),
			await create({ title: 'Whole day', start: `${fallDay}T00:00:00`, duration: 'P1D', timeZone: null, showWithoutTime: true }),
			await create({ title: 'In UTC', start: `${fallDay}T14:00:00`, duration: 'PT30M', timeZone: 'UTC' }),
		];
		const range = { start: '2026-03-01T00:00:00', end: '2026-08-31T00:00:00' };
		const second = { start: '2026-08-01T00:00:00', end: '2027-01-31T00:00:00' };
		const runs = [range, second];
		for (const window of runs) expect((await run({ timeZone: zone, ...window })).error).toBeUndefined();
		const copies = await copiesIn(B);
		const sourceInstants = (await list(A, '2026-02-01T00:00:00Z', '2027-01-01T00:00:00Z')).filter((event) => events.some((made) => made.id === event.id)).map(instants).sort();
		expect(copies.map(instants).sort()).toEqual(sourceInstants);
		expect(copies).toHaveLength(4);
		for (const window of runs) expect((await run({ timeZone: zone, ...window })).items.map(({ json }) => json.action)).toEqual(expect.arrayContaining(['unchanged']));
		await sandbox.clearRequests();
		for (const window of runs) await run({ timeZone: zone, ...window });
		expect(await writes()).toEqual([]);
		// The output's times carry the zone's offset of their instant.
		const output = (await run({ timeZone: zone, ...second, preview: true })).items.map(({ json }) => json.start as string);
		for (const start of output) expect(DateTime.fromISO(start, { setZone: true }).offset).toBe(DateTime.fromISO(start).setZone(zone).offset);
	});
});

describe('Mirror Busy Time: two calendars mirrored into each other, Preview, errors', () => {
	it('never copies a copy: A → B and B → A over many runs keep one copy per event, 0 copies of copies', async () => {
		const both = (source: Calendar, target: Calendar) => run({ sourceCalendars: [ref(source)], calendarId: { __rl: true, mode: 'list', value: ref(target) } });
		const inA = await create({ title: 'Work meeting', start: '2026-12-01T09:00:00' }, A);
		await create({ title: 'Doctor', start: '2026-12-01T15:00:00' }, B);
		for (let round = 0; round < 5; round++) {
			if (round === 2) await create({ title: 'Late', start: '2026-12-03T18:00:00' }, B);
			if (round === 3) await sandbox.api('POST', '/v3/events/update', { body: { id: inA.id, ...A, start: '2026-12-02T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin', showWithoutTime: false } });
			expect((await both(A, B)).error).toBeUndefined();
			expect((await both(B, A)).error).toBeUndefined();
			const [copiesInA, copiesInB] = [await copiesIn(A), await copiesIn(B)];
			expect(copiesInB).toHaveLength(1);
			expect(copiesInA).toHaveLength(round >= 2 ? 2 : 1);
			// Every copy's source is an event that is itself no copy.
			for (const copy of [...copiesInA, ...copiesInB]) expect(String(copy.description)).not.toMatch(/Busy copy of: [^|]+\| [^|]+\| [^|]+\| [^|]+\| /);
			for (const copy of copiesInA) expect(copy.description).toContain('cal-alice-b-primary');
			for (const copy of copiesInB) expect(copy.description).toContain('cal-alice-a-primary');
		}
		await sandbox.clearRequests();
		await both(A, B);
		await both(B, A);
		expect(await writes()).toEqual([]);
	});

	it('both directions in one execution read each calendar once; the second sees the first\'s copies and copies none of them', async () => {
		const twoWay = () =>
			run(
				{ sourceCalendars: [ref(A)], calendarId: { __rl: true, mode: 'list', value: ref(B) } },
				{ mode: 'trigger', alongside: [{ name: 'B → A', parameters: { resource: 'calendar', operation: 'mirrorBusyTime', sourceCalendars: [ref(B)], calendarId: { __rl: true, mode: 'list', value: ref(A) }, timeZone: 'Europe/Berlin', ...RANGE } }] },
			);
		await create({ title: 'Work meeting', start: '2026-12-01T09:00:00' }, A);
		await create({ title: 'Doctor', start: '2026-12-01T15:00:00' }, B);
		await create({ title: 'Dentist', start: '2026-12-02T15:00:00' }, B);
		const lists = async () => (await sandbox.requests()).filter((request) => request.path === '/v3/events/list').map((request) => request.query.accountId);
		await sandbox.clearRequests();
		const first = await twoWay();
		expect(first.error).toBeUndefined();
		expect(first.items.map((item) => item.json.action)).toEqual(['created']);
		expect(first.alongside['B → A'].map((item) => item.json.action)).toEqual(['created', 'created']);
		expect((await lists()).sort()).toEqual([A.accountId, B.accountId]);
		expect(await copiesIn(A)).toHaveLength(2);
		expect(await copiesIn(B)).toHaveLength(1);

		// The next execution reads afresh: an event added since is copied, nothing else is written.
		await create({ title: 'Late', start: '2026-12-03T18:00:00' }, A);
		await sandbox.clearRequests();
		const second = await twoWay();
		expect(second.items.map((item) => item.json.action).sort()).toEqual(['created', 'unchanged']);
		expect(second.alongside['B → A'].map((item) => item.json.action)).toEqual(['unchanged', 'unchanged']);
		expect((await lists()).sort()).toEqual([A.accountId, B.accountId]);
		expect(await writes()).toEqual(['/v3/events/create']);
		expect(await copiesIn(A)).toHaveLength(2);
		expect(await copiesIn(B)).toHaveLength(2);
	});

	it('a second item of the same execution sees what the first wrote: created, moved and removed copies, no list read twice, nothing written twice', async () => {
		const moving = await create({ title: 'Moves', start: '2026-12-01T09:00:00' });
		const cancelled = await create({ title: 'Cancelled', start: '2026-12-02T09:00:00' });
		expect((await run()).error).toBeUndefined();
		await sandbox.api('POST', '/v3/events/update', { body: { id: moving.id, ...A, start: '2026-12-01T11:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin', showWithoutTime: false } });
		await sandbox.api('POST', '/v3/events/delete', { body: { id: cancelled.id, ...A } });
		await create({ title: 'New', start: '2026-12-03T09:00:00' });
		await sandbox.clearRequests();
		const { items, error } = await run({}, { items: [{}, {}] });
		expect(error).toBeUndefined();
		const byItem = (index: number) => items.filter((item) => item.pairedItem && (item.pairedItem as { item: number }).item === index).map((item) => item.json.action).sort();
		expect(byItem(0)).toEqual(['created', 'moved', 'removed']);
		expect(byItem(1)).toEqual(['unchanged', 'unchanged']);
		expect((await writes()).sort()).toEqual(['/v3/events/create', '/v3/events/delete', '/v3/events/update']);
		expect((await sandbox.requests()).filter((request) => request.path === '/v3/events/list').map((request) => request.query.accountId).sort()).toEqual([A.accountId, B.accountId]);
		expect((await copiesIn(B)).map(instants).sort()).toEqual(['2026-12-01T10:00:00.000Z/2026-12-01T11:00:00.000Z', '2026-12-03T08:00:00.000Z/2026-12-03T09:00:00.000Z']);
	});

	it('as a published workflow runs it: three runs, writes on the first only', async () => {
		await create({ title: 'One', start: '2026-12-01T09:00:00' });
		await create({ title: 'Two', start: '2026-12-02T09:00:00', duration: 'PT2H' });
		const written: string[][] = [];
		for (let round = 0; round < 3; round++) {
			await sandbox.clearRequests();
			const { error } = await run({}, { mode: 'trigger' });
			expect(error).toBeUndefined();
			written.push(await writes());
		}
		expect(written).toEqual([['/v3/events/create', '/v3/events/create'], [], []]);
	});

	it('writes nothing in Preview and says what it would do, in the present tense', async () => {
		await create({ title: 'One', start: '2026-12-01T09:00:00' });
		await sandbox.clearRequests();
		const { items } = await run({ preview: true });
		expect(items.map(({ json }) => [json.action, json.copyId, json.preview])).toEqual([['create', null, true]]);
		expect(await writes()).toEqual([]);
		expect(await copiesIn(B)).toEqual([]);
	});

	it('names the field before any request: no sources, the target among the sources, a range over 6 months, an empty title', async () => {
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ sourceCalendars: [] }, 'Source Calendar'],
			[{ end: '2027-07-01T00:00:00' }, 'End'],
			[{ copyTitle: 'fixed', title: ' ' }, 'Copy Title'],
		];
		await sandbox.clearRequests();
		for (const [parameters, field] of cases) {
			const { error } = await run(parameters);
			expect(error?.message).toContain(field);
		}
		expect(await sandbox.requests()).toEqual([]);
		const { error } = await run({ sourceCalendars: [ref(A), ref(B)] });
		expect(error?.message).toMatch(/Source Calendars.*Target Calendar too/);
		expect(await writes()).toEqual([]);
	});
});
