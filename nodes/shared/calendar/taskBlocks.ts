import { DateTime } from 'luxon';
import type { IDataObject, INode } from 'n8n-workflow';

import { markerLine, readMarker } from '../copies/marker';
import { byMarkerKey } from '../copies/plan';
import { toLocalDateTime } from '../time/dates';
import { invalidField, quoted } from '../transport/errors';
import type { ServiceContext } from '../transport/credentialUser';
import { ctsRequest } from '../transport/transport';
import { alertEntry, alertOffset, NO_ALERTS } from './alerts';
import { eventInterval, notBusyReason, wallClockInstant, type Interval } from './freeTime';

/**
 * Time blocks: events that hold time for a task. Schedule in Calendar writes a marker line with
 * the task's ID into the block's description (the interface accepts no link to a task); the
 * service's own blocks carry the task's ID in `service.example:metadata.taskId`.
 */

/** The label of a block's marker line, `Task ID: <id>` (see `copies/marker.ts`). */
const TASK_ID_LABEL = 'Task ID';

/** The marker line of a block: how it names its task, exactly as written and as searched for. */
export function blockMarker(taskId: string): string {
	return markerLine(TASK_ID_LABEL, [taskId]);
}

/** The task a block of the package's names by its marker line, or undefined (the service's own blocks are not the package's to move). */
export function markedTaskId(event: IDataObject): string | undefined {
	const parts = readMarker(event.description, TASK_ID_LABEL);
	return parts?.length === 1 && parts[0] !== '' ? parts[0] : undefined;
}

/** Whether an event is a block of the task the package wrote: its description has the task's marker line. */
export function isBlockOf(event: IDataObject, taskId: string): boolean {
	return markedTaskId(event) === taskId;
}

/** The task an event holds time for (the service's link, else the marker line), or undefined. */
export function blockTaskId(event: IDataObject): string | undefined {
	const linked = (event['service.example:metadata'] as IDataObject | undefined)?.taskId;
	if (typeof linked === 'string' && linked !== '') return linked;
	const parts = readMarker(event.description, TASK_ID_LABEL);
	return parts?.length === 1 && !/\s/.test(parts[0]) ? parts[0] : undefined;
}

/** Whole minutes as an ISO 8601 duration the way people write it: PT45M, PT1H30M, PT2H. */
export function isoMinutes(minutes: number): string {
	const hours = Math.floor(minutes / 60);
	return `PT${hours > 0 ? `${hours}H` : ''}${minutes % 60 > 0 || hours === 0 ? `${minutes % 60}M` : ''}`;
}

/**
 * The start, duration and zone a block is written with (Schedule in Calendar, Plan Tasks): its
 * wall-clock start in `zone`. A start in the hour the clocks pass twice, the second time, has no
 * wall-clock time of its own there (a start is a local time without offset, and the service
 * reads such a time as the first pass): that block is written in UTC, at the same instant.
 */
export function blockTiming(block: Interval, zone: string): { start: string; duration: string; timeZone: string; showWithoutTime: false } {
	const wall = toLocalDateTime(DateTime.fromMillis(block.start), zone);
	const own = wallClockInstant(wall, zone)?.toMillis() === block.start;
	return {
		start: own ? wall : toLocalDateTime(DateTime.fromMillis(block.start), 'UTC'),
		duration: isoMinutes(Math.round((block.end - block.start) / 60_000)),
		timeZone: own ? zone : 'UTC',
		showWithoutTime: false,
	};
}

/**
 * Whether and when a block reminds (the option Reminder): once as it begins (the default: a block
 * is the time to start its task, not a meeting to prepare for), with the calendar's default
 * alerts, or never.
 */
export type BlockReminder = 'atStart' | 'calendarDefault' | 'none';

const BLOCK_REMINDERS: Record<BlockReminder, IDataObject> = {
	// Own alerts switch the defaults off, as Event Create sends them.
	atStart: { ...NO_ALERTS, alerts: Object.fromEntries([alertEntry('display', alertOffset(0))]) },
	calendarDefault: { useDefaultAlerts: true },
	none: NO_ALERTS,
};

/** The Reminder of an operation's options, checked. */
export function readBlockReminder(node: INode, options: IDataObject, itemIndex: number): BlockReminder {
	const value = options.reminder ?? 'atStart';
	if (typeof value === 'string' && Object.hasOwn(BLOCK_REMINDERS, value)) return value as BlockReminder;
	throw invalidField(node, 'Reminder', `${quoted(value)} is not one of At the Start of the Block, Calendar's Default Alerts, None`, itemIndex);
}

/** A block of the package's with its time (none when its timing cannot be read). */
export interface TaskBlock {
	event: IDataObject;
	interval?: Interval;
}

/**
 * The blocks the package wrote into the target calendar, by the task their marker names, each
 * task's earliest first (a cancelled event holds no time). Schedule in Calendar and Plan Tasks find
 * blocks only through this: a task keeps or moves its first block and leaves the others.
 */
export function blocksByTask(events: IDataObject[], target: { accountId: string; id: string }, zone: string): Map<string, TaskBlock[]> {
	const inTarget = events.filter((event) => event.accountId === target.accountId && event.calendarId === target.id && notBusyReason(event) !== 'cancelled');
	const byTask = new Map<string, TaskBlock[]>();
	for (const [taskId, found] of byMarkerKey(inTarget, markedTaskId)) {
		const blocks = found.map((event) => ({ event, interval: eventInterval(event, zone) }));
		byTask.set(taskId, blocks.sort((a, b) => (a.interval?.start ?? 0) - (b.interval?.start ?? 0)));
	}
	return byTask;
}

/** The notice about a further block of the same task, which is left as it is. */
export function extraBlockNotice(event: IDataObject): string {
	return `Another block of this task was left as it is: ${quoted(event.title)} (event ${String(event.id)})`;
}

/**
 * Writes a task's block at `block` (1 point): moves the task's `current` block there (its alerts
 * as they are), or creates one titled as the task, busy, reminding as `reminder` says, whose
 * description says what it is and ends with the marker line. Answers the event as the service
 * gives it back.
 */
export async function writeBlock(
	context: ServiceContext,
	itemIndex: number,
	{ target, block, zone, task, current, reminder }: { target: { accountId: string; id: string }; block: Interval; zone: string; task: IDataObject; current?: IDataObject; reminder: BlockReminder },
): Promise<IDataObject> {
	const timing = { accountId: target.accountId, calendarId: target.id, ...blockTiming(block, zone) };
	if (current) return (await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/events/update', body: { id: current.id, ...timing } }, itemIndex)) as IDataObject;
	const description = `Time blocked for the task ${String(task.title)}.\n\n${blockMarker(String(task.id))}`;
	const body = { ...timing, title: task.title, description, freeBusyStatus: 'busy', ...BLOCK_REMINDERS[reminder] };
	const created = (await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/events/create', body }, itemIndex)) as IDataObject;
	return ((created.data as IDataObject | undefined)?.event as IDataObject | undefined) ?? (created.data as IDataObject | undefined) ?? created;
}
