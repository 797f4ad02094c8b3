/**
 * Text formats the interface uses for dates, times, zones and durations, as plain predicates and
 * parsers. The request schemas of every area build on these.
 */
import { IANAZone } from 'luxon';

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
	return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isRealDate(year: number, month: number, day: number): boolean {
	if (month < 1 || month > 12 || day < 1) return false;
	const max = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
	return day <= max;
}

function isRealTime(hour: number, minute: number, second: number): boolean {
	return hour <= 23 && minute <= 59 && second <= 59;
}

/** A LocalDateTime: exactly `YYYY-MM-DDTHH:mm:ss` (19 characters, no offset, no `Z`) naming a real date and time. */
export function isLocalDateTime(value: unknown): value is string {
	if (typeof value !== 'string' || value.length !== 19) return false;
	const m = LOCAL_DATE_TIME.exec(value);
	if (!m) return false;
	return isRealDate(+m[1], +m[2], +m[3]) && isRealTime(+m[4], +m[5], +m[6]);
}

const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses an ISO 8601 date-time. With `requireOffset` (an instant) a `Z` or a numeric offset must
 * be present. Returns epoch milliseconds, truncated to the millisecond (exact for strict
 * comparisons against millisecond timestamps), or undefined when the text is not a valid
 * date-time. Without an offset the value is read as UTC.
 */
export function parseDateTime(value: unknown, requireOffset: boolean): number | undefined {
	if (typeof value !== 'string' || value.length > 40) return undefined;
	const m = DATE_TIME.exec(value);
	if (!m) return undefined;
	const [, y, mo, d, h, mi, s, frac, zone] = m;
	if (requireOffset && zone === undefined) return undefined;
	const year = +y;
	const second = s === undefined ? 0 : +s;
	if (!isRealDate(year, +mo, +d) || !isRealTime(+h, +mi, second)) return undefined;
	const millis = frac === undefined ? 0 : +frac.slice(0, 3).padEnd(3, '0');
	let offsetMinutes = 0;
	if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
		const sign = zone[0] === '-' ? -1 : 1;
		const digits = zone.slice(1).replace(':', '');
		const oh = +digits.slice(0, 2);
		const om = digits.length > 2 ? +digits.slice(2, 4) : 0;
		if (oh > 23 || om > 59) return undefined;
		offsetMinutes = sign * (oh * 60 + om);
	}
	const date = new Date(0);
	date.setUTCFullYear(year, +mo - 1, +d);
	date.setUTCHours(+h, +mi, second, millis);
	return date.getTime() - offsetMinutes * 60_000;
}

/** An instant with an explicit `Z` or offset, e.g. `2026-03-01T09:00:00Z` or `2026-03-01T10:00:00.5+01:00`. */
export function isInstant(value: unknown): value is string {
	return parseDateTime(value, true) !== undefined;
}

/** An ISO 8601 date-time with or without offset. */
export function isDateTime(value: unknown): value is string {
	return parseDateTime(value, false) !== undefined;
}

/** UTC ISO 8601 with milliseconds: `2026-11-21T09:30:00.125Z`. */
export function toTimestamp(ms: number): string {
	return new Date(ms).toISOString();
}

const ZONE_NAME = /^(?:UTC|[A-Z][A-Za-z_-]*(?:\/[A-Za-z0-9_+-]+)+)$/;
const zoneCache = new Map<string, boolean>();

/**
 * An IANA time zone name such as `Europe/Berlin` or `UTC`. Abbreviations (`EST`, `CET`) and
 * offsets (`GMT+1`, `+01:00`) are not accepted, nor names in the wrong case.
 */
export function isIanaZone(value: unknown): value is string {
	if (typeof value !== 'string' || value.length > 64) return false;
	const known = zoneCache.get(value);
	if (known !== undefined) return known;
	const valid = ZONE_NAME.test(value) && IANAZone.isValidZone(value);
	if (zoneCache.size < 10_000) zoneCache.set(value, valid);
	return valid;
}

const DURATION =
	/^P(?!$)(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:[.,]\d+)?S)?)?$/;

/**
 * An ISO 8601 duration such as `PT2H`, `P1D`, `PT25M` or `P1DT2H30M`: at least one component,
 * no empty time part. With `allowNegative` a leading `-` is accepted (`-PT15M`).
 */
export function isIsoDuration(value: unknown, allowNegative = false): value is string {
	if (typeof value !== 'string' || value.length > 64) return false;
	const text = allowNegative && value.startsWith('-') ? value.slice(1) : value;
	return DURATION.test(text);
}

const eventZoneCache = new Map<string, boolean>();

/**
 * The event time-zone rule (the nodes apply the same one): `UTC`, `Etc/UTC`, or a region name
 * containing `/` that luxon accepts and that does not start with `Etc/`. Abbreviations (`EST`,
 * `CET`), offsets (`GMT+1`, `Etc/GMT+1`, `+01:00`) and other `Etc/` names are refused.
 */
export function isEventTimeZone(value: unknown): value is string {
	if (typeof value !== 'string' || value.length > 64) return false;
	if (value === 'UTC' || value === 'Etc/UTC') return true;
	const known = eventZoneCache.get(value);
	if (known !== undefined) return known;
	const valid = value.includes('/') && !value.startsWith('Etc/') && IANAZone.isValidZone(value);
	if (eventZoneCache.size < 10_000) eventZoneCache.set(value, valid);
	return valid;
}
