import type { IDataObject } from 'n8n-workflow';

import type { OperationItem } from '../../../shared/transport/itemOperation';
import { runSync } from '../../shared/syncRun';
import { decisionOutput, readSourceAndKey, readWanted } from '../../shared/taskSync';

/**
 * Task → Create or Update: the open task that carries the item's source and key gets the fields
 * that differ (no write when none does), or the task is created. The same rules and the same run
 * as Sync Tasks (nodes/CtsTask/shared/syncRun), for one item at a time, so also as a tool ("add
 * this to my list unless it is already there"). A published workflow remembers each key's task: an
 * unchanged item costs nothing, a changed one a read by ID and the write.
 */

/** Create or Update for one item (its routing, whose items take turns, so that a key given twice is one task). */
export async function upsertOneItem(item: OperationItem): Promise<IDataObject[]> {
	const { source } = readSourceAndKey(item);
	const wanted = readWanted(item);
	const { outcomes, notices } = await runSync({ first: item, source, wanted: [wanted], preview: false, stopAtItemErrors: true, read: 'forNewKeys' });
	// The item's own decision first, then a second task of its key that the run removed.
	const ordered = [...outcomes].sort((a, b) => Number(a.decision.itemIndex === undefined) - Number(b.decision.itemIndex === undefined));
	const output = ordered.map(({ decision, taskId }) => decisionOutput(decision, source, false, taskId));
	if (notices.length > 0 && output[0]) output[0].notices = [...notices, ...((output[0].notices as string[] | undefined) ?? [])];
	return output;
}
