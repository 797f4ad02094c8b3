import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { justBefore } from '../shared/time/dates';
import type { PollPurse } from '../shared/pacing/triggerPacing';
import { listTaskPage, requestTaskPage, TASK_PAGE_SIZE, tasksOf, walkTasks, type TaskCursor } from '../shared/tasks/taskPaging';
import { answeredAt } from '../shared/transport/transport';
import { changesFor, type FeedResult } from './taskFeed';
import { recentGoneTask, type OpenTaskState } from './openTasks';
import { recentChange } from '../shared/triggers/triggerSample';

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
 * The changes since the cursor, from the user's task feed (see `taskFeed.ts`): each task marked
 * `triggerEvent` "created" or "updated", and the cursor after them, which moves with each
 * complete page read, as far as the trigger's allowance reaches. Null when the check is skipped
 * for the budget (nothing sent, nothing changed). Throws on a failure before any page was read.
 */
export async function pollChanges(this: IPollFunctions, cursor: TaskCursor, share: number): Promise<FeedResult | null> {
	const result = await changesFor(this, cursor, share);
	if (!result) return null;
	return {
		...result,
		tasks: result.tasks.map((task) => ({ ...task, triggerEvent: createdSince(task, cursor) ? 'created' : 'updated' })),
	};
}

/** How far back a first activation looks on the local clock, to cover a service clock that differs. */
const START_MARGIN_MS = 10 * 60 * 1000;

/**
 * The cursor of a first activation: the newest `updated` value of the tasks changed in the last
 * minutes (one list call per 100 of them, usually one), or, when none changed, the service's
 * time from the answer's `Date` header (less a second: it has whole seconds). Changes before
 * activation are not delivered and none after it are missed; the local clock only bounds the
 * look-back. Without a `Date` header (a proxy may remove it) the local clock stands in, set back
 * by the margin; changes made in that margin before activation may then be delivered, and a log
 * line says so.
 */
export async function startCursor(this: IPollFunctions, purse: PollPurse): Promise<TaskCursor> {
	let serviceTime: number | undefined;
	const result = await walkTasks(
		async (after, limit) => {
			const response = await requestTaskPage(this, after, limit, undefined, purse);
			serviceTime = answeredAt(response);
			return tasksOf(response);
		},
		{ updated: new Date(Date.now() - START_MARGIN_MS).toISOString(), idsAtUpdated: [] },
	);
	if (result.tasks.length > 0) return result.cursor;
	if (serviceTime !== undefined) return { updated: new Date(serviceTime - 1000).toISOString(), idsAtUpdated: [] };
	this.logger.warn(
		`CTS Task Trigger: the service's answer had no Date header (a proxy may remove it), so the trigger starts from this machine's clock less ${START_MARGIN_MS / 60000} minutes; changes made in those minutes before activation may be delivered.`,
	);
	return result.cursor;
}

/**
 * "Fetch Test Event": a real task of a kind chosen in Trigger On, even when nothing changed since
 * the last poll. Completed or deleted: the last one this trigger delivered (see `openTasks.ts`).
 * Created or updated: the most recent such change among the tasks at the cursor (what the trigger
 * delivered last), else those changed in the last 30 days, else the oldest open tasks. Undefined
 * when the account shows none (see {@link noTaskSample}). Changes nothing.
 */
export async function fetchTestTask(this: IPollFunctions, events: string[], cursor: TaskCursor | undefined, openTasks: OpenTaskState | undefined): Promise<IDataObject | undefined> {
	const gone = await recentGoneTask.call(this, openTasks, events);
	if (gone) return gone;
	if (!events.includes('created') && !events.includes('updated')) return undefined;
	const after = cursor?.updated ? justBefore(cursor.updated) : new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString();
	const change = recentChange(await listTaskPage(this, after, TASK_PAGE_SIZE), events) ?? recentChange(await listTaskPage(this, undefined, TASK_PAGE_SIZE), events);
	return change && { ...change.object, triggerEvent: change.kind };
}

/** What Fetch Test Event says when the account shows no task of a chosen kind, and how to get one. */
export function noTaskSample(events: string[]): string {
	const gone = ['completed', 'deleted'].filter((kind) => events.includes(kind));
	const said: string[] = [];
	if (events.includes('created')) said.push('No open task in this account yet: create one (in the service or with the CTS Task node) and fetch again.');
	else if (events.includes('updated')) said.push('No open task was changed after it was created: change one (its title, say) and fetch again.');
	if (gone.length > 0) {
		const what = gone.join(' or ');
		said.push(
			`No ${what} task to show: the service lists only open tasks, so this trigger learns of a task ${what} from its checks, and it has delivered none yet. Publish the workflow, then ${gone.map((kind) => (kind === 'completed' ? 'complete' : 'delete')).join(' or ')} a task; after the next check, Fetch Test Event shows it.`,
		);
	}
	return said.join(' ');
}
