import type { IDataObject } from 'n8n-workflow';
import { DateTime, Duration } from 'luxon';

/** What the trigger remembers of one event or occurrence in its window. */
export interface KnownEvent {
	id: string;
	updated: string;
	/** Hash of the event's content without `updated`: a new `updated` with the same content is no change. */
	content: string;
	/** Start and end as UTC epoch milliseconds. */
	startMs: number;
	endMs: number;
	title?: string;
	calendarId?: string;
	masterEventId?: string;
	recurrenceId?: string;
}

/** The trigger's static data. */
export interface EventTriggerState {
	/** Service time of the last successful poll (epoch ms), and the local time it was read at. */
	serviceTimeMs: number;
	localTimeMs: number;
	known: Record<string, KnownEvent>;
	/** `id@startMs` of occurrences whose "starting" / "ended" event already fired. */
	started: string[];
	ended: string[];
}

export type TriggerEvent = 'created' | 'updated' | 'cancelled' | 'started' | 'ended';

/** Start and end instants of an event as the service gives it (LocalDateTime + zone + duration). */
export function eventInstants(event: IDataObject): { startMs: number; endMs: number } | undefined {
	if (typeof event.start !== 'string' || typeof event.duration !== 'string') return undefined;
	// All-day and floating events are read in UTC, as the service reads them for its window.
	const zone = typeof event.timeZone === 'string' && event.timeZone ? event.timeZone : 'UTC';
	const start = DateTime.fromISO(event.start, { zone });
	const duration = Duration.fromISO(event.duration);
	if (!start.isValid || !duration.isValid) return undefined;
	return { startMs: start.toMillis(), endMs: start.plus(duration).toMillis() };
}

/** FNV-1a over the event's JSON with sorted keys, leaving out `updated`. */
export function contentHash(event: IDataObject): string {
	const text = JSON.stringify(event, (key, value: unknown) => {
		if (key === 'updated') return undefined;
		if (value && typeof value === 'object' && !Array.isArray(value)) {
			return Object.fromEntries(Object.entries(value as IDataObject).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
		}
		return value;
	});
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16);
}

export function snapshot(event: IDataObject): KnownEvent | undefined {
	const instants = eventInstants(event);
	if (!instants || typeof event.id !== 'string') return undefined;
	const known: KnownEvent = { id: event.id, updated: String(event.updated ?? ''), content: contentHash(event), ...instants };
	for (const key of ['title', 'calendarId', 'masterEventId', 'recurrenceId'] as const) {
		if (typeof event[key] === 'string') known[key] = event[key] as string;
	}
	return known;
}

export interface PollDecision {
	fired: Array<{ event: TriggerEvent; data: IDataObject }>;
	/** Known events that left the list while their time is still inside the window: deleted, or moved away? */
	vanished: KnownEvent[];
	next: Omit<EventTriggerState, 'serviceTimeMs' | 'localTimeMs'>;
}

/**
 * Compares the events listed now with what the trigger knew. `windowStartMs` is the start of
 * the listed window; `previousMs` and `nowMs` the service times of the previous and this poll;
 * `leadMs` how long before its start an occurrence counts as "starting".
 */
export function decide(
	listed: IDataObject[],
	state: EventTriggerState,
	{ nowMs, previousMs, windowStartMs, windowEndMs, leadMs }: { nowMs: number; previousMs: number; windowStartMs: number; windowEndMs: number; leadMs: number },
): PollDecision {
	const fired: PollDecision['fired'] = [];
	const known: Record<string, KnownEvent> = {};
	const started = new Set(state.started);
	const ended = new Set(state.ended);
	for (const event of listed) {
		const current = snapshot(event);
		if (!current) continue;
		known[current.id] = current;
		const before = state.known[current.id];
		if (!before) fired.push({ event: 'created', data: event });
		// A series change also moves `updated` of occurrences it did not touch: only content counts.
		else if (before.updated !== current.updated && before.content !== current.content) fired.push({ event: 'updated', data: event });

		const occurrence = `${current.id}@${current.startMs}`;
		const startsAt = current.startMs - leadMs;
		if (startsAt <= nowMs && startsAt > previousMs && !started.has(occurrence)) fired.push({ event: 'started', data: event });
		if (startsAt <= nowMs) started.add(occurrence);
		const endOccurrence = `${current.id}@${current.endMs}`;
		if (current.endMs <= nowMs && current.endMs > previousMs && !ended.has(endOccurrence)) fired.push({ event: 'ended', data: event });
		if (current.endMs <= nowMs) ended.add(endOccurrence);
	}
	const vanished = Object.values(state.known).filter(
		(event) => !known[event.id] && event.endMs > windowStartMs && event.startMs < windowEndMs,
	);
	// Forget what fell out of the window, so the state stays the size of the window.
	const inWindow = (key: string) => known[key.slice(0, key.lastIndexOf('@'))] !== undefined;
	return {
		fired,
		vanished,
		next: { known, started: [...started].filter(inWindow), ended: [...ended].filter(inWindow) },
	};
}
