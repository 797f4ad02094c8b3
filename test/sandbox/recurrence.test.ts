/**
 * Tests of the recurrence expander. Expected dates are written out by hand from calendar facts stated next to
 * them, or taken from the examples of RFC 5545 section 3.8.5.3 (translated to JSCalendar rules; an RFC UNTIL
 * in UTC becomes the same instant as a LocalDateTime in America/New_York). The property tests compare with a
 * separate, deliberately naive model (day-by-day filtering with luxon) defined in this file.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';

import {
	expandOccurrences,
	findOccurrence,
	overlapsWindow,
	recurrenceRuleSchema,
	splitSeries,
	truncateSeries,
	validateRecurrenceRule,
	validateRecurrenceRules,
	WEEKDAYS,
	type Frequency,
	type NDay,
	type Occurrence,
	type RecurrenceRule,
	type Weekday,
} from './recurrence';

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';

function nd(day: Weekday, nthOfPeriod?: number): NDay {
	return nthOfPeriod === undefined ? { '@type': 'NDay', day } : { '@type': 'NDay', day, nthOfPeriod };
}

function rr(frequency: Frequency, parts: Omit<Partial<RecurrenceRule>, '@type' | 'frequency'> = {}): RecurrenceRule {
	return { '@type': 'RecurrenceRule', frequency, ...parts };
}

interface Opts {
	timeZone?: string | null;
	duration?: string;
	from?: string;
	to?: string;
	excluded?: string[];
	added?: string[];
	limit?: number;
}

function expand(start: string, rules: RecurrenceRule[], o: Opts = {}): Occurrence[] {
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

function ids(start: string, rules: RecurrenceRule[], o: Opts = {}): string[] {
	return expand(start, rules, o).map((x) => x.recurrenceId);
}

/** Dates at 09:00 local time. */
function at9(...days: string[]): string[] {
	return days.map((d) => `${d}T09:00:00`);
}

/** Every day from `first` to `last` inclusive (luxon, not the module under test). */
function dayRange(first: string, last: string, step = 1): string[] {
	const out: string[] = [];
	const end = DateTime.fromISO(last, { zone: 'utc' });
	for (let d = DateTime.fromISO(first, { zone: 'utc' }); d <= end; d = d.plus({ days: step })) out.push(d.toISODate()!);
	return out;
}

function brief(o: Occurrence): [string, string, string, string] {
	return [o.recurrenceId, o.start, o.startUtc.toISOString(), o.endUtc.toISOString()];
}

// ---------------------------------------------------------------------------------------------------------
// RFC 5545 section 3.8.5.3 examples (DTSTART;TZID=America/New_York, 09:00 local)
// ---------------------------------------------------------------------------------------------------------

describe('RFC 5545 examples', () => {
	test('daily for 10 occurrences', () => {
		expect(ids('1997-09-02T09:00:00', [rr('daily', { count: 10 })])).toEqual(at9(...dayRange('1997-09-02', '1997-09-11')));
	});

	test('daily until December 24, 1997 (UNTIL 19971224T000000Z = 1997-12-23 19:00 EST)', () => {
		const out = expand('1997-09-02T09:00:00', [rr('daily', { until: '1997-12-23T19:00:00' })]);
		expect(out.map((o) => o.recurrenceId)).toEqual(at9(...dayRange('1997-09-02', '1997-12-23')));
		// 1997-10-26 was the US DST end (last Sunday of October then): 09:00 EDT = 13:00Z, 09:00 EST = 14:00Z.
		const byId = new Map(out.map((o) => [o.recurrenceId, o.startUtc.toISOString()]));
		expect(byId.get('1997-10-25T09:00:00')).toBe('1997-10-25T13:00:00.000Z');
		expect(byId.get('1997-10-26T09:00:00')).toBe('1997-10-26T14:00:00.000Z');
	});

	test('every other day, forever (up to December 3)', () => {
		const got = ids('1997-09-02T09:00:00', [rr('daily', { interval: 2 })], { to: '1997-12-03T20:00:00Z' });
		expect(got).toEqual(
			at9(
				...['02', '04', '06', '08', '10', '12', '14', '16', '18', '20', '22', '24', '26', '28', '30'].map((d) => `1997-09-${d}`),
				...['02', '04', '06', '08', '10', '12', '14', '16', '18', '20', '22', '24', '26', '28', '30'].map((d) => `1997-10-${d}`),
				...['01', '03', '05', '07', '09', '11', '13', '15', '17', '19', '21', '23', '25', '27', '29'].map((d) => `1997-11-${d}`),
				'1997-12-01',
				'1997-12-03',
			),
		);
	});

	test('every 10 days, 5 occurrences', () => {
		expect(ids('1997-09-02T09:00:00', [rr('daily', { interval: 10, count: 5 })])).toEqual(
			at9('1997-09-02', '1997-09-12', '1997-09-22', '1997-10-02', '1997-10-12'),
		);
	});

	test('every day in January, for 3 years (yearly with byMonth and all weekdays, or daily with byMonth)', () => {
		const expected = at9(
			...dayRange('1998-01-01', '1998-01-31'),
			...dayRange('1999-01-01', '1999-01-31'),
			...dayRange('2000-01-01', '2000-01-31'),
		);
		const until = '2000-01-31T09:00:00'; // UNTIL=20000131T140000Z
		const yearly = rr('yearly', { until, byMonth: ['1'], byDay: WEEKDAYS.map((d) => nd(d)) });
		expect(ids('1998-01-01T09:00:00', [yearly])).toEqual(expected);
		expect(ids('1998-01-01T09:00:00', [rr('daily', { until, byMonth: ['1'] })])).toEqual(expected);
	});

	test('weekly for 10 occurrences', () => {
		expect(ids('1997-09-02T09:00:00', [rr('weekly', { count: 10 })])).toEqual(
			at9(
				'1997-09-02', '1997-09-09', '1997-09-16', '1997-09-23', '1997-09-30',
				'1997-10-07', '1997-10-14', '1997-10-21', '1997-10-28', '1997-11-04',
			),
		);
	});

	test('weekly until December 24, 1997', () => {
		expect(ids('1997-09-02T09:00:00', [rr('weekly', { until: '1997-12-23T19:00:00' })])).toEqual(
			at9(
				'1997-09-02', '1997-09-09', '1997-09-16', '1997-09-23', '1997-09-30',
				'1997-10-07', '1997-10-14', '1997-10-21', '1997-10-28',
				'1997-11-04', '1997-11-11', '1997-11-18', '1997-11-25',
				'1997-12-02', '1997-12-09', '1997-12-16', '1997-12-23',
			),
		);
	});

	test('every other week, forever (WKST=SU)', () => {
		const got = ids('1997-09-02T09:00:00', [rr('weekly', { interval: 2, firstDayOfWeek: 'su' })], { to: '1998-02-18T00:00:00Z' });
		expect(got).toEqual(
			at9(
				'1997-09-02', '1997-09-16', '1997-09-30', '1997-10-14', '1997-10-28', '1997-11-11', '1997-11-25',
				'1997-12-09', '1997-12-23', '1998-01-06', '1998-01-20', '1998-02-03', '1998-02-17',
			),
		);
	});

	test('weekly on Tuesday and Thursday for five weeks (until, or count 10)', () => {
		const expected = at9(
			'1997-09-02', '1997-09-04', '1997-09-09', '1997-09-11', '1997-09-16',
			'1997-09-18', '1997-09-23', '1997-09-25', '1997-09-30', '1997-10-02',
		);
		const byDay = [nd('tu'), nd('th')];
		// UNTIL=19971007T000000Z = 1997-10-06 20:00 EDT
		expect(ids('1997-09-02T09:00:00', [rr('weekly', { until: '1997-10-06T20:00:00', firstDayOfWeek: 'su', byDay })])).toEqual(expected);
		expect(ids('1997-09-02T09:00:00', [rr('weekly', { count: 10, firstDayOfWeek: 'su', byDay })])).toEqual(expected);
	});

	test('every other week on Monday, Wednesday and Friday until December 24, 1997, starting Monday September 1', () => {
		const rule = rr('weekly', { interval: 2, until: '1997-12-23T19:00:00', firstDayOfWeek: 'su', byDay: [nd('mo'), nd('we'), nd('fr')] });
		expect(ids('1997-09-01T09:00:00', [rule])).toEqual(
			at9(
				'1997-09-01', '1997-09-03', '1997-09-05', '1997-09-15', '1997-09-17', '1997-09-19', '1997-09-29',
				'1997-10-01', '1997-10-03', '1997-10-13', '1997-10-15', '1997-10-17', '1997-10-27', '1997-10-29', '1997-10-31',
				'1997-11-10', '1997-11-12', '1997-11-14', '1997-11-24', '1997-11-26', '1997-11-28',
				'1997-12-08', '1997-12-10', '1997-12-12', '1997-12-22',
			),
		);
	});

	test('every other week on Tuesday and Thursday, for 8 occurrences', () => {
		const rule = rr('weekly', { interval: 2, count: 8, firstDayOfWeek: 'su', byDay: [nd('tu'), nd('th')] });
		expect(ids('1997-09-02T09:00:00', [rule])).toEqual(
			at9('1997-09-02', '1997-09-04', '1997-09-16', '1997-09-18', '1997-09-30', '1997-10-02', '1997-10-14', '1997-10-16'),
		);
	});

	test('monthly on the first Friday for 10 occurrences', () => {
		const out = expand('1997-09-05T09:00:00', [rr('monthly', { count: 10, byDay: [nd('fr', 1)] })]);
		expect(out.map((o) => o.recurrenceId)).toEqual(
			at9(
				'1997-09-05', '1997-10-03', '1997-11-07', '1997-12-05', '1998-01-02',
				'1998-02-06', '1998-03-06', '1998-04-03', '1998-05-01', '1998-06-05',
			),
		);
		// 1998-04-05 was the US DST start (first Sunday of April then): April 3 is EST, May 1 EDT.
		expect(out[7].startUtc.toISOString()).toBe('1998-04-03T14:00:00.000Z');
		expect(out[8].startUtc.toISOString()).toBe('1998-05-01T13:00:00.000Z');
	});

	test('monthly on the first Friday until December 24, 1997', () => {
		expect(ids('1997-09-05T09:00:00', [rr('monthly', { until: '1997-12-23T19:00:00', byDay: [nd('fr', 1)] })])).toEqual(
			at9('1997-09-05', '1997-10-03', '1997-11-07', '1997-12-05'),
		);
	});

	test('every other month on the first and last Sunday of the month for 10 occurrences', () => {
		const rule = rr('monthly', { interval: 2, count: 10, byDay: [nd('su', 1), nd('su', -1)] });
		expect(ids('1997-09-07T09:00:00', [rule])).toEqual(
			at9(
				'1997-09-07', '1997-09-28', '1997-11-02', '1997-11-30', '1998-01-04',
				'1998-01-25', '1998-03-01', '1998-03-29', '1998-05-03', '1998-05-31',
			),
		);
	});

	test('monthly on the second-to-last Monday of the month for 6 months', () => {
		expect(ids('1997-09-22T09:00:00', [rr('monthly', { count: 6, byDay: [nd('mo', -2)] })])).toEqual(
			at9('1997-09-22', '1997-10-20', '1997-11-17', '1997-12-22', '1998-01-19', '1998-02-16'),
		);
	});

	test('monthly on the third-to-the-last day of the month, forever', () => {
		expect(ids('1997-09-28T09:00:00', [rr('monthly', { byMonthDay: [-3] })], { to: '1998-02-27T00:00:00Z' })).toEqual(
			at9('1997-09-28', '1997-10-29', '1997-11-28', '1997-12-29', '1998-01-29', '1998-02-26'),
		);
	});

	test('monthly on the 2nd and 15th of the month for 10 occurrences', () => {
		expect(ids('1997-09-02T09:00:00', [rr('monthly', { count: 10, byMonthDay: [2, 15] })])).toEqual(
			at9(
				'1997-09-02', '1997-09-15', '1997-10-02', '1997-10-15', '1997-11-02',
				'1997-11-15', '1997-12-02', '1997-12-15', '1998-01-02', '1998-01-15',
			),
		);
	});

	test('monthly on the first and last day of the month for 10 occurrences', () => {
		expect(ids('1997-09-30T09:00:00', [rr('monthly', { count: 10, byMonthDay: [1, -1] })])).toEqual(
			at9(
				'1997-09-30', '1997-10-01', '1997-10-31', '1997-11-01', '1997-11-30',
				'1997-12-01', '1997-12-31', '1998-01-01', '1998-01-31', '1998-02-01',
			),
		);
	});

	test('every 18 months on the 10th thru 15th of the month for 10 occurrences', () => {
		const rule = rr('monthly', { interval: 18, count: 10, byMonthDay: [10, 11, 12, 13, 14, 15] });
		expect(ids('1997-09-10T09:00:00', [rule])).toEqual(
			at9(
				'1997-09-10', '1997-09-11', '1997-09-12', '1997-09-13', '1997-09-14',
				'1997-09-15', '1999-03-10', '1999-03-11', '1999-03-12', '1999-03-13',
			),
		);
	});

	test('every Tuesday, every other month', () => {
		expect(ids('1997-09-02T09:00:00', [rr('monthly', { interval: 2, byDay: [nd('tu')] })], { to: '1998-04-01T00:00:00Z' })).toEqual(
			at9(
				'1997-09-02', '1997-09-09', '1997-09-16', '1997-09-23', '1997-09-30',
				'1997-11-04', '1997-11-11', '1997-11-18', '1997-11-25',
				'1998-01-06', '1998-01-13', '1998-01-20', '1998-01-27',
				'1998-03-03', '1998-03-10', '1998-03-17', '1998-03-24', '1998-03-31',
			),
		);
	});

	test('yearly in June and July for 10 occurrences (day of the month from the start)', () => {
		expect(ids('1997-06-10T09:00:00', [rr('yearly', { count: 10, byMonth: ['6', '7'] })])).toEqual(
			at9(
				'1997-06-10', '1997-07-10', '1998-06-10', '1998-07-10', '1999-06-10',
				'1999-07-10', '2000-06-10', '2000-07-10', '2001-06-10', '2001-07-10',
			),
		);
	});

	test('every other year on January, February, and March for 10 occurrences', () => {
		expect(ids('1997-03-10T09:00:00', [rr('yearly', { interval: 2, count: 10, byMonth: ['1', '2', '3'] })])).toEqual(
			at9(
				'1997-03-10', '1999-01-10', '1999-02-10', '1999-03-10', '2001-01-10',
				'2001-02-10', '2001-03-10', '2003-01-10', '2003-02-10', '2003-03-10',
			),
		);
	});

	test('every 20th Monday of the year, forever (nth counted within the year)', () => {
		expect(ids('1997-05-19T09:00:00', [rr('yearly', { byDay: [nd('mo', 20)] })], { to: '1999-05-18T00:00:00Z' })).toEqual(
			at9('1997-05-19', '1998-05-18', '1999-05-17'),
		);
	});

	test('every Thursday in March, forever', () => {
		expect(ids('1997-03-13T09:00:00', [rr('yearly', { byMonth: ['3'], byDay: [nd('th')] })], { to: '1999-03-26T00:00:00Z' })).toEqual(
			at9(
				'1997-03-13', '1997-03-20', '1997-03-27',
				'1998-03-05', '1998-03-12', '1998-03-19', '1998-03-26',
				'1999-03-04', '1999-03-11', '1999-03-18', '1999-03-25',
			),
		);
	});

	test('every Thursday, but only during June, July, and August, forever', () => {
		const rule = rr('yearly', { byDay: [nd('th')], byMonth: ['6', '7', '8'] });
		expect(ids('1997-06-05T09:00:00', [rule], { to: '2000-01-01T00:00:00Z' })).toEqual(
			at9(
				'1997-06-05', '1997-06-12', '1997-06-19', '1997-06-26', '1997-07-03', '1997-07-10', '1997-07-17',
				'1997-07-24', '1997-07-31', '1997-08-07', '1997-08-14', '1997-08-21', '1997-08-28',
				'1998-06-04', '1998-06-11', '1998-06-18', '1998-06-25', '1998-07-02', '1998-07-09', '1998-07-16',
				'1998-07-23', '1998-07-30', '1998-08-06', '1998-08-13', '1998-08-20', '1998-08-27',
				'1999-06-03', '1999-06-10', '1999-06-17', '1999-06-24', '1999-07-01', '1999-07-08', '1999-07-15',
				'1999-07-22', '1999-07-29', '1999-08-05', '1999-08-12', '1999-08-19', '1999-08-26',
			),
		);
	});

	test('every Friday the 13th, forever (EXDATE removes the non-matching start)', () => {
		const rule = rr('monthly', { byDay: [nd('fr')], byMonthDay: [13] });
		const got = ids('1997-09-02T09:00:00', [rule], { excluded: ['1997-09-02T09:00:00'], to: '2000-10-14T00:00:00Z' });
		expect(got).toEqual(at9('1998-02-13', '1998-03-13', '1998-11-13', '1999-08-13', '2000-10-13'));
	});

	test('the first Saturday that follows the first Sunday of the month, forever', () => {
		const rule = rr('monthly', { byDay: [nd('sa')], byMonthDay: [7, 8, 9, 10, 11, 12, 13] });
		expect(ids('1997-09-13T09:00:00', [rule], { to: '1998-06-14T00:00:00Z' })).toEqual(
			at9(
				'1997-09-13', '1997-10-11', '1997-11-08', '1997-12-13', '1998-01-10',
				'1998-02-07', '1998-03-07', '1998-04-11', '1998-05-09', '1998-06-13',
			),
		);
	});

	test('every 4 years, the first Tuesday after a Monday in November (U.S. Presidential Election day)', () => {
		const rule = rr('yearly', { interval: 4, byMonth: ['11'], byDay: [nd('tu')], byMonthDay: [2, 3, 4, 5, 6, 7, 8] });
		expect(ids('1996-11-05T09:00:00', [rule], { to: '2004-11-03T00:00:00Z' })).toEqual(
			at9('1996-11-05', '2000-11-07', '2004-11-02'),
		);
	});

	test('the third instance into the month of one of Tuesday, Wednesday, or Thursday, for the next 3 months', () => {
		const rule = rr('monthly', { count: 3, byDay: [nd('tu'), nd('we'), nd('th')], bySetPosition: [3] });
		expect(ids('1997-09-04T09:00:00', [rule])).toEqual(at9('1997-09-04', '1997-10-07', '1997-11-06'));
	});

	test('the second-to-last weekday of the month', () => {
		const rule = rr('monthly', { byDay: [nd('mo'), nd('tu'), nd('we'), nd('th'), nd('fr')], bySetPosition: [-2] });
		expect(ids('1997-09-29T09:00:00', [rule], { to: '1998-04-01T00:00:00Z' })).toEqual(
			at9('1997-09-29', '1997-10-30', '1997-11-27', '1997-12-30', '1998-01-29', '1998-02-26', '1998-03-30'),
		);
	});

	test('the week start changes which days an every-other-week rule generates', () => {
		const base = { interval: 2, count: 4, byDay: [nd('tu'), nd('su')] };
		expect(ids('1997-08-05T09:00:00', [rr('weekly', { ...base, firstDayOfWeek: 'mo' })])).toEqual(
			at9('1997-08-05', '1997-08-10', '1997-08-19', '1997-08-24'),
		);
		expect(ids('1997-08-05T09:00:00', [rr('weekly', { ...base, firstDayOfWeek: 'su' })])).toEqual(
			at9('1997-08-05', '1997-08-17', '1997-08-19', '1997-08-31'),
		);
	});

	test('an invalid date (February 30) is ignored', () => {
		expect(ids('2007-01-15T09:00:00', [rr('monthly', { byMonthDay: [15, 30], count: 5 })])).toEqual(
			at9('2007-01-15', '2007-01-30', '2007-02-15', '2007-03-15', '2007-03-30'),
		);
	});
});

// ---------------------------------------------------------------------------------------------------------
// Hand-written cases (2026 calendar: 1 January is a Thursday; month starts: Feb Sun, Mar Sun, Apr Wed,
// May Fri, Jun Mon, Jul Wed, Aug Sat, Sep Tue, Oct Thu, Nov Sun, Dec Tue)
// ---------------------------------------------------------------------------------------------------------

describe('frequencies, intervals and BYxxx parts', () => {
	const o = { timeZone: null, from: '2025-12-01T00:00:00Z', to: '2030-01-01T00:00:00Z' };

	test('daily every third day', () => {
		expect(ids('2026-01-01T09:00:00', [rr('daily', { interval: 3, count: 4 })], o)).toEqual(
			at9('2026-01-01', '2026-01-04', '2026-01-07', '2026-01-10'),
		);
	});

	test('daily limited to weekdays by byDay', () => {
		const weekdays = [nd('mo'), nd('tu'), nd('we'), nd('th'), nd('fr')];
		// 2026-01-03/04 are Saturday and Sunday.
		expect(ids('2026-01-01T09:00:00', [rr('daily', { byDay: weekdays, count: 6 })], o)).toEqual(
			at9('2026-01-01', '2026-01-02', '2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08'),
		);
	});

	test('weekly on several weekdays', () => {
		// 2026-01-05 is a Monday.
		expect(ids('2026-01-05T09:00:00', [rr('weekly', { byDay: [nd('fr'), nd('mo'), nd('we')], count: 6 })], o)).toEqual(
			at9('2026-01-05', '2026-01-07', '2026-01-09', '2026-01-12', '2026-01-14', '2026-01-16'),
		);
	});

	test('weekly limited by byMonth', () => {
		// Thursdays of January 2026: 1, 8, 15, 22, 29; the first Thursday of 2027 is 7 January.
		expect(ids('2026-01-01T09:00:00', [rr('weekly', { byMonth: ['1'], count: 6 })], o)).toEqual(
			at9('2026-01-01', '2026-01-08', '2026-01-15', '2026-01-22', '2026-01-29', '2027-01-07'),
		);
	});

	test('monthly on the 31st skips the months without one (no clamping)', () => {
		expect(ids('2026-01-31T09:00:00', [rr('monthly', { count: 7 })], o)).toEqual(
			at9('2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31', '2026-08-31', '2026-10-31', '2026-12-31'),
		);
		expect(ids('2026-01-31T09:00:00', [rr('monthly', { byMonthDay: [31], count: 3 })], o)).toEqual(
			at9('2026-01-31', '2026-03-31', '2026-05-31'),
		);
	});

	test('negative month days: last day, and -31 which exists only in 31-day months', () => {
		expect(ids('2026-01-31T09:00:00', [rr('monthly', { byMonthDay: [-1], count: 4 })], o)).toEqual(
			at9('2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30'),
		);
		expect(ids('2026-01-01T09:00:00', [rr('monthly', { byMonthDay: [-31], until: '2026-12-31T23:59:59' })], o)).toEqual(
			at9('2026-01-01', '2026-03-01', '2026-05-01', '2026-07-01', '2026-08-01', '2026-10-01', '2026-12-01'),
		);
	});

	test('monthly on the 5th Friday only in months that have one', () => {
		// Fifth Fridays: 2026-01-30, 05-29, 07-31, 10-30; 2027-01-29, 04-30, 07-30, 10-29, 12-31; 2028-03-31.
		const rule = rr('monthly', { byDay: [nd('fr', 5)], count: 10 });
		const all = at9(
			'2026-01-30', '2026-05-29', '2026-07-31', '2026-10-30', '2027-01-29',
			'2027-04-30', '2027-07-30', '2027-10-29', '2027-12-31', '2028-03-31',
		);
		expect(ids('2026-01-30T09:00:00', [rule], o)).toEqual(all);
		// A window after most of the series: the count is still taken from the start.
		expect(ids('2026-01-30T09:00:00', [rule], { ...o, from: '2028-01-01T00:00:00Z' })).toEqual(at9('2028-03-31'));
		expect(ids('2026-01-30T09:00:00', [rule], { ...o, from: '2028-04-01T00:00:00Z' })).toEqual([]);
	});

	test('monthly on the last Friday', () => {
		expect(ids('2026-01-30T09:00:00', [rr('monthly', { byDay: [nd('fr', -1)], count: 4 })], o)).toEqual(
			at9('2026-01-30', '2026-02-27', '2026-03-27', '2026-04-24'),
		);
	});

	test('yearly: last Sunday in October (byMonth, nth within the month)', () => {
		// 2026-10-25, 2027-10-31, 2028-10-29 are the last Sundays of October (EU DST end dates).
		expect(ids('2026-10-25T09:00:00', [rr('yearly', { byMonth: ['10'], byDay: [nd('su', -1)], count: 3 })], o)).toEqual(
			at9('2026-10-25', '2027-10-31', '2028-10-29'),
		);
	});

	test('yearly: first Monday of September and fourth Thursday of November', () => {
		expect(ids('2026-09-07T09:00:00', [rr('yearly', { byMonth: ['9'], byDay: [nd('mo', 1)], count: 3 })], o)).toEqual(
			at9('2026-09-07', '2027-09-06', '2028-09-04'),
		);
		expect(ids('2026-11-26T09:00:00', [rr('yearly', { byMonth: ['11'], byDay: [nd('th', 4)], count: 3 })], o)).toEqual(
			at9('2026-11-26', '2027-11-25', '2028-11-23'),
		);
	});

	test('yearly without byMonth: nth counted within the year', () => {
		// First Mondays of 2026/2027/2028: 5, 4 and 3 January; last Fridays of 2026/2027: 25 and 31 December.
		expect(ids('2026-01-05T09:00:00', [rr('yearly', { byDay: [nd('mo', 1)], count: 3 })], o)).toEqual(
			at9('2026-01-05', '2027-01-04', '2028-01-03'),
		);
		expect(ids('2026-12-25T09:00:00', [rr('yearly', { byDay: [nd('fr', -1)], count: 2 })], o)).toEqual(
			at9('2026-12-25', '2027-12-31'),
		);
	});

	test('yearly with byMonthDay and no byMonth expands over every month', () => {
		expect(ids('2026-01-01T09:00:00', [rr('yearly', { byMonthDay: [1], count: 4 })], o)).toEqual(
			at9('2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'),
		);
	});

	test('29 February yearly: only in leap years (2100 is not one)', () => {
		expect(ids('2024-02-29T09:00:00', [rr('yearly')], { ...o, from: '2024-01-01T00:00:00Z', to: '2034-01-01T00:00:00Z' })).toEqual(
			at9('2024-02-29', '2028-02-29', '2032-02-29'),
		);
		expect(ids('2096-02-29T09:00:00', [rr('yearly', { count: 2 })], { ...o, from: '2096-01-01T00:00:00Z', to: '2110-01-01T00:00:00Z' })).toEqual(
			at9('2096-02-29', '2104-02-29'),
		);
	});
});

describe('start, count, until, exclusions, several rules', () => {
	const o = { timeZone: null, from: '2025-12-01T00:00:00Z', to: '2027-01-01T00:00:00Z' };

	test('a start that does not match the rule is still the first occurrence and is counted', () => {
		// 2026-01-07 is a Wednesday; the rule asks for Thursdays.
		expect(ids('2026-01-07T09:00:00', [rr('weekly', { byDay: [nd('th')], count: 3 })], o)).toEqual(
			at9('2026-01-07', '2026-01-08', '2026-01-15'),
		);
	});

	test('count 1 is the start alone', () => {
		expect(ids('2026-01-07T09:00:00', [rr('daily', { count: 1 })], o)).toEqual(at9('2026-01-07'));
	});

	test('until is inclusive, to the second', () => {
		expect(ids('2026-01-01T09:00:00', [rr('daily', { until: '2026-01-03T09:00:00' })], o)).toEqual(
			at9('2026-01-01', '2026-01-02', '2026-01-03'),
		);
		expect(ids('2026-01-01T09:00:00', [rr('daily', { until: '2026-01-03T08:59:59' })], o)).toEqual(at9('2026-01-01', '2026-01-02'));
	});

	test('until before the start leaves the start alone', () => {
		expect(ids('2026-01-01T09:00:00', [rr('daily', { until: '2025-12-31T00:00:00' })], o)).toEqual(at9('2026-01-01'));
	});

	test('excluded occurrences are removed and not replaced', () => {
		expect(ids('2026-01-01T09:00:00', [rr('daily', { count: 5 })], { ...o, excluded: ['2026-01-03T09:00:00', 'garbage'] })).toEqual(
			at9('2026-01-01', '2026-01-02', '2026-01-04', '2026-01-05'),
		);
	});

	test('added recurrence ids join the series; excluded wins', () => {
		expect(
			ids('2026-01-01T09:00:00', [rr('daily', { count: 2 })], {
				...o,
				added: ['2026-01-10T15:00:00', '2026-01-11T15:00:00'],
				excluded: ['2026-01-11T15:00:00'],
			}),
		).toEqual(['2026-01-01T09:00:00', '2026-01-02T09:00:00', '2026-01-10T15:00:00']);
	});

	test('several rules: union without duplicates, each rule counting from the start', () => {
		// Start Monday 2026-01-05. Rule A: Mondays, 3 times (5, 12, 19). Rule B: Mondays and Wednesdays, 4 times (5, 7, 12, 14).
		const rules = [rr('weekly', { byDay: [nd('mo')], count: 3 }), rr('weekly', { byDay: [nd('mo'), nd('we')], count: 4 })];
		expect(ids('2026-01-05T09:00:00', rules, o)).toEqual(at9('2026-01-05', '2026-01-07', '2026-01-12', '2026-01-14', '2026-01-19'));
	});

	test('no rules: the start alone', () => {
		expect(ids('2026-01-05T09:00:00', [], o)).toEqual(at9('2026-01-05'));
	});

	test('limit keeps the earliest occurrences', () => {
		expect(ids('2026-01-01T09:00:00', [rr('daily')], { ...o, limit: 3 })).toEqual(at9('2026-01-01', '2026-01-02', '2026-01-03'));
	});

	test('a long-running series with count is counted from its start (arithmetic skip)', () => {
		// 2000-01-01 + 9999 days = 2027-05-18: the 10000th daily occurrence.
		const got = ids('2000-01-01T09:00:00', [rr('daily', { count: 10000 })], {
			timeZone: BERLIN,
			from: '2027-05-01T00:00:00Z',
			to: '2027-06-01T00:00:00Z',
		});
		expect(got).toEqual(at9(...dayRange('2027-05-01', '2027-05-18')));
	});

	test('a long-running series with count whose periods vary is counted from its start (checkpoints)', () => {
		// Daily on 29 February: 2024, 2028, 2032, 2036, 2040 are leap years; count 5 ends in 2040.
		const rule = rr('daily', { byMonth: ['2'], byMonthDay: [29], count: 5 });
		expect(ids('2024-02-29T09:00:00', [rule], { timeZone: null, from: '2040-01-01T00:00:00Z', to: '2041-01-01T00:00:00Z' })).toEqual(
			at9('2040-02-29'),
		);
		expect(ids('2024-02-29T09:00:00', [rule], { timeZone: null, from: '2041-01-01T00:00:00Z', to: '2050-01-01T00:00:00Z' })).toEqual([]);
		expect(ids('2024-02-29T09:00:00', [rule], { timeZone: null, from: '2020-01-01T00:00:00Z', to: '2050-01-01T00:00:00Z' })).toEqual(
			at9('2024-02-29', '2028-02-29', '2032-02-29', '2036-02-29', '2040-02-29'),
		);
	});

	test('a series started a century ago skips straight to the window', () => {
		expect(ids('1926-03-15T09:00:00', [rr('yearly')], { timeZone: null, from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' })).toEqual(
			at9('2026-03-15'),
		);
	});
});

describe('time zones and daylight saving time', () => {
	test('Europe/Berlin weekly 09:00 keeps the wall clock across 2026-03-29 and 2026-10-25', () => {
		// CET = UTC+1 until 2026-03-29 01:00Z, CEST = UTC+2 until 2026-10-25 01:00Z.
		const spring = expand('2026-03-16T09:00:00', [rr('weekly')], { timeZone: BERLIN, from: '2026-03-16T00:00:00Z', to: '2026-04-07T00:00:00Z' });
		expect(spring.map(brief)).toEqual([
			['2026-03-16T09:00:00', '2026-03-16T09:00:00', '2026-03-16T08:00:00.000Z', '2026-03-16T09:00:00.000Z'],
			['2026-03-23T09:00:00', '2026-03-23T09:00:00', '2026-03-23T08:00:00.000Z', '2026-03-23T09:00:00.000Z'],
			['2026-03-30T09:00:00', '2026-03-30T09:00:00', '2026-03-30T07:00:00.000Z', '2026-03-30T08:00:00.000Z'],
			['2026-04-06T09:00:00', '2026-04-06T09:00:00', '2026-04-06T07:00:00.000Z', '2026-04-06T08:00:00.000Z'],
		]);
		const autumn = expand('2026-10-19T09:00:00', [rr('weekly', { count: 2 })], { timeZone: BERLIN, from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' });
		expect(autumn.map((x) => x.startUtc.toISOString())).toEqual(['2026-10-19T07:00:00.000Z', '2026-10-26T08:00:00.000Z']);
	});

	test('America/New_York weekly 09:00 across 2026-03-08 and 2026-11-01', () => {
		// EST = UTC-5, EDT = UTC-4.
		const w = { timeZone: NY, from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' };
		expect(expand('2026-03-02T09:00:00', [rr('weekly', { count: 2 })], w).map((x) => x.startUtc.toISOString())).toEqual([
			'2026-03-02T14:00:00.000Z',
			'2026-03-09T13:00:00.000Z',
		]);
		expect(expand('2026-10-26T09:00:00', [rr('weekly', { count: 2 })], w).map((x) => x.startUtc.toISOString())).toEqual([
			'2026-10-26T13:00:00.000Z',
			'2026-11-02T14:00:00.000Z',
		]);
	});

	test('Europe/Berlin 02:30 does not exist on 2026-03-29: it moves to 03:30 CEST; the recurrence id stays 02:30', () => {
		const got = expand('2026-03-28T02:30:00', [rr('daily', { count: 3 })], { timeZone: BERLIN, from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' });
		expect(got.map(brief)).toEqual([
			['2026-03-28T02:30:00', '2026-03-28T02:30:00', '2026-03-28T01:30:00.000Z', '2026-03-28T02:30:00.000Z'],
			['2026-03-29T02:30:00', '2026-03-29T03:30:00', '2026-03-29T01:30:00.000Z', '2026-03-29T02:30:00.000Z'],
			['2026-03-30T02:30:00', '2026-03-30T02:30:00', '2026-03-30T00:30:00.000Z', '2026-03-30T01:30:00.000Z'],
		]);
	});

	test('Europe/Berlin 02:30 happens twice on 2026-10-25: the first (CEST) is used', () => {
		const got = expand('2026-10-24T02:30:00', [rr('daily', { count: 3 })], { timeZone: BERLIN, from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' });
		expect(got.map((x) => x.startUtc.toISOString())).toEqual([
			'2026-10-24T00:30:00.000Z',
			'2026-10-25T00:30:00.000Z',
			'2026-10-26T01:30:00.000Z',
		]);
	});

	test('America/New_York: 02:30 on 2026-03-08 moves to 03:30 EDT; 01:30 on 2026-11-01 is the EDT one', () => {
		const w = { timeZone: NY, from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' };
		expect(expand('2026-03-07T02:30:00', [rr('daily', { count: 3 })], w).map(brief)).toEqual([
			['2026-03-07T02:30:00', '2026-03-07T02:30:00', '2026-03-07T07:30:00.000Z', '2026-03-07T08:30:00.000Z'],
			['2026-03-08T02:30:00', '2026-03-08T03:30:00', '2026-03-08T07:30:00.000Z', '2026-03-08T08:30:00.000Z'],
			['2026-03-09T02:30:00', '2026-03-09T02:30:00', '2026-03-09T06:30:00.000Z', '2026-03-09T07:30:00.000Z'],
		]);
		expect(expand('2026-10-31T01:30:00', [rr('daily', { count: 3 })], w).map((x) => x.startUtc.toISOString())).toEqual([
			'2026-10-31T05:30:00.000Z',
			'2026-11-01T05:30:00.000Z',
			'2026-11-02T06:30:00.000Z',
		]);
	});

	test('America/Havana: the gap is at midnight (00:00 → 01:00 on 2026-03-08)', () => {
		// CST = UTC-5, CDT = UTC-4: 00:30 does not exist and becomes 01:30 CDT = 05:30Z.
		const got = expand('2026-03-08T00:30:00', [rr('daily', { count: 1 })], { timeZone: 'America/Havana', from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' });
		expect(got.map(brief)).toEqual([['2026-03-08T00:30:00', '2026-03-08T01:30:00', '2026-03-08T05:30:00.000Z', '2026-03-08T06:30:00.000Z']]);
	});

	test('Australia/Lord_Howe shifts by 30 minutes (02:00 → 02:30 on 2026-10-04)', () => {
		// +10:30 before, +11:00 after: 02:15 does not exist and becomes 02:45 (+11) = 15:45Z on 3 October.
		const got = expand('2026-10-04T02:15:00', [], { timeZone: 'Australia/Lord_Howe', from: '2026-10-01T00:00:00Z', to: '2026-10-10T00:00:00Z' });
		expect(got.map(brief)).toEqual([['2026-10-04T02:15:00', '2026-10-04T02:45:00', '2026-10-03T15:45:00.000Z', '2026-10-03T16:45:00.000Z']]);
	});

	test('nominal days are wall-clock days, exact hours are absolute (Europe/Berlin)', () => {
		const w = { timeZone: BERLIN, from: '2026-03-01T00:00:00Z', to: '2026-11-01T00:00:00Z' };
		// P1D over the spring change lasts 23 hours, over the autumn change 25 hours.
		expect(expand('2026-03-28T09:00:00', [], { ...w, duration: 'P1D' }).map(brief)).toEqual([
			['2026-03-28T09:00:00', '2026-03-28T09:00:00', '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z'],
		]);
		expect(expand('2026-10-24T09:00:00', [], { ...w, duration: 'P1D' }).map(brief)).toEqual([
			['2026-10-24T09:00:00', '2026-10-24T09:00:00', '2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z'],
		]);
		// PT24H is 24 hours exactly: it ends at 10:00 CEST on the 29th.
		expect(expand('2026-03-28T09:00:00', [], { ...w, duration: 'PT24H' })[0].endUtc.toISOString()).toBe('2026-03-29T08:00:00.000Z');
		// P1DT1H: one wall-clock day, then one hour.
		expect(expand('2026-03-28T09:00:00', [], { ...w, duration: 'P1DT1H' })[0].endUtc.toISOString()).toBe('2026-03-29T08:00:00.000Z');
		// A day from the shifted start (03:30 CEST on the 29th) ends at 03:30 CEST on the 30th.
		expect(expand('2026-03-29T02:30:00', [], { ...w, duration: 'P1D' })[0].endUtc.toISOString()).toBe('2026-03-30T01:30:00.000Z');
	});

	test('all-day events (timeZone null) read wall-clock times as UTC: no daylight saving', () => {
		const got = expand('2026-03-28T00:00:00', [rr('daily', { count: 3 })], { timeZone: null, duration: 'P1D', from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' });
		expect(got.map(brief)).toEqual([
			['2026-03-28T00:00:00', '2026-03-28T00:00:00', '2026-03-28T00:00:00.000Z', '2026-03-29T00:00:00.000Z'],
			['2026-03-29T00:00:00', '2026-03-29T00:00:00', '2026-03-29T00:00:00.000Z', '2026-03-30T00:00:00.000Z'],
			['2026-03-30T00:00:00', '2026-03-30T00:00:00', '2026-03-30T00:00:00.000Z', '2026-03-31T00:00:00.000Z'],
		]);
	});
});

describe('window edges', () => {
	const daily = [rr('daily')];
	const base = { timeZone: null, duration: 'PT1H' };

	test('an occurrence that started before the window and ends inside it is included; one starting at the end is not', () => {
		// Occurrences 09:00-10:00 UTC daily.
		expect(ids('2026-01-01T09:00:00', daily, { ...base, from: '2026-01-02T09:30:00Z', to: '2026-01-04T09:00:00Z' })).toEqual(
			at9('2026-01-02', '2026-01-03'),
		);
	});

	test('an occurrence that ends exactly at the window start is not included; one starting there is', () => {
		expect(ids('2026-01-01T09:00:00', daily, { ...base, from: '2026-01-02T10:00:00Z', to: '2026-01-03T09:00:01Z' })).toEqual(at9('2026-01-03'));
		expect(ids('2026-01-01T09:00:00', daily, { ...base, from: '2026-01-02T09:00:00Z', to: '2026-01-02T09:00:01Z' })).toEqual(at9('2026-01-02'));
	});

	test('a zero-length occurrence overlaps the window only strictly inside it (eventStart < end && eventEnd > start)', () => {
		const z = { ...base, duration: 'PT0S' };
		expect(ids('2026-01-01T09:00:00', daily, { ...z, from: '2026-01-02T09:00:00Z', to: '2026-01-03T09:00:00Z' })).toEqual([]);
		expect(ids('2026-01-01T09:00:00', daily, { ...z, from: '2026-01-02T08:59:59Z', to: '2026-01-03T09:00:00Z' })).toEqual(at9('2026-01-02'));
		expect(overlapsWindow(5, 5, 5, 6)).toBe(false);
		expect(overlapsWindow(5.5, 5.5, 5, 6)).toBe(true);
		expect(overlapsWindow(6, 6, 5, 6)).toBe(false);
		expect(overlapsWindow(4, 5, 5, 6)).toBe(false);
		expect(overlapsWindow(4, 6, 5, 6)).toBe(true);
	});

	test('a multi-day occurrence that began days before the window is included', () => {
		// Weekly from Monday 2026-01-05 lasting 3 days; the window is Wednesday 2026-01-14 only.
		expect(ids('2026-01-05T09:00:00', [rr('weekly')], { ...base, duration: 'P3D', from: '2026-01-14T00:00:00Z', to: '2026-01-15T00:00:00Z' })).toEqual(
			at9('2026-01-12'),
		);
	});

	test('an empty or inverted window gives nothing', () => {
		expect(ids('2026-01-01T09:00:00', daily, { ...base, from: '2026-01-02T00:00:00Z', to: '2026-01-02T00:00:00Z' })).toEqual([]);
		expect(ids('2026-01-01T09:00:00', daily, { ...base, from: '2026-01-03T00:00:00Z', to: '2026-01-02T00:00:00Z' })).toEqual([]);
	});
});

describe('invalid input to the expander', () => {
	const w = { windowStart: new Date('2026-01-01T00:00:00Z'), windowEnd: new Date('2026-02-01T00:00:00Z') };
	test.each([
		['start', { start: '2026-01-01', timeZone: NY, duration: 'PT1H', rules: [] }],
		['start date', { start: '2026-02-30T09:00:00', timeZone: NY, duration: 'PT1H', rules: [] }],
		['zone', { start: '2026-01-01T09:00:00', timeZone: 'Mars/Olympus', duration: 'PT1H', rules: [] }],
		['duration', { start: '2026-01-01T09:00:00', timeZone: NY, duration: '1 hour', rules: [] }],
		['negative duration', { start: '2026-01-01T09:00:00', timeZone: NY, duration: '-PT1H', rules: [] }],
		['rule', { start: '2026-01-01T09:00:00', timeZone: NY, duration: 'PT1H', rules: [{ '@type': 'RecurrenceRule', frequency: 'hourly' }] }],
	])('throws RangeError on an invalid %s', (_name, input) => {
		expect(() => expandOccurrences({ ...(input as unknown as Parameters<typeof expandOccurrences>[0]), ...w })).toThrow(RangeError);
	});
});

// ---------------------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------------------

describe('validateRecurrenceRule', () => {
	test('valid rules give no messages', () => {
		expect(validateRecurrenceRule(rr('weekly', { interval: 2, byDay: [nd('mo'), nd('fr')], count: 5, firstDayOfWeek: 'su' }))).toEqual([]);
		expect(validateRecurrenceRule(rr('monthly', { byDay: [nd('fr', -1)], until: '2027-01-01T00:00:00' }))).toEqual([]);
		expect(validateRecurrenceRule(rr('yearly', { byMonth: ['2'], byMonthDay: [29], rscale: 'gregorian', skip: 'omit' }))).toEqual([]);
		expect(validateRecurrenceRule(rr('yearly', { byDay: [nd('mo', 53)], bySetPosition: [1, -1] }))).toEqual([]);
		expect(validateRecurrenceRule({ ...rr('daily'), 'example.com:note': 'vendor extensions are ignored' })).toEqual([]);
		expect(recurrenceRuleSchema.safeParse(rr('daily')).success).toBe(true);
	});

	test.each<[string, unknown, string[]]>([
		['not an object', 'FREQ=DAILY', ['recurrence rule must be a RecurrenceRule object']],
		['missing @type and frequency', {}, ['@type is required', 'frequency is required']],
		['wrong @type', { '@type': 'Rule', frequency: 'daily' }, ['@type must be "RecurrenceRule"']],
		['unknown frequency', { '@type': 'RecurrenceRule', frequency: 'hourly' }, ['frequency must be one of "daily", "weekly", "monthly", "yearly"']],
		['interval 0', rr('daily', { interval: 0 }), ['interval must be at least 1']],
		['interval not an integer', rr('daily', { interval: 1.5 }), ['interval must be an integer']],
		['interval as text', { ...rr('daily'), interval: '2' }, ['interval must be a number']],
		['bad day name', rr('weekly', { byDay: [{ '@type': 'NDay', day: 'monday' as Weekday }] }), ['byDay[0].day must be one of "mo", "tu", "we", "th", "fr", "sa", "su"']],
		['NDay without @type', rr('weekly', { byDay: [{ day: 'mo' } as NDay] }), ['byDay[0].@type is required']],
		['empty byDay', rr('weekly', { byDay: [] }), ['byDay must not be empty']],
		['nth 0', rr('monthly', { byDay: [nd('mo', 0)] }), ['byDay[0].nthOfPeriod must be between 1 and 53 or between -53 and -1']],
		['nth 6 in a month', rr('monthly', { byDay: [nd('mo', 6)] }), ['byDay[0].nthOfPeriod must be between 1 and 5 or between -5 and -1 within a month']],
		['nth 6 in a yearly rule with byMonth', rr('yearly', { byMonth: ['1'], byDay: [nd('mo', -6)] }), ['byDay[0].nthOfPeriod must be between 1 and 5 or between -5 and -1 within a month']],
		['nth in a weekly rule', rr('weekly', { byDay: [nd('mo', 1)] }), ['byDay[0].nthOfPeriod is only allowed when frequency is monthly or yearly']],
		['nth in a daily rule', rr('daily', { byDay: [nd('mo', -1)] }), ['byDay[0].nthOfPeriod is only allowed when frequency is monthly or yearly']],
		['month day 32', rr('monthly', { byMonthDay: [32] }), ['byMonthDay[0] must be between 1 and 31 or between -31 and -1']],
		['month day 0', rr('monthly', { byMonthDay: [1, 0] }), ['byMonthDay[1] must be between 1 and 31 or between -31 and -1']],
		['month day -32', rr('monthly', { byMonthDay: [-32] }), ['byMonthDay[0] must be between 1 and 31 or between -31 and -1']],
		['byMonthDay in a weekly rule', rr('weekly', { byMonthDay: [1] }), ['byMonthDay must not be given when frequency is weekly']],
		['month as a number', { ...rr('yearly'), byMonth: [1] }, ['byMonth[0] must be one of "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"']],
		['month 13', rr('yearly', { byMonth: ['13'] }), ['byMonth[0] must be one of "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"']],
		['count and until', rr('daily', { count: 3, until: '2026-01-01T00:00:00' }), ['count and until must not both be given']],
		['count 0', rr('daily', { count: 0 }), ['count must be at least 1']],
		['until with Z', rr('daily', { until: '2026-01-01T00:00:00Z' }), ['until must be a LocalDateTime (YYYY-MM-DDTHH:mm:ss)']],
		['until date only', rr('daily', { until: '2026-01-01' }), ['until must be a LocalDateTime (YYYY-MM-DDTHH:mm:ss)']],
		['until 30 February', rr('daily', { until: '2026-02-30T00:00:00' }), ['until must be a LocalDateTime (YYYY-MM-DDTHH:mm:ss)']],
		['bad firstDayOfWeek', { ...rr('weekly'), firstDayOfWeek: 'sunday' }, ['firstDayOfWeek must be one of "mo", "tu", "we", "th", "fr", "sa", "su"']],
		['bySetPosition 0', rr('monthly', { byDay: [nd('mo')], bySetPosition: [0] }), ['bySetPosition[0] must be between 1 and 366 or between -366 and -1']],
		['unsupported part', { ...rr('daily'), byHour: [9] }, ['byHour is not supported']],
		['other rscale', { ...rr('daily'), rscale: 'hebrew' }, ['rscale must be "gregorian"']],
		['unknown property', { ...rr('daily'), everyOther: true }, ['everyOther is not a known property']],
		['unknown NDay property', rr('weekly', { byDay: [{ ...nd('mo'), week: 1 } as NDay] }), ['byDay[0].week is not a known property']],
	])('%s', (_name, rule, messages) => {
		expect(validateRecurrenceRule(rule)).toEqual(messages);
	});

	test('several problems are reported together', () => {
		const messages = validateRecurrenceRule({ ...rr('weekly', { interval: 0, count: 2, until: '2026-01-01T00:00:00', byMonthDay: [1] }), foo: 1 });
		expect(messages).toEqual(
			expect.arrayContaining([
				'interval must be at least 1',
				'foo is not a known property',
				'count and until must not both be given',
				'byMonthDay must not be given when frequency is weekly',
			]),
		);
	});

	test('validateRecurrenceRules prefixes the position', () => {
		expect(validateRecurrenceRules([rr('daily'), rr('daily', { count: 0 }), 7])).toEqual([
			'recurrenceRules[1].count must be at least 1',
			'recurrenceRules[2] must be a RecurrenceRule object',
		]);
		expect(validateRecurrenceRules([rr('daily', { count: 1, until: '2026-01-01T00:00:00' })])).toEqual([
			'recurrenceRules[0]: count and until must not both be given',
		]);
		expect(validateRecurrenceRules({})).toEqual(['recurrenceRules must be an array']);
	});
});

// ---------------------------------------------------------------------------------------------------------
// findOccurrence, truncateSeries, splitSeries
// ---------------------------------------------------------------------------------------------------------

describe('findOccurrence', () => {
	const series = { start: '2026-01-05T09:00:00', timeZone: BERLIN, duration: 'PT30M', rules: [rr('weekly', { count: 4 })], excluded: ['2026-01-12T09:00:00'] };

	test('finds a generated occurrence with its instants', () => {
		expect(findOccurrence({ ...series, recurrenceId: '2026-01-19T09:00:00' })).toEqual({
			recurrenceId: '2026-01-19T09:00:00',
			start: '2026-01-19T09:00:00',
			startUtc: new Date('2026-01-19T08:00:00Z'),
			endUtc: new Date('2026-01-19T08:30:00Z'),
		});
		expect(findOccurrence({ ...series, recurrenceId: '2026-01-05T09:00:00' })?.startUtc).toEqual(new Date('2026-01-05T08:00:00Z'));
	});

	test('null for excluded, never generated, beyond the count, or malformed ids', () => {
		expect(findOccurrence({ ...series, recurrenceId: '2026-01-12T09:00:00' })).toBeNull();
		expect(findOccurrence({ ...series, recurrenceId: '2026-01-20T09:00:00' })).toBeNull();
		expect(findOccurrence({ ...series, recurrenceId: '2026-01-19T10:00:00' })).toBeNull();
		expect(findOccurrence({ ...series, recurrenceId: '2026-02-02T09:00:00' })).toBeNull();
		expect(findOccurrence({ ...series, recurrenceId: '2026-01-19' })).toBeNull();
	});
});

describe('truncateSeries and splitSeries ("this and following")', () => {
	const start = '2026-01-05T09:00:00'; // a Monday
	const window = { timeZone: null, from: '2025-01-01T00:00:00Z', to: '2028-01-01T00:00:00Z' };

	test('a counted rule keeps the count of the occurrences before the split', () => {
		const rules = [rr('weekly', { count: 10 })];
		const truncated = truncateSeries({ start, rules, before: '2026-01-26T09:00:00' });
		expect(truncated).toEqual([rr('weekly', { count: 3 })]);
		expect(ids(start, truncated!, window)).toEqual(at9('2026-01-05', '2026-01-12', '2026-01-19'));
	});

	test('an open-ended or until rule ends at its last occurrence before the split', () => {
		expect(truncateSeries({ start, rules: [rr('weekly')], before: '2026-01-26T09:00:00' })).toEqual([rr('weekly', { until: '2026-01-19T09:00:00' })]);
		expect(truncateSeries({ start, rules: [rr('weekly', { until: '2026-06-01T00:00:00' })], before: '2026-01-26T09:00:00' })).toEqual([
			rr('weekly', { until: '2026-01-19T09:00:00' }),
		]);
	});

	test('nothing remains before the start', () => {
		expect(truncateSeries({ start, rules: [rr('weekly')], before: start })).toBeNull();
		expect(truncateSeries({ start, rules: [rr('weekly')], before: '2026-01-01T00:00:00' })).toBeNull();
	});

	test('split of a counted series: both parts together are the original series', () => {
		const rules = [rr('weekly', { count: 10 })];
		const split = splitSeries({ start, rules, excluded: ['2026-01-12T09:00:00', '2026-02-09T09:00:00'], at: '2026-01-26T09:00:00' });
		expect(split).toEqual({
			before: { rules: [rr('weekly', { count: 3 })], excluded: ['2026-01-12T09:00:00'] },
			after: { start: '2026-01-26T09:00:00', rules: [rr('weekly', { count: 7 })], excluded: ['2026-02-09T09:00:00'] },
		});
		const before = ids(start, split.before!.rules, { ...window, excluded: split.before!.excluded });
		const after = ids(split.after.start, split.after.rules, { ...window, excluded: split.after.excluded });
		expect([...before, ...after]).toEqual(ids(start, rules, { ...window, excluded: ['2026-01-12T09:00:00', '2026-02-09T09:00:00'] }));
		expect(after).toEqual(at9('2026-01-26', '2026-02-02', '2026-02-16', '2026-02-23', '2026-03-02', '2026-03-09'));
	});

	test('split with two counted rules where the split point comes from only one of them', () => {
		// A: Mondays, 4 times (5, 12, 19, 26). B: Wednesdays, 4 times counting the Monday start (5, 7, 14, 21).
		const rules = [rr('weekly', { byDay: [nd('mo')], count: 4 }), rr('weekly', { byDay: [nd('we')], count: 4 })];
		expect(ids(start, rules, window)).toEqual(at9('2026-01-05', '2026-01-07', '2026-01-12', '2026-01-14', '2026-01-19', '2026-01-21', '2026-01-26'));
		const split = splitSeries({ start, rules, at: '2026-01-14T09:00:00' });
		// A kept 5 and 12 (2 of 4); the new start (a Wednesday) counts as its first, so 3 = start + 19 + 26.
		expect(split.after.rules).toEqual([rr('weekly', { byDay: [nd('mo')], count: 3 }), rr('weekly', { byDay: [nd('we')], count: 2 })]);
		expect(ids(split.after.start, split.after.rules, window)).toEqual(at9('2026-01-14', '2026-01-19', '2026-01-21', '2026-01-26'));
		expect(ids(start, split.before!.rules, window)).toEqual(at9('2026-01-05', '2026-01-07', '2026-01-12'));
	});

	test('split at the start: nothing before; a rule whose occurrences all precede the split is dropped', () => {
		expect(splitSeries({ start, rules: [rr('weekly', { count: 2 })], at: start })).toEqual({
			before: null,
			after: { start, rules: [rr('weekly', { count: 2 })], excluded: [] },
		});
		const rules = [rr('weekly', { byDay: [nd('mo')], until: '2026-01-13T00:00:00' }), rr('weekly', { byDay: [nd('fr')] })];
		expect(splitSeries({ start, rules, at: '2026-01-16T09:00:00' }).after.rules).toEqual([rr('weekly', { byDay: [nd('fr')] })]);
	});

	test('split at something that is not an occurrence throws', () => {
		expect(() => splitSeries({ start, rules: [rr('weekly')], at: '2026-01-06T09:00:00' })).toThrow(RangeError);
		expect(() => splitSeries({ start, rules: [rr('weekly')], excluded: ['2026-01-12T09:00:00'], at: '2026-01-12T09:00:00' })).toThrow(RangeError);
		expect(() => splitSeries({ start, rules: [rr('weekly', { count: 2 })], at: '2026-01-19T09:00:00' })).toThrow(RangeError);
	});
});

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
			{ numRuns: 250 },
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
