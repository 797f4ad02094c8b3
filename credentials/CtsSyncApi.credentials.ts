import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { authorizeRequest } from './serviceAddress';

/** Bearer token for the older (v1) events interface, which also offers RSVP. Tested by the Event node (`ctsSyncApiTest`). */
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
			default: '',
			placeholder: 'e.g. https://sync.example.com',
			description: 'Address of the v1 events interface, without the /v1 path. Requests carry the token, so use https for anything but a service on this machine.',
		},
	];

	/** Adds the Authorization header and the service's address (see {@link authorizeRequest}). */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return authorizeRequest(requestOptions, `Bearer ${String(credentials.token)}`, credentials.syncUrl);
	}
}
