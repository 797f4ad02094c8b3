/**
 * The text formats behind the validation rules, checked against luxon and the platform as
 * independent references.
 */
import fc from 'fast-check';
import { DateTime, Duration } from 'luxon';

import { isIanaZone, isIsoDuration, isLocalDateTime, parseDateTime, toTimestamp } from './formats';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

describe('formats', () => {
	it('formats: LocalDateTime agrees with luxon on every YYYY-MM-DDTHH:mm:ss shape, real dates only', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 9999 }),
				fc.integer({ min: 0, max: 13 }),
				fc.integer({ min: 0, max: 32 }),
				fc.integer({ min: 0, max: 25 }),
				fc.integer({ min: 0, max: 61 }),
				fc.integer({ min: 0, max: 61 }),
				(y, mo, d, h, mi, s) => {
					const text = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}`;
					// luxon also reads 24:00:00 (end of day); the interface's LocalDateTime stops at 23:59:59.
					const reference = h <= 23 && DateTime.fromFormat(text, "yyyy-MM-dd'T'HH:mm:ss", { zone: 'UTC' }).isValid;
					expect(isLocalDateTime(text)).toBe(reference);
				},
			),
			{ numRuns: 2000 },
		);
	});

	it('formats: LocalDateTime refuses anything but exactly 19 characters', () => {
		for (const text of ['2026-03-01', '2026-03-01T09:00:00Z', '2026-03-01T09:00:00.0', '2026-03-01T09:00', ' 2026-03-01T09:00:00']) {
			expect(isLocalDateTime(text)).toBe(false);
		}
		fc.assert(fc.property(fc.string(), (text) => !isLocalDateTime(text) || text.length === 19));
	});

	it('formats: instants parse to the same epoch milliseconds as the platform', () => {
		fc.assert(
			fc.property(
				fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('9998-12-31T23:59:59Z'), noInvalidDate: true }),
				fc.integer({ min: -14 * 60, max: 14 * 60 }),
				(date, offset) => {
					const iso = date.toISOString();
					expect(parseDateTime(iso, true)).toBe(date.getTime());
					const shifted = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 23);
					const sign = offset < 0 ? '-' : '+';
					const text = `${shifted}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
					expect(parseDateTime(text, true)).toBe(date.getTime());
					expect(Date.parse(text)).toBe(date.getTime());
				},
			),
			{ numRuns: 1000 },
		);
	});

	it('formats: an instant needs Z or an offset; fractions beyond milliseconds are truncated', () => {
		expect(parseDateTime('2026-03-01T09:00:00', true)).toBeUndefined();
		expect(parseDateTime('2026-03-01T09:00:00', false)).toBe(Date.UTC(2026, 2, 1, 9));
		expect(parseDateTime('2026-03-01T09:00:00.1259Z', true)).toBe(Date.UTC(2026, 2, 1, 9, 0, 0, 125));
		expect(parseDateTime('2026-02-29T09:00:00Z', true)).toBeUndefined();
		expect(toTimestamp(Date.UTC(2026, 10, 21, 9, 30, 0, 125))).toBe('2026-11-21T09:30:00.125Z');
	});

	it('formats: IANA zones are the platform\'s zones, without abbreviations, offsets or wrong case', () => {
		const zones = Intl.supportedValuesOf('timeZone').filter((zone) => zone.includes('/') || zone === 'UTC');
		expect(zones.length).toBeGreaterThan(300);
		for (const zone of zones) expect(isIanaZone(zone)).toBe(true);
		for (const zone of ['EST', 'CET', 'GMT', 'GMT+1', 'UTC+1', '+01:00', 'europe/berlin', 'Europe/Nowhere', '']) {
			expect(isIanaZone(zone)).toBe(false);
		}
	});

	it('formats: every duration accepted is one luxon reads, and the shapes the interface shows are accepted', () => {
		for (const text of ['PT2H', 'PT25M', 'PT1H', 'P1D', 'P1W', 'PT0S', 'P1Y2M3DT4H5M6.5S']) expect(isIsoDuration(text)).toBe(true);
		expect(isIsoDuration('-PT15M', true)).toBe(true);
		expect(isIsoDuration('-PT15M')).toBe(false);
		for (const text of ['P', 'PT', 'P1DT', '1H', 'PT1H30', 'P1.5D', 'pt1h']) expect(isIsoDuration(text)).toBe(false);
		const accepted: string[] = [];
		fc.assert(
			fc.property(fc.stringMatching(/^P(\d{1,3}[YMWD]){0,3}(T(\d{1,3}[HMS]){0,3})?$/), (text) => {
				if (isIsoDuration(text)) accepted.push(text);
			}),
			{ numRuns: 1000 },
		);
		expect(accepted.length).toBeGreaterThan(100);
		expect(accepted.filter((text) => !Duration.fromISO(text).isValid)).toEqual([]);
	});
});
