/**
 * Both triggers of the package in n8n 2.41.1's queue mode (support/queueMode.mjs: PostgreSQL,
 * Redis, a main instance and two workers), published, poll on the main instance only while the
 * main instance is killed (SIGKILL) and started again at random moments and a worker is killed
 * too, in three runs (items 2 and 3 of the queue-mode proof; the operations, bulk jobs and the
 * overlapping sync run in queue-mode.test.mjs, beside this file, on a stack of its own):
 *
 * - with n8n's default static data every change is delivered once except those n8n loses, each
 *   loss proven (a poll killed between n8n saving its static data and storing its execution, or
 *   an execution n8n marked crashed);
 * - with n8n's durable poller cursors nothing is lost in the static-data gap;
 * - with the triggers' Redeliver After a Restart nothing is lost at all, and changes repeat only
 *   in the first execution after a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { PACKAGE_NAME } from '../../scripts/community-package.mjs';
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
import { startQueueMode } from './support/queueMode.mjs';

/** The settings n8n 2.41.1 needs for durable poller cursors (scheduler.config.js, durable-poller-chain.js). */
const DURABLE_CURSORS = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

describe('queue mode: n8n 2.41.1 main, two workers, PostgreSQL and Redis: the triggers through restarts', () => {
	let sandbox;
	let stack;
	let rest;
	let cli;
	let ranOn;
	let queue;
	let failed = false;

	before(async () => {
		queue = await startQueueMode();
		({ sandbox, stack, rest, cli, ranOn } = queue);
	});

	after(async () => await queue?.stop({ keepLogs: failed }));

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
});
