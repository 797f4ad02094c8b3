import { DateTime, Duration } from 'luxon';

import {
	DATE_TIME_HINT,
	hasExplicitOffset,
	isIanaZone,
	isIsoDuration,
	LOCAL_DATE_TIME_FORMAT,
	notIanaZoneProblem,
	parseDateInput,
	skippedWallClock,
	skippedWallClockNotice,
	toLocalDateTime,
} from '../../shared/time/dates';
import { quoted } from '../../shared/transport/errors';

/** The four timing fields the service wants together: start, duration, timeZone, showWithoutTime. */
interface EventTiming {
	start: string;
	duration: string;
	timeZone: string | null;
	showWithoutTime: boolean;
}

export interface TimingInput {
	allDay: boolean;
	start: unknown;
	/** End (timed: exclusive moment; all-day: last day, inclusive) or duration, one of them. */
	end?: unknown;
	duration?: unknown;
	timeZone?: unknown;
}

/** A problem with one field: `field` is the label the user sees. */
export class TimingError extends Error {
	constructor(
		readonly field: string,
		message: string,
		readonly hint?: string,
	) {
		super(message);
	}
}

const FLOATING_HINT =
	'A timed event without a time zone "floats" (happens at the same wall-clock time everywhere). Calendar providers do not keep such events reliably: CalDAV servers may reject them and some providers substitute a zone. Choose the zone the event happens in.';

/**
 * Builds the timing fields from what the user gave, with notices about how a value was read.
 * Timed events need an IANA zone; their start (and end) are read in that zone and sent as
 * LocalDateTime. A start that a daylight-saving change skips (02:30 on a spring-forward day)
 * moves forward by the gap and keeps the length the user gave (02:30–03:30 becomes 03:30–04:30).
 * All-day events send `timeZone: null` and `showWithoutTime: true`, start at midnight of their
 * first day and last whole days; their End is the last day of the event, inclusive.
 */
export function eventTiming(input: TimingInput): { timing: EventTiming; notices: string[] } {
	if (input.allDay) return { timing: allDayTiming(input), notices: [] };
	if (isDateOnly(input.start) && (isDateOnly(input.end) || (input.end === undefined && isWholeDays(input.duration)))) {
		// Dates without a time (as an AI agent or a spreadsheet gives them) mean whole days.
		return { timing: allDayTiming(input), notices: ['Start and End are dates without a time, so the event is all-day (End is its last day).'] };
	}

	const zone = input.timeZone;
	if (zone === undefined || zone === null || zone === '') {
		throw new TimingError('Time Zone', 'a timed event needs a time zone', FLOATING_HINT);
	}
	if (!isIanaZone(zone)) throw new TimingError('Time Zone', notIanaZoneProblem(zone));
	const start = parseDateInput(input.start, zone);
	if (!start) throw new TimingError('Start', `${quoted(input.start)} is not a date and time`, DATE_TIME_HINT);
	const notices: string[] = [];
	const startGap = skippedWallClock(input.start, zone);
	if (startGap) notices.push(skippedWallClockNotice('Start', zone, startGap));
	let duration: string;
	if (input.duration !== undefined && input.duration !== '') {
		duration = checkedDuration(input.duration);
	} else {
		const end = parseDateInput(input.end, zone);
		if (!end) throw new TimingError('End', `${quoted(input.end)} is not a date and time`, DATE_TIME_HINT);
		const endGap = skippedWallClock(input.end, zone);
		if (endGap) notices.push(skippedWallClockNotice('End', zone, endGap));
		duration =
			startGap && !hasExplicitOffset(input.end)
				? // Both are wall-clock times: the length is the one on the clock the user read.
					durationBetween(parseDateInput(input.start, 'UTC')!, parseDateInput(input.end, 'UTC')!)
				: durationBetween(start.setZone(zone), end.setZone(zone));
	}
	return { timing: { start: toLocalDateTime(start, zone), duration, timeZone: zone, showWithoutTime: false }, notices };
}

const isDateOnly = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim());
const isWholeDays = (value: unknown): boolean => typeof value === 'string' && /^P\d+[DW]$/.test(value.trim());

function allDayTiming(input: TimingInput): EventTiming {
	const first = parseDateInput(input.start, 'UTC');
	if (!first) throw new TimingError('Start', `${quoted(input.start)} is not a date`);
	// The calendar date as written, whatever offset came with it.
	const dayOf = (date: DateTime) => DateTime.utc(date.year, date.month, date.day);
	const firstDay = dayOf(first);
	let duration: string;
	if (input.duration !== undefined && input.duration !== '') {
		duration = checkedDuration(input.duration);
	} else {
		const last = parseDateInput(input.end, 'UTC');
		if (!last) throw new TimingError('End', `${quoted(input.end)} is not a date`);
		const days = Math.round(dayOf(last).diff(firstDay, 'days').days) + 1;
		if (days < 1) throw new TimingError('End', 'the last day must not be before the first day');
		duration = `P${days}D`;
	}
	return { start: firstDay.toFormat(LOCAL_DATE_TIME_FORMAT), duration, timeZone: null, showWithoutTime: true };
}

function checkedDuration(value: unknown): string {
	if (!isIsoDuration(value)) {
		throw new TimingError('Duration', 'Event duration should be a valid ISO8601 duration', 'For example PT30M, PT1H30M or P1D.');
	}
	return value;
}

/** ISO 8601 duration from start to end: whole days in wall-clock time, the rest exact. */
function durationBetween(start: DateTime, end: DateTime): string {
	if (end <= start) throw new TimingError('End', 'must be after Start');
	let days = Math.floor(end.diff(start, 'days').days);
	// Whole days are counted on the wall clock, so a day that has 23 or 25 hours still counts as one.
	while (days > 0 && start.plus({ days }) > end) days--;
	const rest = end.diff(start.plus({ days }), ['hours', 'minutes', 'seconds']);
	const duration = Duration.fromObject({ days, hours: rest.hours, minutes: rest.minutes, seconds: Math.round(rest.seconds) });
	return duration.removeZeros().toISO() ?? 'PT0S';
}
