import type { IDataObject } from 'n8n-workflow';

import type { CredentialType, ServiceContext } from '../transport/credentialUser';
import { ctsRequest } from '../transport/transport';
import type { TimeWindow } from '../time/windows';

/** How far ahead "From List" of the Event field looks. */
export const EVENT_LIST_DAYS = 28;

interface EventListing {
	version: 'v3' | 'v1';
	/** v3 only: the account the calendars belong to. */
	accountId?: string;
	calendarIds: string[];
	windows: TimeWindow[];
	/** Stops before the next window once this many events are collected. */
	stopAfter?: number;
	/** The key that makes two listed events the same one (default: their ID). */
	key?: (event: IDataObject) => string;
	/** Keeps only the events it accepts (and `stopAfter` counts only those). */
	keep?: (event: IDataObject) => boolean;
}

/**
 * The events of calendars of one account over consecutive windows: one list call (10 points)
 * per window, merged without duplicates (an event that overlaps two windows is listed by both).
 * Series come expanded into occurrences, as the service lists them.
 */
export async function listEventsOverWindows(context: ServiceContext, itemIndex: number, listing: EventListing): Promise<IDataObject[]> {
	const credentialType: CredentialType = listing.version === 'v3' ? 'ctsApi' : 'ctsSyncApi';
	const key = listing.key ?? ((event: IDataObject) => String(event.id));
	const seen = new Set<string>();
	const events: IDataObject[] = [];
	for (const window of listing.windows) {
		if (listing.stopAfter !== undefined && events.length >= listing.stopAfter) break;
		const qs: IDataObject = { calendarIds: listing.calendarIds.join(','), start: window.start, end: window.end };
		if (listing.accountId) qs.accountId = listing.accountId;
		const response = await ctsRequest.call(context, credentialType, { method: 'GET', url: `/${listing.version}/events/list`, qs }, itemIndex);
		for (const event of ((response.data as IDataObject | undefined)?.events as IDataObject[] | undefined) ?? []) {
			const id = key(event);
			if (seen.has(id)) continue;
			seen.add(id);
			if (!listing.keep || listing.keep(event)) events.push(event);
		}
	}
	return events;
}
