import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { eventNodeDescription } from './description';
import { ctsSyncApiTest } from '../shared/credentials/connectionTests';
import { getTimeZones, getTimeZonesOrKeep } from '../shared/time/timeZones';

/** Events through the older V1 interface (bearer token), the only one that answers invitations. */
export class CtsEventV1 implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Event V1',
		name: 'ctsEventV1',
		description: 'Create, update and delete calendar events and respond to invitations through the older V1 interface of the Calendar and Task Service (bearer token)',
		defaults: { name: 'CTS Event V1' },
		icon: { light: 'file:../../icons/cts-event.svg', dark: 'file:../../icons/cts-event.dark.svg' },
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		usableAsTool: true,
		credentials: [{ name: 'ctsSyncApi', required: true, testedBy: 'ctsSyncApiTest' }],
		...eventNodeDescription('v1'),
	};

	methods = {
		loadOptions: { getTimeZones, getTimeZonesOrKeep },
		credentialTest: { ctsSyncApiTest },
	};
}
