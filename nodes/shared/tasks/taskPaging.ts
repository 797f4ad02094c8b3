import type { IDataObject, IN8nHttpFullResponse, NodeApiError } from 'n8n-workflow';

import type { ServiceContext } from '../transport/credentialUser';

import { justBefore } from '../time/dates';
import type { Spender } from '../pacing/pointBudget';
import { ctsRequest, ctsResponse } from '../transport/transport';

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

interface TaskWalkResult<T = IDataObject> {
	/**
	 * Tasks not read before, each once in its newest version, in the order the service listed
	 * those versions (a task changed during the walk is listed again, later, with a newer `updated`);
	 * as `keep` made them, when given.
	 */
	tasks: T[];
	cursor: TaskCursor;
	listCalls: number;
	/** `updated` values shared by more tasks than one page holds; some of those tasks could not be read. */
	overflowedAt: string[];
	/** Whether the walk reached the end of the list (rather than its limit of tasks or list calls). */
	complete: boolean;
}

/** Fetches one page of open tasks: `GET /v3/tasks/list?updatedAfter=…&limit=…`. */
export type FetchTaskPage = (updatedAfter: string | undefined, limit: number) => Promise<IDataObject[]>;

/** One page of the task list, the whole answer: `GET /v3/tasks/list?updatedAfter=…&limit=…`. */
export async function requestTaskPage(
	context: ServiceContext,
	updatedAfter: string | undefined,
	limit: number,
	itemIndex?: number,
	spender?: Spender,
): Promise<IN8nHttpFullResponse> {
	const qs: IDataObject = { limit };
	if (updatedAfter) qs.updatedAfter = updatedAfter;
	return await ctsResponse.call(context, 'ctsApi', { method: 'GET', url: '/v3/tasks/list', qs }, itemIndex, spender);
}

/** The tasks of one page of the task list (see {@link requestTaskPage}). */
export async function listTaskPage(
	context: ServiceContext,
	updatedAfter: string | undefined,
	limit: number,
	itemIndex?: number,
	spender?: Spender,
): Promise<IDataObject[]> {
	return tasksOf(await requestTaskPage(context, updatedAfter, limit, itemIndex, spender));
}

/** A task by its ID (1 point): the task, deleted or not, or null when the account has none with it. */
export async function readTaskById(context: ServiceContext, id: string, itemIndex?: number, spender?: Spender): Promise<IDataObject | null> {
	const answer = await ctsRequest.call(context, 'ctsApi', { method: 'GET', url: '/v3/tasks', qs: { id } }, itemIndex, spender);
	return ((answer.data as IDataObject | undefined)?.task as IDataObject | null | undefined) ?? null;
}

/** The tasks of a list answer (`{ data: { tasks } }`). */
export function tasksOf(response: IN8nHttpFullResponse): IDataObject[] {
	const data = (response.body as IDataObject | undefined)?.data as IDataObject | undefined;
	return (data?.tasks as IDataObject[] | undefined) ?? [];
}

/** How far a walk may go (list calls; whether a used-up budget ends it with what it read) and what it keeps. */
interface TaskWalkLimits<T = IDataObject> {
	maxCalls?: number;
	keepOnBudgetError?: boolean;
	/**
	 * What to keep of each task as its page arrives (undefined: not kept, its older version dropped
	 * too). Get Many keeps its output items, so a page's raw tasks can go as soon as it is read:
	 * a Return All then holds one page of the service's objects, not the whole list twice.
	 */
	keep?: (task: IDataObject) => T | undefined;
}

/** Whether an error is the point budget's: the budget ran out while the request waited. */
function isBudgetError(error: unknown): boolean {
	return typeof error === 'object' && error !== null && (error as { context?: IDataObject }).context?.budget !== undefined;
}

/**
 * Reads the open tasks changed after a cursor, page by page, until the list is exhausted,
 * `maxTasks` new tasks were read or `maxCalls` list calls were made. The cursor moves with each
 * complete page, so a walk that stops early keeps what it read (with `keepOnBudgetError`, also
 * one whose later page finds the budget used up), and the next walk goes on from there. Each page after the first asks from just before the boundary
 * value, so tasks that share it across a page boundary are neither lost nor read twice. When a
 * full page brings nothing new, more tasks share one `updated` value than a page can hold and
 * the interface offers no way past them: the walk notes it and continues after that value,
 * so it never loops.
 */
export async function walkTasks<T = IDataObject>(
	fetchPage: FetchTaskPage,
	start: TaskCursor,
	maxTasks = Number.POSITIVE_INFINITY,
	{ maxCalls = Number.POSITIVE_INFINITY, keepOnBudgetError = false, keep }: TaskWalkLimits<T> = {},
): Promise<TaskWalkResult<T>> {
	// By ID, so that a newer version read later replaces the older one (and moves to the end).
	const tasks = new Map<string, T>();
	const overflowedAt: string[] = [];
	let cursor: TaskCursor = { updated: start.updated, idsAtUpdated: [...start.idsAtUpdated] };
	let listCalls = 0;
	let complete = false;

	while (tasks.size < maxTasks && listCalls < maxCalls) {
		const known = new Set(cursor.idsAtUpdated);
		const updatedAfter = cursor.updated && known.size > 0 ? justBefore(cursor.updated) : cursor.updated;
		const limit = Math.min(TASK_PAGE_SIZE, maxTasks - tasks.size + known.size);
		let page: IDataObject[];
		try {
			page = await fetchPage(updatedAfter, limit);
		} catch (error) {
			// Points already spent are not thrown away for want of more: deliver what was read.
			if (keepOnBudgetError && listCalls > 0 && isBudgetError(error)) break;
			throw error as NodeApiError;
		}
		listCalls++;

		let fresh = 0;
		let pageMax = cursor.updated;
		for (const task of page) {
			const updated = String(task.updated);
			if (updated === cursor.updated && known.has(String(task.id))) continue;
			fresh++;
			const id = String(task.id);
			if (tasks.has(id) || tasks.size < maxTasks) {
				tasks.delete(id);
				const kept = keep ? keep(task) : (task as T);
				if (kept !== undefined) tasks.set(id, kept);
			}
			if (!pageMax || Date.parse(updated) > Date.parse(pageMax)) pageMax = updated;
		}
		if (page.length < limit) {
			cursor = advance(cursor, page, pageMax);
			complete = true;
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
	return { tasks: [...tasks.values()], cursor, listCalls, overflowedAt, complete };
}

function advance(cursor: TaskCursor, page: IDataObject[], pageMax: string | undefined): TaskCursor {
	if (!pageMax) return cursor;
	const ids = page.filter((task) => task.updated === pageMax).map((task) => String(task.id));
	if (pageMax === cursor.updated) ids.push(...cursor.idsAtUpdated);
	return { updated: pageMax, idsAtUpdated: [...new Set(ids)] };
}
