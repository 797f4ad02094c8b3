/**
 * `npm start`'s script (scripts/start.mjs) in a child process, as the end-to-end test and the
 * benchmark run it: until it prints that it is ready, then stopped as Ctrl-C stops it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { START_OWNER } from '../../../scripts/examples.mjs';
import { N8nRestClient } from '../../../scripts/n8n-rest.mjs';
import { freePort, projectRoot } from '../../../scripts/n8n-runtime.mjs';

/**
 * Resolves once the script is ready to { output(), readySeconds, stop() }; `stop()` sends SIGINT
 * and resolves to the exit code.
 */
export async function startNpmStart({ stateDir, n8nPort, sandboxPort, timeoutMs = 240_000 }) {
	const child = spawn(process.execPath, [join(projectRoot, 'scripts', 'start.mjs')], {
		env: { ...process.env, NODE_ENV: '', N8N_PORT: String(n8nPort), SANDBOX_PORT: String(sandboxPort), CTS_START_DIR: stateDir },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
	const started = process.hrtime.bigint();
	const elapsedSeconds = () => Number(process.hrtime.bigint() - started) / 1e9;
	while (!output.includes('is ready')) {
		if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
		if (elapsedSeconds() * 1000 > timeoutMs) {
			child.kill('SIGKILL');
			throw new Error(`npm start was not ready in time:\n${output}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return {
		output: () => output,
		readySeconds: elapsedSeconds(),
		/** Resolves to the exit code once the script has exited, whatever stopped it. */
		exited,
		// What Ctrl-C sends to the foreground process.
		stop: async () => {
			child.kill('SIGINT');
			return await exited;
		},
	};
}

/**
 * `npm start` in a fresh state folder named by `prefix`, with the owner logged in through n8n's REST
 * API. Answers the folder, the run, the REST client and the
 * sandbox's URL.
 */
export async function startLoggedIn(prefix) {
	const stateDir = mkdtempSync(join(tmpdir(), prefix));
	const sandboxPort = await freePort();
	const run = await startNpmStart({ stateDir, n8nPort: await freePort(), sandboxPort });
	const rest = new N8nRestClient(run.output().match(/Editor: +(\S+?)\/?\n/)[1]);
	await rest.login(START_OWNER.email, START_OWNER.password);
	return { stateDir, run, rest, sandboxUrl: `http://127.0.0.1:${sandboxPort}` };
}
