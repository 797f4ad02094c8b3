import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { readCalendarEvents } from '../calendar/busyTime';
import type { CalendarInfo } from '../calendar/calendarLists';
import { eventInterval, type Interval } from '../calendar/freeTime';
import { serviceStatus } from '../transport/errors';
import type { ServiceContext } from '../transport/credentialUser';
import { ctsRequest } from '../transport/transport';

/**
 * What another process wrote at the same moment. Runs of one operation and account take turns
 * within a process (`inItemTurn`), but queue-mode workers are processes of their own and the
 * service holds no lock: runs on two workers may both read, find nothing (no block of the task, no
 * such event, a free time) and both create. So the operations that create after reading read again
 * after creating and settle it by age: the oldest thing is kept. (Mirror Busy Time needs no such read:
 * its next run reads the target anyway and removes a second copy of a source.)
 */

/** Older first: by creation, then ID (the service stamps `created` to the millisecond). */
export function olderFirst(a: IDataObject, b: IDataObject): number {
	return String(a.created ?? '').localeCompare(String(b.created ?? '')) || String(a.id).localeCompare(String(b.id));
}

/** The events created before `own` (itself and its occurrences left out): the ones a check after creating it counts. */
export function createdBefore(own: IDataObject, events: IDataObject[]): IDataObject[] {
	const ownId = String(own.id);
	return events.filter((event) => String(event.id) !== ownId && String(event.masterEventId ?? '') !== ownId && olderFirst(event, own) < 0);
}

/** What a run created that stands for one thing each: the events, and the key of the thing an event stands for. */
interface CreatedEvents {
	created: IDataObject[];
	keyOf: (event: IDataObject) => string | undefined;
}

/**
 * The one rule for events created after a read of one calendar (Schedule in Calendar and Plan
 * Tasks: a task's block; Event Create's guards apply it through their own check, see
 * {@link createdBefore}): after creating, the run reads the calendar again over their time (one
 * list call per started 2 months, 10 points) and deletes each event of its own that has an older
 * one of the same key (1 point each). Answers the event kept in place of each deleted one (by the
 * deleted one's ID), and a notice when the read failed (the events stay; the next run uses the
 * first and names the other in a notice). A run never deletes what another run created: the run
 * that created later reads after both creates, sees the older one and gives way, so one remains.
 */
export async function giveWayToOlder(
	context: ServiceContext,
	itemIndex: number,
	{ target, zone, created, keyOf }: CreatedEvents & { target: CalendarInfo; zone: string },
): Promise<{ kept: Map<string, IDataObject>; notices: string[] }> {
	const kept = new Map<string, IDataObject>();
	const intervals = created.map((event) => eventInterval(event, zone)).filter((interval): interval is Interval => interval !== undefined);
	if (intervals.length === 0) return { kept, notices: [] };
	const range = { start: Math.min(...intervals.map(({ start }) => start)), end: Math.max(...intervals.map(({ end }) => end)) };
	let events: IDataObject[];
	try {
		({ events } = await readCalendarEvents(context, itemIndex, { values: [], field: 'Calendar', unreadable: 'fail', skipOption: null, emptyMeansOwn: true, own: target, range, zone }));
	} catch (error) {
		return { kept, notices: [`Could not check whether another run created the same at the same moment (${(error as Error).message}): the next run checks`] };
	}
	for (const own of created) {
		const key = keyOf(own);
		if (key === undefined) continue;
		const older = createdBefore(own, events).filter((event) => event.accountId === target.accountId && event.calendarId === target.id && keyOf(event) === key);
		if (older.length === 0) continue;
		await deleteOwnEvent(context, itemIndex, own);
		kept.set(String(own.id), older.sort(olderFirst)[0]);
	}
	return { kept, notices: [] };
}

/** Deletes an event this run created and gives way with (1 point); one already gone (404) is fine. */
export async function deleteOwnEvent(context: ServiceContext, itemIndex: number, event: IDataObject): Promise<void> {
	try {
		await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/events/delete', body: { id: event.id, accountId: event.accountId, calendarId: event.calendarId } }, itemIndex);
	} catch (error) {
		if (serviceStatus(error) !== 404) throw error as NodeApiError;
	}
}

/** The notice of an item whose event gave way to an older one another run created at the same moment. */
export function gaveWayNotice(what: string, own: IDataObject, kept: IDataObject): string {
	return `Another run created ${what} at the same moment: the older one (event ${String(kept.id)}) is kept and the one this run created (event ${String(own.id)}) was deleted`;
}
