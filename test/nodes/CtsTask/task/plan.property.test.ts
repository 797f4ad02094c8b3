/**
 * Plan Tasks against a brute force: randomized calendars (timed and all-day events, free and busy,
 * three accounts), randomized task lists (priorities, due dates, estimated durations or none, a
 * block some of them already have) and settings, over days on which the clocks change in
 * Europe/Berlin, America/New_York and Australia/Lord_Howe. The operation runs through n8n's
 * engine against the sandbox; its plan is compared with a placement decided minute by minute.
 * The plan is then run again: it must keep every block and write nothing.
 *
 * The brute force shares no code with the node: it reads wall-clock times with the platform's
 * Intl API, orders the tasks itself and tries every start minute of a one-minute grid.
 */
import fc from 'fast-check';

import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../../../harness/engine';
import { ALICE_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());

const MINUTE = 60_000;
const RUNS = 40;
const TARGET = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
const CALENDARS = [TARGET, { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' }, { accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' }, { accountId: 'acc-alice-c', calendarId: 'cal-alice-c-home' }];
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
	asUtc: number;
}
function wallAt(instant: number, zone: string): Wall {
	let format = formats.get(zone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short' });
		formats.set(zone, format);
	}
	const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
	const date = `${parts.year}-${parts.month}-${parts.day}`;
	const minuteOfDay = Number(parts.hour) * 60 + Number(parts.minute);
	const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday) + 1;
	return { date, minuteOfDay, weekday, asUtc: Date.parse(`${date}T00:00:00Z`) + minuteOfDay * MINUTE };
}

/** The instant of a wall-clock time: the earlier one when passed twice; read with the earlier offset when skipped. */
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
	allDay: boolean;
	dayOffset: number;
	minuteOfDay: number;
	minutes: number;
	free: boolean;
}
interface TaskSpec {
	priority: number;
	/** Day offset from the first day and minute of the due, or none. */
	due: { day: number; minute: number } | null;
	estimate: number | null;
	/** A block the task has already: day offset, start minute and length. */
	block: { day: number; minute: number; minutes: number } | null;
}
interface Scenario {
	zone: string;
	change: number;
	startOffset: number;
	startMinute: number;
	days: number;
	hours: { days: number[]; from: number; to: number } | null;
	step: number;
	defaultLength: number;
	ignoreAllDay: boolean;
	events: EventSpec[];
	tasks: TaskSpec[];
}

const quarterOrAny = fc.oneof(fc.integer({ min: 0, max: 95 }).map((quarter) => quarter * 15), fc.integer({ min: 0, max: 1439 }), fc.constantFrom(60, 90, 105, 120, 135, 150));
const eventArb: fc.Arbitrary<EventSpec> = fc.record({
	calendar: fc.integer({ min: 0, max: CALENDARS.length - 1 }),
	allDay: fc.integer({ min: 0, max: 6 }).map((value) => value === 0),
	dayOffset: fc.integer({ min: -1, max: 4 }),
	minuteOfDay: quarterOrAny,
	minutes: fc.oneof(fc.integer({ min: 5, max: 300 }), fc.integer({ min: 1, max: 16 }).map((quarters) => quarters * 15)),
	free: fc.integer({ min: 0, max: 4 }).map((value) => value === 0),
});
const taskArb: fc.Arbitrary<TaskSpec> = fc.record({
	priority: fc.integer({ min: 0, max: 9 }),
	// Due times away from the night hours, where the clocks change.
	due: fc.option(fc.record({ day: fc.integer({ min: -1, max: 4 }), minute: fc.integer({ min: 24, max: 92 }).map((quarter) => quarter * 15) }), { nil: null }),
	estimate: fc.option(fc.oneof(fc.integer({ min: 1, max: 16 }).map((quarters) => quarters * 15), fc.integer({ min: 5, max: 300 })), { nil: null, freq: 4 }),
	block: fc.option(fc.record({ day: fc.integer({ min: 0, max: 3 }), minute: quarterOrAny, minutes: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 16 }).map((quarters) => quarters * 15)) }), { nil: null, freq: 3 }),
});
const hoursArb = fc
	.record({ days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }), a: fc.integer({ min: 0, max: 48 }), b: fc.integer({ min: 0, max: 48 }) })
	.filter(({ a, b }) => a !== b)
	.map(({ days, a, b }) => ({ days, from: Math.min(a, b) * 30, to: Math.max(a, b) * 30 }));
const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
	zone: fc.constantFrom(...Object.keys(CHANGES)),
	change: fc.integer({ min: 0, max: 1 }),
	startOffset: fc.integer({ min: -2, max: 0 }),
	startMinute: fc.oneof(fc.constant(0), fc.integer({ min: 72, max: 144 }).map((five) => five * 5)),
	days: fc.integer({ min: 2, max: 4 }),
	hours: fc.option(hoursArb, { nil: null, freq: 3 }),
	step: fc.constantFrom(1, 15, 15, 30, 60),
	defaultLength: fc.constantFrom(0, 30, 60),
	ignoreAllDay: fc.boolean(),
	events: fc.array(eventArb, { minLength: 0, maxLength: 8 }),
	tasks: fc.array(taskArb, { minLength: 1, maxLength: 7 }),
});

// ---------------------------------------------------------------------------------------------
// Arranging tasks and calendars through the sandbox's API

interface Arranged {
	ids: string[];
	/** Each task's existing block as an instant interval, if any. */
	blocks: Array<[number, number] | null>;
}

async function arrange(scenario: Scenario, firstDay: string): Promise<Arranged> {
	const { zone } = scenario;
	for (const spec of scenario.events) {
		const date = addDays(firstDay, spec.dayOffset);
		const fields: Record<string, unknown> = { ...CALENDARS[spec.calendar], title: 'Busy', freeBusyStatus: spec.free ? 'free' : 'busy' };
		if (spec.allDay) Object.assign(fields, { start: `${date}T00:00:00`, duration: 'P1D', timeZone: null, showWithoutTime: true });
		else Object.assign(fields, { start: `${date}T${hhmm(spec.minuteOfDay)}:00`, duration: `PT${spec.minutes}M`, timeZone: zone, showWithoutTime: false });
		await sandbox.createEvent(fields);
	}
	const ids: string[] = [];
	const blocks: Arranged['blocks'] = [];
	for (const [index, spec] of scenario.tasks.entries()) {
		const fields: Record<string, unknown> = { title: `Task ${index}`, timeZone: zone };
		if (spec.priority) fields.priority = spec.priority;
		if (spec.due) fields.due = `${addDays(firstDay, spec.due.day)}T${hhmm(spec.due.minute)}:00`;
		if (spec.estimate) fields.estimatedDuration = `PT${spec.estimate}M`;
		const id = await sandbox.createTask(fields);
		ids.push(id);
		if (!spec.block) {
			blocks.push(null);
			continue;
		}
		// Mostly the length the task asks for, so that keeping it is possible.
		const minutes = spec.block.minutes || spec.estimate || scenario.defaultLength || 30;
		// Within the plan's range, where the plan looks for a task's block.
		const date = addDays(firstDay, Math.min(spec.block.day, scenario.days - 1));
		await sandbox.createEvent({ ...TARGET, title: `Task ${index}`, description: `Old block\n\nTask ID: ${id}`, start: `${date}T${hhmm(spec.block.minute)}:00`, duration: `PT${minutes}M`, timeZone: zone, showWithoutTime: false });
		const start = instantOf(date, spec.block.minute, zone);
		blocks.push([start, start + minutes * MINUTE]);
	}
	return { ids, blocks };
}

// ---------------------------------------------------------------------------------------------
// The brute force

type Expected = ['kept' | 'placed', number, number] | ['notPlaced'];

function bruteForcePlan(scenario: Scenario, firstDay: string, arranged: Arranged, rangeStart: number, rangeEnd: number): Expected[] {
	const { zone } = scenario;
	const minutes = (rangeEnd - rangeStart) / MINUTE;
	const walls = Array.from({ length: minutes }, (_, index) => wallAt(rangeStart + index * MINUTE, zone));
	// Working minutes: on a working day, once the clock has reached From and before it reaches To.
	let day = '';
	let fromReached = false;
	let toReached = false;
	const working = walls.map((wall) => {
		if (!scenario.hours) return true;
		if (wall.date !== day) {
			day = wall.date;
			fromReached = false;
			toReached = false;
		}
		if (wall.minuteOfDay >= scenario.hours.from) fromReached = true;
		if (scenario.hours.to < 1440 && wall.minuteOfDay >= scenario.hours.to) toReached = true;
		return scenario.hours.days.includes(wall.weekday) && fromReached && !toReached;
	});
	const taken = new Array<boolean>(minutes).fill(false);
	const mark = (start: number, end: number) => {
		for (let instant = Math.max(start, rangeStart); instant < Math.min(end, rangeEnd); instant += MINUTE) taken[(instant - rangeStart) / MINUTE] = true;
	};
	for (const spec of scenario.events) {
		if (spec.free || (spec.allDay && scenario.ignoreAllDay)) continue;
		const date = addDays(firstDay, spec.dayOffset);
		if (spec.allDay) mark(instantOf(date, 0, zone), instantOf(addDays(date, 1), 0, zone));
		else {
			const start = instantOf(date, spec.minuteOfDay, zone);
			mark(start, start + spec.minutes * MINUTE);
		}
	}
	const fits = (start: number, end: number) => {
		if (start < rangeStart || end > rangeEnd) return false;
		for (let instant = start; instant < end; instant += MINUTE) {
			const index = (instant - rangeStart) / MINUTE;
			if (!working[index] || taken[index]) return false;
		}
		return true;
	};
	const tasks = scenario.tasks.map((spec, order) => {
		const due = spec.due ? instantOf(addDays(firstDay, spec.due.day), spec.due.minute, zone) : undefined;
		const length = spec.estimate ?? (scenario.defaultLength || undefined);
		return { order, rank: spec.priority || 10, due, length, end: Math.min(due ?? Infinity, rangeEnd), block: arranged.blocks[order] };
	});
	const ordered = [...tasks].sort((a, b) => a.rank - b.rank || (a.due ?? Infinity) - (b.due ?? Infinity) || a.order - b.order);
	const result = new Array<Expected>(tasks.length);
	for (const task of ordered) {
		const { block, length } = task;
		if (!block || length === undefined || block[1] - block[0] !== length * MINUTE || block[1] > task.end || !fits(block[0], block[1])) continue;
		result[task.order] = ['kept', block[0], block[1]];
		mark(block[0], block[1]);
	}
	for (const task of ordered) {
		if (result[task.order]) continue;
		let found: number | undefined;
		if (task.length !== undefined) {
			for (let start = rangeStart; start + task.length * MINUTE <= task.end; start += MINUTE) {
				if (scenario.step > 1 && wallAt(start, zone).minuteOfDay % scenario.step !== 0) continue;
				if (fits(start, start + task.length * MINUTE)) {
					found = start;
					break;
				}
			}
		}
		if (found === undefined) {
			result[task.order] = ['notPlaced'];
			if (task.block) mark(task.block[0], task.block[1]);
		} else {
			result[task.order] = ['placed', found, found + task.length! * MINUTE];
			mark(found, found + task.length! * MINUTE);
		}
	}
	return result;
}

// ---------------------------------------------------------------------------------------------

it('places tasks exactly as a minute-by-minute brute force over randomized calendars and task lists across daylight-saving changes, and a re-run writes nothing', async () => {
	let compared = 0;
	let placed = 0;
	let kept = 0;
	let notPlaced = 0;
	await fc.assert(
		fc.asyncProperty(scenarioArb, async (scenario) => {
			await sandbox.reset();
			await sandbox.control('limits', { points: null });
			const { zone } = scenario;
			const firstDay = addDays(CHANGES[zone][scenario.change], scenario.startOffset);
			const lastDay = addDays(firstDay, scenario.days);
			const arranged = await arrange(scenario, firstDay);
			const run = async () =>
				await engine.runNode({
					type: 'ctsTask',
					parameters: {
						resource: 'task',
						operation: 'plan',
						tasksFrom: 'input',
						calendarId: { mode: 'id', value: TARGET.calendarId },
						checkCalendars: CALENDARS.map(({ accountId, calendarId }) => `${accountId}/${calendarId}`),
						defaultLengthMinutes: scenario.defaultLength,
						timeZone: zone,
						notBefore: `${firstDay}T${hhmm(scenario.startMinute)}:00`,
						notAfter: `${lastDay}T00:00:00`,
						workingHours: scenario.hours ? 'hours' : 'any',
						...(scenario.hours ? { workingDays: scenario.hours.days, workFrom: hhmm(scenario.hours.from), workTo: hhmm(scenario.hours.to) } : {}),
						options: { slotStep: scenario.step, allDayEvents: scenario.ignoreAllDay ? 'ignore' : 'block' },
					},
					items: arranged.ids.map((id) => ({ id })),
					credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
				});
			const { items, error } = await run();
			expect(error).toBeUndefined();
			const rangeStart = instantOf(firstDay, scenario.startMinute, zone);
			const rangeEnd = instantOf(lastDay, 0, zone);
			const expected = bruteForcePlan(scenario, firstDay, arranged, rangeStart, rangeEnd);
			const show = (entry: Expected) => (entry[0] === 'notPlaced' ? 'notPlaced' : `${entry[0]} ${new Date(entry[1]).toISOString()}–${new Date(entry[2]).toISOString()}`);
			const actual = items.map(({ json }): Expected => {
				if (json.action === 'notPlaced') return ['notPlaced'];
				return [json.action === 'kept' ? 'kept' : 'placed', Date.parse(String(json.start)), Date.parse(String(json.end))];
			});
			expect(actual.map(show)).toEqual(expected.map(show));
			// A moved block is the task's old one; a created block is a task's first.
			items.forEach(({ json }, index) => {
				if (json.action === 'moved' || json.action === 'created') expect(json.action).toBe(arranged.blocks[index] ? 'moved' : 'created');
			});

			// Written as planned, one block per task: the calendar read back shows the same instants.
			await sandbox.clearRequests();
			const again = await run();
			expect(again.error).toBeUndefined();
			const writes = (await sandbox.requests()).filter((request) => request.method === 'POST');
			expect(writes).toEqual([]);
			expect(again.items.map(({ json }) => [json.action === 'notPlaced' ? 'notPlaced' : json.action, json.start, json.eventId])).toEqual(
				items.map(({ json }) => [json.action === 'notPlaced' ? 'notPlaced' : 'kept', json.start, json.eventId]),
			);
			compared++;
			for (const entry of expected) {
				if (entry[0] === 'placed') placed++;
				else if (entry[0] === 'kept') kept++;
				else notPlaced++;
			}
		}),
		{ numRuns: RUNS },
	);
	// The comparison ran and met every outcome.
	expect(compared).toBe(RUNS);
	expect(Math.min(placed, kept, notPlaced)).toBeGreaterThan(0);
});
