/**
 * `npm start`: n8n with this package, against the local sandbox, ready to click through.
 *
 * Expects the package built (dist/) and the sandbox compiled (build/test/sandbox/); the npm
 * script does both first. Installs the pinned n8n once (scripts/n8n-runtime.mjs), starts the
 * sandbox (a new state begins with the starter world) and n8n in this machine's time zone,
 * sets up the owner account, the two CTS credentials and the example
 * workflows, and prints where to go. State is kept in .n8n-runtime/start/ (delete that folder
 * to start over). Ctrl-C stops both; ports, state folder, supervision and exit codes are
 * scripts/local-instance.mjs's.
 */
import { join } from 'node:path';

import { installPackage, PACKAGE_NAME, packPackage } from './community-package.mjs';
import { exampleFilesEnv } from './examples.mjs';
import { provisionInstance, runLocalInstance } from './local-instance.mjs';
import { freePort, n8nEnv, startN8n } from './n8n-runtime.mjs';
import { N8nRestClient } from './n8n-rest.mjs';

await runLocalInstance({
	command: 'npm start',
	stateFolder: 'start',
	start: async ({ info, n8nPort, sandboxUrl, stateDir, timeZone, log, elapsed, watch, onStop }) => {
		// n8n with the package installed as users install it: the packed tarball in the user
		// folder's community-nodes folder (also what makes n8n run the nodes' credential tests).
		const userFolder = join(stateDir, 'n8n');
		log('Installing the package into n8n (npm pack of dist/)…');
		installPackage(userFolder, packPackage(join(stateDir, 'package')).tarball);
		log(`Starting n8n ${info.n8nVersion}…`);
		const env = n8nEnv(info, { userFolder, port: n8nPort, brokerPort: await freePort(), env: { GENERIC_TIMEZONE: timeZone, ...exampleFilesEnv(stateDir) } });
		const n8n = await startN8n(info, env, {
			timeoutMs: 240_000,
			detached: true,
			onSpawn: (handle) => onStop(async () => await handle.stop(), () => 'n8n and the sandbox'),
		});
		watch('n8n', n8n.exited, n8n.output);
		log(`n8n running on ${n8n.url} (${elapsed()})`);

		// Owner, credentials, example workflows (each only once).
		const { added, firstExampleId } = await provisionInstance(new N8nRestClient(n8n.url), { sandboxUrl, prefix: PACKAGE_NAME, stateDir });
		return {
			title: `n8n ${info.n8nVersion} with ${PACKAGE_NAME}`,
			editorUrl: n8n.url,
			added,
			firstExampleId,
			details: [
				' To use the real service: open each credential and set its Base URL / Sync URL',
				' (and your API key / token) instead of the sandbox address.',
				` Everything is kept in ${stateDir}; delete it to start over.`,
				' Ctrl-C stops n8n and the sandbox.',
			],
		};
	},
});
