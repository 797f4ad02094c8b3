/**
 * Single-process n8n 2.41.1 on SQLite (the package loaded as a custom extension), the restart test
 * of queue-mode.test.mjs: both triggers published, randomized task and event changes, and n8n
 * killed (SIGKILL) while a trigger polls and at random moments, then started again. Every change
 * is delivered exactly once, except changes n8n loses with its default static data (a poll killed
 * between saving its static data and storing its execution, or an execution cut off by the kill),
 * each proven.
 */
import { after, before, describe, it } from 'node:test';

import { N8nHarness, OWNER } from './support/n8n.mjs';
import { assertDeliveries, DEFAULT_STATIC_DATA, RESTART_SCALE, describeCounts, EVERY_TEN_SECONDS, publishTriggers, restartTriggerWorkflows, runRestartScenario, storedStaticData } from './support/restarts.mjs';
import { startSandbox } from './support/sandbox.mjs';
import { credentialsFile } from './support/workflows.mjs';

describe('single-process n8n 2.41.1 on SQLite: killed while polling and started again', () => {
	let sandbox;
	let n8n;

	before(async () => {
		sandbox = await startSandbox();
		n8n = await N8nHarness.create({ line: '2' });
		await n8n.importCredentials(
			credentialsFile({ sandboxUrl: sandbox.url, token: await sandbox.token('alice', 24 * 3600), expiredToken: await sandbox.token('alice', -60) }),
		);
		await n8n.start();
		await n8n.rest.ensureOwner(OWNER);
	});

	after(async () => {
		await n8n?.dispose();
		await sandbox?.close();
	});

	it(`every change delivered exactly once through ${RESTART_SCALE.mainKills} kills (-9) of n8n, except losses n8n causes, each proven`, async () => {
		const runStarted = Date.now();
		await sandbox.reset();
		await sandbox.control('limits', { points: null });
		const triggers = restartTriggerWorkflows('CUSTOM', 'P1', EVERY_TEN_SECONDS);
		await publishTriggers({ cli: n8n, rest: n8n.rest, sandbox, triggers });
		const scale = RESTART_SCALE;
		const result = await runRestartScenario({
			sandbox,
			rest: () => n8n.rest,
			triggers,
			seed: 20261124,
			...scale,
			killMain: async () => await n8n.server.kill(),
			startMain: async () => await n8n.start(),
			readStoredStaticData: async () => storedStaticData(await n8n.exportWorkflows()),
			allowed: DEFAULT_STATIC_DATA,
			log: (line) => console.log(line),
		});
		const statuses = {};
		for (const [, execution] of result.deliveries.executions) statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
		console.log(`${describeCounts('single process', result.counts)}; executions by status ${JSON.stringify(statuses)}; ${Math.round((Date.now() - runStarted) / 1000)} s`);
		await assertDeliveries(result, { sandbox, ...scale });
	});
});
