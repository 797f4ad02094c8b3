import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { outputFields } from '../../../shared/output/outputShape';
import { multiRequestRouting } from '../../../shared/transport/itemOperation';
import { maxWaitOnlyOptions } from '../../../shared/transport/transport';
import { EVENT_RESOURCE } from '../../shared/eventFields';
import { SIMPLIFIED_EVENT_FIELDS } from '../../../shared/output/simplifyEvent';
import { outputEvent } from '../../shared/eventOutput';
import { eventCreateDescription, sendCreateTiming } from './create';
import { eventDeleteDescription, outputDeleted } from './delete';
import { eventGetDescription } from './get';
import { eventGetManyDescription, listEvents } from './getAll';
import { eventRsvpDescription, rsvpOutput, sendRsvpPath } from './rsvp';
import { eventUpdateDescription, prepareUpdate, verifyRemovals } from './update';
import { showFor } from '../../../shared/fields/displayOptions';

function operations(version: 'v3' | 'v1'): INodePropertyOptions[] {
	const all: INodePropertyOptions[] = [
		{
			name: 'Create',
			value: 'create',
			action: 'Create an event',
			description: 'Create an event, optionally recurring, with participants, alerts and a video room',
			routing: {
				request: { method: 'POST', url: `/${version}/events/create` },
				send: { preSend: [sendCreateTiming] },
				output: { postReceive: [outputEvent] },
			},
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete an event',
			description: version === 'v3'
				? 'Delete an event, one occurrence, this and following occurrences, or a whole series'
				: 'Delete an event or one occurrence (V1 has no series modes)',
			routing: {
				request: { method: 'POST', url: `/${version}/events/delete` },
				output: { postReceive: [outputDeleted] },
			},
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get an event',
			description: 'Read one event, series master or occurrence by its ID',
			routing: {
				request: { method: 'GET', url: '/v3/events' },
				output: { postReceive: [outputEvent] },
			},
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many events',
			description: version === 'v3'
				? 'List the events of one or more calendars in a time range; recurring events as occurrences or series'
				: 'List the events of one or more calendars in a time range, recurring events as occurrences',
			routing: multiRequestRouting(listEvents),
		},
		{
			name: 'Respond to Invitation',
			value: 'rsvp',
			action: 'Respond to an invitation',
			description: 'Accept, decline or tentatively accept an event you are invited to (RSVP), as the owner of its account',
			routing: {
				// The path is set once the answer is checked (see sendRsvpPath).
				request: { method: 'POST', url: '/v1/events/' },
				send: { preSend: [sendRsvpPath] },
				output: { postReceive: [rsvpOutput] },
			},
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update an event',
			description: version === 'v3'
				? 'Change only the fields you set, of one occurrence, this and following ones, or a whole series'
				: 'Change only the fields you set, of one event or occurrence (V1 has no series modes)',
			routing: {
				request: { method: 'POST', url: `/${version}/events/update` },
				send: { preSend: [prepareUpdate] },
				output: { postReceive: [verifyRemovals, outputEvent] },
			},
		},
	];
	// v3 has no RSVP; v1 has no Get.
	const missing = version === 'v3' ? 'rsvp' : 'get';
	return all.filter((operation) => operation.value !== missing);
}

export const eventDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { apiVersion: ['v3'], resource: [EVENT_RESOURCE] } },
		options: operations('v3'),
		default: 'create',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { apiVersion: ['v1'], resource: [EVENT_RESOURCE] } },
		options: operations('v1'),
		default: 'create',
	},
	...eventCreateDescription,
	...eventGetDescription,
	...eventGetManyDescription,
	...eventUpdateDescription,
	...eventDeleteDescription,
	...eventRsvpDescription,
	...outputFields(showFor(EVENT_RESOURCE, ['create', 'get', 'getAll', 'update'], { apiVersion: ['v3', 'v1'] }), 'event', SIMPLIFIED_EVENT_FIELDS),
	// Get Many has Maximum Wait among its own options.
	maxWaitOnlyOptions(showFor(EVENT_RESOURCE, ['create', 'delete', 'get', 'rsvp', 'update'], { apiVersion: ['v3', 'v1'] })),
];
