/**
 * Tests of the recurrence rule validator (validateRecurrenceRule, validateRecurrenceRules).
 * The helpers the recurrence test files share are in `support/recurrence.ts`.
 */
import {
	recurrenceRuleSchema,
	validateRecurrenceRule,
	validateRecurrenceRules,
	type NDay,
	type Weekday,
} from './recurrence';
import { nd, rr } from './support/recurrence';

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
