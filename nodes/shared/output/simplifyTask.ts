import type { IDataObject } from 'n8n-workflow';

import { readSyncMarker } from '../tasks/syncMarker';
import { withOffset } from '../time/dates';

/** Fields of a simplified task, in output order. */
export const SIMPLIFIED_TASK_FIELDS = [
	'id',
	'title',
	'description',
	'syncSource',
	'syncKey',
	'due',
	'timeZone',
	'estimatedDuration',
	'priority',
	'progress',
	'tags',
	'taskListId',
	'parentTaskId',
	'position',
	'scheduled',
	'deleted',
	'accountId',
	'created',
	'updated',
	'notices',
];

/**
 * A task as people read it: `due` as the instant with its offset (`2026-11-28T17:00:00+01:00`,
 * the zone beside it in `timeZone`), the parent task's ID instead of the relation map, `scheduled` from
 * the service's derived fields, no `@type` and no service prefixes. Built field by field in
 * {@link SIMPLIFIED_TASK_FIELDS} order, leaving out fields without a value: Get Many shapes
 * every task of a list, so no intermediate objects per task.
 */
export function simplifyTask(task: IDataObject): IDataObject {
	const simplified: IDataObject = {};
	// A task kept in step with another tool names its source and key (from the description's marker line).
	const marker = typeof task.description === 'string' && task.description.includes('Synced from') ? readSyncMarker(task) : undefined;
	for (const field of SIMPLIFIED_TASK_FIELDS) {
		const value =
			field === 'parentTaskId' ? parentOf(task) : field === 'scheduled' ? derivedScheduled(task) : field === 'due' ? withOffset(task.due, task.timeZone) : field === 'syncSource' ? marker?.source : field === 'syncKey' ? marker?.key : task[field];
		if (value !== undefined) simplified[field] = value;
	}
	return simplified;
}

/** The ID of the task's parent: the key of its relation marked `parent`. */
function parentOf(task: IDataObject): string | undefined {
	const relations = task.relatedTo as Record<string, IDataObject> | undefined;
	if (!relations) return undefined;
	for (const id of Object.keys(relations)) {
		if ((relations[id]?.relation as IDataObject | undefined)?.parent === true) return id;
	}
	return undefined;
}

function derivedScheduled(task: IDataObject): unknown {
	return (task['service.example:derived'] as IDataObject | undefined)?.scheduled;
}
