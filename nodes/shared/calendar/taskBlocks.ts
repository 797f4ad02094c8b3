import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { markerLine, readMarker } from '../copies/marker';
import { toLocalDateTime } from '../time/dates';
import { wallClockInstant, type Interval } from './freeTime';

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

/** Whether an event is a block of the task: its description has the marker as a line of its own. */
export function isBlockOf(event: IDataObject, taskId: string): boolean {
	const marker = blockMarker(taskId);
	return String(event.description ?? '').split(/\r?\n/).some((line) => line.trim() === marker);
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
