import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { invalidField } from '../../shared/errors';
import { addNotice, withNotices } from '../../shared/itemState';
import { eventEnd, eventTiming, TimingError, type TimingInput } from './timing';

/**
 * The event of an answer: create, get and v1 create wrap it as `{ data: { event } }`, update
 * returns it as the top-level body. Output as the service gives it, plus a computed `end`
 * (LocalDateTime in the event's zone; for all-day events the day after the last day).
 */
export function withEnd(event: IDataObject): IDataObject {
	const end = eventEnd(event);
	return end === undefined ? event : { ...event, end };
}

export async function outputEvent(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	return [{ json: withNotices(this, withEnd(eventOfAnswer(response))) }];
}

/** The event of an answer: `{ data: { event } }` (create, get, v1 create) or the top-level body (update). */
export function eventOfAnswer(response: IN8nHttpFullResponse): IDataObject {
	const body = (response.body ?? {}) as IDataObject;
	return ((body.data as IDataObject | undefined)?.event as IDataObject | undefined) ?? body;
}

/** Writes the four timing fields into the body, or raises the problem naming the field. */
export function writeTiming(context: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions, input: TimingInput) {
	try {
		const { timing, notices } = eventTiming(input);
		for (const notice of notices) addNotice(context, notice);
		requestOptions.body = { ...((requestOptions.body as IDataObject) ?? {}), ...timing };
	} catch (error) {
		if (error instanceof TimingError) {
			throw invalidField(context.getNode(), error.field, error.message, context.getItemIndex(), error.hint);
		}
		throw invalidField(context.getNode(), 'Start', (error as Error).message, context.getItemIndex());
	}
	return requestOptions;
}

/**
 * Alerts and the calendar's default alerts exclude each other: both set is refused; in v3,
 * alerts alone also switch the defaults off, which the service requires of an event that used
 * them. The v1 interface has no `useDefaultAlerts`, so nothing is added there.
 */
export function checkAlertsCombination(
	context: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
	collection: string,
) {
	const fields = context.getNodeParameter(collection, {}) as IDataObject;
	const alerts = ((fields.alerts as IDataObject | undefined)?.alert as unknown[] | undefined) ?? [];
	if (alerts.length === 0) return;
	if (fields.useDefaultAlerts === true) {
		throw invalidField(
			context.getNode(),
			'Use Default Alerts',
			'cannot be combined with Alerts: remove the alerts, or switch Use Default Alerts off',
			context.getItemIndex(),
		);
	}
	if (context.getNodeParameter('authentication', 'v3') !== 'v3') return;
	requestOptions.body = { ...((requestOptions.body as IDataObject) ?? {}), useDefaultAlerts: false };
}
