/**
 * `npm run start:queue`: n8n in queue mode with this package, against the local sandbox, the way
 * users who outgrow one n8n process run it: PostgreSQL, Redis, one main instance and two workers
 * (scripts/queue-stack.mjs), each with the `npm pack` tarball installed as a community package.
 * Sets up the owner, the two CTS credentials and the example workflows like `npm start`.
 *
 * Expects the package built (dist/) and the sandbox compiled; the npm script does both first,
 * after scripts/setup-queue.sh (PostgreSQL and Redis from Debian's packages, when missing). State
 * is kept in .n8n-runtime/start-queue/ (delete it to start over). Ctrl-C stops every process it
 * started, by PID.
 *
 * Environment: N8N_PORT (default 5678), SANDBOX_PORT (default 8787), CTS_START_DIR (where the
 * state is kept, default .n8n-runtime/start-queue).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { PACKAGE_NAME, packPackage } from './community-package.mjs';
import { EXAMPLE_CREDENTIALS, START_OWNER as OWNER } from './examples.mjs';
import { portInUse, provisionInstance, SANDBOX_KEY, startSandboxProcess, waitFor } from './local-instance.mjs';
import { ensureRuntime, projectRoot, runtimeRoot } from './n8n-runtime.mjs';
import { N8nRestClient } from './n8n-rest.mjs';
import { QueueStack } from './queue-stack.mjs';

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const log = (message) => console.log(message);

async function main() {
	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	const sandboxPort = Number(process.env.SANDBOX_PORT ?? 8787);
	const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
	if (!existsSync(join(projectRoot, 'dist', 'nodes'))) throw new Error('dist/ is missing: run `npm run build` (npm run start:queue does it)');

	const info = await ensureRuntime('2');
	for (const [what, port, variable] of [['n8n', n8nPort, 'N8N_PORT'], ['the sandbox', sandboxPort, 'SANDBOX_PORT']]) {
		if (await portInUse(port)) throw new Error(`Port ${port} for ${what} is in use (another start?). Stop that, or set ${variable}=<port>.`);
	}
	const stateDir = process.env.CTS_START_DIR ? resolve(process.env.CTS_START_DIR) : join(runtimeRoot, 'start-queue');
	mkdirSync(stateDir, { recursive: true });

	const sandbox = startSandboxProcess(sandboxPort, join(stateDir, 'sandbox.json'));
	// Manual runs from the editor go to the workers too (n8n's recommended setting for queue mode).
	const stack = new QueueStack({
		info,
		stateDir,
		tarball: packPackage(join(stateDir, 'pack')).tarball,
		mainPort: n8nPort,
		env: { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' },
		detached: true,
	});
	let stopping = false;
	const stop = async (reason, code = 0) => {
		if (stopping) return;
		stopping = true;
		log(`\n${reason}: stopping ${Object.entries(stack.pids()).map(([name, pid]) => `${name} (${pid})`).join(', ')} and the sandbox (${sandbox.child.pid})…`);
		await stack.stop();
		if (sandbox.child.exitCode === null) sandbox.child.kill('SIGTERM');
		await sandbox.exited;
		log('Stopped.');
		process.exit(code);
	};
	process.on('SIGINT', () => void stop('Ctrl-C'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
	sandbox.exited.then((code) => {
		if (!stopping) {
			console.error(`The sandbox stopped unexpectedly (exit ${code}):\n${sandbox.output()}`);
			void stop('sandbox stopped', 1);
		}
	});

	let added;
	try {
		await waitFor(`${sandboxUrl}/_sandbox/health`, 20_000);
		log(`Sandbox running on ${sandboxUrl} (${elapsed()})`);
		log(`Starting PostgreSQL, Redis, n8n ${info.n8nVersion} main and two workers…`);
		await stack.start();
		for (const [name, handle] of [['main', stack.main], ...stack.workers.map((worker, index) => [stack.workerNames()[index], worker])]) {
			handle.exited.then(({ code, signal }) => {
				if (!stopping) {
					console.error(`n8n ${name} stopped unexpectedly (exit ${code ?? signal}):\n${handle.output().slice(-5000)}`);
					void stop(`${name} stopped`, 1);
				}
			});
		}
		({ added } = await provisionInstance(new N8nRestClient(stack.main.url), { sandboxUrl, prefix: PACKAGE_NAME }));
	} catch (error) {
		console.error(`npm run start:queue: ${error.message ?? error}`);
		await stop('start failed', 1);
		return;
	}
	const pids = stack.pids();

	log('');
	log('────────────────────────────────────────────────────────────────────');
	log(` n8n ${info.n8nVersion} in queue mode with ${PACKAGE_NAME} is ready (${elapsed()})`);
	log('');
	log(`   Editor:    ${stack.main.url}/`);
	log(`   Log in:    ${OWNER.email}  /  ${OWNER.password}`);
	log(`   Sandbox:   ${sandboxUrl}   (API key ${SANDBOX_KEY}; state in ${join(stateDir, 'sandbox.json')})`);
	log(`   Workflows: ${added > 0 ? `${added} example workflows added` : 'the example workflows'} ("CTS example: …")`);
	log(`   Credentials: "${EXAMPLE_CREDENTIALS.api.name}", "${EXAMPLE_CREDENTIALS.sync.name}"`);
	log('');
	log(' Processes (all on 127.0.0.1):');
	log(`   main       PID ${pids.main}: editor, webhooks, published triggers (the CTS triggers poll here)`);
	for (const name of stack.workerNames()) log(`   ${name}   PID ${pids[name]}: runs the executions (CTS Task and Event nodes)`);
	log(`   PostgreSQL PID ${pids.postgres} on port ${stack.postgres.port}: workflows, credentials, executions, static data`);
	log(`   Redis      PID ${pids.redis} on port ${stack.redis.port}: the queue of executions`);
	log('');
	log(` Logs in ${stack.logDir}; everything is kept in ${stateDir} (delete it to start over).`);
	log(' Ctrl-C stops every process above and the sandbox.');
	log('────────────────────────────────────────────────────────────────────');
}

main().catch((error) => {
	console.error(`npm run start:queue: ${error.message ?? error}`);
	process.exit(1);
});
