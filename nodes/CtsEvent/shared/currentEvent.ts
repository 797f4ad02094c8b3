import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { locatorValue } from '../../shared/fields/fields';
import { itemState } from '../../shared/transport/itemState';
import { ctsRequest } from '../../shared/transport/transport';

/**
 * Whether the event an Update names can be read before it is changed: only in v3 (v1 has no
 * read) and when it is named by its Event ID (an occurrence named by series and recurrence ID
 * has no ID to read by).
 */
export function canReadCurrentEvent(context: IExecuteSingleFunctions): boolean {
	return (
		context.getNodeParameter('apiVersion', 'v3') === 'v3' &&
		context.getNodeParameter('identifyBy', 'id') === 'id' &&
		locatorValue(context.getNodeParameter('eventId', '')).trim() !== ''
	);
}

/** The event as it is before the update (`GET /v3/events`, 1 point), read at most once per item. */
export async function currentEvent(context: IExecuteSingleFunctions): Promise<IDataObject> {
	const state = itemState(context);
	state.currentEvent ??= ctsRequest
		.call(context, 'ctsApi', { method: 'GET', url: '/v3/events', qs: { id: locatorValue(context.getNodeParameter('eventId', '')) } })
		.then((answer) => ((answer.data as IDataObject | undefined)?.event as IDataObject | undefined) ?? {});
	return await state.currentEvent;
}
