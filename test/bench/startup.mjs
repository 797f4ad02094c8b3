/**
 * Section 8 of `npm run bench`: how long `npm start` (scripts/start.mjs) takes to be ready when
 * the n8n install and the setup are already there (a second start), against n8n alone started
 * the same way (same runtime, user folder and package, until its editor is served) in the same
 * run. A first start sets up the owner, the credentials and the example workflows; then rounds
 * of both, the order alternating. Expects the package built (dist/) and the sandbox compiled
 * (build/test/sandbox/), as `npm run bench` leaves them; installs n8n once if it is missing.
 *
 * Prints one JSON line: { n8nVersion, firstSeconds, startSeconds: [...], aloneSeconds: [...] }.
 * Environment: BENCH_START_ROUNDS (default 3), CTS_N8N_RUNTIME_DIR (where n8n is installed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ensureRuntime, freePort, n8nEnv, startN8n } from '../../scripts/n8n-runtime.mjs';
import { startNpmStart } from '../e2e/support/npmStart.mjs';

const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 3);
const log = (message) => console.error(`[bench] ${message}`);

/** `npm start` until it prints that it is ready; then Ctrl-C, as a user stops it. */
async function npmStart(stateDir, n8nPort, sandboxPort) {
	const run = await startNpmStart({ stateDir, n8nPort, sandboxPort });
	const code = await run.stop();
	if (code !== 0) throw new Error(`npm start did not stop cleanly (exit ${code}):\n${run.output().slice(-3000)}`);
	return run.readySeconds;
}

/** n8n alone, as npm start runs it (the package installed in its user folder), until its editor is served; then stopped. */
async function n8nAlone(info, stateDir, n8nPort) {
	const env = n8nEnv(info, { userFolder: join(stateDir, 'n8n'), port: n8nPort, brokerPort: await freePort() });
	const started = process.hrtime.bigint();
	const n8n = await startN8n(info, env, { timeoutMs: 240_000 });
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	await n8n.stop();
	return seconds;
}

async function main() {
	const info = await ensureRuntime('2', { log });
	const stateDir = mkdtempSync(join(tmpdir(), 'cts-bench-start-'));
	try {
		const n8nPort = await freePort();
		const sandboxPort = await freePort();
		const firstSeconds = await npmStart(stateDir, n8nPort, sandboxPort);
		log(`npm start, first start: ${firstSeconds.toFixed(1)} s`);
		const startSeconds = [];
		const aloneSeconds = [];
		for (let round = 0; round < ROUNDS; round++) {
			const order = round % 2 === 0 ? ['start', 'alone'] : ['alone', 'start'];
			for (const which of order) {
				if (which === 'start') startSeconds.push(await npmStart(stateDir, n8nPort, sandboxPort));
				else aloneSeconds.push(await n8nAlone(info, stateDir, n8nPort));
			}
			log(`npm start vs n8n alone: round ${round + 1} of ${ROUNDS} done`);
		}
		console.log(JSON.stringify({ n8nVersion: info.n8nVersion, firstSeconds, startSeconds, aloneSeconds }));
	} finally {
		rmSync(stateDir, { recursive: true, force: true });
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
