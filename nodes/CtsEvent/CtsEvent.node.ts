import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { getAccountCalendars, getAccounts } from '../shared/calendarLists';
import { ctsApiTest, ctsSyncApiTest } from '../shared/credentialTests';
import { getTimeZones } from '../shared/timeZones';
import { pointBudgetOption, transportProperty } from '../shared/transport';
import { searchCalendars } from './listSearch/searchCalendars';
import { searchEvents } from './listSearch/searchEvents';
import { calendarDescription, CALENDAR_RESOURCE } from './resources/calendar';
import { eventDescription } from './resources/event';
import { getManyEvents } from './resources/event/getAll';
import { EVENT_RESOURCE } from './shared/eventFields';

export class CtsEvent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Event',
		name: 'ctsEvent',
		icon: { light: 'file:../../icons/cts.svg', dark: 'file:../../icons/cts.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"] + " (" + $parameter["authentication"] + ")"}}',
		description: 'Create, read, update, delete and answer calendar events, and list calendars, in the Calendar and Task Service',
		defaults: { name: 'CTS Event' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'ctsApi', required: true, testedBy: 'ctsApiTest', displayOptions: { show: { authentication: ['v3'] } } },
			{ name: 'ctsSyncApi', required: true, testedBy: 'ctsSyncApiTest', displayOptions: { show: { authentication: ['v1'] } } },
		],
		// The credential adds the base URL and the Authorization header (see its `authenticate`).
		requestDefaults: {
			headers: { Accept: 'application/json' },
			json: true,
			ignoreHttpStatusErrors: true,
		},
		properties: [
			transportProperty,
			{
				// RoutingNode picks the credential by this parameter's name, hence "authentication".
				displayName: 'API Version',
				name: 'authentication',
				type: 'options',
				options: [
					{ name: 'V3 (Current, API Key)', value: 'v3', description: 'Tasks and events with the CTS API credential' },
					{ name: 'V1 (Older, Bearer Token, RSVP)', value: 'v1', description: 'Events with the CTS Sync API credential; has RSVP, no Get' },
				],
				default: 'v3',
			},
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { authentication: ['v3'] } },
				options: [
					{ name: 'Calendar', value: CALENDAR_RESOURCE },
					{ name: 'Event', value: EVENT_RESOURCE },
				],
				default: EVENT_RESOURCE,
			},
			{
				// The v1 credential cannot list calendars.
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { authentication: ['v1'] } },
				options: [{ name: 'Event', value: EVENT_RESOURCE }],
				default: EVENT_RESOURCE,
			},
			...eventDescription,
			...calendarDescription,
			pointBudgetOption,
		],
	};

	methods = {
		loadOptions: { getTimeZones, getAccounts, getAccountCalendars },
		listSearch: { searchCalendars, searchEvents },
		credentialTest: { ctsApiTest, ctsSyncApiTest },
	};

	customOperations = { event: { getAll: getManyEvents } };
}
