import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { authorizeRequest } from './serviceAddress';

/** API key for the current (v3) interface: tasks and calendar events. Tested by the nodes (`ctsApiTest`). */
export class CtsApi implements ICredentialType {
	name = 'ctsApi';

	displayName = 'CTS API';

	icon: Icon = { light: 'file:../icons/cts.svg', dark: 'file:../icons/cts.dark.svg' };

	documentationUrl =
		'https://github.com/calendar-task-service/n8n-nodes-calendar-task-service#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'API key of your Calendar and Task Service account, sent as "ApiKey <key>"',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://api.example.com',
			description: 'Address of the service, without the /v3 path. Requests carry the key, so use https for anything but a service on this machine.',
		},
	];

	/** Adds the Authorization header and the service's address (see {@link authorizeRequest}). */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return authorizeRequest(requestOptions, `ApiKey ${String(credentials.apiKey)}`, credentials.baseUrl);
	}
}
