import { DateTime } from 'luxon';
import { utcIso } from './dates';

/** The interface's limit on one list window, and the size it recommends. */
export const MAX_WINDOW_MONTHS = 6;
export const RECOMMENDED_WINDOW_MONTHS = 2;

export interface TimeWindow {
	start: string;
	end: string;
}

/**
 * Splits [start, end) (epoch milliseconds) into consecutive windows of at most `months` calendar
 * months, the last one shorter. Adjacent windows share their boundary instant, so an event that
 * overlaps both is listed twice and must be merged by ID.
 *
 * Months count in `zone`, so that a range of N months in the user's zone takes N / `months`
 * windows (Find Free Time's 6 months: 3 list calls, not 4). The service counts its 6-month limit
 * in UTC, where a month counted in a zone can be up to a day longer (1 July in Berlin starts on
 * 30 June in UTC): a caller whose windows may reach that limit counts in 'utc'.
 */
export function splitWindow(start: number, end: number, months: number, zone: string): TimeWindow[] {
	const windows: TimeWindow[] = [];
	for (let from = DateTime.fromMillis(start, { zone }); from.toMillis() < end; ) {
		const to = Math.min(from.plus({ months }).toMillis(), end);
		windows.push({ start: utcIso(from.toMillis()), end: utcIso(to) });
		from = DateTime.fromMillis(to, { zone });
	}
	return windows;
}
