import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { ctsApiTest, ctsSyncApiTest } from '../shared/credentialTests';
import { getTimeZones } from '../shared/timeZones';
import { pointBudgetOption, transportProperty } from '../shared/transport';
import { eventDescription } from './resources/event';
import { getManyEvents } from './resources/event/getAll';

export class CtsEvent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Event',
		name: 'ctsEvent',
		icon: { light: 'file:../../icons/cts.svg', dark: 'file:../../icons/cts.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"] + " (" + $parameter["authentication"] + ")"}}',
		description: 'Create, read, update, delete and answer calendar events in the Calendar and Task Service',
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
				options: [{ name: 'Event', value: 'event' }],
				default: 'event',
			},
			...eventDescription,
			pointBudgetOption,
		],
	};

	methods = { loadOptions: { getTimeZones }, credentialTest: { ctsApiTest, ctsSyncApiTest } };

	customOperations = { event: { getAll: getManyEvents } };
}
