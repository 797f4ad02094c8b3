import { DateTime } from 'luxon';

/** The interface's limit on one list window, and the size it recommends. */
export const MAX_WINDOW_MONTHS = 6;
export const RECOMMENDED_WINDOW_MONTHS = 2;

export interface TimeWindow {
	start: string;
	end: string;
}

/**
 * Splits [start, end) into consecutive windows of at most `months` calendar months (in UTC), the
 * last one shorter. Adjacent windows share their boundary instant, so an event that overlaps
 * both is listed twice and must be merged by ID.
 */
export function splitWindow(start: DateTime, end: DateTime, months: number): TimeWindow[] {
	const windows: TimeWindow[] = [];
	let from = start.toUTC();
	const until = end.toUTC();
	while (from < until) {
		const next = DateTime.min(from.plus({ months }), until);
		windows.push({ start: isoUtc(from), end: isoUtc(next) });
		from = next;
	}
	return windows;
}

function isoUtc(date: DateTime): string {
	return date.toUTC().toISO({ suppressMilliseconds: true }) ?? '';
}
