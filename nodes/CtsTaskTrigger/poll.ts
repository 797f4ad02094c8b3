import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { TASK_PAGE_SIZE, walkTasks, type TaskCursor, type TaskWalkResult } from '../shared/taskPaging';
import { ctsRequest, serviceTime } from '../shared/transport';

async function listTasks(context: IPollFunctions, updatedAfter: string | undefined, limit: number): Promise<IDataObject[]> {
	const qs: IDataObject = { limit };
	if (updatedAfter) qs.updatedAfter = updatedAfter;
	const response = await ctsRequest.call(context, 'ctsApi', { method: 'GET', url: '/v3/tasks/list', qs });
	return ((response.data as IDataObject | undefined)?.tasks as IDataObject[] | undefined) ?? [];
}

/**
 * Whether a task was created after the cursor, rather than only changed. The cursor means:
 * every version updated before `updated` was seen, and of those at exactly `updated`, the listed
 * IDs (all of them when the list is empty).
 */
function createdSince(task: IDataObject, cursor: TaskCursor): boolean {
	if (!cursor.updated) return true;
	const created = Date.parse(String(task.created));
	const boundary = Date.parse(cursor.updated);
	if (created !== boundary) return created > boundary;
	return cursor.idsAtUpdated.length > 0 && !cursor.idsAtUpdated.includes(String(task.id));
}

/**
 * Every change since the cursor: all pages, each task marked `triggerEvent` "created" or
 * "updated", and the cursor after them. Throws on any failure, so nothing is half-delivered.
 */
export async function pollChanges(this: IPollFunctions, cursor: TaskCursor): Promise<TaskWalkResult> {
	const result = await walkTasks(async (after, limit) => await listTasks(this, after, limit), cursor);
	return {
		...result,
		tasks: result.tasks.map((task) => ({ ...task, triggerEvent: createdSince(task, cursor) ? 'created' : 'updated' })),
	};
}

/**
 * The cursor of a first activation: the service's time, then the tasks changed in the second
 * before it (the Date header has whole seconds), so changes made before activation are not
 * delivered and changes after it are not missed. Costs 11 points once.
 */
export async function startCursor(this: IPollFunctions): Promise<TaskCursor> {
	const from = new Date((await serviceTime.call(this)) - 1000).toISOString();
	const result = await walkTasks(async (after, limit) => await listTasks(this, after, limit), { updated: from, idsAtUpdated: [] });
	return result.cursor;
}

/**
 * "Fetch Test Event": a real, recently changed task, even when nothing changed since the last
 * poll: the tasks at the cursor (what the trigger delivered last), else those changed in the
 * last 30 days, else any open task. Changes nothing.
 */
export async function fetchTestTask(this: IPollFunctions, cursor: TaskCursor | undefined): Promise<IDataObject | undefined> {
	const after = cursor?.updated
		? new Date(Date.parse(cursor.updated) - 1).toISOString()
		: new Date((await serviceTime.call(this)) - 30 * 24 * 3600 * 1000).toISOString();
	let tasks = await listTasks(this, after, TASK_PAGE_SIZE);
	if (tasks.length === 0) tasks = await listTasks(this, undefined, TASK_PAGE_SIZE);
	const task = tasks.at(-1);
	if (!task) return undefined;
	return { ...task, triggerEvent: task.created === task.updated ? 'created' : 'updated' };
}
