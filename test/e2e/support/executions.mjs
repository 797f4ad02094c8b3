/**
 * Executions through n8n's REST API, as the editor starts and shows them: a workflow run as
 * "Execute workflow" runs it, waited for until it has finished, with its run data decoded.
 */
import assert from 'node:assert/strict';

import { parseFlatted } from '../../../scripts/n8n-rest.mjs';
import { waitFor } from './waiting.mjs';

/** The statuses of an execution that has not finished yet. */
const UNFINISHED = new Set(['new', 'running', 'waiting']);

export const hasFinished = (execution) => !UNFINISHED.has(execution.status);

/**
 * One execution as n8n stores it, its data decoded (n8n sends it flatted-encoded):
 * { id, status, mode, data, runData, ... }.
 */
export async function readExecution(rest, id) {
	const stored = await rest.getExecution(id);
	const data = typeof stored.data === 'string' ? parseFlatted(stored.data) : stored.data;
	return { ...stored, id: String(stored.id ?? id), data, runData: data?.resultData?.runData ?? {} };
}

/** Waits until execution `id` has finished, and answers it (see {@link readExecution}). */
export async function finishedExecution(rest, id, timeoutMs = 120_000) {
	return await waitFor(
		async () => {
			const execution = await readExecution(rest, id);
			return hasFinished(execution) ? execution : undefined;
		},
		timeoutMs,
		`execution ${id} to finish`,
	);
}

/**
 * Runs a workflow as the editor's "Execute workflow" does, from the trigger named, waits for its
 * execution to finish and asserts it succeeded; answers the execution (see {@link readExecution}).
 */
export async function runWorkflow(rest, workflowId, trigger, { timeoutMs } = {}) {
	const { executionId } = await rest.runWorkflow(workflowId, trigger);
	const execution = await finishedExecution(rest, executionId, timeoutMs);
	assert.equal(execution.status, 'success', `workflow ${workflowId} from "${trigger}": ${JSON.stringify(execution.data?.resultData).slice(0, 2000)}`);
	return execution;
}

/** The items (json) a node output in an execution (its first run, first output). */
export const nodeOutput = (execution, nodeName) => (execution.runData[nodeName]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);

/**
 * The finished executions of a workflow not in `known` (IDs), oldest first, each decoded: for
 * executions n8n starts itself (a published trigger, a schedule, a webhook).
 */
export async function newFinishedExecutions(rest, workflowId, known = new Set()) {
	const fresh = (await rest.listAllExecutions(workflowId)).filter((summary) => !known.has(String(summary.id)) && hasFinished(summary));
	fresh.sort((a, b) => Number(a.id) - Number(b.id));
	return await Promise.all(fresh.map(async (summary) => await readExecution(rest, summary.id)));
}
