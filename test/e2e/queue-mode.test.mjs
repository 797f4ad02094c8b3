/**
 * n8n 2.41.1 in queue mode, the way users who outgrow one process run it: PostgreSQL, Redis, a
 * main instance (editor, webhooks, triggers and pollers) and two `n8n worker` processes, each with
 * the `npm pack` tarball installed as a community package (support/queueMode.mjs). The triggers
 * through restarts of this stack: queue-restarts.test.mjs, beside this file.
 *
 * 1. Every Task and Event operation (v3 and v1) runs on a worker, started by a production
 *    webhook, with the same outputs as in single-process n8n (operationTests.mjs).
 * 4. Two bulk jobs of one user at once, one on each worker, against the user's point budget with
 *    a window longer than a minute: every item done, each task created once (the 429s it cost are
 *    printed: each worker paces by its own reading of the same answers).
 * 5. Two runs of a published Sync Tasks workflow that overlap on the two workers (250 rows at 100
 *    points per 20 s, the second started 25 s after the first): 250 open tasks for 250 keys, and a
 *    third run writes nothing (support/syncOverlap.mjs).
 *
 * Each worker runs one execution at a time here, so two executions that overlap run one on each.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';

import { PACKAGE_NAME } from '../../scripts/community-package.mjs';
import { operationTests, operationWorkflows } from './support/operationTests.mjs';
import { executionIds, newExecutions } from './support/executions.mjs';
import { startQueueMode } from './support/queueMode.mjs';
import { overlapSyncWorkflow, runOverlapScenario } from './support/syncOverlap.mjs';
import { waitFor } from './support/waiting.mjs';
import { CREDENTIALS, withWebhookStart } from './support/workflows.mjs';

describe('queue mode: n8n 2.41.1 main, two workers, PostgreSQL and Redis', () => {
	let sandbox;
	let stack;
	let rest;
	let ranOn;
	let publish;
	let queue;

	before(async () => {
		// One execution at a time per worker: two jobs that overlap run one on each worker (4 and 5).
		queue = await startQueueMode({ workerConcurrency: 1 });
		({ sandbox, stack, rest, ranOn, publish } = queue);
	});

	after(async () => await queue?.stop());

	describe('1. every Task and Event operation runs on a worker, with the outputs of single-process n8n', () => {
		const executions = [];

		before(async () => {
			await publish(operationWorkflows(PACKAGE_NAME).map(withWebhookStart));
		});

		operationTests({
			sandbox: () => sandbox,
			runWorkflow: async (id) => {
				const known = await executionIds(rest, id);
				// The webhook is served once the publication has registered it.
				await waitFor(async () => (await fetch(`${stack.main.url}/webhook/${id}`, { method: 'POST' })).status !== 404, 60_000, `the webhook of ${id}`);
				const [execution] = await newExecutions(rest, id, { known });
				executions.push(execution.id);
				const error = execution.data.resultData.error;
				return {
					run: { data: execution.data, status: execution.status },
					failed: execution.status !== 'success' || Boolean(error),
					output: `status ${execution.status}: ${JSON.stringify(error ?? null)}`,
				};
			},
		});

		it('each of those executions was started by a worker, none by the main instance', async () => {
			assert.ok(executions.length >= 6, `executions: ${executions.join(', ')}`);
			const split = {};
			for (const id of executions) {
				assert.ok(ranOn.has(id), `execution ${id} was not started by a worker`);
				split[ranOn.get(id)] = (split[ranOn.get(id)] ?? 0) + 1;
			}
			console.log(`operation workflows: ${executions.length} executions, by worker: ${JSON.stringify(split)}`);
		});
	});

	it('4. two bulk jobs of one user at once, one on each worker, share its budget (30 points per 65 s): 0 failed items, each task created once', async () => {
		const workflow = bulkCreateWorkflow(PACKAGE_NAME);
		await publish([workflow]);
		// Each worker runs one execution at a time (workerConcurrency 1): the two jobs posted together go one to each.
		const outcome = await runBulkJobs(workflow);
		const { requested, created, refused, executions, workers, errors, seconds } = outcome;
		const failedItems = requested.filter((title) => !created.includes(title)).length;
		console.log(
			`bulk jobs: ${requested.length} items in ${executions.length} executions on ${workers.join(' and ')}, ${created.length} created, ` +
				`${failedItems} failed, ${refused} requests answered 429, ${seconds.toFixed(1)} s; statuses ${executions.map((execution) => execution.status).join(', ')}` +
				(errors.length > 0 ? `; errors: ${errors.join(' | ')}` : ''),
		);
		assert.deepEqual(new Set(workers), new Set(['worker-1', 'worker-2']), 'one job on each worker');
		assert.equal(failedItems, 0);
		assert.equal(new Set(created).size, created.length, 'each task created once');
		assert.ok(executions.every((execution) => execution.status === 'success'));
	});

	it('5. two runs of a published sync that overlap, on the two workers, leave one task per key; a third run writes nothing', async () => {
		// The first run waits for the budget past the second post, and each worker runs one execution at a
		// time: the second run goes to the other worker.
		const workflow = overlapSyncWorkflow(PACKAGE_NAME, 'ctsSyncOverlap');
		await publish([workflow]);
		const { overlapping } = await runOverlapScenario({
			post: async (rows) => {
				await waitFor(
					async () => (await fetch(`${stack.main.url}/webhook/${workflow.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rows }) })).status === 200,
					60_000,
					'the sync webhook',
				);
			},
			rest,
			workflowId: workflow.id,
			sandbox: sandbox.url,
		});
		const workers = overlapping.map((execution) => ranOn.get(String(execution.id)) ?? 'main');
		console.log(`sync overlap: the two runs on ${workers.join(' and ')}`);
		assert.deepEqual(new Set(workers), new Set(['worker-1', 'worker-2']), 'one run on each worker');
	});

	/** Posts two jobs of 30 tasks at once under 30 points per 65 s and waits for both executions. */
	async function runBulkJobs(workflow) {
		await sandbox.reset();
		await sandbox.control('limits', { points: 30, windowSeconds: 65 });
		const batches = Array.from({ length: 2 }, (_, batch) => Array.from({ length: 30 }, (_, index) => ({ title: `bulk ${batch}-${index}` })));
		const known = await executionIds(rest, workflow.id);
		const started = Date.now();
		await Promise.all(
			batches.map(async (tasks) => {
				await waitFor(
					async () =>
						(await fetch(`${stack.main.url}/webhook/${workflow.id}`, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify({ tasks }),
						})).status !== 404,
					60_000,
					'the bulk webhook',
				);
			}),
		);
		const executions = await newExecutions(rest, workflow.id, { known, count: batches.length, timeoutMs: 600_000 });
		const seconds = (Date.now() - started) / 1000;
		const calls = await sandbox.requests();
		const created = calls.filter((call) => call.path === '/v3/tasks/create' && call.status === 200).map((call) => call.body.title);
		const refused = calls.filter((call) => call.status === 429).length;
		const errors = executions.filter((execution) => execution.status !== 'success').map((execution) => execution.error);
		await sandbox.control('limits', { points: null });
		return { requested: batches.flat().map((task) => task.title), created, refused, executions, workers: executions.map((execution) => ranOn.get(String(execution.id)) ?? 'main'), errors, seconds };
	}
});

/** Webhook → Split Out (one item per task) → CTS Task Create: one execution per posted batch. */
function bulkCreateWorkflow(prefix) {
	const id = 'ctsQueueBulk0001';
	return {
		id,
		name: 'Queue mode: bulk create',
		nodes: [
			{
				id: randomUUID(),
				name: 'Start',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: randomUUID(),
				position: [0, 0],
				parameters: { httpMethod: 'POST', path: id, responseMode: 'onReceived', options: {} },
			},
			{ id: randomUUID(), name: 'Each Task', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [240, 0], parameters: { fieldToSplitOut: 'body.tasks', options: {} } },
			{
				id: randomUUID(),
				name: 'Create',
				type: `${prefix}.ctsTask`,
				typeVersion: 1,
				position: [480, 0],
				parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false },
				credentials: { ctsApi: { id: CREDENTIALS.api.id, name: CREDENTIALS.api.name } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Each Task', type: 'main', index: 0 }]] },
			'Each Task': { main: [[{ node: 'Create', type: 'main', index: 0 }]] },
		},
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}
