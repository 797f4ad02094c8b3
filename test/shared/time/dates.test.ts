/**
 * The event arithmetic that reads many dates in one zone (nodes/shared/time/dates.ts: `localInterval`
 * with offsets remembered by the hour) gives exactly what luxon gives with the zone by name, on
 * the days zones change their offset: the gaps and repeated hours of daylight saving time, a
 * 30-minute change (Lord Howe), changes at half past a UTC hour (Adelaide, St. John's), a zone
 * with a 45-minute offset, and durations with days.
 */
import { DateTime, Duration } from 'luxon';

import { dateOf, localEnd, localInterval, withOffset } from '../../../nodes/shared/time/dates';

/** What luxon gives without any remembering: start and end as ISO strings with offset. */
function plainLuxon(start: string, duration: string, zone: string) {
	const begin = DateTime.fromISO(start, { zone });
	const end = begin.plus(Duration.fromISO(duration));
	return { start: begin.toISO(), end: end.toISO() };
}

function remembered(start: string, duration: string, zone: string) {
	const interval = localInterval(start, duration, zone);
	expect(interval).toBeDefined();
	return { start: interval!.start.toISO(), end: interval!.end.toISO() };
}

/** Every 15 minutes over the two days around each change, for each duration. */
const cases: Array<[string, string]> = [
	['Europe/Berlin', '2026-03-28'],
	['Europe/Berlin', '2026-10-24'],
	['America/New_York', '2026-03-07'],
	['America/New_York', '2026-10-31'],
	['Australia/Lord_Howe', '2026-04-04'],
	['Australia/Lord_Howe', '2026-10-03'],
	['Asia/Kathmandu', '2026-06-01'],
	// Changes at half past a UTC hour: the hour is not remembered, each instant is asked.
	['Australia/Adelaide', '2026-04-04'],
	['Australia/Adelaide', '2026-10-03'],
	['America/St_Johns', '2026-03-07'],
	['America/St_Johns', '2026-10-31'],
];
const DURATIONS = ['PT30M', 'PT1H', 'PT2H15M', 'P1D', 'P1DT1H', 'PT0S', 'P1W', 'P1M', 'PT25H'];

/** luxon's end as LocalDateTime, the reference for {@link localEnd}. */
const plainEnd = (start: string, duration: string, zone: string) => plainLuxon(start, duration, zone || 'UTC').end?.slice(0, 19);

describe('localEnd and localInterval against luxon', () => {
	it.each(cases)('matches luxon in %s around %s, every 15 minutes, for several durations', (zone, day) => {
		const first = DateTime.fromISO(`${day}T00:00:00`, { zone: 'UTC' });
		let compared = 0;
		for (let quarter = 0; quarter < 3 * 24 * 4; quarter++) {
			const start = first.plus({ minutes: 15 * quarter }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
			for (const duration of DURATIONS) {
				expect(remembered(start, duration, zone)).toEqual(plainLuxon(start, duration, zone));
				expect(localEnd(start, duration, zone)).toBe(plainEnd(start, duration, zone));
				compared++;
			}
		}
		expect(compared).toBe(3 * 24 * 4 * DURATIONS.length);
	});

	it('reads floating and all-day times (no zone) in UTC, and refuses what is not a date or duration', () => {
		expect(remembered('2026-03-29T02:30:00', 'PT1H', '')).toEqual(plainLuxon('2026-03-29T02:30:00', 'PT1H', 'UTC'));
		expect(localInterval('2026-03-29T02:30:00', 'PT1H', undefined)!.end.toISO()).toBe('2026-03-29T03:30:00.000Z');
		expect(localInterval('not a date', 'PT1H', 'Europe/Berlin')).toBeUndefined();
		expect(localInterval('2026-03-29T02:30:00', 'one hour', 'Europe/Berlin')).toBeUndefined();
		expect(localEnd('2026-03-29T02:30:00', 'one hour', 'Europe/Berlin')).toBeUndefined();
		expect(localEnd(undefined, 'PT1H', 'Europe/Berlin')).toBeUndefined();
		expect(localInterval('2026-03-29T02:30:00', 'PT1H', 'Not/AZone')).toBeUndefined();
	});

	it.each([
		['a floating time', '2026-03-29T02:30:00', 'PT1H', ''],
		['a date that does not exist', '2027-02-30T10:00:00', 'PT1H', 'Europe/Berlin'],
		['a time given to the minute', '2027-02-03T10:00', 'PT1H', 'Europe/Berlin'],
		['24:00', '2027-02-03T24:00:00', 'PT1H', 'Europe/Berlin'],
		['a month across a change', '2026-03-15T10:00:00', 'P1M', 'Europe/Berlin'],
		['an unknown zone', '2026-03-15T10:00:00', 'PT1H', 'Not/AZone'],
		['the last day of a leap year', '2028-12-31T23:30:00', 'PT1H', 'Pacific/Kiritimati'],
	])('localEnd gives what luxon gives for %s', (_case, start, duration, zone) => {
		const expected = DateTime.fromISO(start, { zone: zone || 'UTC' }).plus(Duration.fromISO(duration));
		expect(localEnd(start, duration, zone)).toBe(expected.isValid ? expected.toISO({ includeOffset: false })!.slice(0, 19) : undefined);
	});
});

describe('withOffset (the dates of every Simplified output) against luxon', () => {
	it.each([...cases, ['Europe/London', '2026-12-01'], ['UTC', '2026-03-28'], ['Etc/UTC', '2026-03-28']])('gives what luxon gives in %s around %s, every 15 minutes', (zone, day) => {
		const first = DateTime.fromISO(`${day}T00:00:00`, { zone: 'UTC' });
		for (let quarter = 0; quarter < 3 * 24 * 4; quarter++) {
			const local = first.plus({ minutes: 15 * quarter }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
			const expected = DateTime.fromISO(local, { zone }).toISO({ suppressMilliseconds: true })!;
			expect(withOffset(local, zone)).toBe(zone === 'Etc/UTC' ? expected.replace(/\+00:00$/, 'Z') : expected);
		}
	});

	it('reads a time without a zone in UTC, and leaves what is not a LocalDateTime as it is', () => {
		expect(withOffset('2026-11-28T01:37:36', 'Europe/Berlin')).toBe('2026-11-28T01:37:36+01:00');
		expect(withOffset('2026-07-01T09:00:00', 'America/New_York')).toBe('2026-07-01T09:00:00-04:00');
		expect(withOffset('2026-11-28T01:37:36', null)).toBe('2026-11-28T01:37:36Z');
		expect(withOffset('2026-11-28T01:37:36+01:00', 'Europe/Berlin')).toBe('2026-11-28T01:37:36+01:00');
		expect(withOffset('2026-11-28', 'Europe/Berlin')).toBe('2026-11-28');
		expect(withOffset(undefined, 'Europe/Berlin')).toBeUndefined();
		expect(withOffset('2026-11-28T01:37:36', 'Not/AZone')).toBe('2026-11-28T01:37:36');
		expect(dateOf('2026-11-28T00:00:00')).toBe('2026-11-28');
		expect(dateOf(undefined)).toBeUndefined();
	});
});
