/**
 * Find Free Time against a brute force: randomized calendars (timed, all-day, daily series with a
 * deleted or freed occurrence, free and busy, declined, three accounts) are created in the
 * sandbox through its API, the operation runs through n8n's engine, and its slots, busy blocks
 * (with the events behind each) and is-free answer are compared with free and busy time computed minute by minute. Ranges lie across the daylight-saving changes of
 * Europe/Berlin, America/New_York and Australia/Lord_Howe (a 30-minute change).
 *
 * The brute force shares no code with the node: it reads wall-clock times with the platform's
 * Intl API, decides each minute on its own, and joins free minutes into slots.
 */
import fc from 'fast-check';

import { CtsEvent } from '../../../nodes/CtsEvent/CtsEvent.node';
import { Engine } from '../../harness/engine';
import { ALICE_KEY, SandboxClient } from '../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent() });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());

const MINUTE = 60_000;
const RUNS = 80;
const CALENDARS = [
	{ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' },
	{ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' },
	{ accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' },
	{ accountId: 'acc-alice-c', calendarId: 'cal-alice-c-home' },
];
/** Days on which the clocks change in 2026, per zone. */
const CHANGES: Record<string, string[]> = {
	'Europe/Berlin': ['2026-03-29', '2026-10-25'],
	'America/New_York': ['2026-03-08', '2026-11-01'],
	'Australia/Lord_Howe': ['2026-04-05', '2026-10-04'],
};

// ---------------------------------------------------------------------------------------------
// Wall-clock reading with Intl only

const formats = new Map<string, Intl.DateTimeFormat>();
interface Wall {
	date: string;
	minuteOfDay: number;
	weekday: number;
	/** The wall-clock time as if it were UTC, in ms. */
	asUtc: number;
}
function wallAt(instant: number, zone: string): Wall {
	let format = formats.get(zone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			weekday: 'short',
		});
		formats.set(zone, format);
	}
	const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
	const date = `${parts.year}-${parts.month}-${parts.day}`;
	const minuteOfDay = Number(parts.hour) * 60 + Number(parts.minute);
	const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday) + 1;
	return { date, minuteOfDay, weekday, asUtc: Date.parse(`${date}T00:00:00Z`) + minuteOfDay * MINUTE };
}

/**
 * The instant a wall-clock time names in a zone: the earlier one when the clocks go back over it,
 * and when they skip it, the time read with the offset in force before the change.
 */
function instantOf(date: string, minuteOfDay: number, zone: string): number {
	const asUtc = Date.parse(`${date}T00:00:00Z`) + minuteOfDay * MINUTE;
	const offsetAt = (instant: number) => wallAt(instant, zone).asUtc - Math.floor(instant / MINUTE) * MINUTE;
	const offsets = new Set([offsetAt(asUtc - 36 * 3600_000), offsetAt(asUtc), offsetAt(asUtc + 36 * 3600_000)]);
	const matching = [...offsets].map((offset) => asUtc - offset).filter((instant) => wallAt(instant, zone).asUtc === asUtc);
	return matching.length > 0 ? Math.min(...matching) : asUtc - offsetAt(asUtc - 36 * 3600_000);
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

// ---------------------------------------------------------------------------------------------
// Scenarios

interface EventSpec {
	calendar: number;
	kind: 'timed' | 'allDay' | 'series';
	dayOffset: number;
	minuteOfDay: number;
	minutes: number;
	days: number;
	zone: string;
	free: boolean;
	declined: boolean;
	count: number;
	exception: { index: number; change: 'delete' | 'free' } | null;
}

interface Scenario {
	zone: string;
	change: number;
	startOffset: number;
	days: number;
	hours: { days: number[]; from: number; to: number } | null;
	minimum: number;
	step: number;
	before: number;
	after: number;
	ignoreAllDay: boolean;
	events: EventSpec[];
}

const zoneArb = fc.constantFrom(...Object.keys(CHANGES));
const eventArb: fc.Arbitrary<EventSpec> = fc.record({
	calendar: fc.integer({ min: 0, max: CALENDARS.length - 1 }),
	kind: fc.constantFrom('timed', 'timed', 'allDay', 'series'),
	// Days from the day the clocks change; often that day, and often the night hours when they change.
	dayOffset: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: -4, max: 4 })),
	minuteOfDay: fc.oneof(
		fc.integer({ min: 0, max: 23 * 4 + 3 }).map((quarter) => quarter * 15),
		fc.integer({ min: 0, max: 1439 }),
		fc.integer({ min: 0, max: 16 }).map((quarter) => quarter * 15),
		// Skipped or passed twice on the change day in one of the three zones.
		fc.constantFrom(60, 75, 90, 105, 120, 135, 150, 165),
	),
	// Often whole quarter hours, so that events often meet end to start.
	minutes: fc.oneof(fc.integer({ min: 5, max: 300 }), fc.integer({ min: 1, max: 16 }).map((quarters) => quarters * 15)),
	days: fc.integer({ min: 1, max: 2 }),
	// Mostly the zone of the range, whose clocks change in it.
	zone: fc.constantFrom('same', 'same', 'same', ...Object.keys(CHANGES), 'UTC'),
	free: fc.integer({ min: 0, max: 3 }).map((value) => value === 0),
	declined: fc.integer({ min: 0, max: 5 }).map((value) => value === 0),
	count: fc.integer({ min: 2, max: 5 }),
	exception: fc.option(fc.record({ index: fc.integer({ min: 0, max: 4 }), change: fc.constantFrom('delete' as const, 'free' as const) }), { nil: null }),
});
const hoursArb = fc
	.record({
		days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
		a: fc.oneof(fc.integer({ min: 0, max: 48 }), fc.integer({ min: 0, max: 8 })),
		b: fc.oneof(fc.integer({ min: 0, max: 48 }), fc.integer({ min: 0, max: 8 })),
	})
	.filter(({ a, b }) => a !== b)
	.map(({ days, a, b }) => ({ days, from: Math.min(a, b) * 30, to: Math.max(a, b) * 30 }));
const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
	zone: zoneArb,
	change: fc.integer({ min: 0, max: 1 }),
	startOffset: fc.integer({ min: -3, max: 0 }),
	days: fc.integer({ min: 2, max: 5 }),
	hours: fc.option(hoursArb, { nil: null, freq: 3 }),
	minimum: fc.constantFrom(1, 15, 30, 45, 90),
	step: fc.constantFrom(0, 0, 15, 30, 60),
	before: fc.constantFrom(0, 0, 10, 30),
	after: fc.constantFrom(0, 0, 15, 60),
	ignoreAllDay: fc.boolean(),
	events: fc.array(eventArb, { minLength: 1, maxLength: 8 }),
});

const zoneOf = (spec: EventSpec, scenario: Scenario) => (spec.zone === 'same' ? scenario.zone : spec.zone);

// ---------------------------------------------------------------------------------------------
// Arranging the calendars through the sandbox's API

async function arrange(scenario: Scenario, changeDay: string): Promise<void> {
	for (const spec of scenario.events) {
		const calendar = CALENDARS[spec.calendar];
		const date = addDays(changeDay, spec.dayOffset);
		const fields: Record<string, unknown> = {
			...calendar,
			title: `${spec.kind} ${date}`,
			freeBusyStatus: spec.free ? 'free' : 'busy',
		};
		if (spec.declined) fields.participants = { 'alice@sandbox.example': { email: 'alice@sandbox.example', participationStatus: 'declined' } };
		if (spec.kind === 'allDay') {
			Object.assign(fields, { start: `${date}T00:00:00`, duration: `P${spec.days}D`, timeZone: null, showWithoutTime: true });
		} else {
			Object.assign(fields, { start: `${date}T${hhmm(spec.minuteOfDay)}:00`, duration: `PT${spec.minutes}M`, timeZone: zoneOf(spec, scenario), showWithoutTime: false });
		}
		if (spec.kind === 'series') fields.recurrenceRules = [{ '@type': 'RecurrenceRule', frequency: 'daily', count: spec.count }];
		const event = await sandbox.createEvent(fields);
		if (spec.kind !== 'series' || !spec.exception || spec.exception.index >= spec.count) continue;
		const recurrenceId = `${addDays(date, spec.exception.index)}T${hhmm(spec.minuteOfDay)}:00`;
		const { body } = await sandbox.api('GET', '/v3/events/list', {
			qs: { accountId: calendar.accountId, calendarIds: calendar.calendarId, start: `${addDays(date, -2)}T00:00:00Z`, end: `${addDays(date, spec.count + 2)}T00:00:00Z` },
		});
		const occurrence = (body.data.events as Array<Record<string, string>>).find((listed) => listed.masterEventId === event.id && listed.recurrenceId === recurrenceId);
		if (!occurrence) throw new Error(`occurrence ${recurrenceId} of ${String(event.id)} not listed`);
		const path = spec.exception.change === 'delete' ? '/v3/events/delete' : '/v3/events/update';
		const extra = spec.exception.change === 'free' ? { freeBusyStatus: 'free' } : {};
		const answer = await sandbox.api('POST', path, { qs: { seriesUpdateMode: 'single' }, body: { id: occurrence.id, ...calendar, ...extra } });
		if (answer.status >= 300) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	}
}

// ---------------------------------------------------------------------------------------------
// The brute force

/** Busy intervals [start, end) of the scenario's events, buffers included, from the scenario itself. */
function busyIntervals(scenario: Scenario, changeDay: string): Array<[number, number]> {
	const intervals: Array<[number, number]> = [];
	const before = scenario.before * MINUTE;
	const after = scenario.after * MINUTE;
	for (const spec of scenario.events) {
		if (spec.free || spec.declined) continue;
		const date = addDays(changeDay, spec.dayOffset);
		if (spec.kind === 'allDay') {
			if (scenario.ignoreAllDay) continue;
			intervals.push([instantOf(date, 0, scenario.zone) - before, instantOf(addDays(date, spec.days), 0, scenario.zone) + after]);
			continue;
		}
		const occurrences = spec.kind === 'series' ? spec.count : 1;
		for (let index = 0; index < occurrences; index++) {
			if (spec.kind === 'series' && spec.exception?.index === index) continue;
			const start = instantOf(addDays(date, index), spec.minuteOfDay, zoneOf(spec, scenario));
			intervals.push([start - before, start + spec.minutes * MINUTE + after]);
		}
	}
	return intervals;
}

/** Free slots minute by minute: working, not busy; runs of free minutes; starts on the step; long enough. */
function bruteForceSlots(scenario: Scenario, rangeStart: number, rangeEnd: number, busy: Array<[number, number]>): Array<[number, number]> {
	const runs: Array<[number, number]> = [];
	let day = '';
	let fromReached = false;
	let toReached = false;
	for (let minute = rangeStart; minute < rangeEnd; minute += MINUTE) {
		const wall = wallAt(minute, scenario.zone);
		let working = true;
		if (scenario.hours) {
			if (wall.date !== day) {
				day = wall.date;
				fromReached = false;
				toReached = false;
			}
			if (wall.minuteOfDay >= scenario.hours.from) fromReached = true;
			if (scenario.hours.to < 1440 && wall.minuteOfDay >= scenario.hours.to) toReached = true;
			working = scenario.hours.days.includes(wall.weekday) && fromReached && !toReached;
		}
		const free = working && !busy.some(([start, end]) => start < minute + MINUTE && end > minute);
		if (!free) continue;
		const last = runs.at(-1);
		if (last && last[1] === minute) last[1] = minute + MINUTE;
		else runs.push([minute, minute + MINUTE]);
	}
	const slots: Array<[number, number]> = [];
	for (const [start, end] of runs) {
		let first = start;
		while (scenario.step > 1 && first < end && wallAt(first, scenario.zone).minuteOfDay % scenario.step !== 0) first += MINUTE;
		if (first < end && end - first >= scenario.minimum * MINUTE) slots.push([first, end]);
	}
	return slots;
}

/**
 * The events behind each busy run: those whose busy time (buffers included) overlaps the run, as
 * "start–end" of the event itself (buffers taken off), sorted.
 */
function eventsBehind(runs: Array<[number, number]>, busy: Array<[number, number]>, scenario: Scenario): string[][] {
	const before = scenario.before * MINUTE;
	const after = scenario.after * MINUTE;
	return runs.map(([runStart, runEnd]) =>
		busy
			.filter(([start, end]) => start < runEnd && end > runStart)
			.map(([start, end]) => `${new Date(start + before).toISOString()}–${new Date(end - after).toISOString()}`)
			.sort(),
	);
}

/** Busy time minute by minute (working hours do not apply), as runs of busy minutes. */
function bruteForceBusy(rangeStart: number, rangeEnd: number, busy: Array<[number, number]>): Array<[number, number]> {
	const runs: Array<[number, number]> = [];
	for (let minute = rangeStart; minute < rangeEnd; minute += MINUTE) {
		if (!busy.some(([start, end]) => start < minute + MINUTE && end > minute)) continue;
		const last = runs.at(-1);
		if (last && last[1] === minute) last[1] = minute + MINUTE;
		else runs.push([minute, minute + MINUTE]);
	}
	return runs;
}

// ---------------------------------------------------------------------------------------------

it('gives the same free slots, busy blocks and is-free answer as a minute-by-minute brute force over randomized calendars across daylight-saving changes', async () => {
	let compared = 0;
	let slotsSeen = 0;
	await fc.assert(
		fc.asyncProperty(scenarioArb, async (scenario) => {
			await sandbox.reset();
			await sandbox.control('limits', { points: null });
			const changeDay = CHANGES[scenario.zone][scenario.change];
			const firstDay = addDays(changeDay, scenario.startOffset);
			const lastDay = addDays(firstDay, scenario.days);
			await arrange(scenario, changeDay);
			const run = async (output: string) => await engine.runNode({
				type: 'ctsEvent',
				parameters: {
					freeTimeOutput: output,
					resource: 'calendar',
					operation: 'findFreeTime',
					calendars: CALENDARS.map(({ accountId, calendarId }) => `${accountId}/${calendarId}`),
					timeZone: scenario.zone,
					start: `${firstDay}T00:00:00`,
					end: `${lastDay}T00:00:00`,
					minimumMinutes: scenario.minimum,
					workingHours: scenario.hours ? 'hours' : 'any',
					...(scenario.hours ? { workingDays: scenario.hours.days, workFrom: hhmm(scenario.hours.from), workTo: hhmm(scenario.hours.to) } : {}),
					options: {
						slotStep: scenario.step,
						bufferBefore: scenario.before,
						bufferAfter: scenario.after,
						allDayEvents: scenario.ignoreAllDay ? 'ignore' : 'block',
					},
				},
				credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
			});
			const { items, error } = await run('slots');
			expect(error).toBeUndefined();
			const actual = items.filter(({ json }) => json.start !== undefined).map(({ json }) => [Date.parse(String(json.start)), Date.parse(String(json.end))]);
			const rangeStart = instantOf(firstDay, 0, scenario.zone);
			const rangeEnd = instantOf(lastDay, 0, scenario.zone);
			const expected = bruteForceSlots(scenario, rangeStart, rangeEnd, busyIntervals(scenario, changeDay));
			const show = (slots: number[][]) => slots.map(([start, end]) => `${new Date(start).toISOString()}–${new Date(end).toISOString()}`);
			expect(show(actual)).toEqual(show(expected));
			// One item, its notice saying there is no free slot, exactly when there is none.
			const noSlot = items.filter(({ json }) => (json.notices as string[] | undefined)?.some((notice) => /^No free slot/.test(notice)));
			expect(noSlot.map(({ json }) => json.notices)).toEqual(expected.length === 0 ? [[expect.stringMatching(/^No free slot/)]] : []);
			expect(items.length).toBe(expected.length === 0 ? 1 : actual.length);
			// Busy Blocks and Is Free against the same busy minutes.
			const busyRuns = bruteForceBusy(rangeStart, rangeEnd, busyIntervals(scenario, changeDay));
			const blocks = await run('busy');
			expect(blocks.error).toBeUndefined();
			const blockItems = blocks.items.filter(({ json }) => json.start !== undefined);
			expect(show(blockItems.map(({ json }) => [Date.parse(String(json.start)), Date.parse(String(json.end))]))).toEqual(show(busyRuns));
			// Each block names exactly the events behind it, also where the range cuts it.
			const named = blockItems.map(({ json }) => (json.events as Array<{ start: string; end: string }>).map((event) => `${new Date(event.start).toISOString()}–${new Date(event.end).toISOString()}`).sort());
			expect(named).toEqual(eventsBehind(busyRuns, busyIntervals(scenario, changeDay), scenario));
			const isFree = await run('isFree');
			expect(isFree.items).toHaveLength(1);
			expect(isFree.items[0].json.free).toBe(busyRuns.length === 0);
			expect((isFree.items[0].json.conflicts as unknown[]).length > 0).toBe(busyRuns.length > 0);
			compared++;
			slotsSeen += expected.length;
		}),
		{ numRuns: RUNS },
	);
	// The comparison ran and was not trivially empty.
	expect(compared).toBe(RUNS);
	expect(slotsSeen).toBeGreaterThan(RUNS);
});
