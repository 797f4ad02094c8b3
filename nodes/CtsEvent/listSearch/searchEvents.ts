import type { DateTime } from 'luxon';
import { NodeOperationError, type IDataObject, type ILoadOptionsFunctions, type INodeListSearchResult } from 'n8n-workflow';

import { localInterval } from '../../shared/time/dates';
import { EVENT_LIST_DAYS } from '../../shared/calendar/eventListing';
import { cachedList, readForPicker } from '../../shared/transport/listCache';
import { ctsRequest } from '../../shared/transport/transport';
import { resolveCalendar } from '../../shared/calendar/calendarTarget';

/** An event's start where it happens: "Tue 1 Dec 2026, 09:00" (the date alone for all-day events). */
function startLabel(event: IDataObject, start: DateTime | undefined): string {
	if (!start) return String(event.start ?? '');
	return start.toFormat(event.showWithoutTime === true ? 'ccc d LLL yyyy' : 'ccc d LLL yyyy, HH:mm', { locale: 'en-GB' });
}

/**
 * "From List" of the Event field (v3 update and delete): the events of the chosen Calendar from
 * now to four weeks ahead, each occurrence of a series on its own, soonest first (one list call,
 * 10 points, reused for a minute). A search filters by title, or finds an exact event ID.
 */
export async function searchEvents(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const { accountId, calendarId } = await resolveCalendar(
		this,
		this.getCurrentNodeParameter('calendarId'),
		this.getCurrentNodeParameter('accountId'),
		(field, problem, description) => new NodeOperationError(this.getNode(), `${field}: ${problem}`, { description: description ?? 'The list shows the events of the chosen calendar.' }),
	);
	const events = await readForPicker(this, 'its events', 'byId', async () => await cachedList(this, 'ctsApi', `events:${accountId}:${calendarId}`, async () => {
		const now = Date.now();
		const qs = {
			accountId,
			calendarIds: calendarId,
			start: new Date(now).toISOString(),
			end: new Date(now + EVENT_LIST_DAYS * 24 * 3600_000).toISOString(),
		};
		const answer = await ctsRequest.call(this, 'ctsApi', { method: 'GET', url: '/v3/events/list', qs });
		return ((answer.data as IDataObject | undefined)?.events as IDataObject[] | undefined) ?? [];
	}));
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: events
			.filter((event) => !needle || String(event.title ?? '').toLowerCase().includes(needle) || event.id === filter?.trim())
			.map((event) => ({ event, start: localInterval(event.start, event.duration, event.timeZone)?.start }))
			.sort((a, b) => (a.start?.toMillis() ?? 0) - (b.start?.toMillis() ?? 0))
			.map(({ event, start }) => ({ name: `${String(event.title ?? '(no title)')} (${startLabel(event, start)})`, value: String(event.id) })),
	};
}
