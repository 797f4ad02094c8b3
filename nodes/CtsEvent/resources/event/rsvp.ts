import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { invalidField, quoted } from '../../../shared/transport/errors';
import { locatorValue } from '../../../shared/fields/fields';
import { EVENT_RESOURCE, eventIdField } from '../../shared/eventFields';
import { showFor } from '../../../shared/fields/displayOptions';

const RSVP_ACTIONS = ['accept', 'decline', 'tentativelyAccept'];

/** The action an answer names, in any case and with or without spaces ("Decline", "tentatively accept", "tentative"). */
function rsvpAction(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const word = value.replace(/[\s_-]+/g, '').toLowerCase();
	if (word === 'tentative') return 'tentativelyAccept';
	return RSVP_ACTIONS.find((action) => action.toLowerCase() === word);
}

/**
 * The answer becomes part of the path (`/v1/events/<action>`), and Response accepts expressions
 * (and values an AI agent fills in): only the three actions of the interface are let through.
 */
export async function sendRsvpPath(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const value = this.getNodeParameter('rsvpAction', '');
	const action = rsvpAction(value);
	if (!action) {
		throw invalidField(this.getNode(), 'Response', `${quoted(value)} is not an answer: use accept, decline or tentativelyAccept`, this.getItemIndex());
	}
	requestOptions.url = `/v1/events/${action}`;
	return requestOptions;
}

/** What an answered invitation outputs: the event, the answer as the service took it, and success. */
export async function rsvpOutput(this: IExecuteSingleFunctions): Promise<INodeExecutionData[]> {
	const id = locatorValue(this.getNodeParameter('eventId', ''));
	return [{ json: { id, response: rsvpAction(this.getNodeParameter('rsvpAction', '')), success: true } }];
}

const displayOptions = showFor(EVENT_RESOURCE, ['rsvp'], { apiVersion: ['v1'] });

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
