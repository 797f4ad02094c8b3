import type { INodeProperties } from 'n8n-workflow';

import { eventIdField, showFor } from '../../shared/eventFields';

const displayOptions = showFor(['rsvp'], ['v1']);

export const eventRsvpDescription: INodeProperties[] = [
	eventIdField(displayOptions),
	{
		displayName: 'Response',
		name: 'rsvpAction',
		type: 'options',
		options: [
			{ name: 'Accept', value: 'accept' },
			{ name: 'Decline', value: 'decline' },
			{ name: 'Tentatively Accept', value: 'tentativelyAccept' },
		],
		default: 'accept',
		description: 'Answer of the account owner to the invitation',
		displayOptions,
	},
	{
		displayName: 'Comment',
		name: 'comment',
		type: 'string',
		default: '',
		description: 'Message sent to the organizer with the answer',
		displayOptions,
		routing: { send: { type: 'body', property: 'comment', value: '={{ $value || undefined }}' } },
	},
	{
		displayName: 'Notify Organizer',
		name: 'notifyOrganizer',
		type: 'boolean',
		default: true,
		description: 'Whether the organizer is told about the answer',
		displayOptions,
		routing: { send: { type: 'body', property: 'notifyOrganizer' } },
	},
];
