import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { toNodeError } from '../../../shared/transport/errors';
import { runBatch, type BatchItemResult, type OperationItem } from '../../../shared/transport/itemOperation';
import { runSync, type MissingMode, type SyncRunResult } from '../../shared/syncRun';
import { decisionOutput, readSourceAndKey, readWanted, type Wanted } from '../../shared/taskSync';

/**
 * Task → Sync Tasks: the input items are a source's whole set of items. A published workflow reads
 * only the tasks changed since its last run, then writes once per task created, updated, completed
 * or reopened (see nodes/CtsTask/shared/syncRun). In a workflow all input items are synced together
 * (the node's custom operation); as a tool, one call is one item (the operation's routing), and
 * tasks no longer in the input are kept.
 */

interface ItemResult extends BatchItemResult {
	/** Where it goes in the output: an item's own result, then a second task of its key; tasks no longer in the input last. */
	rank: [number, number];
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
			failed.push({ itemIndex: item.itemIndex, output: [], error: nodeError, rank: [item.itemIndex, 0] });
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

/** The run's outcomes as output items (see {@link ItemResult}); the run's notices on the first. */
function syncOutput({ outcomes, notices }: SyncRunResult, source: string, preview: boolean, first: number): ItemResult[] {
	const itemOfKey = new Map(outcomes.flatMap(({ decision }) => (decision.itemIndex === undefined ? [] : [[decision.key, decision.itemIndex] as const])));
	const results = outcomes.map(({ decision, taskId, error }, position): ItemResult => {
		const ofItem = decision.itemIndex ?? itemOfKey.get(decision.key);
		const rank: ItemResult['rank'] = decision.itemIndex !== undefined ? [decision.itemIndex, 0] : ofItem !== undefined ? [ofItem, 1 + position] : [Number.POSITIVE_INFINITY, position];
		const itemIndex = ofItem ?? first;
		return error ? { itemIndex, output: [], error, rank } : { itemIndex, output: [decisionOutput(decision, source, preview, taskId)], rank };
	});
	results.sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1]);
	const firstOutput = results.find((result) => result.output.length > 0)?.output[0];
	if (firstOutput && notices.length > 0) firstOutput.notices = [...notices, ...((firstOutput.notices as string[] | undefined) ?? [])];
	return results;
}

/**
 * Syncs the items at once. A problem of the whole run (a field, the read) throws; a problem of one
 * item is that item's result. With `stopAtItemErrors` (no Continue On Fail) an item's problem
 * throws: before anything is written when it is a field's, at the failed write otherwise (a run
 * started again goes on from there: the tasks written carry their keys).
 */
async function syncBatch(items: OperationItem[], stopAtItemErrors: boolean, missing: MissingMode): Promise<ItemResult[]> {
	const first = items[0];
	const { source } = readSourceAndKey(first);
	const preview = first.parameter('preview', false) === true;
	const { wanted, failed } = readItems(items, stopAtItemErrors);
	const run = await runSync({ first, source, wanted, missing, preview, stopAtItemErrors, read: 'always' });
	return [...failed, ...syncOutput(run, source, preview, first.itemIndex)].sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1]);
}

/** Sync Tasks as a tool runs it (the operation's routing): one item; tasks not in it are kept. */
export async function syncOneItem(item: OperationItem): Promise<IDataObject[]> {
	const results = await syncBatch([item], true, 'keep');
	const failed = results.find((result) => result.error);
	if (failed) throw failed.error;
	return results.flatMap((result) => result.output);
}

/**
 * Sync Tasks in a workflow: all input items at once, each output item paired with its input item
 * (a task no longer in the input with the first; see {@link runBatch}).
 */
export async function syncTasks(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const mode = this.getNodeParameter('missingTasks', 0, 'keep') as MissingMode;
	return await runBatch(this, async (items, stopAtItemErrors) => await syncBatch(items, stopAtItemErrors, mode));
}
