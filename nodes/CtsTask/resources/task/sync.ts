import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { toNodeError } from '../../../shared/transport/errors';
import { runBatch, type BatchItemResult, type OperationItem } from '../../../shared/transport/itemOperation';
import { readSyncMarker } from '../../../shared/tasks/syncMarker';
import {
	carryOut,
	decide,
	decideForMissing,
	decisionOutput,
	memoryOf,
	openTasksByKey,
	readOpenTasks,
	readSourceAndKey,
	readTaskById,
	readWanted,
	storeMemory,
	tagIdsByName,
	type Decision,
	type SyncKnowledge,
	type SyncMemory,
	type Wanted,
} from '../../shared/taskSync';

/**
 * Task → Sync Tasks: the input items are a source's whole set of items; one read of the open
 * tasks for all of them, then one write per task created, updated, completed or reopened. In a
 * workflow all input items are synced together (the node's custom operation); as a tool, one call
 * is one item (the operation's routing), and tasks no longer in the input are kept.
 */

type MissingMode = 'keep' | 'complete' | 'delete';

interface ItemResult extends BatchItemResult {
	/** A task no longer in the input (paired with the first item). */
	missing?: boolean;
}

/** Each item's wanted fields, or its error; a key given again by a later item is that item's (the later wins). */
function readItems(items: OperationItem[], stopAtItemErrors: boolean): { wanted: Wanted[]; failed: ItemResult[] } {
	const byKey = new Map<string, Wanted>();
	const failed: ItemResult[] = [];
	const seen = new Map<string, number[]>();
	for (const item of items) {
		let wanted: Wanted;
		try {
			wanted = readWanted(item);
		} catch (error) {
			const nodeError = toNodeError(item.context.getNode(), error, item.itemIndex);
			if (stopAtItemErrors) throw nodeError;
			failed.push({ itemIndex: item.itemIndex, output: [], error: nodeError });
			continue;
		}
		seen.set(wanted.key, [...(seen.get(wanted.key) ?? []), item.itemIndex]);
		byKey.delete(wanted.key);
		byKey.set(wanted.key, wanted);
	}
	for (const wanted of byKey.values()) {
		const indexes = seen.get(wanted.key)!;
		if (indexes.length > 1) wanted.notices.push(`The Source Key is given ${indexes.length} times (items ${indexes.join(', ')}): the last one is synced`);
	}
	return { wanted: [...byKey.values()].sort((a, b) => a.itemIndex - b.itemIndex), failed };
}

/**
 * Syncs the items at once. A problem of the whole run (a field, the read) throws; a problem of one
 * item is that item's result. With `stopAtItemErrors` (no Continue On Fail) an item's problem
 * throws: before anything is written when it is a field's, at the failed write otherwise (a run
 * started again goes on from there: the tasks written carry their keys).
 */
async function syncBatch(items: OperationItem[], stopAtItemErrors: boolean, mode: MissingMode): Promise<ItemResult[]> {
	const first = items[0];
	const { context, itemIndex, parameter } = first;
	const { source } = readSourceAndKey(first);
	const preview = parameter('preview', false) === true;
	const { wanted, failed } = readItems(items, stopAtItemErrors);
	const open = openTasksByKey(await readOpenTasks(context, itemIndex), source);
	const staticData = context.getWorkflowStaticData('node');
	const memory = memoryOf(staticData, source);
	const knowledge: SyncKnowledge = {
		source,
		open,
		memory,
		tagIdsByName: wanted.some((item) => item.tagNames) ? await tagIdsByName(context) : undefined,
		readTask: async (id) => await readTaskById(context, id, itemIndex),
	};
	const decisions: Decision[] = [];
	for (const item of wanted) decisions.push(await decide(item, knowledge));
	const inInput = new Set(wanted.map((item) => item.key));
	for (const [key, [task]] of open) if (!inInput.has(key) && readSyncMarker(task)) decisions.push(decideForMissing(task, mode));

	const results: ItemResult[] = [...failed];
	// Output in the input's order, tasks no longer in the input last.
	const order = (result: ItemResult) => (result.missing ? items.length : 0) + result.itemIndex;
	const remembered: SyncMemory = {};
	// Keys of failed items keep what was remembered of them.
	for (const { itemIndex: failedIndex } of failed) {
		const key = String(items[failedIndex]?.parameter('sourceKey', '') ?? '').trim();
		if (memory[key]) remembered[key] = memory[key];
	}
	for (const decision of decisions) {
		const outputIndex = decision.itemIndex ?? itemIndex;
		try {
			const taskId = preview ? decision.taskId : await carryOut(context, decision, knowledge, outputIndex);
			if (taskId && decision.remember !== undefined) remembered[decision.key] = [taskId, decision.remember];
			results.push({ itemIndex: outputIndex, output: [decisionOutput(decision, source, preview, taskId)], missing: decision.itemIndex === undefined });
		} catch (error) {
			if (memory[decision.key]) remembered[decision.key] = memory[decision.key];
			const nodeError = toNodeError(context.getNode(), error, outputIndex);
			if (stopAtItemErrors) {
				if (!preview) storeMemory(staticData, source, { ...memory, ...remembered });
				throw nodeError;
			}
			results.push({ itemIndex: outputIndex, output: [], error: nodeError, missing: decision.itemIndex === undefined });
		}
	}
	if (!preview) storeMemory(staticData, source, remembered);
	return results.sort((a, b) => order(a) - order(b));
}

/** Sync Tasks as a tool runs it (the operation's routing): one item; tasks not in it are kept. */
export async function syncOneItem(item: OperationItem): Promise<IDataObject[]> {
	const [result] = await syncBatch([item], true, 'keep');
	if (result?.error) throw result.error;
	return result?.output ?? [];
}

/**
 * Sync Tasks in a workflow: all input items at once, each output item paired with its input item
 * (a task no longer in the input with the first; see {@link runBatch}).
 */
export async function syncTasks(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const mode = this.getNodeParameter('missingTasks', 0, 'keep') as MissingMode;
	return await runBatch(this, async (items, stopAtItemErrors) => await syncBatch(items, stopAtItemErrors, mode));
}
