import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	NodeApiError,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { serviceStatus } from '../../../shared/transport/errors';
import { locatorValue } from '../../../shared/fields/fields';
import { runItemRequest } from '../../../shared/transport/transport';
import { calendarFields, EVENT_RESOURCE, eventIdField, eventLocator } from '../../shared/eventFields';
import { showFor } from '../../../shared/fields/displayOptions';

/** Series update mode of v3 update and delete; sent in the query only, as the interface requires. */
export function seriesModeField(operation: string): INodeProperties {
	return {
		displayName: 'Series Mode',
		name: 'seriesUpdateMode',
		type: 'options',
		options: [
			{ name: 'This Occurrence', value: 'single', description: 'Only this event or occurrence' },
			{ name: 'This and Following', value: 'future', description: 'This occurrence and all later ones of the series' },
			{ name: 'All Occurrences', value: 'all', description: 'The whole series' },
		],
		default: 'single',
		description: 'For recurring events. A non-recurring event accepts only This Occurrence.',
		displayOptions: showFor(EVENT_RESOURCE, [operation], { apiVersion: ['v3'] }),
		routing: { send: { type: 'query', property: 'seriesUpdateMode' } },
	};
}

/** A delete answers 204 with no body: the output names the event. */
export async function outputDeleted(this: IExecuteSingleFunctions): Promise<INodeExecutionData[]> {
	return [{ json: { id: locatorValue(this.getNodeParameter('eventId', '')), deleted: true } }];
}

/**
 * A delete of an event that is already gone answers 404. By default that counts as success
 * ("the event is gone"), as the interface recommends.
 */
async function sendDelete(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const goneIsSuccess = this.getNodeParameter('goneIsSuccess', true) as boolean;
	const id = locatorValue(this.getNodeParameter('eventId', ''));
	return await runItemRequest(this, requestData, async () => {
		let failure: unknown;
		try {
			return await this.makeRoutingRequest(requestData);
		} catch (error) {
			failure = error;
		}
		if (goneIsSuccess && serviceStatus(failure) === 404) return [{ json: { id, deleted: true, alreadyDeleted: true } }];
		throw failure as NodeApiError;
	});
}

export const eventDeleteDescription: INodeProperties[] = [
	// The calendar first: the Event field's list shows its events.
	...calendarFields('delete', ['v3'], 'Calendar of the event'),
	eventLocator(showFor(EVENT_RESOURCE, ['delete'], { apiVersion: ['v3'] })),
	eventIdField(showFor(EVENT_RESOURCE, ['delete'], { apiVersion: ['v1'] })),
	seriesModeField('delete'),
	{
		displayName: 'Already Deleted Counts as Success',
		name: 'goneIsSuccess',
		type: 'boolean',
		default: true,
		description: 'Whether deleting an event that is already gone (the service answers 404) succeeds with alreadyDeleted: true instead of failing',
		displayOptions: showFor(EVENT_RESOURCE, ['delete'], { apiVersion: ['v3', 'v1'] }),
		routing: { operations: { pagination: sendDelete } },
	},
];
