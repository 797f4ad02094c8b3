import type { IDataObject } from 'n8n-workflow';

import { credentialUserKey, type ServiceContext } from '../transport/credentialUser';
import type { TimeWindow } from '../time/windows';

/**
 * Event lists one execution has read, for its later nodes that read the same calendars of the
 * same account over the same windows: the two Mirror Busy Time nodes of a two-way mirror read the
 * same two calendars, and the second pays nothing for them (20 points a run instead of 40). A node
 * that writes into a calendar keeps the lists holding it in step (`noteWritten`), so a later node
 * sees its copies. Only nodes that ask for it share lists, and only within one execution: the next
 * run reads afresh.
 */

interface Entry {
	executionUser: string;
	accountId: string;
	calendarIds: string[];
	events: IDataObject[];
	readAt: number;
}

const entries = new Map<string, Entry>();

/** Lists older than this are dropped (an execution's nodes run within minutes; the map must not grow). */
const FORGET_AFTER_MS = 3600_000;

async function executionUser(context: ServiceContext): Promise<string | undefined> {
	const executionId = 'getExecutionId' in context ? context.getExecutionId() : undefined;
	if (!executionId) return undefined;
	return `${executionId}|${await credentialUserKey(context, 'ctsApi')}`;
}

/**
 * The events of an account's calendars over the windows as this execution read them before, or
 * read now by `read` and kept for its later nodes.
 */
export async function eventsOncePerExecution(
	context: ServiceContext,
	listing: { accountId: string; calendarIds: string[]; windows: TimeWindow[] },
	read: () => Promise<IDataObject[]>,
): Promise<IDataObject[]> {
	const user = await executionUser(context);
	if (!user) return await read();
	const now = Date.now();
	for (const [key, entry] of entries) if (now - entry.readAt > FORGET_AFTER_MS) entries.delete(key);
	const calendarIds = [...listing.calendarIds].sort();
	const key = JSON.stringify([user, listing.accountId, calendarIds, listing.windows.map((window) => [window.start, window.end])]);
	const kept = entries.get(key);
	if (kept) return [...kept.events];
	const events = await read();
	entries.set(key, { executionUser: user, accountId: listing.accountId, calendarIds, events: [...events], readAt: now });
	return events;
}

/**
 * Keeps this execution's lists of the calendar in step with a write into it: `removedId` leaves
 * them, `written` (a created or updated event as the service answered it) takes its place.
 */
export async function noteWritten(context: ServiceContext, calendar: { accountId: string; id: string }, change: { removedId?: string; written?: IDataObject }): Promise<void> {
	const user = await executionUser(context);
	if (!user) return;
	for (const entry of entries.values()) {
		if (entry.executionUser !== user || entry.accountId !== calendar.accountId || !entry.calendarIds.includes(calendar.id)) continue;
		const replacedId = change.removedId ?? (change.written ? String(change.written.id) : undefined);
		entry.events = entry.events.filter((event) => String(event.id) !== replacedId);
		if (change.written) entry.events.push({ accountId: calendar.accountId, calendarId: calendar.id, ...change.written });
	}
}
