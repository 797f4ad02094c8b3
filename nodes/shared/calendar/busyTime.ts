import { NodeOperationError, type IDataObject, type NodeApiError } from 'n8n-workflow';

import { accountsToReconnect, calendarName, listCalendars, parseCalendarRef, type CalendarInfo } from './calendarLists';
import type { ServiceContext } from '../transport/credentialUser';
import { invalidField, quoted, serviceStatus } from '../transport/errors';
import { listEventsOverWindows } from './eventListing';
import { eventsOncePerExecution } from './executionEventLists';
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

/** The calendars named by the Calendars field (`field`), from the calendar list `all`. */
function namedCalendars(context: ServiceContext, itemIndex: number, all: CalendarInfo[], values: string[], field: string): CalendarInfo[] {
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
const sameCalendar = (a: CalendarInfo, b: CalendarInfo) => a.accountId === b.accountId && a.id === b.id;
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** What an operation reads busy time or events from (see {@link readCalendarEvents}). */
export interface CalendarReading {
	/** The values of the calendars field: calendars picked by name or ID; empty: see `emptyMeansOwn`. */
	values: string[];
	/** That field's name, for errors (e.g. Calendars, Check Calendars). */
	field: string;
	/** The Unreadable Calendars option, for calendars picked by name (an operation without the option: fail). */
	unreadable: 'fail' | 'skip';
	/** Where the user sets the option, for the error; null: the operation has none. */
	skipOption?: string | null;
	/**
	 * The calendar the operation itself works in (a block's, an event's): always read, and one
	 * that cannot be read fails the item with `ownProblem` whatever the option says.
	 */
	own?: CalendarInfo;
	/** Why the own calendar must be read, after "cannot read "X" (id), so …". */
	ownProblem?: string;
	/** Empty `values` mean the own calendar only (the guards), not every readable calendar. */
	emptyMeansOwn?: boolean;
	range: Interval;
	zone: string;
	/** How far busy time outside the range can reach into it (buffers), in ms. */
	reachMs?: number;
	/** Lists read once per execution and shared with its later nodes that ask for the same (see `executionEventLists.ts`). */
	oncePerExecution?: boolean;
}

export interface CalendarEvents {
	/** The calendars picked (every readable one when the field is empty; the own one not added). */
	chosen: CalendarInfo[];
	events: IDataObject[];
	/** One notice naming the calendars left out, or none: said once, on the first output item. */
	notices: string[];
	leftOut: Array<{ calendar: CalendarInfo; reason: string }>;
}

/**
 * The one rule of every operation that reads busy time or lists events across calendars (Find
 * Free Time, Get Agenda, Schedule in Calendar, Plan Tasks, the guards of Create and Update):
 *
 * - An empty calendars field means every calendar the user may read; one that cannot be read is
 *   left out, named in one notice. A calendar picked by name that cannot be read follows the
 *   Unreadable Calendars option: the item fails naming it, or it is left out with the notice.
 * - A calendar of an account the accounts list marks as needing reconnection is not read at all
 *   (it would answer 401 or 403 for 10 points). The list is read for an empty field (reused for an
 *   hour, read again when a minute old and it marks an account); for calendars picked by name
 *   only a list already at hand is used, so a run that names its calendars pays nothing more.
 * - A calendar that cannot be read is never counted as free; the own calendar must be read.
 *
 * Then one list call per account and started 2 months (series as occurrences).
 */
export async function readCalendarEvents(context: ServiceContext, itemIndex: number, reading: CalendarReading): Promise<CalendarEvents> {
	const node = context.getNode();
	const everyReadable = reading.values.length === 0 && reading.emptyMeansOwn !== true;
	// The own calendar alone (a guard with no calendars picked) needs no calendar list.
	const all = everyReadable || reading.values.length > 0 ? await listCalendars(context) : [];
	let chosen: CalendarInfo[];
	if (everyReadable) {
		chosen = all.filter(isReadable);
		if (chosen.length === 0 && !reading.own) throw invalidField(node, reading.field, 'the accounts of this credential have no calendar the user may read', itemIndex);
	} else {
		chosen = namedCalendars(context, itemIndex, all, reading.values, reading.field);
	}
	const own = reading.own ? (all.find((calendar) => sameCalendar(calendar, reading.own!)) ?? reading.own) : undefined;
	const calendars = own && !chosen.some((calendar) => sameCalendar(calendar, own)) ? [...chosen, own] : [...chosen];

	const ownFails = (reason: string) =>
		invalidField(node, 'Calendar', `cannot read ${label(own!)}, ${reading.ownProblem ?? 'so it cannot be checked'}`, itemIndex, `Reason: ${reason}. Choose another calendar, or reconnect its account in the service.`);
	const pickedFails = (unreadable: Unreadable[]) => {
		const names = unreadable.map(({ calendar, reason }) => `${label(calendar)}: ${reason}`).join('; ');
		const skip = reading.skipOption === null ? '' : `, or set ${reading.skipOption ?? 'Options > Unreadable Calendars'} to Skip With a Notice`;
		return new NodeOperationError(node, `${reading.field}: cannot read ${names}`, {
			itemIndex,
			description: `The events of a calendar that cannot be read are unknown, so its time is never counted as free. Reconnect the account in the service, or leave the calendar out of ${reading.field}${skip}.`,
		});
	};
	// Left out with the notice, or the item fails: the own calendar always fails, a picked one under Fail.
	const leftOut: Unreadable[] = [];
	const cannotRead = (unreadable: Unreadable[]) => {
		const ownOne = own && unreadable.find(({ calendar }) => sameCalendar(calendar, own));
		if (ownOne) throw ownFails(ownOne.reason);
		if (!everyReadable && reading.unreadable === 'fail' && unreadable.length > 0) throw pickedFails(unreadable);
		leftOut.push(...unreadable);
	};

	const broken = await accountsToReconnect(context, calendars, { mayRead: everyReadable });
	cannotRead(
		calendars.flatMap((calendar) => {
			if (!isReadable(calendar)) return [{ calendar, reason: 'the user has no right to read it' }];
			const account = broken.get(calendar.accountId);
			if (account) return [{ calendar, reason: `${lowerFirst((account.lastCheckedError ?? 'the connection was lost').replace(/\.$/, ''))}; reconnect the account in the service` }];
			return [];
		}),
	);
	const byAccount = new Map<string, CalendarInfo[]>();
	for (const calendar of calendars) {
		if (leftOut.some((entry) => sameCalendar(entry.calendar, calendar))) continue;
		byAccount.set(calendar.accountId, [...(byAccount.get(calendar.accountId) ?? []), calendar]);
	}
	const windows = listingWindows(reading.range, reading.zone, reading.reachMs);
	const events: IDataObject[] = [];
	for (const [accountId, accountCalendars] of byAccount) {
		try {
			const listing = { accountId, calendarIds: accountCalendars.map((calendar) => calendar.id), windows };
			const read = async () => await listEventsOverWindows(context, itemIndex, { version: 'v3', ...listing });
			events.push(...(reading.oncePerExecution ? await eventsOncePerExecution(context, listing, read) : await read()));
		} catch (error) {
			const reason = calendarRefusal(error);
			if (reason === undefined) throw error as NodeApiError;
			cannotRead(accountCalendars.map((calendar) => ({ calendar, reason })));
		}
	}
	return { chosen, events, notices: skippedNotice(leftOut), leftOut };
}

/** One notice naming every calendar left out and why (none when nothing was left out). */
function skippedNotice(unreadable: Unreadable[]): string[] {
	if (unreadable.length === 0) return [];
	if (unreadable.length === 1) {
		const [{ calendar, reason }] = unreadable;
		return [`Skipped ${label(calendar)}: it cannot be read, so its events are not included. Reason: ${reason}.`];
	}
	const names = unreadable.map(({ calendar, reason }) => `${label(calendar)}: ${reason}.`).join(' ');
	return [`Skipped ${unreadable.length} calendars that cannot be read, so their events are not included. ${names}`];
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
	return lowerFirst(message) || (status === 401 ? 'the calendar connection has expired' : 'access was refused');
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
