/**
 * Tests of the series operations over the recurrence expander: findOccurrence, truncateSeries and
 * splitSeries ("this and following"). Expected dates are written out by hand.
 * The helpers the recurrence test files share are in `support/recurrence.ts`.
 */
import { findOccurrence, splitSeries, truncateSeries } from './recurrence';
import { BERLIN, at9, ids, nd, rr } from './support/recurrence';

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
