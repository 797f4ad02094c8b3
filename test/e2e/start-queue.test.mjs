/**
 * `npm run start:queue` (scripts/start-queue.mjs, on the built package): PostgreSQL, Redis, n8n's
 * main instance and two workers come up with the owner, both credentials and the example
 * workflows (node types under the package name: installed as a community package), and Ctrl-C
 * stops every process it listed, by PID. When the main instance fails to start, the script stops
 * PostgreSQL, Redis and the sandbox it had started and exits 1.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { PACKAGE_NAME } from '../../scripts/community-package.mjs';
import { EXAMPLE_CREDENTIALS, START_OWNER } from '../../scripts/examples.mjs';
import { freePort, projectRoot } from '../../scripts/n8n-runtime.mjs';
import { N8nRestClient } from '../../scripts/n8n-rest.mjs';
import { processesMentioning, runStartWithFailingN8n } from './support/processes.mjs';

const isRunning = (pid) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

describe('npm run start:queue', () => {
	const stateDir = mkdtempSync(join(tmpdir(), 'cts-start-queue-'));
	after(() => rmSync(stateDir, { recursive: true, force: true }));

	it('brings up the queue stack with the examples, and Ctrl-C stops every process it started', async () => {
		const n8nPort = await freePort();
		const child = spawn(process.execPath, [join(projectRoot, 'scripts', 'start-queue.mjs')], {
			env: { ...process.env, NODE_ENV: '', N8N_PORT: String(n8nPort), SANDBOX_PORT: String(await freePort()), CTS_START_DIR: stateDir },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
		const started = Date.now();
		try {
			while (!output.includes('is ready')) {
				if (child.exitCode !== null) throw new Error(`start:queue exited early:\n${output}`);
				if (Date.now() - started > 300_000) throw new Error(`start:queue was not ready in time:\n${output}`);
				await new Promise((r) => setTimeout(r, 250));
			}
			const pids = Object.fromEntries([...output.matchAll(/^\s+(main|worker-\d|PostgreSQL|Redis)\s+PID (\d+)/gm)].map(([, name, pid]) => [name, Number(pid)]));
			assert.deepEqual(Object.keys(pids).sort(), ['PostgreSQL', 'Redis', 'main', 'worker-1', 'worker-2']);
			assert.ok(Object.values(pids).every(isRunning), JSON.stringify(pids));

			const rest = new N8nRestClient(`http://localhost:${n8nPort}`);
			await rest.login(START_OWNER.email, START_OWNER.password);
			const credentials = (await rest.listCredentials()).map((credential) => credential.name).sort();
			assert.deepEqual(credentials, [EXAMPLE_CREDENTIALS.api.name, EXAMPLE_CREDENTIALS.sync.name].sort());
			const workflows = (await rest.listWorkflows()).filter((workflow) => workflow.name.startsWith('CTS example:'));
			assert.equal(workflows.length, 11, workflows.map((workflow) => workflow.name).join(", "));
			const types = (await rest.getWorkflow(workflows[0].id)).nodes.map((node) => node.type);
			assert.ok(types.some((type) => type.startsWith(`${PACKAGE_NAME}.`)), types.join(', '));

			// What Ctrl-C sends to the foreground process.
			child.kill('SIGINT');
			assert.equal(await exited, 0, output);
			assert.match(output, /Stopped\./);
			assert.deepEqual(Object.entries(pids).filter(([, pid]) => isRunning(pid)), [], 'every process is stopped');
		} finally {
			if (child.exitCode === null) {
				child.kill('SIGINT');
				await exited;
			}
		}
		assert.deepEqual(processesMentioning(stateDir), [], 'no process is left behind');
	});

	it('the main instance failing to start stops what the script had started, and the script exits 1', async () => {
		const { code, output, left } = await runStartWithFailingN8n('start-queue.mjs', 'main');
		assert.equal(code, 1, output);
		assert.match(output, /Starting PostgreSQL, Redis/, 'PostgreSQL and Redis were being started');
		assert.match(output, /npm run start:queue: n8n exited before it was ready:[\s\S]*Mismatching encryption keys/);
		assert.match(output, /start failed: stopping postgres \(\d+\), redis \(\d+\) and the sandbox…\nStopped\./);
		assert.deepEqual(left, [], 'no process is left behind');
	});
});
