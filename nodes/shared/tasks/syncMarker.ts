import type { IDataObject } from 'n8n-workflow';

import { fingerprint, markerLine, readMarker, withMarker, withoutMarker } from '../copies/marker';

/**
 * The marker of a task kept in step with another tool (Task → Sync Tasks and Create or Update):
 * a line of its description, `Synced from: <source> | <key> | <source fingerprint> | <task
 * fingerprint>`. The source and key say which item of which tool the task stands for. The two
 * fingerprints say what the last sync saw and left: the source item's mapped values, and the task
 * as the sync's write made it. A task whose state still matches its task fingerprint was last
 * changed by a sync (so the Task Trigger can tell the sync's own writes from the user's edits); a
 * source item whose values match the source fingerprint has not changed since.
 */

export const SYNC_LABEL = 'Synced from';

export interface SyncMarker {
	source: string;
	key: string;
	sourceFingerprint: string;
	taskFingerprint: string;
}

/** What a sync compares of a task: every field it may write, as the service shows it, with the service's defaults filled in. */
export interface TaskState {
	title: string;
	description: string;
	due: string | null;
	timeZone: string | null;
	priority: number;
	estimatedDuration: string | null;
	tags: string[];
	taskListId: string;
	done: boolean;
	deleted: boolean;
}

/** Whether a task is open: listed by the service (needs action or in process, not deleted). */
export function isOpenTask(task: IDataObject): boolean {
	return task.deleted !== true && (task.progress === undefined || task.progress === 'needs-action' || task.progress === 'in-process');
}

/** The task's state (its description without the marker line). */
export function taskState(task: IDataObject): TaskState {
	return {
		title: String(task.title ?? ''),
		description: withoutMarker(task.description ?? '', SYNC_LABEL),
		due: typeof task.due === 'string' ? task.due : null,
		timeZone: typeof task.timeZone === 'string' ? task.timeZone : null,
		priority: Number(task.priority ?? 0),
		estimatedDuration: typeof task.estimatedDuration === 'string' ? task.estimatedDuration : null,
		tags: [...((task.tags as string[] | undefined) ?? [])].map(String).sort(),
		taskListId: String(task.taskListId ?? 'default'),
		done: task.deleted !== true && !isOpenTask(task),
		deleted: task.deleted === true,
	};
}

/** The fingerprint of a task state, in a fixed order of fields. */
export function stateFingerprint(state: TaskState): string {
	const { title, description, due, timeZone, priority, estimatedDuration, tags, taskListId, done, deleted } = state;
	return fingerprint([title, description, due, timeZone, priority, estimatedDuration, tags, taskListId, done, deleted]);
}

/** The sync marker of a task, or undefined when it has none (a task made by hand or by another tool). */
export function readSyncMarker(task: IDataObject): SyncMarker | undefined {
	const parts = readMarker(task.description, SYNC_LABEL);
	if (!parts || parts.length !== 4 || parts[1] === '') return undefined;
	const [source, key, sourceFingerprint, taskFingerprint] = parts;
	return { source, key, sourceFingerprint, taskFingerprint };
}

/** The description a sync writes: the task's own text and the marker line after it. */
export function describedWithMarker(description: string, marker: SyncMarker): string {
	return withMarker(description, SYNC_LABEL, markerLine(SYNC_LABEL, [marker.source, marker.key, marker.sourceFingerprint, marker.taskFingerprint]));
}

/**
 * Whether the task is as a sync left it: its last change (created, updated, completed, reopened or
 * deleted) was the sync's own write, not an edit in the service's app.
 */
export function isSyncEcho(task: IDataObject): boolean {
	const marker = readSyncMarker(task);
	return marker !== undefined && marker.taskFingerprint === stateFingerprint(taskState(task));
}
