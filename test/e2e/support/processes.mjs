/**
 * The processes still running that were started for one test: found by a folder of the test's
 * (a state folder, a user folder) in their command line or environment, as every process a
 * start script launches carries its state folder there. Linux (/proc), where the tests run.
 * Also a start script run with an n8n that refuses to start, for the failed-start tests.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort, projectRoot } from '../../../scripts/n8n-runtime.mjs';

/** PIDs of running processes whose command line or environment mention `text`. */
export function processesMentioning(text) {
	return runningProcesses(text).map(({ pid }) => pid);
}

/** The running processes whose command line or environment mention `text`: { pid, args }. */
export function runningProcesses(text) {
	const found = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const state = readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (/^\d+ \(.*\) Z /s.test(state)) continue; // exited, not yet reaped by its parent
			const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
			if ((commandLine + readFileSync(`/proc/${entry}/environ`, 'utf8')).includes(text)) {
				found.push({ pid: Number(entry), args: commandLine.split('\0').filter(Boolean) });
			}
		} catch {
			// gone meanwhile, or another user's process
		}
	}
	return found;
}

/**
 * Runs a start script (`scripts/<script>`) in a fresh state folder whose n8n user folder
 * `<userFolder>` holds a settings file with another encryption key than the script gives n8n, so
 * that n8n refuses to start. Resolves to { code, output, left }: the exit code, what the script
 * printed, and the processes still running that mention the state folder.
 */
export async function runStartWithFailingN8n(script, userFolder) {
	const stateDir = mkdtempSync(join(tmpdir(), 'cts-failing-start-'));
	try {
		mkdirSync(join(stateDir, userFolder, '.n8n'), { recursive: true });
		writeFileSync(join(stateDir, userFolder, '.n8n', 'config'), JSON.stringify({ encryptionKey: 'not-the-key-the-start-script-sets' }));
		const child = spawn(process.execPath, [join(projectRoot, 'scripts', script)], {
			env: { ...process.env, NODE_ENV: '', N8N_PORT: String(await freePort()), SANDBOX_PORT: String(await freePort()), CTS_START_DIR: stateDir },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		const code = await new Promise((resolve) => child.on('exit', resolve));
		return { code, output, left: processesMentioning(stateDir) };
	} finally {
		rmSync(stateDir, { recursive: true, force: true });
	}
}
