/**
 * Recurrence expansion for the sandbox: JSCalendar (RFC 8984) `RecurrenceRule` objects expanded with the
 * RFC 5545 (section 3.3.10) semantics, in the wall-clock time of the event's IANA time zone. Pure: no I/O.
 *
 * Semantics (each one is exercised by `recurrence.*.test.ts`):
 * - Supported rule parts: `frequency` daily | weekly | monthly | yearly, `interval`, `firstDayOfWeek`, `byDay`
 *   (`NDay` with optional `nthOfPeriod`), `byMonthDay`, `byMonth`, `bySetPosition`, `count`, `until`, plus
 *   `rscale` "gregorian" and `skip` "omit" (the only values that match RFC 5545). `byHour`, `byMinute`,
 *   `bySecond`, `byYearDay`, `byWeekNo` and the hourly / minutely / secondly frequencies are refused by the
 *   validator. Property names containing ":" are vendor extensions and are ignored.
 * - BYxxx parts expand or limit as in the RFC 5545 table. `byDay` with `nthOfPeriod` counts within the month
 *   for monthly rules and for yearly rules that have `byMonth`, within the year for other yearly rules.
 *   When `byMonthDay` is present, `byDay` limits (an `nthOfPeriod` then names the position in the same period).
 * - Parts the rule leaves open come from the start, as RFC 5545 says: weekly without `byDay` → the start's
 *   weekday; monthly without `byDay`/`byMonthDay` → the start's day of the month; yearly without
 *   `byDay`/`byMonthDay` → the start's day of the month in the start's month (or in each `byMonth` month).
 * - Invalid dates are skipped, never clamped (the 31st in 30-day months, 29 February in common years).
 * - The start is always the first occurrence, and is counted by `count`, even when it does not match the rule
 *   (RFC 8984 section 4.3.3; RFC 5545: "The DTSTART property value always counts as the first occurrence").
 *   So a rule with `count: n` gives the start plus the first n - 1 matching dates after it. The start is an
 *   occurrence even when `until` is earlier than it.
 * - `until` is a LocalDateTime in the event's zone and is inclusive; it is compared with the recurrence id
 *   (the wall-clock date-time the rule generates).
 * - Several rules: the union of their occurrences, without duplicates; each rule counts its own `count` from
 *   the start. `excluded` recurrence ids are removed afterwards; `added` recurrence ids (JSCalendar
 *   `recurrenceOverrides` keys that the rules do not generate) are added and are not counted by `count`.
 * - Time zones: occurrences keep the start's wall-clock time of day in the event zone. A wall time that does
 *   not exist (spring-forward gap) is read with the offset in force before the gap, which moves it forward by
 *   the gap (02:30 → 03:30 in Europe/Berlin); an ambiguous wall time (fall-back) is the earlier instant. The
 *   recurrence id stays the generated wall time; `start` is the wall time at which the occurrence really starts.
 *   `timeZone: null` (all-day or floating) reads wall-clock times as UTC.
 * - Durations follow JSCalendar: weeks and days (and, if given, years and months) are nominal and added to the
 *   occurrence's wall-clock start in the event zone; hours, minutes and seconds are exact and added to the
 *   instant.
 * - Window: an occurrence is returned when it overlaps the window, `start < windowEnd && end > windowStart` (the
 *   project's rule for event lists), zero-length occurrences included: one at the window start does not overlap it,
 *   one strictly inside does. Results are ascending by start instant.
 *
 * Calendar arithmetic on dates (weekday, month lengths, period indexes) uses plain day numbers, which keeps the
 * expansion of hundreds of series within a millisecond budget; every conversion between wall-clock time and
 * instants goes through luxon's IANA zone data.
 */
import { Duration, IANAZone } from 'luxon';
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------------------

export const WEEKDAYS = ['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

const MONTH_NAMES = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'] as const;

export interface NDay {
	'@type': 'NDay';
	day: Weekday;
	/** 1 = first, 2 = second, ..., -1 = last, -2 = second to last, within the rule's period. */
	nthOfPeriod?: number;
}

export interface RecurrenceRule {
	'@type': 'RecurrenceRule';
	frequency: Frequency;
	interval?: number;
	rscale?: 'gregorian';
	skip?: 'omit';
	firstDayOfWeek?: Weekday;
	byDay?: NDay[];
	byMonthDay?: number[];
	/** Month numbers as strings, "1" to "12" (JSCalendar). */
	byMonth?: string[];
	bySetPosition?: number[];
	count?: number;
	/** LocalDateTime in the event's time zone, inclusive. */
	until?: string;
}

export interface ExpandInput {
	/** LocalDateTime `YYYY-MM-DDTHH:mm:ss` of the series' first occurrence, in `timeZone`. */
	start: string;
	/** IANA zone; null = all-day or floating: wall-clock times read as UTC. */
	timeZone: string | null;
	/** ISO 8601 duration of each occurrence (JSCalendar Duration, e.g. `PT1H`, `P1D`, `P1DT2H`). */
	duration: string;
	rules: readonly RecurrenceRule[];
	/** Recurrence ids (LocalDateTime) removed from the series; entries that are not LocalDateTimes match nothing. */
	excluded?: readonly string[];
	/** Recurrence ids (LocalDateTime) added to the series besides those the rules generate; malformed ones are ignored. */
	added?: readonly string[];
	/** UTC instant: start of the window (inclusive). */
	windowStart: Date;
	/** UTC instant: end of the window (exclusive). */
	windowEnd: Date;
	/** At most this many occurrences, the earliest ones. */
	limit?: number;
}

export interface Occurrence {
	/** LocalDateTime the rule generated, in the event's zone: identifies the occurrence. */
	recurrenceId: string;
	/** LocalDateTime at which the occurrence starts in the event's zone (differs from recurrenceId in a DST gap). */
	start: string;
	startUtc: Date;
	endUtc: Date;
}

// ---------------------------------------------------------------------------------------------------------
// LocalDateTime and day numbers
// ---------------------------------------------------------------------------------------------------------

// Module-scoped aliases: hot loops avoid global lookups, which are slow inside VM contexts (such as jest's).
const { floor, min, max, abs } = Math;
const DateCtor = Date;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Offsets in tzdb stay within ±15 h; the margin covers them and a gap of up to a day. */
const ZONE_MARGIN_MS = 18 * HOUR_MS;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

function mod(a: number, n: number): number {
	const r = a % n;
	return r < 0 ? r + n : r;
}

function isLeapYear(y: number): boolean {
	return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(y: number, m: number): number {
	return m === 2 && isLeapYear(y) ? 29 : MONTH_LENGTHS[m - 1];
}

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
function dayNumber(y: number, m: number, d: number): number {
	const yy = m <= 2 ? y - 1 : y;
	const era = floor(yy / 400);
	const yoe = yy - era * 400;
	const doy = floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
	const doe = yoe * 365 + floor(yoe / 4) - floor(yoe / 100) + doy;
	return era * 146097 + doe - 719468;
}

/** Inverse of dayNumber: [year, month 1-12, day]. */
function civilDate(n: number): [number, number, number] {
	const z0 = n + 719468;
	const era = floor(z0 / 146097);
	const doe = z0 - era * 146097;
	const yoe = floor((doe - floor(doe / 1460) + floor(doe / 36524) - floor(doe / 146096)) / 365);
	const doy = doe - (365 * yoe + floor(yoe / 4) - floor(yoe / 100));
	const mp = floor((5 * doy + 2) / 153);
	const d = doy - floor((153 * mp + 2) / 5) + 1;
	const m = mp < 10 ? mp + 3 : mp - 9;
	return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** 0 = Monday ... 6 = Sunday (1970-01-01, day 0, was a Thursday). */
function weekdayOf(n: number): number {
	return mod(n + 3, 7);
}

const MAX_DAY = dayNumber(9999, 12, 31);

/** Milliseconds of a LocalDateTime read as if it were UTC, or null when the text is not a valid one. */
export function parseLocalDateTime(text: unknown): number | null {
	if (typeof text !== 'string') return null;
	const m = LOCAL_DATE_TIME.exec(text);
	if (!m) return null;
	const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
	if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
	return dayNumber(y, mo, d) * DAY_MS + ((h * 60 + mi) * 60 + s) * 1000;
}

export function isLocalDateTime(text: unknown): text is string {
	return parseLocalDateTime(text) !== null;
}

function pad(n: number, width: number): string {
	return String(n).padStart(width, '0');
}

const datePart = new Map<number, string>();
const timePart = new Map<number, string>();

/** Formats milliseconds of a wall-clock date-time (as if UTC) as `YYYY-MM-DDTHH:mm:ss`. */
export function formatLocalDateTime(localMs: number): string {
	const day = floor(localMs / DAY_MS);
	const tod = localMs - day * DAY_MS;
	let date = datePart.get(day);
	if (date === undefined) {
		const [y, m, d] = civilDate(day);
		date = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T`;
		if (datePart.size >= 100_000) datePart.clear();
		datePart.set(day, date);
	}
	let time = timePart.get(tod);
	if (time === undefined) {
		const secs = floor(tod / 1000);
		time = `${pad(floor(secs / 3600), 2)}:${pad(floor((secs % 3600) / 60), 2)}:${pad(secs % 60, 2)}`;
		if (timePart.size >= 100_000) timePart.clear();
		timePart.set(tod, time);
	}
	return date + time;
}

// ---------------------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------------------

const UNSUPPORTED_PARTS = ['byHour', 'byMinute', 'bySecond', 'byYearDay', 'byWeekNo'] as const;

const nonZero = (limit: number) =>
	z
		.number()
		.int()
		.refine((n) => n !== 0 && n >= -limit && n <= limit, `must be between 1 and ${limit} or between -${limit} and -1`);

const unsupported = z.never({ errorMap: () => ({ message: 'is not supported' }) }).optional();

export const nDaySchema = z
	.object({
		'@type': z.literal('NDay'),
		day: z.enum(WEEKDAYS),
		nthOfPeriod: nonZero(53).optional(),
	})
	.strict();

const ruleObjectSchema = z
	.object({
		'@type': z.literal('RecurrenceRule'),
		frequency: z.enum(FREQUENCIES),
		interval: z.number().int().min(1).optional(),
		rscale: z.literal('gregorian').optional(),
		skip: z.literal('omit').optional(),
		firstDayOfWeek: z.enum(WEEKDAYS).optional(),
		byDay: z.array(nDaySchema).min(1).optional(),
		byMonthDay: z.array(nonZero(31)).min(1).optional(),
		byMonth: z.array(z.enum(MONTH_NAMES)).min(1).optional(),
		bySetPosition: z.array(nonZero(366)).min(1).optional(),
		count: z.number().int().min(1).optional(),
		until: z.string().refine(isLocalDateTime, 'must be a LocalDateTime (YYYY-MM-DDTHH:mm:ss)').optional(),
		...Object.fromEntries(UNSUPPORTED_PARTS.map((k) => [k, unsupported])),
	})
	.strict()
	.superRefine((rule, ctx) => {
		if (rule.count !== undefined && rule.until !== undefined) {
			ctx.addIssue({ code: 'custom', path: [], message: 'count and until must not both be given' });
		}
		if (rule.frequency === 'weekly' && rule.byMonthDay !== undefined) {
			ctx.addIssue({ code: 'custom', path: ['byMonthDay'], message: 'must not be given when frequency is weekly' });
		}
		const monthPeriod = rule.frequency === 'monthly' || (rule.frequency === 'yearly' && rule.byMonth !== undefined);
		rule.byDay?.forEach((nday, i) => {
			const nth = nday.nthOfPeriod;
			if (nth === undefined) return;
			const path = ['byDay', i, 'nthOfPeriod'];
			if (rule.frequency === 'daily' || rule.frequency === 'weekly') {
				ctx.addIssue({ code: 'custom', path, message: 'is only allowed when frequency is monthly or yearly' });
			} else if (monthPeriod && abs(nth) > 5) {
				ctx.addIssue({ code: 'custom', path, message: 'must be between 1 and 5 or between -5 and -1 within a month' });
			}
		});
	});

/** Vendor-extension properties (names with a colon) are allowed anywhere in JSCalendar objects and ignored. */
function withoutVendorProperties(value: unknown): unknown {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(value)) if (!k.includes(':')) out[k] = v;
	if (Array.isArray(out.byDay)) out.byDay = out.byDay.map(withoutVendorProperties);
	return out;
}

/** zod schema of a RecurrenceRule (vendor-extension properties are dropped before checking). */
export const recurrenceRuleSchema = z.preprocess(withoutVendorProperties, ruleObjectSchema);

const issueText: z.ZodErrorMap = (issue, ctx) => {
	switch (issue.code) {
		case 'invalid_type':
			if (issue.received === 'undefined') return { message: 'is required' };
			if (issue.expected === 'integer') return { message: 'must be an integer' };
			if (issue.expected === 'never') return { message: 'is not supported' };
			if (issue.expected.includes(' | ')) {
				return { message: `must be one of ${issue.expected.split(' | ').map((o) => o.replace(/'/g, '"')).join(', ')}` };
			}
			return { message: `must be ${/^[aeio]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}` };
		case 'invalid_literal':
			return { message: ctx.data === undefined ? 'is required' : `must be "${String(issue.expected)}"` };
		case 'invalid_enum_value':
			return { message: `must be one of ${issue.options.map((o) => `"${String(o)}"`).join(', ')}` };
		case 'too_small':
			return issue.type === 'array'
				? { message: 'must not be empty' }
				: { message: `must be at least ${String(issue.minimum)}` };
		case 'too_big':
			return { message: `must be at most ${String(issue.maximum)}` };
		default:
			return { message: ctx.defaultError };
	}
};

function pathText(path: ReadonlyArray<string | number>): string {
	return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function issueMessages(error: z.ZodError, prefix: string): string[] {
	const out: string[] = [];
	for (const issue of error.issues) {
		const where = pathText(issue.path);
		const base = prefix && where && !where.startsWith('[') ? `${prefix}.${where}` : `${prefix}${where}`;
		if (issue.code === 'unrecognized_keys') {
			for (const key of issue.keys) out.push(`${base ? `${base}.` : ''}${key} is not a known property`);
		} else if (issue.code === 'invalid_type' && issue.path.length === 0) {
			out.push(`${prefix || 'recurrence rule'} must be a RecurrenceRule object`);
		} else {
			out.push(!base ? issue.message : where ? `${base} ${issue.message}` : `${base}: ${issue.message}`);
		}
	}
	return out;
}

/** Messages naming what is wrong with a RecurrenceRule; empty when it is valid. */
export function validateRecurrenceRule(rule: unknown): string[] {
	const result = recurrenceRuleSchema.safeParse(rule, { errorMap: issueText });
	return result.success ? [] : issueMessages(result.error, '');
}

/** Messages for a `recurrenceRules` array, prefixed `recurrenceRules[i].`; empty when all are valid. */
export function validateRecurrenceRules(rules: unknown, name = 'recurrenceRules'): string[] {
	if (!Array.isArray(rules)) return [`${name} must be an array`];
	const out: string[] = [];
	rules.forEach((rule, i) => {
		const result = recurrenceRuleSchema.safeParse(rule, { errorMap: issueText });
		if (!result.success) out.push(...issueMessages(result.error, `${name}[${i}]`));
	});
	return out;
}

// ---------------------------------------------------------------------------------------------------------
// Rules prepared for expansion
// ---------------------------------------------------------------------------------------------------------

const DAILY = 0;
const WEEKLY = 1;
const MONTHLY = 2;
const YEARLY = 3;

/** A rule with the parts the start leaves open filled in from the start, ready for expansion. */
interface PreparedRule {
	freq: number;
	interval: number;
	wkst: number;
	/** byDay entries: weekday 0-6 (Monday 0) and nth (0 = every such weekday in the period). */
	byDay: Array<[number, number]> | null;
	/** Weekly: offsets from the week start of the selected weekdays, ascending. */
	weekOffsets: number[];
	byMonthDay: number[] | null;
	/** Months 1-12 ascending, or null for no month constraint. */
	byMonth: number[] | null;
	monthMask: boolean[] | null;
	bySetPos: number[] | null;
	count: number | null;
	untilLocal: number | null;
	startDay: number;
	/** Time of day of every generated occurrence, in milliseconds. */
	tod: number;
	/** Index of the period that holds the start. */
	p0: number;
	/** Candidates per period when that number never varies, else null. */
	perPeriod: number | null;
	/** Key of the rule and start for the count cache. */
	key: string;
}

interface CheckedRule {
	freq: number;
	interval: number;
	wkst: number;
	byDay: Array<[number, number]> | null;
	byMonthDay: number[] | null;
	byMonth: number[] | null;
	bySetPos: number[] | null;
	count: number | null;
	untilLocal: number | null;
}

const checkedRules = new Map<string, CheckedRule>();

function uniqueSorted(values: Iterable<number>): number[] {
	return [...new Set(values)].sort((a, b) => a - b);
}

/** Validates a rule (once per distinct rule text) and converts it; throws RangeError on an invalid rule. */
function checkRule(rule: RecurrenceRule): CheckedRule {
	const text = JSON.stringify(rule);
	const cached = checkedRules.get(text);
	if (cached) return cached;
	const errors = validateRecurrenceRule(rule);
	if (errors.length > 0) throw new RangeError(`Invalid recurrence rule: ${errors.join('; ')}`);
	const byDayPairs = rule.byDay?.map((n): [number, number] => [WEEKDAYS.indexOf(n.day), n.nthOfPeriod ?? 0]);
	const checked: CheckedRule = {
		freq: FREQUENCIES.indexOf(rule.frequency),
		interval: rule.interval ?? 1,
		wkst: WEEKDAYS.indexOf(rule.firstDayOfWeek ?? 'mo'),
		byDay: byDayPairs
			? [...new Map(byDayPairs.map((p) => [`${p[0]}/${p[1]}`, p])).values()].sort((a, b) => a[0] - b[0] || a[1] - b[1])
			: null,
		byMonthDay: rule.byMonthDay ? uniqueSorted(rule.byMonthDay) : null,
		byMonth: rule.byMonth ? uniqueSorted(rule.byMonth.map(Number)) : null,
		bySetPos: rule.bySetPosition ? uniqueSorted(rule.bySetPosition) : null,
		count: rule.count ?? null,
		untilLocal: rule.until === undefined ? null : parseLocalDateTime(rule.until),
	};
	if (checkedRules.size >= 5000) checkedRules.clear();
	checkedRules.set(text, checked);
	return checked;
}

function periodOf(freq: number, wkst: number, day: number): number {
	switch (freq) {
		case DAILY:
			return day;
		case WEEKLY:
			return floor((day - (wkst - 3)) / 7);
		case MONTHLY: {
			const [y, m] = civilDate(day);
			return y * 12 + m - 1;
		}
		default:
			return civilDate(day)[0];
	}
}

function periodFirstDay(r: PreparedRule, p: number): number {
	switch (r.freq) {
		case DAILY:
			return p;
		case WEEKLY:
			return r.wkst - 3 + 7 * p;
		case MONTHLY:
			return dayNumber(floor(p / 12), mod(p, 12) + 1, 1);
		default:
			return dayNumber(p, 1, 1);
	}
}

/** Number of candidates in every period, when it is the same for all periods (for counting by arithmetic). */
function constantPerPeriod(r: CheckedRule): number | null {
	if (r.bySetPos) return null;
	const sameSignWithin28 = (days: number[]) =>
		days.every((d) => d > 0 && d <= 28) || days.every((d) => d < 0 && d >= -28);
	switch (r.freq) {
		case DAILY:
			return r.byDay || r.byMonthDay || r.byMonth ? null : 1;
		case WEEKLY:
			return r.byMonth || !r.byDay ? null : r.byDay.length;
		case MONTHLY:
			if (r.byMonth) return null;
			if (r.byMonthDay && !r.byDay) return sameSignWithin28(r.byMonthDay) ? r.byMonthDay.length : null;
			if (r.byDay && !r.byMonthDay) {
				const nths = r.byDay.map((p) => p[1]);
				return sameSignWithin28(nths.map((n) => n * 7)) ? r.byDay.length : null;
			}
			return null;
		default:
			if (r.byDay || !r.byMonthDay) return null;
			return sameSignWithin28(r.byMonthDay) ? r.byMonthDay.length * (r.byMonth ? r.byMonth.length : 12) : null;
	}
}

const preparedRules = new Map<string, PreparedRule>();

/** The rule prepared for a series start (cached per rule text and start). */
function prepareRule(rule: RecurrenceRule, startLocal: number): PreparedRule {
	const text = `${startLocal}|${JSON.stringify(rule)}`;
	let prepared = preparedRules.get(text);
	if (!prepared) {
		prepared = buildPreparedRule(rule, startLocal);
		if (preparedRules.size >= 5000) preparedRules.clear();
		preparedRules.set(text, prepared);
	}
	return prepared;
}

function buildPreparedRule(rule: RecurrenceRule, startLocal: number): PreparedRule {
	const c = checkRule(rule);
	const startDay = floor(startLocal / DAY_MS);
	const [, sm, sd] = civilDate(startDay);
	let { byDay, byMonthDay, byMonth } = c;
	if (c.freq === WEEKLY && !byDay) byDay = [[weekdayOf(startDay), 0]];
	if (c.freq === MONTHLY && !byDay && !byMonthDay) byMonthDay = [sd];
	if (c.freq === YEARLY && !byDay && !byMonthDay) {
		byMonthDay = [sd];
		byMonth ??= [sm];
	}
	if (c.freq === WEEKLY) byDay = uniqueSorted(byDay!.map((p) => p[0])).map((w): [number, number] => [w, 0]);
	const filled: CheckedRule = { ...c, byDay, byMonthDay, byMonth };
	const monthMask = byMonth ? Array.from({ length: 13 }, (_, m) => byMonth.includes(m)) : null;
	const weekOffsets = c.freq === WEEKLY ? uniqueSorted(byDay!.map((p) => mod(p[0] - c.wkst, 7))) : [];
	return {
		...filled,
		weekOffsets,
		monthMask,
		startDay,
		tod: startLocal - startDay * DAY_MS,
		p0: periodOf(c.freq, c.wkst, startDay),
		perPeriod: constantPerPeriod(filled),
		key: JSON.stringify([c.freq, c.interval, c.wkst, byDay, byMonthDay, byMonth, c.bySetPos, startDay]),
	};
}

// ---------------------------------------------------------------------------------------------------------
// Candidates of one period
// ---------------------------------------------------------------------------------------------------------

const NONE: number[] = [];
const MONTHS_ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** Offsets (0-based, ascending) in a span of `len` days from `first` of the days byDay selects. */
function expandByDay(byDay: Array<[number, number]>, first: number, len: number): number[] {
	const w0 = weekdayOf(first);
	const out: number[] = [];
	for (const [wd, nth] of byDay) {
		const firstOff = mod(wd - w0, 7);
		if (nth === 0) {
			for (let off = firstOff; off < len; off += 7) out.push(off);
		} else if (nth > 0) {
			const off = firstOff + 7 * (nth - 1);
			if (off < len) out.push(off);
		} else {
			const lastOff = firstOff + 7 * floor((len - 1 - firstOff) / 7);
			const off = lastOff + 7 * (nth + 1);
			if (off >= 0) out.push(off);
		}
	}
	return byDay.length > 1 ? uniqueSorted(out) : out;
}

/** Whether the day at offset `off` of a span of `len` days from `first` is selected by byDay. */
function matchesByDay(byDay: Array<[number, number]>, first: number, len: number, off: number): boolean {
	const wd = weekdayOf(first + off);
	for (const [w, nth] of byDay) {
		if (w !== wd) continue;
		if (nth === 0) return true;
		if (nth > 0 ? floor(off / 7) + 1 === nth : -(floor((len - 1 - off) / 7) + 1) === nth) return true;
	}
	return false;
}

function monthDayOffsets(byMonthDay: number[], dim: number): number[] {
	const out: number[] = [];
	for (const md of byMonthDay) {
		const dom = md > 0 ? md : dim + md + 1;
		if (dom >= 1 && dom <= dim) out.push(dom - 1);
	}
	return out.length > 1 ? uniqueSorted(out) : out;
}

/** Month-scoped candidates (monthly rules, yearly rules per month): day numbers ascending. */
function monthCandidates(r: PreparedRule, y: number, m: number, nthInMonth: boolean, out: number[]): void {
	const first = dayNumber(y, m, 1);
	const dim = daysInMonth(y, m);
	if (r.byMonthDay) {
		const yearFirst = nthInMonth ? 0 : dayNumber(y, 1, 1);
		const yearLen = isLeapYear(y) ? 366 : 365;
		for (const off of monthDayOffsets(r.byMonthDay, dim)) {
			const day = first + off;
			if (
				r.byDay &&
				!(nthInMonth
					? matchesByDay(r.byDay, first, dim, off)
					: matchesByDay(r.byDay, yearFirst, yearLen, day - yearFirst))
			)
				continue;
			out.push(day);
		}
	} else if (r.byDay) {
		for (const off of expandByDay(r.byDay, first, dim)) out.push(first + off);
	}
}

/** Candidate days (ascending, unique) of period p, before start, until and count are applied. */
function candidates(r: PreparedRule, p: number): number[] {
	let out: number[];
	switch (r.freq) {
		case DAILY: {
			if (r.byMonth || r.byMonthDay) {
				const [y, m, d] = civilDate(p);
				if (r.monthMask && !r.monthMask[m]) return NONE;
				if (r.byMonthDay) {
					const dim = daysInMonth(y, m);
					if (!r.byMonthDay.some((md) => md === d || md === d - dim - 1)) return NONE;
				}
			}
			if (r.byDay && !r.byDay.some((e) => e[0] === weekdayOf(p))) return NONE;
			out = [p];
			break;
		}
		case WEEKLY: {
			const first = r.wkst - 3 + 7 * p;
			out = [];
			for (const off of r.weekOffsets) {
				const day = first + off;
				if (r.monthMask && !r.monthMask[civilDate(day)[1]]) continue;
				out.push(day);
			}
			break;
		}
		case MONTHLY: {
			const y = floor(p / 12);
			const m = mod(p, 12) + 1;
			if (r.monthMask && !r.monthMask[m]) return NONE;
			out = [];
			monthCandidates(r, y, m, true, out);
			break;
		}
		default: {
			out = [];
			if (r.byMonthDay || r.byMonth) {
				for (const m of r.byMonth ?? MONTHS_ALL) monthCandidates(r, p, m, r.byMonth !== null, out);
			} else if (r.byDay) {
				const first = dayNumber(p, 1, 1);
				for (const off of expandByDay(r.byDay, first, isLeapYear(p) ? 366 : 365)) out.push(first + off);
			}
		}
	}
	if (r.bySetPos && out.length > 0) {
		const picked: number[] = [];
		for (const pos of r.bySetPos) {
			const i = pos > 0 ? pos - 1 : out.length + pos;
			if (i >= 0 && i < out.length) picked.push(out[i]);
		}
		out = uniqueSorted(picked);
	}
	return out;
}

// ---------------------------------------------------------------------------------------------------------
// Counting from the start (for count) without walking every period each time
// ---------------------------------------------------------------------------------------------------------

const CHECKPOINT_STEP = 64;
/** Per rule and start: checkpoints[i] = candidates after the start day in periods j < i * CHECKPOINT_STEP. */
const countCheckpoints = new Map<string, number[]>();

function candidatesAfterStart(r: PreparedRule, j: number): number {
	const days = candidates(r, r.p0 + j * r.interval);
	if (j > 0) return days.length;
	let n = 0;
	for (const d of days) if (d > r.startDay) n++;
	return n;
}

/**
 * Occurrences the rule yields in periods 0 .. j-1 (the start included), capped: the result is exact when it is
 * below `cap`, and some number >= cap otherwise.
 */
function occurrencesBeforePeriod(r: PreparedRule, j: number, cap: number): number {
	if (j <= 0) return 1;
	if (r.perPeriod !== null) return 1 + candidatesAfterStart(r, 0) + (j - 1) * r.perPeriod;
	let points = countCheckpoints.get(r.key);
	if (!points) {
		if (countCheckpoints.size >= 2000) countCheckpoints.delete(countCheckpoints.keys().next().value!);
		points = [0];
		countCheckpoints.set(r.key, points);
	}
	const want = floor(j / CHECKPOINT_STEP);
	while (points.length - 1 < want && 1 + points[points.length - 1] < cap) {
		const from = (points.length - 1) * CHECKPOINT_STEP;
		let n = points[points.length - 1];
		for (let k = from; k < from + CHECKPOINT_STEP; k++) n += candidatesAfterStart(r, k);
		points.push(n);
	}
	const base = min(want, points.length - 1);
	let n = 1 + points[base];
	for (let k = base * CHECKPOINT_STEP; k < j && n < cap; k++) n += candidatesAfterStart(r, k);
	return n;
}

/**
 * Calls `visit(day, index)` for each occurrence day of the rule in [fromDay, toDay], ascending; index is the
 * occurrence's 1-based position in the series (the start is 1), known when the rule has a count or when
 * fromDay is not after the start (NaN otherwise). Stops when visit returns false.
 */
function forEachOccurrenceDay(
	r: PreparedRule,
	fromDay: number,
	toDay: number,
	visit: (day: number, index: number) => boolean,
): void {
	if (r.startDay > toDay) return;
	let index = 1;
	let j = 0;
	if (fromDay <= r.startDay) {
		if (!visit(r.startDay, 1)) return;
	} else {
		j = max(0, floor((periodOf(r.freq, r.wkst, fromDay) - r.p0) / r.interval));
		if (j > 0) {
			if (r.count !== null) {
				index = occurrencesBeforePeriod(r, j, r.count);
				if (index >= r.count) return;
			} else {
				index = Number.NaN;
			}
		}
	}
	const last = min(toDay, MAX_DAY);
	for (; ; j++) {
		const p = r.p0 + j * r.interval;
		if (periodFirstDay(r, p) > last) return;
		for (const day of candidates(r, p)) {
			if (day <= r.startDay) continue;
			if (day > last) return;
			if (r.untilLocal !== null && day * DAY_MS + r.tod > r.untilLocal) return;
			index++;
			if (r.count !== null && index > r.count) return;
			if (day >= fromDay && !visit(day, index)) return;
		}
	}
}

// ---------------------------------------------------------------------------------------------------------
// Time zones and durations
// ---------------------------------------------------------------------------------------------------------

interface Instant {
	utc: number;
	/** Offset in force at `utc`, in milliseconds (local = utc + offset). */
	offset: number;
}

/** Converts wall-clock times of one zone to instants and back, caching offsets at UTC day boundaries. */
class ZoneClock {
	private readonly dayOffsets = new Map<number, number>();

	constructor(private readonly zone: IANAZone | null) {}

	private readonly exactOffsets = new Map<number, number>();

	offsetAt(utc: number): number {
		if (!this.zone) return 0;
		let o = this.exactOffsets.get(utc);
		if (o === undefined) {
			if (this.exactOffsets.size >= 50_000) this.exactOffsets.clear();
			o = this.zone.offset(utc) * 60_000;
			this.exactOffsets.set(utc, o);
		}
		return o;
	}

	private offsetAtDay(k: number): number {
		let o = this.dayOffsets.get(k);
		if (o === undefined) {
			if (this.dayOffsets.size >= 50_000) this.dayOffsets.clear();
			o = this.offsetAt(k * DAY_MS);
			this.dayOffsets.set(k, o);
		}
		return o;
	}

	/** Nonexistent wall times move forward by the gap; ambiguous ones take the earlier instant. */
	toInstant(local: number): Instant {
		if (!this.zone) return { utc: local, offset: 0 };
		const k = floor(local / DAY_MS);
		const before = this.offsetAtDay(k - 1);
		// Same offset at both ends of a three-day span: taken as no transition inside (it would take two
		// transitions that cancel out within three days, which tzdb does not have).
		if (before === this.offsetAtDay(k + 2)) return { utc: local - before, offset: before };
		const early = this.offsetAt(local - 2 * ZONE_MARGIN_MS);
		const late = this.offsetAt(local + 2 * ZONE_MARGIN_MS);
		const valid: number[] = [];
		for (const o of early === late ? [early] : [early, late]) if (this.offsetAt(local - o) === o) valid.push(local - o);
		const utc = valid.length > 0 ? min(...valid) : local - early;
		return { utc, offset: this.offsetAt(utc) };
	}
}

const zoneClocks = new Map<string, ZoneClock>();
const FLOATING = new ZoneClock(null);

function clockFor(timeZone: string | null): ZoneClock {
	if (timeZone === null) return FLOATING;
	let clock = zoneClocks.get(timeZone);
	if (!clock) {
		const zone = IANAZone.create(timeZone);
		if (!zone.isValid) throw new RangeError(`Invalid time zone: ${timeZone}`);
		clock = new ZoneClock(zone);
		zoneClocks.set(timeZone, clock);
	}
	return clock;
}

interface ParsedDuration {
	months: number;
	days: number;
	exactMs: number;
	/** An upper bound of the duration in milliseconds, for widening the search window. */
	maxMs: number;
}

const parsedDurations = new Map<string, ParsedDuration>();

function parseDuration(text: string): ParsedDuration {
	const cached = parsedDurations.get(text);
	if (cached) return cached;
	const d = Duration.fromISO(text);
	if (!d.isValid || !/^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/.test(text)) {
		throw new RangeError(`Invalid duration: ${text}`);
	}
	const o = d.toObject();
	const months = (o.years ?? 0) * 12 + (o.months ?? 0);
	const days = (o.weeks ?? 0) * 7 + (o.days ?? 0);
	const exactMs = Math.round(((o.hours ?? 0) * 60 + (o.minutes ?? 0)) * 60_000 + (o.seconds ?? 0) * 1000);
	const parsed = { months, days, exactMs, maxMs: (months * 31 + days + 1) * DAY_MS + exactMs };
	if (parsedDurations.size >= 1000) parsedDurations.clear();
	parsedDurations.set(text, parsed);
	return parsed;
}

/** Adds the nominal part of a duration (months, days) to a wall-clock time; month ends clamp. */
function addNominal(local: number, months: number, days: number): number {
	let day = floor(local / DAY_MS);
	const tod = local - day * DAY_MS;
	if (months !== 0) {
		const [y, m, d] = civilDate(day);
		const total = y * 12 + (m - 1) + months;
		const ny = floor(total / 12);
		const nm = mod(total, 12) + 1;
		day = dayNumber(ny, nm, min(d, daysInMonth(ny, nm)));
	}
	return (day + days) * DAY_MS + tod;
}

/** Whether an occurrence [start, end) overlaps the window: `start < windowEnd && end > windowStart`, whatever its length. */
export function overlapsWindow(startMs: number, endMs: number, windowStartMs: number, windowEndMs: number): boolean {
	return startMs < windowEndMs && endMs > windowStartMs;
}

// ---------------------------------------------------------------------------------------------------------
// Expansion
// ---------------------------------------------------------------------------------------------------------

interface Series {
	startLocal: number;
	clock: ZoneClock;
	duration: ParsedDuration;
	rules: PreparedRule[];
	excluded: Set<number>;
	added: number[];
}

function prepareSeries(input: {
	start: string;
	timeZone: string | null;
	duration: string;
	rules: readonly RecurrenceRule[];
	excluded?: readonly string[];
	added?: readonly string[];
}): Series {
	const startLocal = parseLocalDateTime(input.start);
	if (startLocal === null) throw new RangeError(`Invalid start (expected YYYY-MM-DDTHH:mm:ss): ${input.start}`);
	const toLocal = (list: readonly string[] | undefined) =>
		(list ?? []).map(parseLocalDateTime).filter((v): v is number => v !== null);
	return {
		startLocal,
		clock: clockFor(input.timeZone),
		duration: parseDuration(input.duration),
		rules: input.rules.map((rule) => prepareRule(rule, startLocal)),
		excluded: new Set(toLocal(input.excluded)),
		added: toLocal(input.added),
	};
}

function occurrenceAt(series: Series, local: number): Occurrence {
	const start = series.clock.toInstant(local);
	const actualLocal = start.utc + start.offset;
	const { months, days, exactMs } = series.duration;
	const endUtc =
		months === 0 && days === 0
			? start.utc + exactMs
			: series.clock.toInstant(addNominal(actualLocal, months, days)).utc + exactMs;
	const recurrenceId = formatLocalDateTime(local);
	return {
		recurrenceId,
		start: actualLocal === local ? recurrenceId : formatLocalDateTime(actualLocal),
		startUtc: new DateCtor(start.utc),
		endUtc: new DateCtor(endUtc),
	};
}

/**
 * Recurrence ids (wall-clock ms) of the series with a wall-clock day in [fromDay, toDay]: union of the rules
 * (the start always included), plus `added`, minus `excluded`; ascending.
 */
function localOccurrences(series: Series, fromDay: number, toDay: number): number[] {
	const seen = new Set<number>();
	for (const r of series.rules) {
		forEachOccurrenceDay(r, fromDay, toDay, (day) => {
			seen.add(day * DAY_MS + r.tod);
			return true;
		});
	}
	if (series.rules.length === 0) {
		const startDay = floor(series.startLocal / DAY_MS);
		if (startDay >= fromDay && startDay <= toDay) seen.add(series.startLocal);
	}
	for (const local of series.added) {
		const day = floor(local / DAY_MS);
		if (day >= fromDay && day <= toDay) seen.add(local);
	}
	for (const local of series.excluded) seen.delete(local);
	return [...seen].sort((a, b) => a - b);
}

/**
 * The occurrences of a series that overlap [windowStart, windowEnd), ascending by start. Throws RangeError on
 * an invalid start, zone, duration or rule.
 */
export function expandOccurrences(input: ExpandInput): Occurrence[] {
	const series = prepareSeries(input);
	const windowStart = input.windowStart.getTime();
	const windowEnd = input.windowEnd.getTime();
	if (!(windowEnd > windowStart)) return [];
	const fromDay = floor((windowStart - series.duration.maxMs - ZONE_MARGIN_MS) / DAY_MS) - 1;
	// Wall-clock days outside [fromDay, toDay] cannot hold an occurrence that overlaps the window.
	const toDay = floor((windowEnd + ZONE_MARGIN_MS) / DAY_MS) + 1;
	const out: Occurrence[] = [];
	for (const local of localOccurrences(series, fromDay, toDay)) {
		const occurrence = occurrenceAt(series, local);
		if (overlapsWindow(occurrence.startUtc.getTime(), occurrence.endUtc.getTime(), windowStart, windowEnd)) {
			out.push(occurrence);
		}
	}
	out.sort((a, b) => a.startUtc.getTime() - b.startUtc.getTime() || (a.recurrenceId < b.recurrenceId ? -1 : 1));
	return input.limit !== undefined && out.length > input.limit ? out.slice(0, max(0, input.limit)) : out;
}

/**
 * The occurrence with this recurrence id, or null when the series does not have it (never generated, or
 * excluded). Useful to check a `recurrenceId` sent by a client.
 */
export function findOccurrence(input: Omit<ExpandInput, 'windowStart' | 'windowEnd' | 'limit'> & { recurrenceId: string }): Occurrence | null {
	const local = parseLocalDateTime(input.recurrenceId);
	if (local === null) return null;
	const series = prepareSeries(input);
	const day = floor(local / DAY_MS);
	return localOccurrences(series, day, day).includes(local) ? occurrenceAt(series, local) : null;
}

// ---------------------------------------------------------------------------------------------------------
// "This and following": ending a series before an occurrence, and the rules for the rest
// ---------------------------------------------------------------------------------------------------------

interface RuleHistory {
	/** Occurrences of the rule (start included) strictly before the split point. */
	kept: number;
	/** Wall-clock ms of the last of them. */
	lastLocal: number;
	/** Whether the rule itself generates the split point. */
	generatesAt: boolean;
}

function ruleHistory(r: PreparedRule, atLocal: number): RuleHistory {
	let kept = 0;
	let lastLocal = Number.NaN;
	let generatesAt = false;
	forEachOccurrenceDay(r, r.startDay, floor(atLocal / DAY_MS), (day) => {
		const local = day * DAY_MS + r.tod;
		if (local >= atLocal) {
			generatesAt = local === atLocal;
			return false;
		}
		kept++;
		lastLocal = local;
		return true;
	});
	return { kept, lastLocal, generatesAt };
}

/**
 * Rules for the part of a series before the occurrence `before` (a recurrence id): they generate exactly the
 * occurrences the original rules generate strictly before it. A rule with `count` gets the count of its
 * occurrences kept (the start included); any other rule gets `until` = its own last occurrence before the
 * split. Returns null when `before` is not after the start (nothing of the series remains before it).
 */
export function truncateSeries(input: { start: string; rules: readonly RecurrenceRule[]; before: string }): RecurrenceRule[] | null {
	const startLocal = parseLocalDateTime(input.start);
	if (startLocal === null) throw new RangeError(`Invalid start (expected YYYY-MM-DDTHH:mm:ss): ${input.start}`);
	const beforeLocal = parseLocalDateTime(input.before);
	if (beforeLocal === null) throw new RangeError(`Invalid recurrence id: ${input.before}`);
	if (beforeLocal <= startLocal) return null;
	return input.rules.map((rule) => {
		const h = ruleHistory(prepareRule(rule, startLocal), beforeLocal);
		if (rule.count !== undefined) return { ...rule, count: h.kept };
		return { ...rule, until: formatLocalDateTime(h.lastLocal) };
	});
}

export interface SeriesSplit {
	/** The original series, ended before `at`; null when `at` is its start (nothing remains before it). */
	before: { rules: RecurrenceRule[]; excluded: string[] } | null;
	/** The new series starting at `at`: its rules and exclusions. */
	after: { start: string; rules: RecurrenceRule[]; excluded: string[] };
}

/**
 * Splits a series at the occurrence `at` ("this and following"). `before` ends the original series just
 * before `at` (see truncateSeries). `after` is the rest as a new series whose start is `at`: rules without
 * `count` are kept as they are (a rule whose `until` falls before `at` is dropped); a rule with `count` keeps
 * the occurrences it had left (the new start counts as its first occurrence, so the count is adjusted when
 * the rule itself does not generate `at`; a rule with nothing left is dropped). Exclusions are divided
 * between the two parts.
 *
 * Parts a rule leaves open (the weekday of a weekly rule, the day of a monthly or yearly one) follow the new
 * start, as for any event; and the new series' periods are counted from the new start, so a rule with
 * `interval` > 1 keeps its rhythm when `at` is one of its own occurrences. Throws RangeError when `at` is not
 * an occurrence of the series.
 */
export function splitSeries(input: {
	start: string;
	rules: readonly RecurrenceRule[];
	excluded?: readonly string[];
	at: string;
}): SeriesSplit {
	const startLocal = parseLocalDateTime(input.start);
	if (startLocal === null) throw new RangeError(`Invalid start (expected YYYY-MM-DDTHH:mm:ss): ${input.start}`);
	const atLocal = parseLocalDateTime(input.at);
	if (atLocal === null) throw new RangeError(`Invalid recurrence id: ${input.at}`);
	const excluded = [...new Set((input.excluded ?? []).filter(isLocalDateTime))];
	const isExcluded = excluded.includes(formatLocalDateTime(atLocal));
	const prepared = input.rules.map((rule) => prepareRule(rule, startLocal));
	const histories = prepared.map((r) => ruleHistory(r, atLocal));
	const occurs = atLocal === startLocal || histories.some((h) => h.generatesAt);
	if (!occurs || isExcluded) throw new RangeError(`${input.at} is not an occurrence of the series`);
	const after: RecurrenceRule[] = [];
	input.rules.forEach((rule, i) => {
		const h = histories[i];
		if (rule.count !== undefined) {
			const left = rule.count - h.kept;
			if (left > 0) after.push({ ...rule, count: h.generatesAt ? left : left + 1 });
		} else if (rule.until === undefined || parseLocalDateTime(rule.until)! >= atLocal) {
			after.push({ ...rule });
		}
	});
	const atText = formatLocalDateTime(atLocal);
	return {
		before:
			atLocal <= startLocal
				? null
				: {
						rules: truncateSeries({ start: input.start, rules: input.rules, before: input.at })!,
						excluded: excluded.filter((id) => id < atText),
					},
		after: { start: atText, rules: after, excluded: excluded.filter((id) => id > atText) },
	};
}
