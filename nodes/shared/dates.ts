import { DateTime, Duration, IANAZone } from 'luxon';
import { EXPRESSION_ADVICE, quoted } from './errors';

/** The service's LocalDateTime: exactly 19 characters, no offset, no `Z`. */
export const LOCAL_DATE_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ss";

/**
 * Whether `zone` is an IANA time zone the service accepts: a region name such as
 * `Europe/Berlin`, or `UTC`. Abbreviations (`EST`, `CET`) and offsets (`GMT+1`, `Etc/GMT+1`)
 * are refused by the service even though some of them exist in the time zone database.
 */
export function isIanaZone(zone: unknown): zone is string {
	if (typeof zone !== 'string' || zone.length === 0) return false;
	if (zone === 'UTC' || zone === 'Etc/UTC') return true;
	return zone.includes('/') && !zone.startsWith('Etc/') && IANAZone.isValidZone(zone);
}

/** How to give a date and time, for errors about a value that is not one. */
export const DATE_TIME_HINT = `Use ISO 8601, for example 2026-11-25T17:00:00 (a time in the chosen time zone), 2026-11-25T17:00:00+01:00, 2026-11-25${EXPRESSION_ADVICE}.`;

/** What is wrong with a zone the service would refuse, for an error naming the field. */
export function notIanaZoneProblem(zone: unknown): string {
	return `${quoted(zone)} is not an IANA time zone: use a region name such as Europe/Berlin or America/New_York, or UTC (abbreviations such as EST and offsets such as GMT+1 are not accepted)`;
}

/**
 * Reads a date or date-time the way people give it: ISO 8601 with or without offset
 * (`2026-11-25T17:00:00+01:00`, `2026-11-25T17:00`, `2026-11-25`), `2026-11-25 17:00`, a
 * luxon DateTime from an n8n expression (`{{ $now.plus({ days: 1 }) }}`), a JS Date or
 * epoch milliseconds. Values without an offset are wall-clock times in `zone`.
 * Returns undefined when the value is not a date.
 */
export function parseDateInput(value: unknown, zone: string): DateTime | undefined {
	let parsed: DateTime | undefined;
	if (DateTime.isDateTime(value)) {
		// May come from another copy of luxon (n8n's): rebuild it from its ISO form.
		parsed = DateTime.fromISO((value as DateTime).toISO() ?? '', { setZone: true });
	} else if (value instanceof Date) {
		parsed = DateTime.fromJSDate(value);
	} else if (typeof value === 'number' && Number.isFinite(value)) {
		parsed = DateTime.fromMillis(value);
	} else if (typeof value === 'string' && value.trim() !== '') {
		parsed = parseText(value.trim(), zone);
	}
	return parsed?.isValid ? parsed : undefined;
}

function parseText(text: string, zone: string): DateTime {
	const parsed = DateTime.fromISO(text, { zone, setZone: true });
	return parsed.isValid ? parsed : DateTime.fromSQL(text, { zone, setZone: true });
}

/** A parsed date as the service's LocalDateTime in `zone` (converting the instant when it had an offset). */
export function toLocalDateTime(date: DateTime, zone: string): string {
	return date.setZone(zone).toFormat(LOCAL_DATE_TIME_FORMAT);
}

/** Whether the text carried its own offset or `Z` (then it names an instant, not a wall-clock time). */
export function hasExplicitOffset(value: unknown): boolean {
	if (DateTime.isDateTime(value) || value instanceof Date || typeof value === 'number') return true;
	return typeof value === 'string' && /(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/.test(value.trim()) && /\d[T ]\d/.test(value);
}

/**
 * A wall-clock time that does not exist in `zone`: it falls into the hour a daylight-saving
 * change skips (02:30 on a spring-forward day in Europe/Berlin). Such a time is read as the
 * same instant under the offset before the change, i.e. moved forward by the gap (03:30).
 * Returns the time as written and as it is read, or undefined when the time exists (or the
 * value carries its own offset).
 */
export function skippedWallClock(value: unknown, zone: string): { written: string; readAs: string } | undefined {
	if (typeof value !== 'string' || hasExplicitOffset(value) || value.trim() === '') return undefined;
	const written = parseText(value.trim(), 'UTC');
	const read = parseDateInput(value, zone);
	if (!written.isValid || !read) return undefined;
	const asWritten = written.toFormat(LOCAL_DATE_TIME_FORMAT);
	const asRead = read.setZone(zone).toFormat(LOCAL_DATE_TIME_FORMAT);
	return asWritten === asRead ? undefined : { written: asWritten, readAs: asRead };
}

/** The notice for a wall-clock time moved forward by a daylight-saving gap. */
export function skippedWallClockNotice(field: string, zone: string, gap: { written: string; readAs: string }): string {
	return `${field}: ${gap.written.replace('T', ' ')} does not exist in ${zone} (the clocks skip that hour for daylight saving time), so it was taken as ${gap.readAs.replace('T', ' ')}`;
}

/**
 * Start and end instants of a LocalDateTime plus an ISO 8601 duration in `zone` (all-day and
 * floating times are read in UTC, as the service reads them for its list window).
 */
export function localInterval(
	start: unknown,
	duration: unknown,
	zone: unknown,
): { start: DateTime; end: DateTime } | undefined {
	if (typeof start !== 'string' || typeof duration !== 'string') return undefined;
	const begin = DateTime.fromISO(start, { zone: typeof zone === 'string' && zone ? zone : 'UTC' });
	const length = Duration.fromISO(duration);
	if (!begin.isValid || !length.isValid) return undefined;
	return { start: begin, end: begin.plus(length) };
}

/** The greatest UTC timestamp before `timestamp` (1 ms earlier): for filters that are strict. */
export function justBefore(timestamp: string): string {
	return new Date(Date.parse(timestamp) - 1).toISOString();
}

/** Whether `value` is an ISO 8601 duration (`PT25M`, `P1D`, `PT1H30M`). */
export function isIsoDuration(value: unknown): value is string {
	return typeof value === 'string' && /^P(?!$)/.test(value) && Duration.fromISO(value).isValid;
}
