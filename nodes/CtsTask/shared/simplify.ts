import type { IDataObject } from 'n8n-workflow';

import { compact } from '../../shared/output';

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
		id: task.id as string | undefined,
		title: task.title as string | undefined,
		description: task.description as string | undefined,
		due: task.due as string | undefined,
		timeZone: task.timeZone as string | undefined,
		estimatedDuration: task.estimatedDuration as string | undefined,
		priority: task.priority as number | undefined,
		progress: task.progress as string | undefined,
		tags: task.tags as string[] | undefined,
		taskListId: task.taskListId as string | undefined,
		parentTaskId,
		position: task.position as number | undefined,
		scheduled: derived.scheduled as boolean | undefined,
		deleted: task.deleted as boolean | undefined,
		accountId: task.accountId as string | undefined,
		created: task.created as string | undefined,
		updated: task.updated as string | undefined,
		notices: task.notices as string[] | undefined,
	});
}
