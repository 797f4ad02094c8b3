import type { IDataObject } from 'n8n-workflow';

/**
 * Time blocks: events that hold time for a task. Schedule in Calendar writes a marker line with
 * the task's ID into the block's description (the interface accepts no link to a task); the
 * service's own blocks carry the task's ID in `service.example:metadata.taskId`.
 */

const MARKER_PREFIX = 'Task ID: ';

/** The marker line of a block: how it names its task, exactly as written and as searched for. */
export function blockMarker(taskId: string): string {
	return `${MARKER_PREFIX}${taskId}`;
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
	for (const line of String(event.description ?? '').split(/\r?\n/)) {
		const text = line.trim();
		if (text.startsWith(MARKER_PREFIX) && text.length > MARKER_PREFIX.length && !/\s/.test(text.slice(MARKER_PREFIX.length))) return text.slice(MARKER_PREFIX.length);
	}
	return undefined;
}
