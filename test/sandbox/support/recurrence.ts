/**
 * Test support for the recurrence expander's tests (`recurrence.*.test.ts`): rule and NDay builders, an
 * `expand` with defaults (New York, one hour, a window from 1990 to 2010) and short views of its result.
 */
import { DateTime } from 'luxon';

import { expandOccurrences, type Frequency, type NDay, type Occurrence, type RecurrenceRule, type Weekday } from '../recurrence';

export const NY = 'America/New_York';
export const BERLIN = 'Europe/Berlin';

export function nd(day: Weekday, nthOfPeriod?: number): NDay {
	return nthOfPeriod === undefined ? { '@type': 'NDay', day } : { '@type': 'NDay', day, nthOfPeriod };
}

export function rr(frequency: Frequency, parts: Omit<Partial<RecurrenceRule>, '@type' | 'frequency'> = {}): RecurrenceRule {
	return { '@type': 'RecurrenceRule', frequency, ...parts };
}

export interface Opts {
	timeZone?: string | null;
	duration?: string;
	from?: string;
	to?: string;
	excluded?: string[];
	added?: string[];
	limit?: number;
}

export function expand(start: string, rules: RecurrenceRule[], o: Opts = {}): Occurrence[] {
	return expandOccurrences({
		start,
		timeZone: o.timeZone === undefined ? NY : o.timeZone,
		duration: o.duration ?? 'PT1H',
		rules,
		excluded: o.excluded,
		added: o.added,
		windowStart: new Date(o.from ?? '1990-01-01T00:00:00Z'),
		windowEnd: new Date(o.to ?? '2010-01-01T00:00:00Z'),
		limit: o.limit,
	});
}

export function ids(start: string, rules: RecurrenceRule[], o: Opts = {}): string[] {
	return expand(start, rules, o).map((x) => x.recurrenceId);
}

/** Dates at 09:00 local time. */
export function at9(...days: string[]): string[] {
	return days.map((d) => `${d}T09:00:00`);
}

/** Every day from `first` to `last` inclusive (luxon, not the module under test). */
export function dayRange(first: string, last: string, step = 1): string[] {
	const out: string[] = [];
	const end = DateTime.fromISO(last, { zone: 'utc' });
	for (let d = DateTime.fromISO(first, { zone: 'utc' }); d <= end; d = d.plus({ days: step })) out.push(d.toISODate()!);
	return out;
}

export function brief(o: Occurrence): [string, string, string, string] {
	return [o.recurrenceId, o.start, o.startUtc.toISOString(), o.endUtc.toISOString()];
}
