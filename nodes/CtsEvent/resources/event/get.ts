import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/eventFields';

export const eventIdDescription =
	'Event ID exactly as the service gave it (IDs contain characters such as + / = and are case-sensitive; pass them unchanged)';

export const eventGetDescription: INodeProperties[] = [
	{
		displayName: 'Event ID',
		name: 'eventId',
		type: 'string',
		required: true,
		default: '',
		description: `${eventIdDescription}. Works for single events, series masters and occurrences.`,
		displayOptions: showFor(['get'], ['v3']),
		routing: { send: { type: 'query', property: 'id' } },
	},
];
