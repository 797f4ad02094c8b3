import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, NodeApiError } from 'n8n-workflow';

import { calendarName, isWritable, listCalendars, parseCalendarRef, type CalendarInfo } from './calendarLists';
import type { OperationItem } from '../transport/itemOperation';
import type { ServiceContext } from '../transport/credentialUser';
import { invalidField, quoted, serviceStatus } from '../transport/errors';
import { locatorValue } from '../fields/fields';

interface CalendarTarget {
	accountId: string;
	calendarId: string;
}

/** Raises a problem with a field, in the way of the caller (a run's item, or a list in the editor). */
type FieldProblem = (field: string, problem: string, description?: string) => Error;

/**
 * The account and calendar named by the Calendar field (`calendarField`, as stored) and the
 * Account ID field:
 * - "From List" stores both (see `calendarRef`);
 * - "By ID" (or an expression, or a plain value of a workflow made before the list existed)
 *   gives the calendar ID, with the account from the Account ID field;
 * - without an account, the calendar is looked up in the calendar list (10 points, reused for a
 *   minute), so an AI agent or an expression can name a calendar by its ID alone. A value that
 *   is no calendar's ID but has the form "From List" stores is taken as account and calendar:
 *   n8n's editor copies the stored value into the field when the user switches to "By ID".
 */
export async function resolveCalendar(
	context: ServiceContext,
	calendarField: unknown,
	accountField: unknown,
	problem: FieldProblem,
): Promise<CalendarTarget> {
	const value = locatorValue(calendarField);
	if (!value.trim()) throw problem('Calendar', 'choose a calendar from the list or enter its ID');
	const ref = parseCalendarRef(value);
	if ((calendarField as { mode?: unknown } | null)?.mode === 'list') {
		if (ref) return ref;
	} else {
		const accountId = locatorValue(accountField);
		if (accountId.trim()) return { accountId, calendarId: value };
	}

	let calendars: Awaited<ReturnType<typeof listCalendars>>;
	try {
		calendars = await listCalendars(context);
	} catch (error) {
		if (serviceStatus(error) !== 404) throw error as NodeApiError;
		if (ref) return ref;
		throw problem('Account ID', 'enter the account of the calendar', 'This service has no calendar list to look the account up in (it answered 404).');
	}
	const calendar = calendars.find((candidate) => candidate.id === value);
	if (calendar) return { accountId: calendar.accountId, calendarId: calendar.id };
	if (ref) return ref;
	throw problem('Calendar', `no calendar with ID ${quoted(value)} in the accounts of this credential`, 'Choose the calendar from the list, or check the ID.');
}

/** The account and calendar an item's event write goes to (see {@link resolveCalendar}). */
export async function calendarTarget(context: IExecuteSingleFunctions): Promise<CalendarTarget> {
	return await resolveCalendar(context, context.getNodeParameter('calendarId', ''), context.getNodeParameter('accountId', ''), (field, problem, description) =>
		invalidField(context.getNode(), field, problem, context.getItemIndex(), description),
	);
}

/** Writes the account and calendar of the Calendar field into the body (v3 create, update, delete). */
export async function sendCalendarTarget(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const { accountId, calendarId } = await calendarTarget(this);
	requestOptions.body = { ...((requestOptions.body as IDataObject) ?? {}), accountId, calendarId };
	return requestOptions;
}

/**
 * The calendar an operation writes its blocks or copies to (the Calendar field `calendarId`, named
 * `label` in errors), from the calendar list: one the user may write to.
 */
export async function writableCalendar({ context, itemIndex, parameter }: OperationItem, label: string): Promise<CalendarInfo> {
	const problem = (field: string, text: string, description?: string) => invalidField(context.getNode(), field === 'Calendar' ? label : field, text, itemIndex, description);
	const { accountId, calendarId } = await resolveCalendar(context, parameter('calendarId', ''), '', problem);
	const calendar = (await listCalendars(context)).find((candidate) => candidate.accountId === accountId && candidate.id === calendarId);
	if (!calendar) throw problem('Calendar', `no calendar with ID ${quoted(calendarId)} in the accounts of this credential`);
	if (!isWritable(calendar)) throw problem('Calendar', `the user may not write to ${quoted(calendarName(calendar))}`, 'Choose a calendar from the list: it offers those the user may write to.');
	return calendar;
}
