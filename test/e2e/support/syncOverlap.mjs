/**
 * Two runs of one published Sync Tasks workflow that overlap, as a schedule starts them while a
 * large first run still waits for the budget: Webhook (the rows in its body) → Split Out → Sync
 * Tasks, 250 rows, on a budget of 100 points per 20 s, the second run started 25 s after the
 * first; then a third run alone. Used in single-process n8n (sync-examples.test.mjs) and in queue
 * mode with two workers (queue-mode.test.mjs).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

import { CREDENTIALS } from './workflows.mjs';
import { executionIds, newExecutions } from './executions.mjs';
import { sleep } from './waiting.mjs';

export const OVERLAP_SOURCE = 'overlap-src';
const ROWS = 250;

/** Webhook → Split Out (one item per row) → Sync Tasks of `OVERLAP_SOURCE`. */
export function overlapSyncWorkflow(prefix, id = 'ctsSyncOverlap01') {
	const credentials = { ctsApi: { id: CREDENTIALS.api.id, name: CREDENTIALS.api.name } };
	return {
		id,
		name: 'Sync overlap: 250 rows',
		nodes: [
			{
				id: randomUUID(),
				name: 'Rows',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: randomUUID(),
				position: [0, 0],
				parameters: { httpMethod: 'POST', path: id, responseMode: 'onReceived', options: {} },
			},
			{ id: randomUUID(), name: 'Each Row', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [240, 0], parameters: { fieldToSplitOut: 'body.rows', options: {} } },
			{
				id: randomUUID(),
				name: 'Sync Tasks',
				type: `${prefix}.ctsTask`,
				typeVersion: 1,
				position: [480, 0],
				parameters: {
					resource: 'task',
					operation: 'sync',
					source: OVERLAP_SOURCE,
					sourceKey: '={{ $json.id }}',
					title: '={{ $json.title }}',
					syncFields: { description: '={{ $json.notes }}' },
				},
				credentials,
			},
		],
		connections: {
			Rows: { main: [[{ node: 'Each Row', type: 'main', index: 0 }]] },
			'Each Row': { main: [[{ node: 'Sync Tasks', type: 'main', index: 0 }]] },
		},
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * Runs the scenario: `post()` starts a run (posts the rows to the published webhook), `rest` and
 * `workflowId` name the workflow in n8n, `sandbox` is the sandbox's URL. Answers the counts and the
 * runs' executions; asserts 250 open tasks for 250 keys after the overlap, and no write by the third run.
 */
export async function runOverlapScenario({ post, rest, workflowId, sandbox, log = console.log }) {
	const control = async (name, body) => await (await fetch(`${sandbox}/_sandbox/${name}`, { method: body ? 'POST' : 'GET', headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) })).json();
	const rows = Array.from({ length: ROWS }, (_, index) => ({ id: `row-${index}`, title: `Row ${index}`, notes: `Notes of row ${index}` }));
	const before = await control('limits');
	const known = await executionIds(rest, workflowId);
	const finished = async (count) => await newExecutions(rest, workflowId, { known, count, timeoutMs: 900_000 });
	const restoreLimits = async () => await control('limits', before.points === null ? { points: null } : { points: before.points, windowSeconds: before.windowSeconds });
	await control('limits', { points: 100, windowSeconds: 20 });
	const started = Date.now();
	let overlapping;
	try {
		await post(rows);
		await sleep(25_000);
		await post(rows);
		overlapping = await finished(2);
	} finally {
		// The test's own reads below are not the runs' budget.
		await restoreLimits();
	}
	const seconds = (Date.now() - started) / 1000;
	const afterOverlap = await openTasksByKey(sandbox);
	const tasks = [...afterOverlap.values()].reduce((sum, list) => sum + list.length, 0);
	log(`sync overlap: 2 runs of ${ROWS} rows, the second 25 s after the first, at 100 points per 20 s: ${tasks} open tasks for ${afterOverlap.size} keys, ${seconds.toFixed(0)} s; statuses ${overlapping.map((execution) => execution.status).join(', ')}`);
	assert.deepEqual(overlapping.map((execution) => execution.status), ['success', 'success']);
	assert.equal(afterOverlap.size, ROWS);
	assert.equal(tasks, ROWS, 'one open task per key');
	overlapping.forEach((execution) => known.add(String(execution.id)));

	const thirdStarted = new Date().toISOString();
	await post(rows);
	const [third] = await finished(1);
	const writes = (await control('requests')).requests.filter((request) => request.time >= thirdStarted && request.method === 'POST' && request.path.startsWith('/v3/tasks/'));
	log(`sync overlap: the third run alone: ${writes.length} writes`);
	assert.equal(third.status, 'success');
	assert.deepEqual(writes, []);
	assert.equal((await openTasksByKey(sandbox)).size, ROWS);
	return { overlapping, third, tasks, keys: afterOverlap.size, seconds };
}

/** The open tasks of `OVERLAP_SOURCE` by key. */
async function openTasksByKey(sandbox) {
	const byKey = new Map();
	let after;
	for (;;) {
		const query = new URLSearchParams({ limit: '100', ...(after ? { updatedAfter: after } : {}) });
		const response = await fetch(`${sandbox}/v3/tasks/list?${query}`, { headers: { authorization: 'ApiKey sandbox-alice-key' } });
		assert.equal(response.status, 200, `listing the tasks: ${response.status}`);
		const page = (await response.json()).data.tasks;
		for (const task of page) {
			const key = new RegExp(`^Synced from: ${OVERLAP_SOURCE} \\| ([^|]*) \\|`, 'm').exec(task.description ?? '')?.[1];
			if (key) byKey.set(key, [...(byKey.get(key) ?? []), task.id]);
		}
		if (page.length < 100) return byKey;
		after = page[page.length - 1].updated;
	}
}
