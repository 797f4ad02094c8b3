import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { cachedList, readForPicker } from '../../shared/transport/listCache';
import { listTaskPage, walkTasks } from '../../shared/tasks/taskPaging';

/** Most open tasks the list reads (5 list calls, 50 points): what a dropdown can usefully show. */
const TASK_LIST_MAX = 500;

/** The open tasks (up to {@link TASK_LIST_MAX}), read once and reused for a minute. */
async function openTasks(context: ILoadOptionsFunctions): Promise<IDataObject[]> {
	return await cachedList(context, 'ctsApi', 'tasks', async () => {
		const walk = await walkTasks(async (updatedAfter, limit) => await listTaskPage(context, updatedAfter, limit), { idsAtUpdated: [] }, TASK_LIST_MAX);
		return walk.tasks;
	});
}

const newestFirst = (a: IDataObject, b: IDataObject) => String(b.created ?? '').localeCompare(String(a.created ?? ''));

/**
 * A task as the list shows it: its title with its due date, or the start of its ID, so tasks
 * with the same title can be told apart.
 */
function taskLabel(task: IDataObject): string {
	const due = typeof task.due === 'string' && task.due ? `due ${task.due.slice(0, 16).replace('T', ' ')}` : `ID ${String(task.id).slice(0, 8)}`;
	return `${String(task.title ?? task.id)} (${due})`;
}

/**
 * "From List" of the task fields: the open tasks, newest first (the service lists only open
 * tasks, so completed and deleted ones are given by ID). A search filters by title, or finds a
 * task by its exact ID, within the list already read.
 */
export async function searchTasks(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const tasks = await readForPicker(this, 'its tasks', 'byId', async () => await openTasks(this));
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: tasks
			.filter((task) => !needle || String(task.title ?? '').toLowerCase().includes(needle) || String(task.id) === filter?.trim())
			.sort(newestFirst)
			.map((task) => ({ name: taskLabel(task), value: String(task.id) })),
	};
}
