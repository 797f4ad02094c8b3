/**
 * Tests of the recurrence expander: frequencies, intervals and BYxxx parts; start, count, until, exclusions
 * and several rules; time zones and daylight saving time; window edges; invalid input. Expected dates are
 * written out by hand from calendar facts stated next to them.
 * The helpers the recurrence test files share are in `support/recurrence.ts`.
 */
import { expandOccurrences, overlapsWindow } from './recurrence';
import { BERLIN, NY, at9, brief, dayRange, expand, ids, nd, rr } from './support/recurrence';

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
