/**
 * `npm start`'s script (scripts/start.mjs) in a child process, as the end-to-end test and the
 * benchmark run it: until it prints that it is ready, then stopped as Ctrl-C stops it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { projectRoot } from '../../../scripts/n8n-runtime.mjs';

/** The sandbox's budget as npm start chooses it, whatever the environment the tests run in sets. */
const NO_BUDGET_CHOSEN = { SANDBOX_POINTS: '', SANDBOX_WINDOW_SECONDS: '', SANDBOX_COUNTING: '' };

/**
 * Resolves once the script is ready to { output(), readySeconds, stop() }; `stop()` sends SIGINT
 * and resolves to the exit code. `env` is added to this process's environment.
 */
export async function startNpmStart({ stateDir, n8nPort, sandboxPort, timeoutMs = 240_000, env = {} }) {
	const child = spawn(process.execPath, [join(projectRoot, 'scripts', 'start.mjs')], {
		env: { ...process.env, NODE_ENV: '', ...NO_BUDGET_CHOSEN, ...env, N8N_PORT: String(n8nPort), SANDBOX_PORT: String(sandboxPort), CTS_START_DIR: stateDir },
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
