import type { INodePropertyOptions, ILoadOptionsFunctions } from 'n8n-workflow';

import { isReadable } from './busyTime';
import { accountsToReconnect, calendarName, isWritable, listCalendars, parseCalendarRef, type CalendarInfo } from './calendarLists';
import { getReadableCalendars } from './readableCalendars';
import type { ServiceContext } from '../transport/credentialUser';
import { invalidField, quoted } from '../transport/errors';
import { listIfCached, pickerOptions, readForPicker } from '../transport/listCache';

/** Calendars of one account: the service lists the events of one account per call. */
export interface AccountCalendars {
	accountId: string;
	calendarIds: string[];
}

export interface WatchedCalendarsOptions {
	/** The field names for errors. */
	accountField?: string;
	calendarsField?: string;
	/**
	 * How old the calendar list may be to serve, and the accounts list when it marks an account as
	 * needing reconnecting (a trigger checks often: an hour); default a minute.
	 */
	listReuseMs?: number;
	/** Called before the calendar list is read (10 points), e.g. to count it in a trigger's allowance. */
	beforeListRead?: () => void;
}

/**
 * The calendars of an Account and Calendars pair of fields (Event Get Many, the Event Trigger),
 * grouped by account. A calendar chosen from the list carries its account (see `calendarRef`);
 * a bare calendar ID belongs to the Account, or, with Account empty, is looked up in the calendar
 * list. No calendars: every calendar the user may read (of the Account, when one is set), leaving
 * out accounts whose connection needs reconnecting (`accountsToReconnect`, the rule of the
 * operations that read busy time). Reads the calendar list only when needed.
 */
export async function watchedCalendars(
	context: ServiceContext,
	itemIndex: number | undefined,
	account: string,
	values: string[],
	{ accountField = 'Account', calendarsField = 'Calendars', listReuseMs, beforeListRead }: WatchedCalendarsOptions = {},
): Promise<AccountCalendars[]> {
	const node = context.getNode();
	const accountId = account.trim();
	let list: CalendarInfo[] | undefined;
	const calendarList = async (): Promise<CalendarInfo[]> => {
		list ??= listReuseMs ? await listIfCached<CalendarInfo[]>(context, 'ctsApi', 'calendars', listReuseMs) : undefined;
		if (!list) {
			beforeListRead?.();
			list = await listCalendars(context);
		}
		return list;
	};
	const groups = new Map<string, Set<string>>();
	const add = (accountOf: string, calendarId: string) => groups.set(accountOf, (groups.get(accountOf) ?? new Set()).add(calendarId));

	if (values.length === 0) {
		const calendars = (await calendarList()).filter((calendar) => isReadable(calendar) && (!accountId || calendar.accountId === accountId));
		const toReconnect = await accountsToReconnect(context, calendars, { mayRead: true, recheckAfterMs: listReuseMs });
		for (const calendar of calendars) if (!toReconnect.has(calendar.accountId)) add(calendar.accountId, calendar.id);
		if (groups.size === 0) {
			const whose = accountId ? `the account ${quoted(accountId)}` : 'the accounts of this credential';
			throw invalidField(node, calendarsField, `${whose} ${accountId ? 'has' : 'have'} no calendar the user may read`, itemIndex ?? 0, 'Choose the calendars from the list, or connect an account in the service.');
		}
	}
	for (const value of values) {
		const ref = parseCalendarRef(value);
		if (ref) {
			add(ref.accountId, ref.calendarId);
			continue;
		}
		if (accountId) {
			add(accountId, value);
			continue;
		}
		const found = (await calendarList()).find((calendar) => calendar.id === value);
		if (!found) {
			throw invalidField(node, calendarsField, `no calendar with ID ${quoted(value)} in the accounts of this credential`, itemIndex ?? 0, `Choose the calendars from the list, or set ${accountField} for IDs of one account.`);
		}
		add(found.accountId, found.id);
	}
	return [...groups].map(([accountOf, calendarIds]) => ({ accountId: accountOf, calendarIds: [...calendarIds] }));
}

/**
 * Dropdown of the Calendars field beside Account (Event Get Many, the Event Trigger). With
 * Account empty: every calendar the user may read, of every account, labelled with its account and
 * stored with it (see `calendarRef`), so the list works on first open and one pick is enough. With
 * an Account: that account's calendars, stored by ID.
 */
export async function getAccountCalendars(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const accountId = String(this.getCurrentNodeParameter('accountId') ?? '').trim();
	if (!accountId) return await getReadableCalendars.call(this);
	return await pickerOptions(async () => {
		const calendars = await readForPicker(this, 'its calendars', 'expression', async () => await listCalendars(this));
		return calendars
			.filter((calendar) => calendar.accountId === accountId)
			.map((calendar) => ({ name: isWritable(calendar) ? calendarName(calendar) : `${calendarName(calendar)} (read-only)`, value: calendar.id }));
	});
}
