import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { invalidField } from '../../shared/transport/errors';
import { addNotice, itemState, withNotices } from '../../shared/transport/itemState';
import { shapeOutput } from '../../shared/output/outputShape';
import { simplifyEvent } from '../../shared/output/simplifyEvent';
import { eventTiming, TimingError, type TimingInput } from './timing';

export async function outputEvent(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const answered = eventOfAnswer(response);
	itemState(this).answeredEvent = answered;
	const event = withNotices(this, answered);
	return [{ json: shapeOutput((name, fallback) => this.getNodeParameter(name, fallback), event, simplifyEvent) }];
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
	if (context.getNodeParameter('apiVersion', 'v3') !== 'v3') return;
	requestOptions.body = { ...((requestOptions.body as IDataObject) ?? {}), useDefaultAlerts: false };
}
