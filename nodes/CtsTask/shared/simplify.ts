import type { IDataObject } from 'n8n-workflow';

import { compact, pick } from '../../shared/output';

/** Fields of a simplified task, in output order. */
export const SIMPLIFIED_TASK_FIELDS = [
	'id',
	'title',
	'description',
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
 * A task as people read it: the parent task's ID instead of the relation map, `scheduled` from
 * the service's derived fields, no `@type` and no service prefixes.
 */
export function simplifyTask(task: IDataObject): IDataObject {
	const relations = (task.relatedTo ?? {}) as Record<string, IDataObject>;
	const parentTaskId = Object.entries(relations).find(([, relation]) => (relation?.relation as IDataObject | undefined)?.parent === true)?.[0];
	const derived = (task['service.example:derived'] ?? {}) as IDataObject;
	return compact({
		...pick(task, ['id', 'title', 'description', 'due', 'timeZone', 'estimatedDuration', 'priority', 'progress', 'tags', 'taskListId']),
		parentTaskId,
		...pick(task, ['position']),
		scheduled: derived.scheduled,
		...pick(task, ['deleted', 'accountId', 'created', 'updated', 'notices']),
	});
}
