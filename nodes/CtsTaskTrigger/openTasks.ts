import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { PollPurse } from '../shared/pacing/triggerPacing';
import { listTaskPage, readTaskById, walkTasks, type TaskCursor } from '../shared/tasks/taskPaging';

/**
 * Task Completed and Task Deleted. The task list returns only open tasks, so a completed or
 * deleted task simply stops appearing: the trigger reads all open tasks, keeps their IDs with
 * their `updated` values, and derives every event from the difference with the previous read.
 * An ID that is gone is read once by ID to tell completed, deleted and no longer visible apart.
 */

/** The most open tasks followed: about 53 bytes of static data each (ID and `updated` in ms). */
const MAX_OPEN_TASKS = 10_000;

/** Completed and deleted tasks remembered for Fetch Test Event, of each kind. */
const RECENT_GONE = 5;

/** Open task ID → its `updated` value in milliseconds. */
type OpenSet = Record<string, number>;

export interface OpenTaskState {
	/** The open tasks as of the last complete read; undefined until the first read is complete. */
	known?: OpenSet;
	/** The greatest `updated` value of that read: a task new to the set created before it was opened again, not created. */
	baselineMs?: number;
	/** A read under way (a large account is read over several checks): where it stands and what it saw. */
	scan?: { cursor: TaskCursor; seen: OpenSet };
	/** IDs that left the set, with their last `updated`, still to be read by ID. */
	gone?: OpenSet;
	/** The last tasks delivered as completed, newest first, for Fetch Test Event. */
	recentCompleted?: string[];
	/** The last tasks delivered as deleted, newest first, for Fetch Test Event. */
	recentDeleted?: string[];
}

interface OpenTaskPoll {
	/** The tasks to deliver, each with `triggerEvent`, in the order they were found. */
	tasks: IDataObject[];
	/** The state after them; store it only with what is delivered. */
	state: OpenTaskState;
}

const ms = (value: unknown) => Date.parse(String(value));

/**
 * One check: first the tasks that left the set are read by ID, then the open tasks are read on
 * from where the previous check stopped. The check's allowance is asked once (so its reads keep the
 * trigger's even pacing) and every page and read takes from it; a check that may not go on stops there and returns what it found, and the next check goes on
 * from that point. The first read after activation only learns the open tasks.
 */
export async function pollOpenTasks(this: IPollFunctions, previous: OpenTaskState | undefined, budgetShare: number): Promise<OpenTaskPoll> {
	const state: OpenTaskState = JSON.parse(JSON.stringify(previous ?? {})) as OpenTaskState;
	const tasks: IDataObject[] = [];
	const purse = await PollPurse.open(this, budgetShare, { readsUseShare: true });

	// Tasks that left the set at the end of the previous check, when the budget stopped their reads.
	if (!(await readGone(this, state, tasks, purse))) return { tasks, state };

	const scan = state.scan ?? { cursor: { idsAtUpdated: [] }, seen: {} };
	let paused = false;
	const result = await walkTasks(async (after, limit) => {
		if (!purse.take('list')) {
			// An empty page ends the walk where it stands.
			paused = true;
			return [];
		}
		return await listTaskPage(this, after, limit, undefined, purse);
	}, scan.cursor);
	if (result.overflowedAt.length > 0) {
		this.logger.warn(
			`CTS Task Trigger: more than 100 open tasks share the "updated" time ${result.overflowedAt.join(', ')}; the service offers no way to page past them: those of them the previous read had are read by ID instead, new ones are not delivered.`,
		);
	}

	const learning = state.known === undefined;
	for (const task of result.tasks) {
		const id = String(task.id);
		const updatedMs = ms(task.updated);
		const before = scan.seen[id] ?? state.known?.[id];
		scan.seen[id] = updatedMs;
		if (learning || before === updatedMs) continue;
		const isNew = before === undefined && isCreatedSince(task, state.baselineMs ?? 0);
		tasks.push({ ...task, triggerEvent: isNew ? 'created' : 'updated' });
	}
	if (Object.keys(scan.seen).length > MAX_OPEN_TASKS) {
		throw new NodeOperationError(this.getNode(), `Trigger On: Task Completed and Task Deleted follow at most ${MAX_OPEN_TASKS.toLocaleString('en-US')} open tasks, and this account has more`, {
			description: 'Complete or delete tasks the account no longer needs, or choose only Task Created and Task Updated (they do not read all open tasks).',
		});
	}

	if (paused) {
		state.scan = { cursor: result.cursor, seen: scan.seen };
		return { tasks, state };
	}
	// The read is complete: what the previous one saw and this one did not has left the open tasks.
	const leaving: OpenSet = {};
	for (const [id, updatedMs] of Object.entries(state.known ?? {})) if (!(id in scan.seen)) leaving[id] = updatedMs;
	state.known = scan.seen;
	state.baselineMs = Math.max(state.baselineMs ?? 0, ...Object.values(scan.seen));
	delete state.scan;
	if (Object.keys(leaving).length > 0) {
		state.gone = leaving;
		await readGone(this, state, tasks, purse);
	}
	return { tasks, state };
}

/**
 * Reads the tasks that left the set while the check's allowance holds, adding what they tell to
 * `tasks`. Whether all were read; those left stay in `state.gone` for the next check.
 */
async function readGone(context: IPollFunctions, state: OpenTaskState, tasks: IDataObject[], purse: PollPurse): Promise<boolean> {
	const gone = Object.entries(state.gone ?? {});
	for (let index = 0; index < gone.length; index++) {
		if (!purse.take('call')) return false;
		const [id, updatedMs] = gone[index];
		const found = await classifyGone(context, id, updatedMs, state, purse);
		if (found) tasks.push(found);
		delete state.gone![id];
	}
	delete state.gone;
	return true;
}

/**
 * Whether a task new to the set was created since the previous complete read rather than opened
 * again (or otherwise back in view): created after its greatest `updated` value, or at that very
 * millisecond and never changed since (a task opened again was changed when it was).
 */
function isCreatedSince(task: IDataObject, baselineMs: number): boolean {
	const created = ms(task.created);
	return created > baselineMs || (created === baselineMs && ms(task.updated) === created);
}

/**
 * A task that left the open tasks, read by ID (1 point): `deleted: true` is deleted, progress
 * `completed` is completed, another progress (failed, cancelled) is an update. One that is open
 * again goes back into the set (an update if it changed). The service answers `null` for a task
 * the account cannot see any more: the trigger says so in the log and does not guess.
 */
async function classifyGone(context: IPollFunctions, id: string, updatedMs: number, state: OpenTaskState, purse: PollPurse): Promise<IDataObject | undefined> {
	const task = await readTaskById(context, id, undefined, purse);
	if (!task) {
		context.logger.info(
			`${context.getNode().name}: task ${id} left the open tasks and the service no longer shows it to this account, so whether it was completed or deleted is unknown; nothing is delivered for it.`,
		);
		return undefined;
	}
	if (task.deleted === true) {
		state.recentDeleted = remembered(id, state.recentDeleted);
		return { ...task, triggerEvent: 'deleted' };
	}
	if (task.progress === 'completed') {
		state.recentCompleted = remembered(id, state.recentCompleted);
		return { ...task, triggerEvent: 'completed' };
	}
	const open = task.progress === 'needs-action' || task.progress === 'in-process';
	if (open) state.known = { ...state.known, [id]: ms(task.updated) };
	return ms(task.updated) === updatedMs ? undefined : { ...task, triggerEvent: 'updated' };
}

const remembered = (id: string, ids: string[] = []) => [id, ...ids.filter((other) => other !== id)].slice(0, RECENT_GONE);

/**
 * Fetch Test Event with Task Completed or Task Deleted chosen: the task this trigger delivered as
 * completed (or deleted) most recently that still is (one read by ID each), or undefined. The
 * service lists no completed or deleted tasks, so only what the trigger's checks saw can be shown.
 */
export async function recentGoneTask(this: IPollFunctions, state: OpenTaskState | undefined, events: string[]): Promise<IDataObject | undefined> {
	const kinds = [
		{ kind: 'completed', ids: state?.recentCompleted, still: (task: IDataObject) => task.deleted !== true && task.progress === 'completed' },
		{ kind: 'deleted', ids: state?.recentDeleted, still: (task: IDataObject) => task.deleted === true },
	];
	for (const { kind, ids, still } of kinds) {
		if (!events.includes(kind)) continue;
		for (const id of ids ?? []) {
			const task = await readTaskById(this, id);
			if (task && still(task)) return { ...task, triggerEvent: kind };
		}
	}
	return undefined;
}
