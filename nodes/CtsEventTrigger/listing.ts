import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { PerUser, triggerSpender } from '../shared/pacing/triggerPacing';

/** A trigger that has not polled for this long no longer holds the shared window open for itself. */
const READER_TTL_MS = 2 * 3600 * 1000;

/** One list call's answer over a trigger's window, and the service's and local time it was read at. */
export interface Listing {
	listed: IDataObject[];
	serviceNowMs: number;
	localTimeMs: number;
	startMs: number;
	endMs: number;
	/** The trigger that read it: it does not take its own listing again (after a re-activation it lists anew). */
	by?: string;
	/**
	 * What reads since the listing told of events that left it (null: gone), so that triggers
	 * taking the listing do not read the same event again.
	 */
	reads?: Map<string, IDataObject | null>;
}

/** How old (on the local clock) a listing may be for another trigger to take it: triggers on one schedule poll within this. */
const FRESH_MS = 30 * 1000;

/**
 * The listing that Event Triggers of one user over the same account, calendars and window
 * (look ahead, look back) share in one n8n process: the newest one read, and since when each of
 * them needs the window (its previous check's service time), so that one list call reaches back
 * far enough for all of them. A trigger whose previous check is older than the newest listing
 * takes that listing as its own check, as if it had polled then: nothing sent; the next check
 * compares with it. Only a trigger that has seen the newest listing lists again.
 */
export interface SharedListing {
	key: string;
	latest?: Listing;
	readers: Map<string, { sinceMs: number; at: number }>;
	/** The list call under way: a trigger that polls meanwhile waits for it instead of sending the same. */
	reading?: Promise<unknown>;
}

/** Each user's shared listings, by key. */
const listings = new PerUser<Map<string, SharedListing>>(() => new Map());

/** The shared listing for this key (account, calendars, look ahead and back) of the trigger's user. */
export async function sharedListing(context: IPollFunctions, key: string): Promise<SharedListing> {
	const byKey = await listings.of(context);
	let shared = byKey.get(key);
	if (!shared) {
		shared = { key, readers: new Map() };
		byKey.set(key, shared);
	}
	while (shared.reading) await shared.reading.catch(() => undefined);
	return shared;
}

/**
 * Notes the trigger as a reader since `sinceMs`, and returns the newest listing when another
 * trigger read it moments ago, after this one's previous check, reaching back to it; undefined
 * when the trigger must list.
 */
export function takeListing(context: IPollFunctions, shared: SharedListing, sinceMs: number | undefined, lookBackMs: number): Listing | undefined {
	const now = Date.now();
	const reader = triggerSpender(context);
	shared.readers.set(reader, { sinceMs: sinceMs ?? Number.POSITIVE_INFINITY, at: now });
	const latest = shared.latest;
	if (!latest || latest.by === reader || now - latest.localTimeMs > FRESH_MS) return undefined;
	// A first check only learns what is there: any fresh listing serves it.
	if (sinceMs === undefined) return latest;
	if (latest.serviceNowMs <= sinceMs) return undefined;
	return latest.startMs <= Math.min(sinceMs, latest.serviceNowMs - lookBackMs) ? latest : undefined;
}

/** The earliest previous check among the triggers sharing the listing: where a list call starts at the latest. */
export function oldestReader(shared: SharedListing): number {
	const now = Date.now();
	let oldest = Number.POSITIVE_INFINITY;
	for (const [reader, { sinceMs, at }] of shared.readers) {
		if (now - at > READER_TTL_MS) shared.readers.delete(reader);
		else oldest = Math.min(oldest, sinceMs);
	}
	return oldest;
}
