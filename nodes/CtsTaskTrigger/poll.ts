import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { listTaskPage, TASK_PAGE_SIZE, walkTasks, type TaskCursor, type TaskWalkResult } from '../shared/taskPaging';

async function listTasks(context: IPollFunctions, updatedAfter: string | undefined, limit: number): Promise<IDataObject[]> {
	return (await listTaskPage(context, updatedAfter, limit)).tasks;
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

/** How far back a first activation looks on the local clock, to cover a service clock that differs. */
const START_MARGIN_MS = 10 * 60 * 1000;

/**
 * The cursor of a first activation, in one list call (10 points): the tasks changed in the last
 * minutes give the newest `updated` value; with none, the service's time from the answer's `Date`
 * header (less a second: it has whole seconds). Changes before activation are not delivered and
 * none after it are missed; the local clock only bounds the look-back, never sets the cursor.
 */
export async function startCursor(this: IPollFunctions): Promise<TaskCursor> {
	let answeredAt = Number.NaN;
	const result = await walkTasks(
		async (after, limit) => {
			const page = await listTaskPage(this, after, limit);
			answeredAt = page.answeredAt;
			return page.tasks;
		},
		{ updated: new Date(Date.now() - START_MARGIN_MS).toISOString(), idsAtUpdated: [] },
	);
	if (result.tasks.length > 0) return result.cursor;
	if (!Number.isFinite(answeredAt)) {
		throw new NodeOperationError(this.getNode(), 'The service sent no Date header to start the trigger from');
	}
	return { updated: new Date(answeredAt - 1000).toISOString(), idsAtUpdated: [] };
}

/**
 * "Fetch Test Event": a real, recently changed task, even when nothing changed since the last
 * poll: the tasks at the cursor (what the trigger delivered last), else those changed in the
 * last 30 days, else any open task. Changes nothing.
 */
export async function fetchTestTask(this: IPollFunctions, cursor: TaskCursor | undefined): Promise<IDataObject | undefined> {
	const after = cursor?.updated
		? new Date(Date.parse(cursor.updated) - 1).toISOString()
		: new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString();
	let tasks = await listTasks(this, after, TASK_PAGE_SIZE);
	if (tasks.length === 0) tasks = await listTasks(this, undefined, TASK_PAGE_SIZE);
	const task = tasks.at(-1);
	if (!task) return undefined;
	return { ...task, triggerEvent: task.created === task.updated ? 'created' : 'updated' };
}
