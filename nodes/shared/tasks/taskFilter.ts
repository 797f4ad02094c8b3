import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { toStringList } from '../fields/fields';
import { tagsField } from './tagLists';

/** The task filters Task Get Many and the Task Trigger share, and the priorities a task may have. */

export const priorityOptions = [
	{ name: 'None', value: 0 },
	{ name: '1 (Highest)', value: 1 },
	{ name: '2', value: 2 },
	{ name: '3', value: 3 },
	{ name: '4', value: 4 },
	{ name: '5 (Medium)', value: 5 },
	{ name: '6', value: 6 },
	{ name: '7', value: 7 },
	{ name: '8', value: 8 },
	{ name: '9 (Lowest)', value: 9 },
];

/**
 * Filters on open tasks the service cannot apply itself (it lists all open tasks), applied to what
 * it returns: the same in Get Many and in the Task Trigger.
 */
export function taskFilterOptions(): INodeProperties[] {
	return [
		{
			displayName: 'Priorities',
			name: 'priorities',
			type: 'multiOptions',
			options: priorityOptions,
			default: [],
			description: 'Only tasks with one of these priorities',
		},
		tagsField('Only tasks that carry at least one of these tags'),
		{
			displayName: 'Task List ID',
			name: 'taskListId',
			type: 'string',
			default: '',
			placeholder: 'e.g. groceries',
			description: 'Only tasks in the task list with this ID ("default" is the list every account has)',
		},
	];
}

/** The test of the filters of {@link taskFilterOptions}, or undefined when none is set. */
export function taskFilter(filters: IDataObject): ((task: IDataObject) => boolean) | undefined {
	const taskListId = String(filters.taskListId ?? '').trim();
	const tags = toStringList(filters.tags ?? '');
	const priorities = ((filters.priorities as number[] | undefined) ?? []).map(Number);
	if (!taskListId && tags.length === 0 && priorities.length === 0) return undefined;
	return (task) =>
		(!taskListId || task.taskListId === taskListId) &&
		(tags.length === 0 || ((task.tags as string[] | undefined) ?? []).some((tag) => tags.includes(tag))) &&
		(priorities.length === 0 || priorities.includes(Number(task.priority ?? 0)));
}
