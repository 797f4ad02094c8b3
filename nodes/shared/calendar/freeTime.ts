import { DateTime, Duration } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

/**
 * Busy and free time of listed events: pure arithmetic, no requests. Instants are epoch
 * milliseconds; every interval is half-open, [start, end). All wall-clock arithmetic (working
 * hours, all-day dates, round slot starts) goes through luxon in the given IANA zone, so
 * daylight-saving changes of any size are followed.
 */

export interface Interval {
	start: number;
	end: number;
}

/** A listed event that makes its time busy, with the instants it blocks (before buffers). */
export interface BusyEvent extends Interval {
	event: IDataObject;
}

/** Merged busy time (buffers included) and the events behind it. */
export interface BusyBlock extends Interval {
	events: BusyEvent[];
}

/** Working days (luxon weekdays, 1 = Monday … 7 = Sunday) and hours ("HH:mm"; To may be "24:00"). */
export interface WorkingHours {
	days: number[];
	from: string;
	to: string;
}

interface BusyRules {
	/** The zone all-day dates (and timed events without a zone) are read in. */
	zone: string;
	ignoreAllDay?: boolean;
}

interface SlotRules {
	zone: string;
	/** Undefined: any time of any day. */
	workingHours?: WorkingHours;
	minimumMs: number;
	/** Slots start at a multiple of this many minutes after midnight in `zone`; 0 or 1: at any minute. */
	stepMinutes?: number;
}

const MINUTE = 60_000;

/** "HH:mm" (00:00–24:00) as minutes after midnight, or undefined when it is not such a time. */
export function clockMinutes(text: string): number | undefined {
	const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
	if (!match) return undefined;
	const minutes = Number(match[1]) * 60 + Number(match[2]);
	if (Number(match[2]) > 59 || minutes > 24 * 60) return undefined;
	return minutes;
}

/**
 * Why a listed event does not make its time busy, or undefined when it does: marked free,
 * cancelled, or an invitation the account owner declined. An event without `freeBusyStatus` is
 * busy (the service's default).
 */
export function notBusyReason(event: IDataObject): 'free' | 'cancelled' | 'declined' | undefined {
	if (event.freeBusyStatus === 'free') return 'free';
	if (event.status === 'cancelled' || event.cancelled === true) return 'cancelled';
	const participants = Object.values((event.participants as IDataObject | undefined) ?? {}) as IDataObject[];
	if (participants.some((participant) => participant?.accountOwner === true && participant.participationStatus === 'declined')) return 'declined';
	return undefined;
}

/**
 * The instants an event occupies. Timed: its start in its own zone plus its duration (days and
 * weeks nominal, hours and minutes exact, as JSCalendar says). All-day: its dates, each from
 * midnight to midnight in `zone`. A timed event without a zone (floating) is read in `zone`.
 */
export function eventInterval(event: IDataObject, zone: string): Interval | undefined {
	if (typeof event.start !== 'string') return undefined;
	const duration = Duration.fromISO(typeof event.duration === 'string' ? event.duration : 'PT0S');
	if (!duration.isValid) return undefined;
	if (event.showWithoutTime === true) {
		const day = DateTime.fromISO(event.start.slice(0, 10), { zone });
		if (!day.isValid) return undefined;
		const days = Math.max(1, Math.round(duration.as('days')));
		return { start: day.startOf('day').toMillis(), end: day.plus({ days }).startOf('day').toMillis() };
	}
	const eventZone = typeof event.timeZone === 'string' && event.timeZone ? event.timeZone : zone;
	const start = wallClockInstant(event.start, eventZone);
	if (!start?.isValid) return undefined;
	return { start: start.toMillis(), end: start.plus(duration).toMillis() };
}

/**
 * The instant of a LocalDateTime in a zone, as the service reads it: a time the clocks skip is
 * read with the offset before the change (moved forward by the gap); a time they pass twice is
 * the earlier instant (luxon alone may pick either).
 */
export function wallClockInstant(local: string, zone: string): DateTime | undefined {
	const guess = DateTime.fromISO(local, { zone });
	if (!guess.isValid) return undefined;
	const wall = DateTime.fromISO(local, { zone: 'utc' });
	return earliestShowing(guess, wall.toMillis(), (instant) => instant.toFormat('yyyy-MM-dd HH:mm:ss.SSS') === wall.toFormat('yyyy-MM-dd HH:mm:ss.SSS')) ?? guess;
}

/** The earliest instant, under the offsets around `guess`, that shows the wall-clock time `wallAsUtc`. */
function earliestShowing(guess: DateTime, wallAsUtc: number, shows: (instant: DateTime) => boolean): DateTime | undefined {
	const offsets = new Set([-6, -3, 0, 3, 6].map((hours) => guess.plus({ hours }).offset));
	const instants = [...offsets]
		.map((offset) => DateTime.fromMillis(wallAsUtc - offset * MINUTE, { zone: guess.zone }))
		.filter(shows)
		.sort((a, b) => a.toMillis() - b.toMillis());
	return instants[0];
}

/** The listed events that make their time busy, with their instants. */
export function busyEvents(events: IDataObject[], rules: BusyRules): BusyEvent[] {
	const busy: BusyEvent[] = [];
	for (const event of events) {
		if (notBusyReason(event)) continue;
		if (event.showWithoutTime === true && rules.ignoreAllDay) continue;
		const interval = eventInterval(event, rules.zone);
		if (interval && interval.end > interval.start) busy.push({ ...interval, event });
	}
	return busy;
}

/**
 * Busy events widened by the buffers and merged where they overlap or touch, ascending. A
 * zero-length event blocks only its buffers.
 */
export function mergeBusy(busy: BusyEvent[], bufferBeforeMs = 0, bufferAfterMs = 0): BusyBlock[] {
	const widened = busy
		.map((entry) => ({ start: entry.start - bufferBeforeMs, end: entry.end + bufferAfterMs, entry }))
		.filter((interval) => interval.end > interval.start)
		.sort((a, b) => a.start - b.start || a.end - b.end);
	const blocks: BusyBlock[] = [];
	for (const { start, end, entry } of widened) {
		const last = blocks.at(-1);
		if (last && start <= last.end) {
			last.end = Math.max(last.end, end);
			last.events.push(entry);
		} else {
			blocks.push({ start, end, events: [entry] });
		}
	}
	return blocks;
}

/**
 * The blocks that overlap the range, cut to it, each naming only the events behind the part
 * inside the range: those whose busy time, widened by the buffers as in `mergeBusy`, overlaps it.
 */
export function clipBlocks(blocks: BusyBlock[], range: Interval, bufferBeforeMs = 0, bufferAfterMs = 0): BusyBlock[] {
	return blocks
		.filter((block) => block.start < range.end && block.end > range.start)
		.map((block) => {
			const start = Math.max(block.start, range.start);
			const end = Math.min(block.end, range.end);
			const events = block.events.filter((busy) => busy.start - bufferBeforeMs < end && busy.end + bufferAfterMs > start);
			return { start, end, events };
		});
}

function minuteOfDay(date: DateTime): number {
	return date.hour * 60 + date.minute;
}

/**
 * The first instant of the local date `day` (in its zone) at which the clock shows `minutes`
 * after midnight or later: the time itself; the earlier of the two when the clocks go back
 * over it; the end of the gap when the clocks skip it. 24:00 is the next day's first instant.
 */
function firstReaching(day: DateTime, minutes: number): number {
	const date = { year: day.year, month: day.month, day: day.day };
	if (minutes >= 24 * 60) return day.plus({ days: 1 }).startOf('day').toMillis();
	const wall = { ...date, hour: Math.floor(minutes / 60), minute: minutes % 60 };
	const guess = DateTime.fromObject(wall, { zone: day.zone });
	const wallAsUtc = DateTime.fromObject(wall, { zone: 'utc' }).toMillis();
	const shown = earliestShowing(guess, wallAsUtc, (local) => local.day === day.day && minuteOfDay(local) === minutes);
	if (shown) return shown.toMillis();
	// Skipped by the clocks: the gap ends where the clock first shows a later time.
	let instant = guess.toMillis();
	for (let step = 0; step < 24 * 60; step++) {
		const before = DateTime.fromMillis(instant - MINUTE, { zone: day.zone });
		if (before.day !== day.day || minuteOfDay(before) < minutes) break;
		instant -= MINUTE;
	}
	return instant;
}

/**
 * Working time within the range: on each working day (a local date in `zone`), from the first
 * instant the clock shows From to the first instant it shows To.
 */
function workingPeriods(range: Interval, hours: WorkingHours, zone: string): Interval[] {
	const from = clockMinutes(hours.from) ?? 0;
	const to = clockMinutes(hours.to) ?? 24 * 60;
	const days = new Set(hours.days);
	const periods: Interval[] = [];
	let day = DateTime.fromMillis(range.start, { zone }).startOf('day').minus({ days: 1 });
	const last = DateTime.fromMillis(range.end, { zone }).startOf('day').plus({ days: 1 });
	for (; day <= last; day = day.plus({ days: 1 }).startOf('day')) {
		if (!days.has(day.weekday)) continue;
		const start = Math.max(firstReaching(day, from), range.start);
		const end = Math.min(firstReaching(day, to), range.end);
		if (end > start) periods.push({ start, end });
	}
	return periods;
}

/** `periods` (ascending, not overlapping) less the blocks, adjacent pieces joined. */
function subtractBlocks(periods: Interval[], blocks: Interval[]): Interval[] {
	const free: Interval[] = [];
	for (const period of periods) {
		let cursor = period.start;
		for (const block of blocks) {
			if (block.end <= cursor || block.start >= period.end) continue;
			if (block.start > cursor) free.push({ start: cursor, end: block.start });
			cursor = Math.max(cursor, block.end);
			if (cursor >= period.end) break;
		}
		if (cursor < period.end) free.push({ start: cursor, end: period.end });
	}
	const joined: Interval[] = [];
	for (const interval of free) {
		const last = joined.at(-1);
		if (last && last.end === interval.start) last.end = interval.end;
		else joined.push({ ...interval });
	}
	return joined;
}

/** The first instant at or after `instant` that is a whole multiple of `step` minutes after local midnight. */
function roundUpToStep(instant: number, stepMinutes: number, zone: string): number {
	if (stepMinutes <= 1) return stepMinutes === 1 ? Math.ceil(instant / MINUTE) * MINUTE : instant;
	let candidate = Math.ceil(instant / MINUTE) * MINUTE;
	for (let step = 0; step <= 24 * 60; step++) {
		if (minuteOfDay(DateTime.fromMillis(candidate, { zone })) % stepMinutes === 0) return candidate;
		candidate += MINUTE;
	}
	return candidate;
}

/**
 * Free slots: the working time of the range (all of it without working hours) outside the busy
 * blocks, each start moved to the next round time, kept when at least the minimum length.
 */
export function freeSlots(range: Interval, blocks: Interval[], rules: SlotRules): Interval[] {
	const periods = rules.workingHours ? workingPeriods(range, rules.workingHours, rules.zone) : [range];
	const slots: Interval[] = [];
	for (const free of subtractBlocks(periods, blocks)) {
		const start = roundUpToStep(free.start, rules.stepMinutes ?? 0, rules.zone);
		if (free.end - start >= rules.minimumMs && free.end > start) slots.push({ start, end: free.end });
	}
	return slots;
}
