/**
 * n8n 2.41.1 in queue mode for an end-to-end file: PostgreSQL, Redis, a main instance and two
 * workers (scripts/queue-stack.mjs), each with the `npm pack` tarball installed, the owner set up
 * and the test credentials imported, against a sandbox of its own. Used by queue-mode.test.mjs
 * and queue-restarts.test.mjs, which run side by side, each with its own stack.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { packPackage } from '../../../scripts/community-package.mjs';
import { ensureRuntime } from '../../../scripts/n8n-runtime.mjs';
import { N8nRestClient } from '../../../scripts/n8n-rest.mjs';
import { QueueStack } from '../../../scripts/queue-stack.mjs';
import { N8nHarness, OWNER } from './n8n.mjs';
import { startSandbox } from './sandbox.mjs';
import { credentialsFile } from './workflows.mjs';

/**
 * Starts the stack. `workerConcurrency`: how many executions each worker runs at once (n8n's
 * default when not given). Answers the sandbox, the stack, a REST client and the CLI of the main
 * instance, `ranOn` (execution ID → the worker whose log says it started it), `publish(workflows)`
 * and `stop({ keepLogs })`.
 */
export async function startQueueMode({ workerConcurrency } = {}) {
	const stateDir = mkdtempSync(join(tmpdir(), 'cts-queue-'));
	const { tarball } = packPackage(join(stateDir, 'pack'));
	const sandbox = await startSandbox();
	const ranOn = new Map();
	const pending = new Map();
	const stack = new QueueStack({
		info: await ensureRuntime('2'),
		stateDir,
		tarball,
		fastDatabase: true,
		workerConcurrency,
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
	const stop = async ({ keepLogs = false } = {}) => {
		console.log(`queue stack stopping: ${JSON.stringify(stack.pids())}`);
		await stack.stop();
		await sandbox.close();
		if (keepLogs) console.log(`queue stack state and logs kept in ${stateDir}`);
		else rmSync(stateDir, { recursive: true, force: true });
	};
	try {
		await stack.start();
	} catch (error) {
		await stop({ keepLogs: true });
		throw error;
	}
	console.log(`queue stack: ${JSON.stringify(stack.pids())} (logs in ${stack.logDir})`);
	const rest = new N8nRestClient(stack.main.url);
	await rest.ensureOwner(OWNER);
	const cli = N8nHarness.attach(stack.info, stack.mainEnv);
	await cli.importCredentials(credentialsFile({ sandboxUrl: sandbox.url, token: await sandbox.token('alice', 24 * 3600), expiredToken: await sandbox.token('alice', -60) }));
	const publish = async (workflows) => {
		await cli.importWorkflows(workflows);
		for (const workflow of workflows) await rest.activateWorkflow(workflow.id);
	};
	return { sandbox, stack, rest, cli, ranOn, publish, stop };
}
