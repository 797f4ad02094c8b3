import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { calendarRef, isWritable, labelledCalendars } from './calendarLists';
import { readForPicker } from '../transport/listCache';

/**
 * "From List" of the Calendar field: the calendars the user may write events to, each stored
 * with its account (see {@link calendarRef}). A search filters the list already read, by name,
 * address, provider or calendar ID.
 */
export async function searchCalendars(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const calendars = await readForPicker(this, 'its calendars', 'byId', async () => await labelledCalendars(this));
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: calendars
			.filter(({ calendar }) => isWritable(calendar))
			.filter(({ calendar, label }) => !needle || label.toLowerCase().includes(needle) || calendar.id.toLowerCase() === needle)
			.map(({ calendar, label }) => ({ name: label, value: calendarRef(calendar.accountId, calendar.id) })),
	};
}
