import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isReadable } from './busyTime';
import { calendarRef, labelledCalendars } from './calendarLists';
import { pickerOptions, readForPicker } from '../transport/listCache';

/**
 * Dropdown of every calendar of every account that the user may read, labelled with its account,
 * each stored with its account (see {@link calendarRef}).
 */
export async function getReadableCalendars(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickerOptions(async () => {
		const calendars = await readForPicker(this, 'its calendars', 'expression', async () => await labelledCalendars(this));
		return calendars.filter(({ calendar }) => isReadable(calendar)).map(({ calendar, label }) => ({ name: label, value: calendarRef(calendar.accountId, calendar.id) }));
	});
}
