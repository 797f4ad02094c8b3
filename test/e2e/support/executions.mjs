/**
 * Executions through n8n's REST API, the one way the end-to-end tests run a workflow and wait for
 * what it did. Every execution answered is read in full, its data decoded (see `readExecution`):
 * { id, status, mode, data, runData, error, ... }.
 *
 * - `runFromEditor(rest, workflowId, trigger, { timeoutMs })`: runs a saved workflow as the
 *   editor's "Execute workflow" does (POST /workflows/:id/run, from the trigger named), waits for
 *   its execution to finish, and answers it, whatever its status.
 * - `runWorkflow(rest, workflowId, trigger, { timeoutMs })`: the same, asserting it succeeded.
 * - `finishedExecution(rest, executionId, { timeoutMs })`: waits for an execution known by its ID.
 * - `executionIds(rest, workflowId)` then `newExecutions(rest, workflowId, { known, count,
 *   timeoutMs })`: for executions n8n starts itself (a published trigger, a webhook, a schedule, a
 *   click in the editor): the IDs before, then waits until `count` executions not among them exist
 *   and all of those have finished, and answers them, oldest first.
 * - `newFinishedExecutions(rest, workflowId, known)`: the finished ones not in `known` now, no wait.
 * - `nodeOutput(execution, nodeName)`: the items a node output.
 */
import assert from 'node:assert/strict';

import { parseFlatted } from '../../../scripts/n8n-rest.mjs';
import { waitFor } from './waiting.mjs';

/** The statuses of an execution that has not finished yet. */
const UNFINISHED = new Set(['new', 'running', 'waiting']);

/** How long a run is waited for unless a test says otherwise. */
const RUN_TIMEOUT_MS = 120_000;

export const hasFinished = (execution) => !UNFINISHED.has(execution.status);

/**
 * One execution as n8n stores it, its data decoded (n8n sends it flatted-encoded):
 * { id, status, mode, data, runData (by node name), error (n8n's message, if any), ... }.
 */
export async function readExecution(rest, id) {
	const stored = await rest.getExecution(id);
	const data = typeof stored.data === 'string' ? parseFlatted(stored.data) : stored.data;
	return { ...stored, id: String(stored.id ?? id), data, runData: data?.resultData?.runData ?? {}, error: data?.resultData?.error?.message };
}

/** Waits until execution `id` has finished, and answers it (see {@link readExecution}). */
export async function finishedExecution(rest, id, { timeoutMs = RUN_TIMEOUT_MS } = {}) {
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
 * Runs a saved workflow as the editor's "Execute workflow" does, from the trigger named (a manual
 * execution), waits for its execution to finish and answers it, whatever its status.
 */
export async function runFromEditor(rest, workflowId, trigger, { timeoutMs } = {}) {
	const { executionId } = await rest.runWorkflow(workflowId, trigger);
	return await finishedExecution(rest, executionId, { timeoutMs });
}

/** {@link runFromEditor}, asserting the execution succeeded (its error and data in the message if not). */
export async function runWorkflow(rest, workflowId, trigger, { timeoutMs } = {}) {
	const execution = await runFromEditor(rest, workflowId, trigger, { timeoutMs });
	assert.equal(execution.status, 'success', `workflow ${workflowId} from "${trigger}": ${JSON.stringify(execution.data?.resultData).slice(0, 2000)}`);
	return execution;
}

/** The items (json) a node output in an execution (its first run, first output). */
export const nodeOutput = (execution, nodeName) => (execution.runData[nodeName]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);

/** The IDs of a workflow's executions so far: what {@link newExecutions} is to leave out. */
export async function executionIds(rest, workflowId) {
	return new Set((await rest.listAllExecutions(workflowId)).map((summary) => String(summary.id)));
}

/**
 * Waits until at least `count` executions of a workflow not in `known` (IDs) exist and every one
 * of them has finished; answers them oldest first, each read in full. For executions n8n starts
 * itself; the caller takes `known` with {@link executionIds} before it makes n8n start them.
 */
export async function newExecutions(rest, workflowId, { known, count = 1, timeoutMs = RUN_TIMEOUT_MS }) {
	const fresh = await waitFor(
		async () => {
			const summaries = (await rest.listAllExecutions(workflowId)).filter((summary) => !known.has(String(summary.id)));
			return summaries.length >= count && summaries.every(hasFinished) ? summaries : undefined;
		},
		timeoutMs,
		`${count} new execution${count === 1 ? '' : 's'} of workflow ${workflowId} to finish`,
	);
	return await readAll(rest, fresh);
}

/**
 * The finished executions of a workflow not in `known` (IDs), oldest first, each read in full,
 * without waiting: for executions n8n starts itself, read as they come.
 */
export async function newFinishedExecutions(rest, workflowId, known = new Set()) {
	return await readAll(rest, (await rest.listAllExecutions(workflowId)).filter((summary) => !known.has(String(summary.id)) && hasFinished(summary)));
}

/** Execution summaries read in full, oldest first. */
async function readAll(rest, summaries) {
	const sorted = [...summaries].sort((a, b) => Number(a.id) - Number(b.id));
	return await Promise.all(sorted.map(async (summary) => await readExecution(rest, summary.id)));
}
