import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { localInterval } from '../shared/time/dates';

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
	/** Events that left the window and wait for a read to tell deleted from moved (see `poll.ts`). */
	unconfirmed?: KnownEvent[];
	/** Whether the last check only confirmed (without a list call), so that the next one lists. */
	confirmedOnly?: boolean;
	/** The last event delivered as cancelled or deleted, as delivered, for Fetch Test Event. */
	recentCancelled?: IDataObject;
}

export type TriggerEvent = 'created' | 'updated' | 'cancelled' | 'started' | 'ended';

/** Start and end instants of an event as the service gives it (LocalDateTime + zone + duration). */
function eventInstants(event: IDataObject): { startMs: number; endMs: number } | undefined {
	const interval = localInterval(event.start, event.duration, event.timeZone);
	return interval && { startMs: interval.start.toMillis(), endMs: interval.end.toMillis() };
}

/** A hash of the event's JSON with sorted keys, leaving out `updated`. */
function contentHash(event: IDataObject): string {
	const text = JSON.stringify(event, (key, value: unknown) => {
		if (key === 'updated') return undefined;
		if (value && typeof value === 'object' && !Array.isArray(value)) {
			return Object.fromEntries(Object.entries(value as IDataObject).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
		}
		return value;
	});
	return createHash('sha1').update(text).digest('base64');
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

/**
 * Whether a service timestamp lies at or after `sinceMs`, the previous poll's time from the
 * `Date` header. That has whole seconds, so a change in the same second as the previous poll,
 * after it, counts (nothing created is lost); the price is that an event created in that second
 * before the poll, outside its window, counts too when it comes into view. An event without the
 * timestamp counts as new.
 */
function createdOrChangedSince(timestamp: unknown, sinceMs: number): boolean {
	const time = Date.parse(String(timestamp ?? ''));
	return !Number.isFinite(time) || time >= sinceMs;
}

interface PollDecision {
	fired: Array<{ event: TriggerEvent; data: IDataObject }>;
	/** Known events that left the list while their time is still inside the window: deleted, or moved away? */
	vanished: KnownEvent[];
	next: Omit<EventTriggerState, 'serviceTimeMs' | 'localTimeMs'>;
}

/**
 * Compares the events listed now with what the trigger knew. `windowStartMs` is the start of
 * the listed window; `previousMs` and `nowMs` the service times of the previous and this poll;
 * `leadMs` how long before its start an occurrence counts as "starting".
 *
 * An event or occurrence the trigger did not know is "created" only when the service created it
 * after the previous poll (`created`; the occurrences of a new series carry the series'); one
 * changed since then (`updated`) moved into the window, an update; any other only came into
 * view as the window moved on, and is learnt without firing.
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
		if (!before) {
			if (createdOrChangedSince(event.created, previousMs)) fired.push({ event: 'created', data: event });
			else if (createdOrChangedSince(event.updated, previousMs)) fired.push({ event: 'updated', data: event });
		} else if (before.updated !== current.updated && before.content !== current.content) {
			// A series change also moves `updated` of occurrences it did not touch: only content counts.
			fired.push({ event: 'updated', data: event });
		}

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
