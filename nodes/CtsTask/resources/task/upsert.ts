import type { IDataObject } from 'n8n-workflow';

import type { OperationItem } from '../../../shared/transport/itemOperation';
import {
	carryOut,
	decide,
	decisionOutput,
	memoryOf,
	openTasksByKey,
	readOpenTasks,
	readSourceAndKey,
	readTaskById,
	readWanted,
	storeMemory,
	tagIdsByName,
	taskAfter,
} from '../../shared/taskSync';

/**
 * Task → Create or Update: the open task that carries the item's source and key gets the fields
 * that differ (no write when none does), or the task is created. The same rules as Sync Tasks,
 * for one item at a time, so also as a tool ("add this to my list unless it is already there").
 */

/**
 * What the items of one run share: the open tasks by key, read once per source and kept current by
 * the run's own writes, so that many items cost one read (10 points per 100 open tasks), not one
 * each. Items take turns (the routing's `writes`): an item with a key an earlier item just created
 * finds that task. Keyed by the node's static data, an object each execution has its own of.
 */
interface RunState {
	open: Map<string, Promise<Map<string, IDataObject[]>>>;
}

const runs = new WeakMap<object, RunState>();

function runStateOf(context: OperationItem['context']): RunState {
	const key = context.getWorkflowStaticData('node');
	let state = runs.get(key);
	if (!state) runs.set(key, (state = { open: new Map() }));
	return state;
}

async function openTasksFor({ context, itemIndex }: OperationItem, run: RunState, source: string): Promise<Map<string, IDataObject[]>> {
	let open = run.open.get(source);
	if (!open) {
		open = readOpenTasks(context, itemIndex).then((tasks) => openTasksByKey(tasks, source));
		run.open.set(source, open);
		// A failed read is not kept: the next item reads again.
		open.catch(() => run.open.delete(source));
	}
	return await open;
}

/** Create or Update for one item (its routing, whose items take turns, so that a key given twice is one task). */
export async function upsertOneItem(item: OperationItem): Promise<IDataObject[]> {
	return await upsertItem(item, runStateOf(item.context));
}

async function upsertItem(item: OperationItem, run: RunState): Promise<IDataObject[]> {
	const { context, itemIndex } = item;
	const { source } = readSourceAndKey(item);
	const wanted = readWanted(item);
	const open = await openTasksFor(item, run, source);
	const staticData = context.getWorkflowStaticData('node');
	const memory = memoryOf(staticData, source);
	const knowledge = {
		source,
		open,
		memory,
		tagIdsByName: wanted.tagNames ? await tagIdsByName(context) : undefined,
		readTask: async (id: string) => await readTaskById(context, id, itemIndex),
	};
	const decision = await decide(wanted, knowledge);
	const taskId = await carryOut(context, decision, knowledge, itemIndex);
	if (taskId && decision.remember !== undefined) storeMemory(staticData, source, { ...memory, [decision.key]: [taskId, decision.remember] });
	if (taskId && decision.after) {
		const task = taskAfter(decision, source, taskId);
		if (task) open.set(decision.key, [task]);
		else open.delete(decision.key);
	}
	return [decisionOutput(decision, source, false, taskId)];
}
