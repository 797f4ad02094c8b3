/**
 * `npm start`: n8n with this package, against the local sandbox, ready to click through.
 *
 * Expects the package built (dist/) and the sandbox compiled (build/test/sandbox/); the npm
 * script does both first. Installs the pinned n8n once (scripts/n8n-runtime.mjs), starts the
 * sandbox and n8n, sets up the owner account, the two CTS credentials and the example
 * workflows, and prints where to go. State is kept in .n8n-runtime/start/ (delete that folder
 * to start over). Ctrl-C stops both.
 *
 * Environment: N8N_PORT (default 5678), SANDBOX_PORT (default 8787), CTS_START_DIR (where the
 * state is kept, default .n8n-runtime/start).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { installPackage, PACKAGE_NAME, packPackage } from './community-package.mjs';
import { EXAMPLE_CREDENTIALS, START_OWNER as OWNER } from './examples.mjs';
import { portInUse, provisionInstance, SANDBOX_KEY, startSandboxProcess, waitFor } from './local-instance.mjs';
import { ensureRuntime, freePort, n8nEnv, projectRoot, runtimeRoot, startN8n } from './n8n-runtime.mjs';
import { N8nRestClient } from './n8n-rest.mjs';

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const log = (message) => console.log(message);

async function main() {
	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	const sandboxPort = Number(process.env.SANDBOX_PORT ?? 8787);
	const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
	if (!existsSync(join(projectRoot, 'dist', 'nodes'))) throw new Error('dist/ is missing: run `npm run build` (npm start does it)');

	// 1. n8n, installed once.
	const info = await ensureRuntime('2');

	for (const [what, port, variable] of [['n8n', n8nPort, 'N8N_PORT'], ['the sandbox', sandboxPort, 'SANDBOX_PORT']]) {
		if (await portInUse(port)) throw new Error(`Port ${port} for ${what} is in use (another npm start?). Stop that, or set ${variable}=<port>.`);
	}

	const stateDir = process.env.CTS_START_DIR ? resolve(process.env.CTS_START_DIR) : join(runtimeRoot, 'start');
	const userFolder = join(stateDir, 'n8n');
	mkdirSync(userFolder, { recursive: true });

	// 2. The sandbox, keeping its data across restarts.
	const sandbox = startSandboxProcess(sandboxPort, join(stateDir, 'sandbox.json'));
	let n8n;
	let stopping = false;
	const stop = async (reason) => {
		if (stopping) return;
		stopping = true;
		log(`\n${reason}: stopping n8n and the sandbox…`);
		await Promise.all([
			n8n?.stop(),
			(async () => {
				if (sandbox.child.exitCode === null) sandbox.child.kill('SIGTERM');
				await sandbox.exited;
			})(),
		]);
		log('Stopped.');
		process.exit(0);
	};
	process.on('SIGINT', () => void stop('Ctrl-C'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
	sandbox.exited.then((code) => {
		if (!stopping) {
			console.error(`The sandbox stopped unexpectedly (exit ${code}):\n${sandbox.output()}`);
			void stop('sandbox stopped');
		}
	});
	await waitFor(`${sandboxUrl}/_sandbox/health`, 20_000);
	log(`Sandbox running on ${sandboxUrl} (${elapsed()})`);

	// 3. n8n with the package installed as users install it: the packed tarball in the user
	// folder's community-nodes folder (also what makes n8n run the nodes' credential tests).
	log('Installing the package into n8n (npm pack of dist/)…');
	installPackage(userFolder, packPackage(join(stateDir, 'package')).tarball);
	log(`Starting n8n ${info.n8nVersion}…`);
	const env = n8nEnv(info, { userFolder, port: n8nPort, brokerPort: await freePort() });
	n8n = await startN8n(info, env, { timeoutMs: 240_000, detached: true });
	n8n.exited.then(({ code, signal }) => {
		if (!stopping) {
			console.error(`n8n stopped unexpectedly (exit ${code ?? signal}):\n${n8n.output().slice(-5000)}`);
			void stop('n8n stopped');
		}
	});
	log(`n8n running on ${n8n.url} (${elapsed()})`);

	// 4. Owner, credentials, example workflows (each only once).
	const { added } = await provisionInstance(new N8nRestClient(n8n.url), { sandboxUrl, prefix: PACKAGE_NAME });

	log('');
	log('────────────────────────────────────────────────────────────────────');
	log(` n8n ${info.n8nVersion} with n8n-nodes-calendar-task-service is ready (${elapsed()})`);
	log('');
	log(`   Editor:    ${n8n.url}/`);
	log(`   Log in:    ${OWNER.email}  /  ${OWNER.password}`);
	log(`   Sandbox:   ${sandboxUrl}   (API key ${SANDBOX_KEY}; state in ${join(stateDir, 'sandbox.json')})`);
	log(`   Workflows: ${added > 0 ? `${added} example workflows added` : 'the example workflows'} ("CTS example: …"): open one and click Execute workflow, or Publish the trigger and MCP server examples`);
	log(`   Credentials: "${EXAMPLE_CREDENTIALS.api.name}", "${EXAMPLE_CREDENTIALS.sync.name}"`);
	log('');
	log(' To use the real service: open each credential and set its Base URL / Sync URL');
	log(' (and your API key / token) instead of the sandbox address.');
	log(` Everything is kept in ${stateDir}; delete it to start over.`);
	log(' Ctrl-C stops n8n and the sandbox.');
	log('────────────────────────────────────────────────────────────────────');
}

main().catch((error) => {
	console.error(`npm start: ${error.message ?? error}`);
	process.exit(1);
});
