import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { authorizeRequest } from './serviceAddress';

/** Bearer token for the older (v1) events interface, which also offers RSVP. */
export class CtsSyncApi implements ICredentialType {
	name = 'ctsSyncApi';

	displayName = 'CTS Sync API';

	icon: Icon = { light: 'file:../icons/cts.svg', dark: 'file:../icons/cts.dark.svg' };

	documentationUrl =
		'https://github.com/calendar-task-service/n8n-nodes-calendar-task-service#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Bearer Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Token (JWT) for the v1 events interface, sent as "Bearer <token>"',
		},
		{
			displayName: 'Sync URL',
			name: 'syncUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:8787',
			placeholder: 'https://sync.example.com',
			description: 'Address of the v1 events interface, without the /v1 path',
			hint: 'The default is the local sandbox. Set the service\'s sync URL to work with real data.',
		},
	];

	/** Adds the Authorization header and the service's address (see {@link authorizeRequest}). */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return authorizeRequest(requestOptions, `Bearer ${String(credentials.token)}`, credentials.syncUrl);
	}

	// The v1 interface has no read that costs 1 point. An update that names no event is
	// checked for authorization first and then refused with 400, so it costs 1 point and
	// changes nothing; the error body tells a valid token (400, with an errorRef) from an
	// invalid one (401) or a plan without API access (403).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.syncUrl.replace(/\\/+$/, "")}}',
			url: '/v1/events/update',
			method: 'POST',
			body: {},
			json: true,
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: 401,
					message: 'Invalid or expired token: the service did not accept it',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: 403,
					message: 'The token is valid, but its plan lacks API access',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: 429,
					message: 'Rate limit reached: try the test again in a few minutes',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: 404,
					message: 'The Sync URL did not answer like the service: check the address',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'errorRef',
					value: undefined,
					message: 'The Sync URL did not answer like the service: check the address',
				},
			},
		],
	};
}
