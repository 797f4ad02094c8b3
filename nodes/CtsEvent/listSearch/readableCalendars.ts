import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { calendarRef, labelledCalendars, type CalendarInfo } from '../../shared/calendarLists';
import { readForPicker } from '../../shared/listCache';

/** Whether the user may read the calendar's events or at least its busy times (rights not shown: yes). */
export function isReadable(calendar: CalendarInfo): boolean {
	const rights = calendar.myRights as { mayReadItems?: boolean; mayReadFreeBusy?: boolean } | undefined;
	return rights === undefined || rights.mayReadItems !== false || rights.mayReadFreeBusy === true;
}

/**
 * Dropdown of every calendar of every account that the user may read, labelled with its account,
 * each stored with its account (see {@link calendarRef}).
 */
export async function getReadableCalendars(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const calendars = await readForPicker(this, 'its calendars', 'expression', async () => await labelledCalendars(this));
	return calendars
		.filter(({ calendar }) => isReadable(calendar))
		.map(({ calendar, label }) => ({ name: label, value: calendarRef(calendar.accountId, calendar.id) }));
}
