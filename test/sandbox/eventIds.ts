/**
 * Event identifiers.
 *
 * - An event id (a single event or the master of a series) is the standard base64 of 16 random
 *   bytes: 24 characters ending in `==`, with upper and lower case letters, and always with a `+`
 *   and a `/` among its first 20 characters. So every id has to be percent-encoded in a query
 *   string, and a client that trims, re-encodes or changes the case of an id loses it.
 * - An instance id (one occurrence of a series) is the standard base64 of 22 bytes: the master's
 *   16 bytes, the occurrence's recurrence id (5 bytes, masked) and a check byte. 32 characters
 *   ending in `==`; it differs from the master's id, is the same on every list (it is derived, not
 *   stored, so it survives restarts) and carries the master's `+` and `/`.
 * - uid (the iCalendar UID) is of another shape and is accepted by no endpoint.
 *
 * Ids are opaque to clients; only this module reads them.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { formatLocalDateTime, parseLocalDateTime } from './recurrence';

const EVENT_BYTES = 16;
const INSTANCE_BYTES = 22;
/** Seconds from 0001-01-01T00:00:00 to 1970-01-01T00:00:00 (recurrence ids start at year 1). */
const EPOCH_OFFSET_S = 62_135_596_800;
const HAS_UPPER = /[A-Z]/;
const HAS_LOWER = /[a-z]/;

/** A new event id: base64 of 16 random bytes with a `+` and a `/`, mixed case. */
export function newEventId(): string {
	for (;;) {
		const chars = randomBytes(EVENT_BYTES).toString('base64').split('');
		// Characters 0..19 each carry 6 bits of the first 15 bytes only: replacing two of them
		// keeps the text canonical base64 of (other) 16 bytes.
		const plus = randomBytes(1)[0] % 20;
		const slash = (plus + 1 + (randomBytes(1)[0] % 19)) % 20;
		chars[plus] = '+';
		chars[slash] = '/';
		const id = chars.join('');
		const head = id.slice(0, 20);
		if (HAS_UPPER.test(head) && HAS_LOWER.test(head)) return id;
	}
}

/** Whether a text is an event id of the shape {@link newEventId} makes. */
export function isEventIdShape(id: string): boolean {
	if (id.length !== 24) return false;
	const bytes = Buffer.from(id, 'base64');
	return bytes.length === EVENT_BYTES && bytes.toString('base64') === id;
}

/** An iCalendar UID for a new event (not an id). */
export function newUid(): string {
	return `${randomUUID()}@sandbox.example`;
}

function checkByte(bytes: Buffer): number {
	let sum = 0x5a;
	for (let i = 0; i < INSTANCE_BYTES - 1; i++) sum = (sum * 31 + bytes[i]) & 0xff;
	return sum;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Instance ids of one series. The first 15 bytes of an instance id are the master's, so the first
 * 20 characters of its base64 are the master id's; only the last 7 bytes (12 characters with the
 * padding) vary, and only they are encoded per occurrence.
 */
export class InstanceIds {
	private readonly head: string;

	private readonly master: Buffer;

	/** Check-byte state after the 16 master bytes. */
	private readonly partial: number;

	private readonly cache = new Map<string, string>();

	constructor(readonly masterId: string) {
		this.master = Buffer.alloc(EVENT_BYTES);
		Buffer.from(masterId, 'base64').copy(this.master, 0, 0, EVENT_BYTES);
		this.head = this.master.toString('base64').slice(0, 20);
		let sum = 0x5a;
		for (let i = 0; i < EVENT_BYTES; i++) sum = (sum * 31 + this.master[i]) & 0xff;
		this.partial = sum;
	}

	/** The id of the occurrence with this recurrence id (a LocalDateTime). */
	of(recurrenceId: string): string {
		const cached = this.cache.get(recurrenceId);
		if (cached !== undefined) return cached;
		const localMs = parseLocalDateTime(recurrenceId);
		if (localMs === null) throw new RangeError(`Invalid recurrence id: ${recurrenceId}`);
		const tail = [this.master[15], 0, 0, 0, 0, 0, 0];
		let seconds = Math.floor(localMs / 1000) + EPOCH_OFFSET_S;
		for (let i = 4; i >= 0; i--) {
			tail[1 + i] = (seconds % 256) ^ this.master[11 + i];
			seconds = Math.floor(seconds / 256);
		}
		let sum = this.partial;
		for (let i = 1; i <= 5; i++) sum = (sum * 31 + tail[i]) & 0xff;
		tail[6] = sum;
		// Bytes 15..21 start at bit 120 = character 20: groups of 3 bytes, then 1 byte and "==".
		let text = this.head;
		for (let i = 0; i < 6; i += 3) {
			const n = (tail[i] << 16) | (tail[i + 1] << 8) | tail[i + 2];
			text += BASE64[n >> 18] + BASE64[(n >> 12) & 63] + BASE64[(n >> 6) & 63] + BASE64[n & 63];
		}
		text += `${BASE64[tail[6] >> 2]}${BASE64[(tail[6] & 3) << 4]}==`;
		if (this.cache.size >= 10_000) this.cache.clear();
		this.cache.set(recurrenceId, text);
		return text;
	}
}

const makers = new Map<string, InstanceIds>();

/** The instance ids of the series `masterId` (kept for the most recently used series). */
export function instanceIdsOf(masterId: string): InstanceIds {
	let maker = makers.get(masterId);
	if (!maker) {
		if (makers.size >= 5_000) makers.clear();
		maker = new InstanceIds(masterId);
		makers.set(masterId, maker);
	}
	return maker;
}

/** The id of the occurrence `recurrenceId` (a LocalDateTime) of the series `masterId`. */
export function instanceIdOf(masterId: string, recurrenceId: string): string {
	return instanceIdsOf(masterId).of(recurrenceId);
}

/** The same id built byte by byte (the definition {@link InstanceIds} follows; used by tests). */
export function instanceIdBytes(masterId: string, recurrenceId: string): string {
	const localMs = parseLocalDateTime(recurrenceId);
	if (localMs === null) throw new RangeError(`Invalid recurrence id: ${recurrenceId}`);
	const bytes = Buffer.alloc(INSTANCE_BYTES);
	Buffer.from(masterId, 'base64').copy(bytes, 0, 0, EVENT_BYTES);
	let seconds = Math.floor(localMs / 1000) + EPOCH_OFFSET_S;
	for (let i = 4; i >= 0; i--) {
		bytes[EVENT_BYTES + i] = (seconds % 256) ^ bytes[11 + i];
		seconds = Math.floor(seconds / 256);
	}
	bytes[INSTANCE_BYTES - 1] = checkByte(bytes);
	return bytes.toString('base64');
}

/** The series and recurrence id an instance id names, or undefined when the text is not an instance id. */
export function parseInstanceId(id: string): { masterId: string; recurrenceId: string } | undefined {
	if (id.length !== 32) return undefined;
	const bytes = Buffer.from(id, 'base64');
	if (bytes.length !== INSTANCE_BYTES || bytes.toString('base64') !== id) return undefined;
	if (bytes[INSTANCE_BYTES - 1] !== checkByte(bytes)) return undefined;
	let seconds = 0;
	for (let i = 0; i < 5; i++) seconds = seconds * 256 + (bytes[EVENT_BYTES + i] ^ bytes[11 + i]);
	const localMs = (seconds - EPOCH_OFFSET_S) * 1000;
	const recurrenceId = formatLocalDateTime(localMs);
	if (parseLocalDateTime(recurrenceId) !== localMs) return undefined;
	return { masterId: bytes.subarray(0, EVENT_BYTES).toString('base64'), recurrenceId };
}
