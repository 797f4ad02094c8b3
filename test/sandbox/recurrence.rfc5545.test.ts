/**
 * Tests of the recurrence expander: the examples of RFC 5545 section 3.8.5.3, translated to JSCalendar rules
 * (an RFC UNTIL in UTC becomes the same instant as a LocalDateTime in America/New_York).
 * The helpers the recurrence test files share are in `support/recurrence.ts`.
 */
import { WEEKDAYS } from './recurrence';
import { at9, dayRange, expand, ids, nd, rr } from './support/recurrence';

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
