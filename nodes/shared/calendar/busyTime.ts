import { NodeOperationError, type IDataObject, type NodeApiError } from 'n8n-workflow';

import { calendarName, listCalendars, parseCalendarRef, type CalendarInfo } from './calendarLists';
import type { ServiceContext } from '../transport/credentialUser';
import { invalidField, quoted, serviceStatus } from '../transport/errors';
import { listEventsOverWindows } from './eventListing';
import type { BusyEvent, Interval } from './freeTime';
import { MAX_WINDOW_MONTHS, RECOMMENDED_WINDOW_MONTHS, splitWindow, type TimeWindow } from '../time/windows';
import { utcIso } from '../time/dates';

/**
 * Reading the busy time of calendars across accounts: which calendars, in which list windows,
 * and what to do with one that cannot be read. The arithmetic is in `freeTime.ts`.
 */

const DAY = 24 * 3600_000;

/** The longest range busy time is read over (Find Free Time, Schedule, Plan Tasks): the service's longest list window. */
export const MAX_RANGE_MONTHS = MAX_WINDOW_MONTHS;

/** Whether the user may read the calendar's events or at least its busy times (rights not shown: yes). */
export function isReadable(calendar: CalendarInfo): boolean {
	const rights = calendar.myRights as { mayReadItems?: boolean; mayReadFreeBusy?: boolean } | undefined;
	return rights === undefined || rights.mayReadItems !== false || rights.mayReadFreeBusy === true;
}

/** The calendars named by the Calendars field (`field`; every readable one when empty), from the calendar list. */
export async function chosenCalendars(context: ServiceContext, itemIndex: number, values: string[], field = 'Calendars'): Promise<CalendarInfo[]> {
	const all = await listCalendars(context);
	if (values.length === 0) {
		const readable = all.filter(isReadable);
		if (readable.length === 0) throw invalidField(context.getNode(), field, 'the accounts of this credential have no calendar the user may read', itemIndex);
		return readable;
	}
	const chosen = new Map<string, CalendarInfo>();
	for (const value of values) {
		const ref = parseCalendarRef(value);
		const found =
			all.find((calendar) => ref && calendar.accountId === ref.accountId && calendar.id === ref.calendarId) ??
			all.find((calendar) => calendar.id === value) ??
			(ref ? { id: ref.calendarId, accountId: ref.accountId } : undefined);
		if (!found) {
			throw invalidField(context.getNode(), field, `no calendar with ID ${quoted(value)} in the accounts of this credential`, itemIndex, 'Choose the calendars from the list, or check the IDs.');
		}
		chosen.set(`${found.accountId}/${found.id}`, found);
	}
	return [...chosen.values()];
}

/**
 * The list windows of a range: windows of at most 2 months (counted in `zone`), the first and
 * last widened by a day and `reachMs` (how far busy time outside the range can reach into it,
 * e.g. buffers), so that events the service places by their UTC reading (all-day and floating
 * ones) and events whose buffers reach into the range are listed too.
 */
function listingWindows(range: Interval, zone: string, reachMs = 0): TimeWindow[] {
	const pad = DAY + reachMs;
	const windows = splitWindow(range.start, range.end, RECOMMENDED_WINDOW_MONTHS, zone);
	windows[0].start = utcIso(range.start - pad);
	windows[windows.length - 1].end = utcIso(range.end + pad);
	return windows;
}

interface Unreadable {
	calendar: CalendarInfo;
	reason: string;
}

const label = (calendar: CalendarInfo) => `${quoted(calendarName(calendar))} (${calendar.id})`;

interface CalendarListing {
	range: Interval;
	zone: string;
	/** How far busy time outside the range can reach into it (buffers), in ms. */
	reachMs?: number;
	/** Leave unreadable calendars out with a notice instead of failing. */
	skipUnreadable?: boolean;
	/** Where the user chooses to skip unreadable calendars, for the error; null: nowhere. */
	skipOption?: string | null;
	/** The field that names the calendars, for the error (default Calendars). */
	calendarsField?: string;
	/**
	 * The user left that field empty (every readable calendar): a calendar whose account cannot
	 * be read is left out with the notice whatever `skipUnreadable` says, as the user never chose it.
	 */
	noneChosen?: boolean;
}

/**
 * The events of the chosen calendars over the range (series as occurrences), one list call per
 * account and window. A calendar that cannot be read is never counted as free: the item fails
 * naming it (at the first one, before reading further accounts), or, when asked or when the user
 * chose no calendars, it is left out and named in one notice (and listed in `unreadable`). The
 * notice concerns the whole result: callers show it once, not on every output item.
 */
export async function listCalendarEvents(
	context: ServiceContext,
	itemIndex: number,
	calendars: CalendarInfo[],
	listing: CalendarListing,
): Promise<{ events: IDataObject[]; notices: string[]; unreadable: CalendarInfo[] }> {
	const skip = listing.skipUnreadable === true || listing.noneChosen === true;
	const unreadable: Unreadable[] = calendars.filter((calendar) => !isReadable(calendar)).map((calendar) => ({ calendar, reason: 'the user has no right to read it' }));
	const byAccount = new Map<string, CalendarInfo[]>();
	for (const calendar of calendars.filter(isReadable)) byAccount.set(calendar.accountId, [...(byAccount.get(calendar.accountId) ?? []), calendar]);
	const windows = listingWindows(listing.range, listing.zone, listing.reachMs);
	const events: IDataObject[] = [];
	for (const [accountId, accountCalendars] of byAccount) {
		if (unreadable.length > 0 && !skip) break;
		try {
			events.push(...(await listEventsOverWindows(context, itemIndex, { version: 'v3', accountId, calendarIds: accountCalendars.map((calendar) => calendar.id), windows })));
		} catch (error) {
			const reason = calendarRefusal(error);
			if (reason === undefined) throw error as NodeApiError;
			unreadable.push(...accountCalendars.map((calendar) => ({ calendar, reason })));
		}
	}
	if (unreadable.length > 0 && !skip) {
		const names = unreadable.map(({ calendar, reason }) => `${label(calendar)}: ${reason}`).join('; ');
		const field = listing.calendarsField ?? 'Calendars';
		const skip = listing.skipOption === null ? '' : `, or set ${listing.skipOption ?? 'Options > Unreadable Calendars'} to Skip With a Notice`;
		throw new NodeOperationError(context.getNode(), `${field}: cannot read ${names}`, {
			itemIndex,
			description: `The busy time of a calendar that cannot be read is unknown, so it is never counted as free. Reconnect the account in the service, or leave the calendar out of ${field}${skip}.`,
		});
	}
	return { events, notices: skippedNotice(unreadable), unreadable: unreadable.map(({ calendar }) => calendar) };
}

/** One notice naming every calendar left out and why (none when nothing was left out). */
function skippedNotice(unreadable: Unreadable[]): string[] {
	if (unreadable.length === 0) return [];
	if (unreadable.length === 1) {
		const [{ calendar, reason }] = unreadable;
		return [`Skipped ${label(calendar)}: it cannot be read (${reason}); its busy time is unknown and not included`];
	}
	const names = unreadable.map(({ calendar, reason }) => `${label(calendar)} (${reason})`).join('; ');
	return [`Skipped ${unreadable.length} calendars that cannot be read; their busy time is unknown and not included: ${names}`];
}

/**
 * A 401 or 403 about the calendars of one account (a connection that expired or was revoked, or
 * no right to read): the service names the account or calendar. A refused credential is not one.
 */
function calendarRefusal(error: unknown): string | undefined {
	const status = serviceStatus(error);
	if (status !== 401 && status !== 403) return undefined;
	const context = ((error as NodeApiError).context?.serviceContext ?? {}) as IDataObject;
	const message = (error as Error).message.replace(/^[^:]+: /, '').replace(/\.$/, '');
	if (context.connection === undefined && context.accountId === undefined && context.calendarId === undefined && !/calendar/i.test(message)) return undefined;
	return message || (status === 401 ? 'the calendar connection has expired' : 'access was refused');
}

/** A busy event as outputs name it: title, UTC times and its calendar (`names`: "account/calendar" → name). */
export function busySummary(busy: BusyEvent, names: Map<string, string>): IDataObject {
	const { event } = busy;
	return {
		id: event.id,
		title: event.title,
		start: utcIso(busy.start),
		end: utcIso(busy.end),
		allDay: event.showWithoutTime === true,
		calendarId: event.calendarId,
		calendarName: names.get(`${String(event.accountId)}/${String(event.calendarId)}`),
		accountId: event.accountId,
		...(event.masterEventId ? { masterEventId: event.masterEventId } : {}),
	};
}
