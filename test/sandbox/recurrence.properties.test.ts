/**
 * Property tests of the recurrence expander: they compare it with a separate, deliberately naive model
 * (day-by-day filtering with luxon) defined in this file.
 * The helpers the recurrence test files share are in `support/recurrence.ts`.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';

import {
	expandOccurrences,
	overlapsWindow,
	splitSeries,
	truncateSeries,
	validateRecurrenceRule,
	WEEKDAYS,
	type Frequency,
	type RecurrenceRule,
	type Weekday,
} from './recurrence';
import { BERLIN, ids, nd } from './support/recurrence';

// ---------------------------------------------------------------------------------------------------------
// Property tests against a naive model
// ---------------------------------------------------------------------------------------------------------

const LUXON_WEEKDAY: Record<Weekday, number> = { mo: 1, tu: 2, we: 3, th: 4, fr: 5, sa: 6, su: 7 };

/**
 * The naive model: walks every day from the beginning of the start's period to `lastDay`, keeps the days of
 * active periods that satisfy every BYxxx part as a filter, applies bySetPosition per period, then the start,
 * until and count. Returns recurrence ids (the start first).
 */
function modelIds(start: string, rule: RecurrenceRule, lastDay: string): string[] {
	const s = DateTime.fromISO(start, { zone: 'utc' });
	const startDay = s.startOf('day');
	const time = start.slice(10);
	const interval = rule.interval ?? 1;
	const wkst = LUXON_WEEKDAY[rule.firstDayOfWeek ?? 'mo'];
	const weekStart = (d: DateTime) => d.minus({ days: (d.weekday - wkst + 7) % 7 });
	let { byDay, byMonthDay, byMonth } = rule;
	const f = rule.frequency;
	if (f === 'weekly' && !byDay) byDay = [nd(WEEKDAYS[s.weekday - 1])];
	if (f === 'monthly' && !byDay && !byMonthDay) byMonthDay = [s.day];
	if (f === 'yearly' && !byDay && !byMonthDay) {
		byMonthDay = [s.day];
		byMonth ??= [String(s.month)];
	}
	const period = (d: DateTime): number => {
		if (f === 'daily') return Math.round(d.diff(startDay, 'days').days);
		if (f === 'weekly') return Math.round(weekStart(d).diff(weekStart(startDay), 'days').days / 7);
		if (f === 'monthly') return (d.year - s.year) * 12 + d.month - s.month;
		return d.year - s.year;
	};
	const inMonth = f === 'monthly' || (f === 'yearly' && byMonth !== undefined);
	const nthMatches = (nth: number | undefined, d: DateTime): boolean => {
		if (nth === undefined) return true;
		const [pos, len] = inMonth ? [d.day, d.daysInMonth!] : [d.ordinal, d.daysInYear];
		return nth === Math.ceil(pos / 7) || nth === -(Math.floor((len - pos) / 7) + 1);
	};
	const matches = (d: DateTime): boolean =>
		(!byMonth || byMonth.includes(String(d.month))) &&
		(!byMonthDay || byMonthDay.some((md) => md === d.day || md === d.day - d.daysInMonth! - 1)) &&
		(!byDay || byDay.some((n) => LUXON_WEEKDAY[n.day] === d.weekday && nthMatches(n.nthOfPeriod, d)));
	const first =
		f === 'daily' ? startDay : f === 'weekly' ? weekStart(startDay) : startDay.startOf(f === 'monthly' ? 'month' : 'year');
	const groups = new Map<number, DateTime[]>();
	// Walk to the end of lastDay's period so that bySetPosition sees whole periods; cut at lastDay afterwards.
	const last = DateTime.fromISO(lastDay, { zone: 'utc' });
	const end =
		f === 'daily' ? last : f === 'weekly' ? weekStart(last).plus({ days: 6 }) : last.endOf(f === 'monthly' ? 'month' : 'year').startOf('day');
	for (let d = first; d <= end; d = d.plus({ days: 1 })) {
		const p = period(d);
		if (p % interval !== 0 || !matches(d)) continue;
		if (!groups.has(p)) groups.set(p, []);
		groups.get(p)!.push(d);
	}
	const out = [start];
	const cut = () => out.filter((id) => id.slice(0, 10) <= lastDay);
	for (const days of groups.values()) {
		const picked = rule.bySetPosition
			? [...new Set(rule.bySetPosition.map((pos) => days[pos > 0 ? pos - 1 : days.length + pos]).filter((d) => d !== undefined))].sort(
					(a, b) => a.toMillis() - b.toMillis(),
				)
			: days;
		for (const d of picked) {
			if (d <= startDay) continue;
			const id = `${d.toISODate()}${time}`;
			if (rule.until !== undefined && id > rule.until) return cut();
			if (rule.count !== undefined && out.length >= rule.count) return cut();
			out.push(id);
		}
	}
	return cut();
}

const startArb = fc
	.record({ day: fc.integer({ min: 0, max: 4017 }), time: fc.constantFrom('00:00:00', '00:30:00', '01:30:00', '02:15:00', '02:30:00', '09:00:00', '23:59:59') })
	.map(({ day, time }) => `${DateTime.utc(2020, 1, 1).plus({ days: day }).toISODate()}T${time}`);

const nonZeroInt = (max: number) => fc.integer({ min: -max, max }).filter((n) => n !== 0);

function ruleArb(start: string): fc.Arbitrary<RecurrenceRule> {
	return fc
		.record({
			frequency: fc.constantFrom<Frequency>('daily', 'weekly', 'monthly', 'yearly'),
			interval: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
			firstDayOfWeek: fc.option(fc.constantFrom(...WEEKDAYS), { nil: undefined }),
			byMonth: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 12 }).map(String), { minLength: 1, maxLength: 4 }), { nil: undefined, freq: 3 }),
			byMonthDay: fc.option(fc.uniqueArray(fc.oneof(fc.integer({ min: 1, max: 31 }), fc.integer({ min: -31, max: -1 })), { minLength: 1, maxLength: 4 }), { nil: undefined, freq: 3 }),
			days: fc.option(fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 3 }), { nil: undefined, freq: 2 }),
			nths: fc.array(fc.option(fc.oneof(nonZeroInt(5), nonZeroInt(53)), { nil: undefined }), { minLength: 3, maxLength: 3 }),
			bySetPosition: fc.option(fc.uniqueArray(nonZeroInt(4), { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 5 }),
			end: fc.oneof(
				fc.record({ count: fc.integer({ min: 1, max: 40 }) }),
				fc.record({ untilDays: fc.integer({ min: -3, max: 800 }), untilTime: fc.constantFrom('00:00:00', '09:00:00', '23:59:59') }),
				fc.constant({}),
			),
		})
		.map((g) => {
			const rule: RecurrenceRule = { '@type': 'RecurrenceRule', frequency: g.frequency };
			if (g.interval !== undefined) rule.interval = g.interval;
			if (g.firstDayOfWeek !== undefined) rule.firstDayOfWeek = g.firstDayOfWeek;
			if (g.byMonth !== undefined) rule.byMonth = g.byMonth;
			if (g.byMonthDay !== undefined && g.frequency !== 'weekly') rule.byMonthDay = g.byMonthDay;
			const nthAllowed = g.frequency === 'monthly' || g.frequency === 'yearly';
			const nthMax = g.frequency === 'monthly' || rule.byMonth ? 5 : 53;
			if (g.days !== undefined) {
				rule.byDay = g.days.map((day, i) => {
					const nth = g.nths[i];
					return nthAllowed && nth !== undefined && Math.abs(nth) <= nthMax ? nd(day, nth) : nd(day);
				});
			}
			if (g.bySetPosition !== undefined) rule.bySetPosition = g.bySetPosition;
			if ('count' in g.end) rule.count = g.end.count;
			if ('untilDays' in g.end) {
				rule.until = `${DateTime.fromISO(start, { zone: 'utc' }).plus({ days: g.end.untilDays }).toISODate()}T${g.end.untilTime}`;
			}
			return rule;
		});
}

/** Days of model coverage after the start, per frequency (enough for several periods). */
const SPAN_DAYS: Record<Frequency, number> = { daily: 400, weekly: 500, monthly: 900, yearly: 2200 };

const seriesArb = startArb.chain((start) => ruleArb(start).map((rule) => ({ start, rule })));

function plusDays(localDateTime: string, days: number): string {
	return DateTime.fromISO(localDateTime, { zone: 'utc' }).plus({ days }).toISODate()!;
}

const utcMs = (localDateTime: string) => Date.parse(`${localDateTime}Z`);

describe('properties', () => {
	test('every generated rule is valid', () => {
		fc.assert(fc.property(seriesArb, ({ rule }) => validateRecurrenceRule(rule).length === 0), { numRuns: 300 });
	});

	test('floating time: the occurrences in a random window are exactly those of the naive model', () => {
		fc.assert(
			fc.property(
				seriesArb,
				fc.integer({ min: -5, max: 2000 }),
				fc.integer({ min: 1, max: 400 }),
				fc.constantFrom('PT0S', 'PT1H', 'PT90M', 'P1D', 'P3DT4H'),
				({ start, rule }, fromOffset, lengthDays, duration) => {
					const span = SPAN_DAYS[rule.frequency];
					const from = Math.min(fromOffset, span - lengthDays - 5);
					const windowStart = utcMs(start) + from * 86_400_000 - 3_600_000;
					const windowEnd = windowStart + lengthDays * 86_400_000;
					const durationMs = { PT0S: 0, PT1H: 3_600_000, PT90M: 5_400_000, P1D: 86_400_000, P3DT4H: 3 * 86_400_000 + 4 * 3_600_000 }[duration]!;
					const expected = modelIds(start, rule, plusDays(start, span)).filter((id) =>
						overlapsWindow(utcMs(id), utcMs(id) + durationMs, windowStart, windowEnd),
					);
					const got = expandOccurrences({
						start,
						timeZone: null,
						duration,
						rules: [rule],
						windowStart: new Date(windowStart),
						windowEnd: new Date(windowEnd),
					});
					expect(got.map((o) => o.recurrenceId)).toEqual(expected);
					for (const o of got) {
						expect(o.start).toBe(o.recurrenceId);
						expect(o.startUtc.getTime()).toBe(utcMs(o.recurrenceId));
						expect(o.endUtc.getTime() - o.startUtc.getTime()).toBe(durationMs);
					}
				},
			),
			{ numRuns: 60 },
		);
	});

	test('time zones: same recurrence ids as the model; instants keep the wall clock, or move past a gap', () => {
		const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Havana', 'Asia/Kolkata', 'Pacific/Chatham'];
		fc.assert(
			fc.property(seriesArb, fc.constantFrom(...zones), ({ start, rule }, zone) => {
				const span = Math.min(SPAN_DAYS[rule.frequency], 700);
				const lastDay = plusDays(start, span);
				const windowEnd = new Date(`${plusDays(start, span - 1)}T00:00:00Z`);
				const expected = modelIds(start, rule, lastDay).filter((id) => id.slice(0, 10) <= plusDays(start, span - 3));
				const got = expandOccurrences({
					start,
					timeZone: zone,
					duration: 'PT1H',
					rules: [rule],
					windowStart: new Date(utcMs(start) - 2 * 86_400_000),
					windowEnd,
				});
				expect(got.map((o) => o.recurrenceId).filter((id) => id.slice(0, 10) <= plusDays(start, span - 3))).toEqual(expected);
				for (const o of got) {
					const local = DateTime.fromMillis(o.startUtc.getTime(), { zone });
					expect(local.toFormat("yyyy-MM-dd'T'HH:mm:ss")).toBe(o.start);
					expect(o.endUtc.getTime() - o.startUtc.getTime()).toBe(3_600_000);
					if (o.start === o.recurrenceId) {
						// Not in a gap: no earlier instant shows the same wall clock (the first of an ambiguous pair).
						for (const back of [30, 60, 120]) {
							const earlier = DateTime.fromMillis(o.startUtc.getTime() - back * 60_000, { zone });
							expect(earlier.toFormat("yyyy-MM-dd'T'HH:mm:ss")).not.toBe(o.recurrenceId);
						}
					} else {
						// In a gap: the wall time does not exist, and the start is later by the gap, on the same day.
						expect(o.start > o.recurrenceId).toBe(true);
						const asked = DateTime.fromISO(o.recurrenceId, { zone });
						expect(asked.toFormat("yyyy-MM-dd'T'HH:mm:ss")).not.toBe(o.recurrenceId);
					}
				}
			}),
			{ numRuns: 50 },
		);
	});

	test('invariants: sorted, unique, in the window, within count and until, constraints satisfied', () => {
		// How many occurrences each kind of constraint was checked on: every kind must have been.
		const checked = { until: 0, byMonth: 0, byMonthDay: 0, byDay: 0, count: 0 };
		fc.assert(
			fc.property(seriesArb, fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 200 }), ({ start, rule }, fromOffset, lengthDays) => {
				const windowStart = utcMs(start) + (fromOffset - 2) * 86_400_000;
				const windowEnd = windowStart + lengthDays * 86_400_000;
				const got = expandOccurrences({ start, timeZone: BERLIN, duration: 'PT45M', rules: [rule], windowStart: new Date(windowStart), windowEnd: new Date(windowEnd) });
				const startMs = got.map((o) => o.startUtc.getTime());
				expect([...startMs].sort((a, b) => a - b)).toEqual(startMs);
				expect(new Set(got.map((o) => o.recurrenceId)).size).toBe(got.length);
				for (const o of got) {
					expect(overlapsWindow(o.startUtc.getTime(), o.endUtc.getTime(), windowStart, windowEnd)).toBe(true);
					if (o.recurrenceId === start) continue;
					expect(o.recurrenceId > start).toBe(true);
					expect(o.recurrenceId.slice(10)).toBe(start.slice(10));
					const d = DateTime.fromISO(o.recurrenceId, { zone: 'utc' });
					// Each constraint the rule has holds; one it does not have allows every value.
					expect(o.recurrenceId <= (rule.until ?? o.recurrenceId)).toBe(true);
					expect(rule.byMonth ?? [String(d.month)]).toContain(String(d.month));
					expect((rule.byMonthDay ?? [d.day]).some((md) => md === d.day || md === d.day - d.daysInMonth! - 1)).toBe(true);
					expect(rule.byDay?.map((n) => LUXON_WEEKDAY[n.day]) ?? [d.weekday]).toContain(d.weekday);
					for (const key of ['until', 'byMonth', 'byMonthDay', 'byDay'] as const) if (rule[key] !== undefined) checked[key]++;
				}
				const all = expandOccurrences({ start, timeZone: BERLIN, duration: 'PT45M', rules: [rule], windowStart: new Date(utcMs(start) - 86_400_000 * 2), windowEnd: new Date(windowEnd) });
				expect(all.length).toBeLessThanOrEqual(rule.count ?? all.length);
				if (rule.count !== undefined) checked.count += all.length;
			}),
			// Random windows often lie past a rule's until: one series with until inside its window always runs.
			{ numRuns: 250, examples: [[{ start: '2026-03-01T09:00:00', rule: { '@type': 'RecurrenceRule', frequency: 'daily', until: '2026-03-20T09:00:00' } }, 2, 30]] },
		);
		expect(Object.entries(checked).filter(([, occurrences]) => occurrences === 0)).toEqual([]);
	});

	test('splitting at any occurrence: the two parts are the original series', () => {
		let splitsInside = 0;
		fc.assert(
			fc.property(seriesArb, fc.nat(), ({ start, rule }, pick) => {
				const span = SPAN_DAYS[rule.frequency];
				const lastDay = plusDays(start, span);
				const all = modelIds(start, rule, lastDay).filter((id) => id.slice(0, 10) <= plusDays(start, span - 3));
				const at = all[pick % all.length];
				const split = splitSeries({ start, rules: [rule], at });
				const w = { timeZone: null, from: new Date(utcMs(start) - 86_400_000).toISOString(), to: `${plusDays(start, span - 2)}T00:00:00Z` };
				const before = split.before ? ids(start, split.before.rules, w) : [];
				const after = ids(split.after.start, split.after.rules, w);
				const cut = (list: string[]) => list.filter((id) => id.slice(0, 10) <= plusDays(start, span - 3));
				expect(before).toEqual(all.filter((id) => id < at));
				expect(cut(after)).toEqual(all.filter((id) => id >= at));
				// Split at the first occurrence, nothing comes before; anywhere else, the truncated series does.
				expect(split.before?.rules).toEqual(at === start ? undefined : truncateSeries({ start, rules: [rule], before: at }));
				splitsInside += at === start ? 0 : 1;
			}),
			{ numRuns: 60 },
		);
		expect(splitsInside).toBeGreaterThan(0);
	});
});
