import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { getAccounts } from '../shared/calendar/calendarLists';
import { getAccountCalendars } from '../shared/calendar/watchedCalendars';
import { ctsApiTest } from '../shared/credentials/connectionTests';
import { getTimeZones, getTimeZonesOrKeep } from '../shared/time/timeZones';
import { eventNodeDescription } from './description';
import { searchCalendars } from '../shared/calendar/searchCalendars';
import { searchEvents } from './listSearch/searchEvents';
import { getReadableCalendars } from '../shared/calendar/readableCalendars';

/** Events and calendars through the current interface (V3, API key). */
export class CtsEvent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Event',
		name: 'ctsEvent',
		description: 'Create, read, update and delete calendar events, list calendars and find free time in them, in the Calendar and Task Service (current V3 interface, API key)',
		defaults: { name: 'CTS Event' },
		icon: { light: 'file:../../icons/cts-event.svg', dark: 'file:../../icons/cts-event.dark.svg' },
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		usableAsTool: true,
		credentials: [{ name: 'ctsApi', required: true, testedBy: 'ctsApiTest' }],
		...eventNodeDescription('v3'),
	};

	methods = {
		loadOptions: { getTimeZones, getTimeZonesOrKeep, getAccounts, getAccountCalendars, getReadableCalendars },
		listSearch: { searchCalendars, searchEvents },
		credentialTest: { ctsApiTest },
	};
}
