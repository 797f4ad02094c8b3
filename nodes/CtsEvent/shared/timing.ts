import { DateTime, Duration } from 'luxon';

import { isIanaZone, isIsoDuration, LOCAL_DATE_TIME_FORMAT, parseDateInput, toLocalDateTime } from '../../shared/dates';

/** The four timing fields the service wants together: start, duration, timeZone, showWithoutTime. */
export interface EventTiming {
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
 * Builds the timing fields from what the user gave. Timed events need an IANA zone; their start
 * (and end) are read in that zone and sent as LocalDateTime. All-day events send `timeZone: null`
 * and `showWithoutTime: true`, start at midnight of their first day and last whole days; their
 * End is the last day of the event, inclusive.
 */
export function eventTiming(input: TimingInput): EventTiming {
	if (input.allDay) {
		const first = parseDateInput(input.start, 'UTC');
		if (!first) throw new TimingError('Start', `"${String(input.start)}" is not a date`);
		// The calendar date as written, whatever offset came with it.
		const dayOf = (date: DateTime) => DateTime.utc(date.year, date.month, date.day);
		const firstDay = dayOf(first);
		let duration: string;
		if (input.duration !== undefined && input.duration !== '') {
			duration = checkedDuration(input.duration);
		} else {
			const last = parseDateInput(input.end, 'UTC');
			if (!last) throw new TimingError('End', `"${String(input.end)}" is not a date`);
			const days = Math.round(dayOf(last).diff(firstDay, 'days').days) + 1;
			if (days < 1) throw new TimingError('End', 'the last day must not be before the first day');
			duration = `P${days}D`;
		}
		return { start: firstDay.toFormat(LOCAL_DATE_TIME_FORMAT), duration, timeZone: null, showWithoutTime: true };
	}

	const zone = input.timeZone;
	if (zone === undefined || zone === null || zone === '') {
		throw new TimingError('Time Zone', 'a timed event needs a time zone', FLOATING_HINT);
	}
	if (!isIanaZone(zone)) {
		throw new TimingError(
			'Time Zone',
			`"${String(zone)}" is not an IANA time zone: use a region name such as Europe/Berlin or America/New_York, or UTC (abbreviations such as EST and offsets such as GMT+1 are not accepted)`,
		);
	}
	const start = parseDateInput(input.start, zone);
	if (!start) throw new TimingError('Start', `"${String(input.start)}" is not a date and time`);
	let duration: string;
	if (input.duration !== undefined && input.duration !== '') {
		duration = checkedDuration(input.duration);
	} else {
		const end = parseDateInput(input.end, zone);
		if (!end) throw new TimingError('End', `"${String(input.end)}" is not a date and time`);
		duration = durationBetween(start.setZone(zone), end.setZone(zone));
	}
	return { start: toLocalDateTime(start, zone), duration, timeZone: zone, showWithoutTime: false };
}

function checkedDuration(value: unknown): string {
	if (!isIsoDuration(value)) {
		throw new TimingError('Duration', 'Event duration should be a valid ISO8601 duration', 'For example PT30M, PT1H30M or P1D.');
	}
	return value;
}

/** ISO 8601 duration from start to end: whole days in wall-clock time, the rest exact. */
export function durationBetween(start: DateTime, end: DateTime): string {
	if (end <= start) throw new TimingError('End', 'must be after Start');
	let days = Math.floor(end.diff(start, 'days').days);
	// Whole days are counted on the wall clock, so a day that has 23 or 25 hours still counts as one.
	while (days > 0 && start.plus({ days }) > end) days--;
	const rest = end.diff(start.plus({ days }), ['hours', 'minutes', 'seconds']);
	const duration = Duration.fromObject({ days, hours: rest.hours, minutes: rest.minutes, seconds: Math.round(rest.seconds) });
	return duration.removeZeros().toISO() ?? 'PT0S';
}

/** The end of an event as LocalDateTime in its zone: start plus duration (all-day: the day after the last). */
export function eventEnd(event: { start?: unknown; duration?: unknown; timeZone?: unknown }): string | undefined {
	if (typeof event.start !== 'string' || typeof event.duration !== 'string') return undefined;
	const zone = typeof event.timeZone === 'string' && event.timeZone ? event.timeZone : 'UTC';
	const start = DateTime.fromISO(event.start, { zone });
	const duration = Duration.fromISO(event.duration);
	if (!start.isValid || !duration.isValid) return undefined;
	return start.plus(duration).toFormat(LOCAL_DATE_TIME_FORMAT);
}
