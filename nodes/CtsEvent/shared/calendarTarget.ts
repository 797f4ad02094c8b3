import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeParameterResourceLocator, NodeApiError } from 'n8n-workflow';

import { listCalendars, parseCalendarRef } from '../../shared/calendarLists';
import { invalidField, serviceStatus } from '../../shared/errors';

/**
 * The account and calendar an event write goes to, from the Calendar field:
 * - "From List" stores both (see `calendarRef`);
 * - "By ID" (or an expression, or a plain value of a workflow made before the list existed)
 *   gives the calendar ID, with the account from the Account ID field;
 * - without an account, the calendar is looked up in the calendar list (10 points, reused for a
 *   minute), so an AI agent or an expression can name a calendar by its ID alone.
 */
export async function calendarTarget(context: IExecuteSingleFunctions): Promise<{ accountId: string; calendarId: string }> {
	const field = context.getNodeParameter('calendarId', '') as INodeParameterResourceLocator | string;
	const fromList = typeof field === 'object' && field?.mode === 'list';
	const value = String((typeof field === 'object' ? field?.value : field) ?? '').trim();
	if (!value) throw invalidField(context.getNode(), 'Calendar', 'choose a calendar from the list or enter its ID', context.getItemIndex());
	if (fromList) {
		const ref = parseCalendarRef(value);
		if (ref) return ref;
	}
	const accountId = fromList ? '' : String(context.getNodeParameter('accountId', '') ?? '').trim();
	if (accountId) return { accountId, calendarId: value };

	let calendars: Awaited<ReturnType<typeof listCalendars>>;
	try {
		calendars = await listCalendars(context);
	} catch (error) {
		if (serviceStatus(error) !== 404) throw error as NodeApiError;
		throw invalidField(context.getNode(), 'Account ID', 'enter the account of the calendar', context.getItemIndex(),
			'This service has no calendar list to look the account up in (it answered 404).');
	}
	const calendar = calendars.find((candidate) => candidate.id === value);
	if (!calendar) {
		throw invalidField(context.getNode(), 'Calendar', `no calendar with ID "${value}" in the accounts of this credential`, context.getItemIndex(),
			'Choose the calendar from the list, or check the ID.');
	}
	return { accountId: calendar.accountId, calendarId: calendar.id };
}

/** Writes the account and calendar of the Calendar field into the body (v3 create, update, delete). */
export async function sendCalendarTarget(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const { accountId, calendarId } = await calendarTarget(this);
	requestOptions.body = { ...((requestOptions.body as IDataObject) ?? {}), accountId, calendarId };
	return requestOptions;
}
