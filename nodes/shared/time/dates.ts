import { DateTime, Duration, IANAZone, Zone } from 'luxon';
import { EXPRESSION_ADVICE, quoted } from '../transport/errors';

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

const HOUR_MS = 3_600_000;
/** Hours remembered per zone before the memo starts over (about 11 years of hours). */
const MEMO_LIMIT = 100_000;

/**
 * An IANA zone whose UTC offsets are remembered by the hour. luxon asks the zone for its offset
 * two to four times per date it builds or moves, and each answer is an `Intl` formatting: over
 * thousands of events (Get Many, Simplified output) that was most of the time and of the garbage.
 * An offset is remembered for a whole UTC hour only when it is the same at both ends of that hour
 * (no zone changes its offset twice within an hour); in an hour with a change, every instant is
 * asked of the zone itself.
 */
class MemoizedZone extends Zone {
	private readonly offsets = new Map<number, number>();

	constructor(private readonly zone: IANAZone) {
		super();
	}

	override get type(): string {
		return this.zone.type;
	}
	override get name(): string {
		return this.zone.name;
	}
	get ianaName(): string {
		return this.zone.name;
	}
	override get isUniversal(): boolean {
		return false;
	}
	override get isValid(): boolean {
		return this.zone.isValid;
	}
	override offsetName(ts: number, options: { format?: 'short' | 'long'; locale?: string }): string | null {
		return this.zone.offsetName(ts, options as never);
	}
	override formatOffset(ts: number, format: 'narrow' | 'short' | 'techie'): string {
		return this.zone.formatOffset(ts, format);
	}
	override equals(other: Zone): boolean {
		return other.type === 'iana' && other.name === this.zone.name;
	}
	override offset(ts: number): number {
		const hour = Math.floor(ts / HOUR_MS);
		const known = this.offsets.get(hour);
		if (known !== undefined) return known;
		const atStart = this.zone.offset(hour * HOUR_MS);
		if (atStart !== this.zone.offset((hour + 1) * HOUR_MS - 1)) return this.zone.offset(ts);
		if (this.offsets.size >= MEMO_LIMIT) this.offsets.clear();
		this.offsets.set(hour, atStart);
		return atStart;
	}
}

const memoizedZones = new Map<string, Zone>();

/** The zone for reading many dates in it (see {@link MemoizedZone}); `UTC` for no zone, as the service reads floating times. */
function zoneForMany(name: unknown): Zone | string {
	const zoneName = typeof name === 'string' && name ? name : 'UTC';
	let zone = memoizedZones.get(zoneName);
	if (!zone) {
		const iana = IANAZone.create(zoneName);
		// An unknown zone or UTC: luxon's own handling (an invalid date, or a fixed offset) is kept.
		if (!iana.isValid || zoneName === 'UTC') return zoneName;
		zone = new MemoizedZone(iana);
		memoizedZones.set(zoneName, zone);
	}
	return zone;
}

const durations = new Map<string, Duration>();

/** `Duration.fromISO`, remembered: a list's events share a handful of durations. */
function parsedDuration(text: string): Duration {
	let duration = durations.get(text);
	if (!duration) {
		duration = Duration.fromISO(text);
		if (durations.size >= 1000) durations.clear();
		durations.set(text, duration);
	}
	return duration;
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
	const begin = DateTime.fromISO(start, { zone: zoneForMany(zone) });
	const length = parsedDuration(duration);
	if (!begin.isValid || !length.isValid) return undefined;
	return { start: begin, end: begin.plus(length) };
}

const DAY_MS = 86_400_000;
/** No zone's offset is 14 hours or more: every instant a wall-clock time can be lies within this of it read as UTC. */
const MAX_OFFSET_MS = 14 * HOUR_MS;

/** Per zone: the offset of each UTC day (minutes), or NaN for a day in which it changes. */
const dayOffsets = new Map<string, Map<number, number>>();

function offsetOfDay(zone: string, day: number): number {
	let days = dayOffsets.get(zone);
	if (!days) {
		days = new Map();
		dayOffsets.set(zone, days);
	}
	let offset = days.get(day);
	if (offset === undefined) {
		const iana = IANAZone.create(zone);
		const atStart = iana.offset(day * DAY_MS);
		// Same at both ends of the day: the same all day (no zone changes twice within a day).
		// An unknown zone has no offset (NaN): luxon then gives its invalid date.
		offset = atStart === iana.offset((day + 1) * DAY_MS - 1) ? atStart : NaN;
		if (days.size >= MEMO_LIMIT) days.clear();
		days.set(day, offset);
	}
	return offset;
}

/** A duration as wall-clock days plus exact milliseconds, or null when it has months or years (luxon handles those). */
const splitDurations = new Map<string, { days: number; ms: number } | null>();

function splitDuration(text: string): { days: number; ms: number } | null | undefined {
	let split = splitDurations.get(text);
	if (split === undefined) {
		const duration = parsedDuration(text);
		if (!duration.isValid) return undefined;
		const { years, quarters, months, weeks, days, hours, minutes, seconds, milliseconds } = duration.toObject();
		split = years || quarters || months ? null : { days: (weeks ?? 0) * 7 + (days ?? 0), ms: (hours ?? 0) * HOUR_MS + (minutes ?? 0) * 60_000 + (seconds ?? 0) * 1000 + (milliseconds ?? 0) };
		if (splitDurations.size >= 1000) splitDurations.clear();
		splitDurations.set(text, split);
	}
	return split;
}

const LOCAL_DATE_TIME = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;

/**
 * The end of LocalDateTime `start` plus `duration` in `zone`, as LocalDateTime: what
 * `localInterval(…).end` gives, for thousands of events at a fraction of its time and garbage.
 * When the zone keeps one offset over every day the event could touch (nearly always), the end is
 * plain wall-clock arithmetic; across an offset change, or for durations in months or years, luxon
 * computes it.
 */
export function localEnd(start: unknown, duration: unknown, zone: unknown): string | undefined {
	if (typeof start !== 'string' || typeof duration !== 'string') return undefined;
	const zoneName = typeof zone === 'string' && zone ? zone : 'UTC';
	const split = splitDuration(duration);
	if (split === undefined) return undefined;
	const wallStart = LOCAL_DATE_TIME.test(start) ? Date.parse(`${start}Z`) : NaN;
	// Date.parse accepts 31 February (as 3 March): only dates that exist take the short way.
	if (split !== null && Number.isFinite(wallStart) && Number(start.slice(8, 10)) === new Date(wallStart).getUTCDate()) {
		const wallEnd = wallStart + split.days * DAY_MS + split.ms;
		const first = Math.floor((Math.min(wallStart, wallEnd) - MAX_OFFSET_MS) / DAY_MS);
		const last = Math.floor((Math.max(wallStart, wallEnd) + MAX_OFFSET_MS) / DAY_MS);
		const offset = zoneName === 'UTC' ? 0 : offsetOfDay(zoneName, first);
		let constant = !Number.isNaN(offset);
		for (let day = first + 1; constant && day <= last && zoneName !== 'UTC'; day++) constant = offsetOfDay(zoneName, day) === offset;
		if (constant) return new Date(wallEnd).toISOString().slice(0, 19);
	}
	// toISO cut to seconds is the LocalDateTime format, at half the cost of toFormat.
	return localInterval(start, duration, zone)?.end.toISO({ includeOffset: false })?.slice(0, 19);
}

/** The greatest UTC timestamp before `timestamp` (1 ms earlier): for filters that are strict. */
export function justBefore(timestamp: string): string {
	return new Date(Date.parse(timestamp) - 1).toISOString();
}

/** Whether `value` is an ISO 8601 duration (`PT25M`, `P1D`, `PT1H30M`). */
export function isIsoDuration(value: unknown): value is string {
	return typeof value === 'string' && /^P(?!$)/.test(value) && Duration.fromISO(value).isValid;
}

/** An instant (epoch milliseconds) in UTC ISO 8601 without milliseconds, as the service writes instants. */
export function utcIso(ms: number): string {
	return DateTime.fromMillis(ms, { zone: 'utc' }).toISO({ suppressMilliseconds: true }) ?? '';
}

/** An instant (epoch milliseconds) in ISO 8601 with the offset of `zone`, without milliseconds. */
export function zonedIso(ms: number, zone: string): string {
	return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? '';
}

/** `+01:00`, `-05:30`: an offset in minutes as ISO 8601 writes it. */
function isoOffset(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+';
	const size = Math.abs(minutes);
	return `${sign}${String(Math.floor(size / 60)).padStart(2, '0')}:${String(size % 60).padStart(2, '0')}`;
}

/**
 * A LocalDateTime of the service (`2026-11-28T09:00:00`) as the instant it names, with the offset
 * of `zone` (`2026-11-28T09:00:00+01:00`), so that an expression or a spreadsheet cannot read it in
 * another zone; no zone (a floating time) is read in UTC (`…Z`), as the service reads it. The one
 * conversion every Simplified output uses. A value that is not a LocalDateTime is returned as it is.
 * A time a daylight-saving gap skips is read as luxon reads it (moved forward by the gap), one in a
 * repeated hour as its first pass, as the package reads event times everywhere else.
 * Fast path as in {@link localEnd}: a zone with one offset over the days around the time needs no luxon.
 */
export function withOffset(local: unknown, zone: unknown): unknown {
	if (typeof local !== 'string' || !LOCAL_DATE_TIME.test(local)) return local;
	const zoneName = typeof zone === 'string' && zone ? zone : 'UTC';
	if (zoneName === 'UTC' || zoneName === 'Etc/UTC') return `${local}Z`;
	const wall = Date.parse(`${local}Z`);
	if (Number.isFinite(wall) && Number(local.slice(8, 10)) === new Date(wall).getUTCDate()) {
		const first = Math.floor((wall - MAX_OFFSET_MS) / DAY_MS);
		const last = Math.floor((wall + MAX_OFFSET_MS) / DAY_MS);
		const offset = offsetOfDay(zoneName, first);
		let constant = !Number.isNaN(offset);
		for (let day = first + 1; constant && day <= last; day++) constant = offsetOfDay(zoneName, day) === offset;
		if (constant) return `${local}${isoOffset(offset)}`;
	}
	const read = DateTime.fromISO(local, { zone: zoneForMany(zoneName) });
	return read.isValid ? (read.toISO({ suppressMilliseconds: true }) ?? local) : local;
}

/** The date of a LocalDateTime (`2026-11-28T00:00:00` → `2026-11-28`): how an all-day event's days are given. */
export function dateOf(local: unknown): unknown {
	return typeof local === 'string' && LOCAL_DATE_TIME.test(local) ? local.slice(0, 10) : local;
}
