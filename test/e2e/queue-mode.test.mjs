/**
 * n8n 2.41.1 in queue mode, the way users who outgrow one process run it: PostgreSQL, Redis, a
 * main instance (editor, webhooks, triggers and pollers) and two `n8n worker` processes, each with
 * the `npm pack` tarball installed as a community package, all started by scripts/queue-stack.mjs.
 *
 * 1. Every Task and Event operation (v3 and v1) runs on a worker, started by a production
 *    webhook, with the same outputs as in single-process n8n (operationTests.mjs).
 * 2. + 3. Both triggers, published, poll on the main instance only while the main instance is
 *    killed (SIGKILL) and started again at random moments and a worker is killed too, in three
 *    runs: with n8n's default static data every change is delivered once except those n8n loses,
 *    each loss proven (a poll killed between n8n saving its static data and storing its
 *    execution, or an execution n8n marked crashed); with n8n's durable poller cursors nothing
 *    is lost in the static-data gap; with the triggers' Redeliver After a Restart nothing is lost
 *    at all, and changes repeat only in the first execution after a restart.
 * 4. Two bulk jobs of one user at once, one on each worker, against the user's point budget with
 *    a window longer than a minute: every item done, each task created once (the 429s it cost are
 *    printed: each worker paces by its own reading of the same answers).
 * 5. Two runs of a published Sync Tasks workflow that overlap on the two workers (250 rows at 100
 *    points per 20 s, the second started 25 s after the first): 250 open tasks for 250 keys, and a
 *    third run writes nothing (support/syncOverlap.mjs).
 * 6. Two bookings of one event at the same moment on the two workers (Event Create with Skip If It
 *    Already Exists, its creates held back by the sandbox so both checks run before either create):
 *    both create, one event remains, and both executions output it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';

import { PACKAGE_NAME, packPackage } from '../../scripts/community-package.mjs';
import { ensureRuntime } from '../../scripts/n8n-runtime.mjs';
import { N8nRestClient } from '../../scripts/n8n-rest.mjs';
import { QueueStack } from '../../scripts/queue-stack.mjs';
import { N8nHarness, OWNER } from './support/n8n.mjs';
import { operationTests, operationWorkflows } from './support/operationTests.mjs';
import {
	assertDeliveries,
	DEFAULT_STATIC_DATA,
	describeCounts,
	DURABLE_CURSORS as DURABLE_CURSORS_ALLOW,
	EVERY_MINUTE,
	EVERY_TEN_SECONDS,
	publishTriggers,
	REDELIVER_AFTER_RESTART,
	restartTriggerWorkflows,
	runRestartScenario,
	storedStaticData,
	RESTART_SCALE,
} from './support/restarts.mjs';
import { executionIds, newExecutions, nodeOutput } from './support/executions.mjs';
import { startSandbox } from './support/sandbox.mjs';
import { overlapSyncWorkflow, runOverlapScenario } from './support/syncOverlap.mjs';
import { waitFor } from './support/waiting.mjs';
import { CREDENTIALS, credentialsFile, withWebhookStart } from './support/workflows.mjs';

/** The settings n8n 2.41.1 needs for durable poller cursors (scheduler.config.js, durable-poller-chain.js). */
const DURABLE_CURSORS = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

describe('queue mode: n8n 2.41.1 main, two workers, PostgreSQL and Redis', () => {
	let stateDir;
	let sandbox;
	let stack;
	let rest;
	let cli;
	let failed = false;
	/** Execution ID -> the worker whose log says it started it. */
	const ranOn = new Map();

	before(async () => {
		stateDir = mkdtempSync(join(tmpdir(), 'cts-queue-'));
		const { tarball } = packPackage(join(stateDir, 'pack'));
		sandbox = await startSandbox();
		const pending = new Map();
		stack = new QueueStack({
			info: await ensureRuntime('2'),
			stateDir,
			tarball,
			fastDatabase: true,
			onOutput: (name, text) => {
				if (!name.startsWith('worker-')) return;
				const lines = `${pending.get(name) ?? ''}${text}`.split('\n');
				pending.set(name, lines.pop());
				for (const line of lines) {
					const started = /Worker started execution (\d+)/.exec(line);
					if (started) ranOn.set(started[1], name);
				}
			},
		});
		try {
			await stack.start();
		} catch (error) {
			await stack.stop();
			throw error;
		}
		console.log(`queue stack: ${JSON.stringify(stack.pids())} (logs in ${stack.logDir})`);
		rest = new N8nRestClient(stack.main.url);
		await rest.ensureOwner(OWNER);
		cli = N8nHarness.attach(stack.info, stack.mainEnv);
		await cli.importCredentials(
			credentialsFile({ sandboxUrl: sandbox.url, token: await sandbox.token('alice', 24 * 3600), expiredToken: await sandbox.token('alice', -60) }),
		);
	});

	after(async () => {
		console.log(`queue stack stopping: ${JSON.stringify(stack?.pids() ?? {})}`);
		await stack?.stop();
		await sandbox?.close();
		// Keep the logs of a failed run.
		if (failed) console.log(`queue stack state and logs kept in ${stateDir}`);
		else if (stateDir) rmSync(stateDir, { recursive: true, force: true });
	});

	const publish = async (workflows) => {
		await cli.importWorkflows(workflows);
		for (const workflow of workflows) await rest.activateWorkflow(workflow.id);
	};

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

	/**
	 * Items 2 and 3: the main instance restarted with `mainEnv`, fresh trigger workflows, then the
	 * restart scenario with one worker killed too.
	 */
	const restartRun = async ({ label, idSuffix, mainEnv, schedule, seed, storedStaticDataShowsLosses, allowed, redeliverAfterRestart = false }) => {
		const runStarted = Date.now();
		await sandbox.reset();
		await sandbox.control('limits', { points: null });
		await stack.main.stop();
		await stack.startMain(mainEnv);
		const triggers = restartTriggerWorkflows(PACKAGE_NAME, idSuffix, schedule, { redeliverAfterRestart });
		await publishTriggers({ cli, rest, sandbox, triggers });
		const scale = RESTART_SCALE;
		const result = await runRestartScenario({
			sandbox,
			rest: () => rest,
			triggers,
			seed,
			...scale,
			killMain: async () => await stack.killMain(),
			startMain: async () => await stack.startMain(mainEnv),
			killWorker: async () => await stack.killWorker(0),
			startWorker: async () => await stack.startWorker(0),
			killedWorker: stack.workerNames()[0],
			startedBy: (id) => ranOn.get(id),
			allowed,
			readStoredStaticData: storedStaticDataShowsLosses ? async () => storedStaticData(await cli.exportWorkflows()) : undefined,
			log: (line) => console.log(line),
		});
		for (const workflow of [triggers.task, triggers.event]) await rest.deactivateWorkflow(workflow.id);

		// Which process ran each trigger execution, and how each ended.
		const executions = [...result.deliveries.executions];
		const split = {};
		const statuses = {};
		for (const [id, execution] of executions) {
			const where = ranOn.get(id) ?? 'no process (never started)';
			split[where] = (split[where] ?? 0) + 1;
			statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
		}
		console.log(
			`${describeCounts(label, result.counts)}, 1 of a worker; ${executions.length} trigger executions by process ${JSON.stringify(split)}, by status ${JSON.stringify(statuses)}; ` +
				`${Math.round((Date.now() - runStarted) / 1000)} s`,
		);
		await assertDeliveries(result, { sandbox, ...scale });
		assert.ok(executions.filter(([, execution]) => execution.status === 'success').every(([id]) => ranOn.has(id)), 'every execution that ran was started by a worker');
	};

	const scenario = (name, run) =>
		it(name, async () => {
			try {
				await restartRun(run);
			} catch (error) {
				failed = true;
				throw error;
			}
		});

	scenario(
		"2./3. restarts with n8n's default static data: every change delivered once, except changes n8n lost in its static-data gap or in crashed executions, each proven; polls only on main",
		{ label: 'default static data', idSuffix: 'S1', mainEnv: {}, schedule: EVERY_TEN_SECONDS, seed: 20261122, storedStaticDataShowsLosses: true, allowed: DEFAULT_STATIC_DATA },
	);

	scenario(
		'2./3. restarts with durable poller cursors: creations, updates and cancellations delivered once, none lost in a static-data gap; polls only on main',
		{ label: 'durable poller cursors', idSuffix: 'D1', mainEnv: DURABLE_CURSORS, schedule: EVERY_MINUTE, seed: 20261123, storedStaticDataShowsLosses: false, allowed: DURABLE_CURSORS_ALLOW },
	);

	scenario(
		"2./3. restarts with n8n's default static data and Redeliver After a Restart: no change lost, repeats only in the first execution after a restart; polls only on main",
		{
			label: 'default static data, Redeliver After a Restart',
			idSuffix: 'R1',
			mainEnv: {},
			schedule: EVERY_TEN_SECONDS,
			seed: 20261122,
			storedStaticDataShowsLosses: true,
			allowed: REDELIVER_AFTER_RESTART,
			redeliverAfterRestart: true,
		},
	);

	it('4. two bulk jobs of one user at once, one on each worker, share its budget (30 points per 65 s): 0 failed items, each task created once', async () => {
		const workflow = bulkCreateWorkflow(PACKAGE_NAME);
		await publish([workflow]);
		// Each worker runs one execution at a time: the two jobs posted together go one to each.
		await oneExecutionPerWorker();
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
		await oneExecutionPerWorker();
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

	it('6. two bookings of one event at once, one on each worker, leave one event and both output it', async () => {
		await oneExecutionPerWorker();
		const workflow = bookingWorkflow(PACKAGE_NAME);
		await publish([workflow]);
		await sandbox.reset();
		// Each create waits 4 s in the sandbox: both executions check before either event exists.
		await sandbox.control('faults', { delayMs: 4000, count: 2, path: '/v3/events/create' });
		const known = await executionIds(rest, workflow.id);
		const booking = { title: 'Design review', start: '2026-12-02T10:00:00' };
		await Promise.all(
			[0, 1].map(async () => {
				await waitFor(
					async () => (await fetch(`${stack.main.url}/webhook/${workflow.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(booking) })).status === 200,
					60_000,
					'the booking webhook',
				);
			}),
		);
		const executions = await newExecutions(rest, workflow.id, { known, count: 2, timeoutMs: 120_000 });
		const workers = executions.map((execution) => ranOn.get(String(execution.id)) ?? 'main');
		const calls = await sandbox.requests();
		const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: '2026-12-02T00:00:00Z', end: '2026-12-03T00:00:00Z' } });
		const held = body.data.events.filter((event) => event.title === booking.title);
		const outputs = executions.map((execution) => nodeOutput(execution, 'Create')[0] ?? {});
		console.log(
			`bookings: on ${workers.join(' and ')}, ${calls.filter((call) => call.path === '/v3/events/create').length} created, ` +
				`${calls.filter((call) => call.path === '/v3/events/delete').length} deleted, ${held.length} held; outputs ${outputs.map((json) => `${json.id}${json.alreadyExists ? ' (already exists)' : ''}`).join(', ')}`,
		);
		assert.deepEqual(new Set(workers), new Set(['worker-1', 'worker-2']), 'one booking on each worker');
		assert.ok(executions.every((execution) => execution.status === 'success'));
		assert.equal(calls.filter((call) => call.path === '/v3/events/create').length, 2, 'both checked before either created');
		assert.equal(held.length, 1);
		assert.deepEqual(outputs.map((json) => json.id), [held[0].id, held[0].id]);
	});

	/**
	 * Starts the workers again, each running one execution at a time (`n8n worker --concurrency=1`), so
	 * that two jobs that overlap land one on each. Tests 1 to 3 run with n8n's default concurrency.
	 */
	async function oneExecutionPerWorker() {
		if (stack.workerConcurrency !== 1) await stack.restartWorkers(1);
	}

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
	return webhookChain('ctsQueueBulk0001', 'Queue mode: bulk create', [
		{ name: 'Each Task', type: 'n8n-nodes-base.splitOut', parameters: { fieldToSplitOut: 'body.tasks', options: {} } },
		{ name: 'Create', type: `${prefix}.ctsTask`, parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false }, credentials: API_CREDENTIAL },
	]);
}

/** Webhook → CTS Event Create with Skip If It Already Exists: a booking as an agent or a form makes it. */
function bookingWorkflow(prefix) {
	return webhookChain('ctsQueueBooking1', 'Queue mode: booking', [
		{
			name: 'Create',
			type: `${prefix}.ctsEvent`,
			parameters: {
				resource: 'event',
				operation: 'create',
				calendarId: { __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-primary' },
				title: '={{ $json.body.title }}',
				start: '={{ $json.body.start }}',
				endMode: 'duration',
				duration: 'PT1H',
				timeZone: 'Europe/Berlin',
				skipIfExists: true,
			},
			credentials: API_CREDENTIAL,
		},
	]);
}

const API_CREDENTIAL = { ctsApi: { id: CREDENTIALS.api.id, name: CREDENTIALS.api.name } };

/** A workflow started by a POST to its webhook (the path is its ID; n8n answers at once), then `nodes` one after another. */
function webhookChain(id, name, nodes) {
	const start = { name: 'Start', type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: randomUUID(), parameters: { httpMethod: 'POST', path: id, responseMode: 'onReceived', options: {} } };
	const chain = [start, ...nodes].map((node, index) => ({ id: randomUUID(), typeVersion: 1, position: [240 * index, 0], ...node }));
	const connections = Object.fromEntries(chain.slice(1).map((node, index) => [chain[index].name, { main: [[{ node: node.name, type: 'main', index: 0 }]] }]));
	return { id, name, nodes: chain, connections, active: false, settings: { executionOrder: 'v1' }, pinData: {} };
}
