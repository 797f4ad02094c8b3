import type { IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { ctsResponse } from './transport';

/** The service's maximum page size for the task list. */
export const TASK_PAGE_SIZE = 100;

/**
 * Where a walk through the task list stands: the greatest `updated` value read so far and the
 * IDs already read at exactly that value. Every version updated before `updated` was read, and
 * at exactly `updated` the listed IDs, or all tasks when the list is empty. The list filter
 * `updatedAfter` is strict, so a non-empty boundary group is re-read with the next page and
 * recognised here.
 */
export interface TaskCursor {
	updated?: string;
	idsAtUpdated: string[];
}

export interface TaskWalkResult {
	/** Tasks not read before, in the order the service listed them. */
	tasks: IDataObject[];
	cursor: TaskCursor;
	listCalls: number;
	/** `updated` values shared by more tasks than one page holds; some of those tasks could not be read. */
	overflowedAt: string[];
}

/** Fetches one page of open tasks: `GET /v3/tasks/list?updatedAfter=…&limit=…`. */
export type FetchTaskPage = (updatedAfter: string | undefined, limit: number) => Promise<IDataObject[]>;

/** One page of the task list, and the service's time (its `Date` header) when it answered. */
export async function listTaskPage(
	context: IExecuteFunctions | IPollFunctions,
	updatedAfter: string | undefined,
	limit: number,
	itemIndex?: number,
): Promise<{ tasks: IDataObject[]; answeredAt: number }> {
	const qs: IDataObject = { limit };
	if (updatedAfter) qs.updatedAfter = updatedAfter;
	const response = await ctsResponse.call(context, 'ctsApi', { method: 'GET', url: '/v3/tasks/list', qs }, itemIndex);
	const data = (response.body as IDataObject | undefined)?.data as IDataObject | undefined;
	return { tasks: (data?.tasks as IDataObject[] | undefined) ?? [], answeredAt: Date.parse(String(response.headers.date ?? '')) };
}

function justBefore(timestamp: string): string {
	return new Date(Date.parse(timestamp) - 1).toISOString();
}

/**
 * Reads the open tasks changed after a cursor, page by page, until the list is exhausted or
 * `maxTasks` new tasks were read. Each page after the first asks from just before the boundary
 * value, so tasks that share it across a page boundary are neither lost nor read twice. When a
 * full page brings nothing new, more tasks share one `updated` value than a page can hold and
 * the interface offers no way past them: the walk notes it and continues after that value,
 * so it never loops.
 */
export async function walkTasks(
	fetchPage: FetchTaskPage,
	start: TaskCursor,
	maxTasks = Number.POSITIVE_INFINITY,
): Promise<TaskWalkResult> {
	const tasks: IDataObject[] = [];
	const overflowedAt: string[] = [];
	let cursor: TaskCursor = { updated: start.updated, idsAtUpdated: [...start.idsAtUpdated] };
	let listCalls = 0;

	while (tasks.length < maxTasks) {
		const known = new Set(cursor.idsAtUpdated);
		const updatedAfter = cursor.updated && known.size > 0 ? justBefore(cursor.updated) : cursor.updated;
		const limit = Math.min(TASK_PAGE_SIZE, maxTasks - tasks.length + known.size);
		const page = await fetchPage(updatedAfter, limit);
		listCalls++;

		let fresh = 0;
		let pageMax = cursor.updated;
		for (const task of page) {
			const updated = String(task.updated);
			if (updated === cursor.updated && known.has(String(task.id))) continue;
			fresh++;
			if (tasks.length < maxTasks) tasks.push(task);
			if (!pageMax || Date.parse(updated) > Date.parse(pageMax)) pageMax = updated;
		}
		if (page.length < limit) {
			cursor = advance(cursor, page, pageMax);
			break;
		}
		if (fresh === 0) {
			// A full page of tasks already read: all of them share the boundary value.
			overflowedAt.push(String(cursor.updated));
			cursor = { updated: cursor.updated, idsAtUpdated: [] };
			continue;
		}
		cursor = advance(cursor, page, pageMax);
	}
	return { tasks, cursor, listCalls, overflowedAt };
}

function advance(cursor: TaskCursor, page: IDataObject[], pageMax: string | undefined): TaskCursor {
	if (!pageMax) return cursor;
	const ids = page.filter((task) => task.updated === pageMax).map((task) => String(task.id));
	if (pageMax === cursor.updated) ids.push(...cursor.idsAtUpdated);
	return { updated: pageMax, idsAtUpdated: [...new Set(ids)] };
}
