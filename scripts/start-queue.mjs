/**
 * `npm run start:queue`: n8n in queue mode with this package, against the local sandbox, the way
 * users who outgrow one n8n process run it: PostgreSQL, Redis, one main instance and two workers
 * (scripts/queue-stack.mjs), each with the `npm pack` tarball installed as a community package.
 * Sets up the owner, the two CTS credentials and the example workflows like `npm start`.
 *
 * Expects the package built (dist/) and the sandbox compiled; the npm script does both first,
 * after scripts/setup-queue.sh (PostgreSQL and Redis from Debian's packages, when missing). State
 * is kept in .n8n-runtime/start-queue/ (delete it to start over). Ctrl-C stops every process it
 * started, by PID; ports, state folder, supervision and exit codes are scripts/local-instance.mjs's.
 */
import { join } from 'node:path';

import { PACKAGE_NAME, packPackage } from './community-package.mjs';
import { exampleFilesEnv } from './examples.mjs';
import { provisionInstance, runLocalInstance } from './local-instance.mjs';
import { N8nRestClient } from './n8n-rest.mjs';
import { QueueStack } from './queue-stack.mjs';

await runLocalInstance({
	command: 'npm run start:queue',
	stateFolder: 'start-queue',
	start: async ({ info, n8nPort, sandboxUrl, stateDir, timeZone, log, watch, onStop }) => {
		// Manual runs from the editor go to the workers too (n8n's recommended setting for queue mode).
		const stack = new QueueStack({
			info,
			stateDir,
			tarball: packPackage(join(stateDir, 'pack')).tarball,
			mainPort: n8nPort,
			env: { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true', GENERIC_TIMEZONE: timeZone, ...exampleFilesEnv(stateDir) },
			detached: true,
		});
		onStop(
			async () => await stack.stop(),
			() => `${Object.entries(stack.pids()).map(([name, pid]) => `${name} (${pid})`).join(', ')} and the sandbox`,
		);
		log(`Starting PostgreSQL, Redis, n8n ${info.n8nVersion} main and two workers…`);
		await stack.start();
		watch('n8n main', stack.main.exited, stack.main.output);
		stack.workers.forEach((worker, index) => watch(`n8n ${stack.workerNames()[index]}`, worker.exited, worker.output));
		const { added, firstExampleId } = await provisionInstance(new N8nRestClient(stack.main.url), { sandboxUrl, prefix: PACKAGE_NAME, stateDir });

		const pids = stack.pids();
		return {
			title: `n8n ${info.n8nVersion} in queue mode with ${PACKAGE_NAME}`,
			editorUrl: stack.main.url,
			added,
			firstExampleId,
			details: [
				' Processes (all on 127.0.0.1):',
				`   main       PID ${pids.main}: editor, webhooks, published triggers (the CTS triggers poll here)`,
				...stack.workerNames().map((name) => `   ${name}   PID ${pids[name]}: runs the executions (CTS Task and Event nodes)`),
				`   PostgreSQL PID ${pids.postgres} on port ${stack.postgres.port}: workflows, credentials, executions, static data`,
				`   Redis      PID ${pids.redis} on port ${stack.redis.port}: the queue of executions`,
				'',
				` Logs in ${stack.logDir}; everything is kept in ${stateDir} (delete it to start over).`,
				' Ctrl-C stops every process above and the sandbox.',
			],
		};
	},
});
