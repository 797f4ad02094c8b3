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
 * The open tasks by key, read once per run and source and kept current by the run's own writes,
 * so that many items cost one read (10 points per 100 open tasks), not one each. Keyed by the
 * node's static data, an object each execution has its own of.
 */
const openTasksOfRun = new WeakMap<object, Map<string, Promise<Map<string, IDataObject[]>>>>();

async function openTasksFor({ context, itemIndex }: OperationItem, source: string): Promise<Map<string, IDataObject[]>> {
	const run = context.getWorkflowStaticData('node');
	let bySource = openTasksOfRun.get(run);
	if (!bySource) openTasksOfRun.set(run, (bySource = new Map()));
	let open = bySource.get(source);
	if (!open) {
		open = readOpenTasks(context, itemIndex).then((tasks) => openTasksByKey(tasks, source));
		bySource.set(source, open);
		// A failed read is not kept: the next item reads again.
		open.catch(() => bySource!.delete(source));
	}
	return await open;
}

export async function upsertOneItem(item: OperationItem): Promise<IDataObject[]> {
	const { context, itemIndex } = item;
	const { source } = readSourceAndKey(item);
	const wanted = readWanted(item);
	const open = await openTasksFor(item, source);
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
