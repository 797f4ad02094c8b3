import { freeSlots, mergeBusy, type Interval, type WorkingHours } from '../../../shared/calendar/freeTime';

/**
 * Plan Tasks' placement: pure arithmetic over the busy time read once for the whole batch. The
 * free time itself is `freeTime.ts`'s; this decides the order in which tasks take it and which
 * blocks stay where they are.
 */

/** A task to place, as the plan sees it. */
export interface PlanTask {
	id: string;
	/** Position in the input (or in the filtered list): the last tie-breaker. */
	order: number;
	/** 1 (highest) … 9 (lowest); 0 or anything else: none, after 9. */
	priority: number;
	/** The due instant (ms), if the task has one. */
	due?: number;
	/** Length of its block (ms); undefined: the task has none and is not placed. */
	lengthMs?: number;
	/** The latest instant its block may end: its due or the plan's end, whichever is earlier. */
	end: number;
	/** The block it already has (the first of them), if any. */
	current?: Interval;
}

interface PlanRules {
	/** The plan's earliest start (Not Before). */
	start: number;
	zone: string;
	workingHours?: WorkingHours;
	/** Blocks start at a multiple of this many minutes after local midnight. */
	stepMinutes: number;
}

export type Placement =
	| { kind: 'keep'; block: Interval }
	| { kind: 'place'; block: Interval }
	| { kind: 'none'; why: 'noLength' | 'endsBeforeStart' | 'noSlot' };

const rank = (priority: number) => (Number.isInteger(priority) && priority >= 1 && priority <= 9 ? priority : 10);

/** The plan's order: priority (1 first, none after 9), then due (earliest first, none last), then input order. */
export function planOrder<T extends PlanTask>(tasks: T[]): T[] {
	return [...tasks].sort(
		(a, b) => rank(a.priority) - rank(b.priority) || (a.due ?? Number.POSITIVE_INFINITY) - (b.due ?? Number.POSITIVE_INFINITY) || a.order - b.order,
	);
}

/** Busy intervals merged and ascending, as `freeSlots` expects them. */
function merged(intervals: Interval[]): Interval[] {
	return mergeBusy(intervals.map((interval) => ({ ...interval, event: {} }))).map(({ start, end }) => ({ start, end }));
}

/**
 * Where each task goes. First, in the plan's order, each task keeps the block it has while that
 * block still has its length, lies in its window and working hours, and is free of the busy time
 * and of the blocks kept before it: a re-run moves nothing that need not move. Then, in the same
 * order, every other task takes the first free slot of its length (on round starts) that ends by
 * its due, around the busy time and every block kept or placed so far. A task that finds none
 * keeps its old block where it is, which then counts as busy for the tasks after it.
 */
export function planPlacements(tasks: PlanTask[], busy: Interval[], rules: PlanRules): Map<string, Placement> {
	const ordered = planOrder(tasks);
	const placements = new Map<string, Placement>();
	let taken = merged(busy);
	const slotRules = (lengthMs: number) => ({ zone: rules.zone, workingHours: rules.workingHours, minimumMs: lengthMs });
	for (const task of ordered) {
		const { current, lengthMs } = task;
		if (!current || lengthMs === undefined || current.end - current.start !== lengthMs || current.start < rules.start || current.end > task.end) continue;
		const free = freeSlots({ start: rules.start, end: task.end }, taken, slotRules(lengthMs));
		if (!free.some((slot) => slot.start <= current.start && current.end <= slot.end)) continue;
		placements.set(task.id, { kind: 'keep', block: current });
		taken = merged([...taken, current]);
	}
	for (const task of ordered) {
		if (placements.has(task.id)) continue;
		const placement = place(task, taken, rules, slotRules);
		placements.set(task.id, placement);
		const occupied = placement.kind === 'place' ? placement.block : task.current;
		if (occupied) taken = merged([...taken, occupied]);
	}
	return placements;
}

function place(task: PlanTask, taken: Interval[], rules: PlanRules, slotRules: (lengthMs: number) => { zone: string; workingHours?: WorkingHours; minimumMs: number }): Placement {
	if (task.lengthMs === undefined) return { kind: 'none', why: 'noLength' };
	if (task.end <= rules.start) return { kind: 'none', why: 'endsBeforeStart' };
	const slot = freeSlots({ start: rules.start, end: task.end }, taken, { ...slotRules(task.lengthMs), stepMinutes: rules.stepMinutes })[0];
	if (!slot) return { kind: 'none', why: 'noSlot' };
	return { kind: 'place', block: { start: slot.start, end: slot.start + task.lengthMs } };
}
