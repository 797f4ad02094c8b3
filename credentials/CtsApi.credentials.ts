import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { authorizeRequest } from './serviceAddress';

/** API key for the current (v3) interface: tasks and calendar events. */
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
			default: 'http://127.0.0.1:8787',
			placeholder: 'https://api.example.com',
			description: 'Address of the service, without the /v3 path',
			hint: 'The default is the local sandbox. Set the service\'s base URL to work with real data.',
		},
	];

	/** Adds the Authorization header and the service's address (see {@link authorizeRequest}). */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return authorizeRequest(requestOptions, `ApiKey ${String(credentials.apiKey)}`, credentials.baseUrl);
	}

	// Reading a task by an id that cannot exist costs 1 point, changes nothing, and answers
	// 200 for any valid key.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/v3/tasks',
			method: 'GET',
			qs: { id: 'n8n-credential-test' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: { value: 401, message: 'Invalid API key: the service did not accept it' },
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The API key is valid, but its plan lacks API access',
				},
			},
			{
				type: 'responseCode',
				properties: { value: 429, message: 'Rate limit reached: try the test again in a few minutes' },
			},
		],
	};
}
