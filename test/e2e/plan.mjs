/**
 * How the test runner (scripts/test-runner.mjs) runs each end-to-end file, and what
 * `npm run test:quick` reads to name the files a change most likely affects:
 *
 * - `minutes`: about how long the file takes beside the others on two cores. The runner starts the
 *   longest first, so that the short ones fill the time beside them.
 * - `weight`: its share of the runner's slots (default 1; 0.5 for a file that mostly waits for n8n's
 *   schedule or the service's window, on an n8n that is already up).
 * - `lines`: the n8n lines the file runs (default `['2']`): it starts once they are installed.
 * - `n8n: 'shared'`: the file takes its n8n from support/sharedN8n.mjs, and the runner starts that
 *   n8n once for all of them; any other file starts what it needs itself.
 * - `covers`: the paths (prefixes) of the code the file proves in real n8n, beyond what every file
 *   proves (the sandbox, the build, the n8n installs). A change to the file itself, or to a
 *   support module it imports, counts too.
 *
 * A file that is not listed here still runs: first (its time is unknown), after both installs, with
 * what it starts itself.
 */
const TRIGGERS = ['nodes/CtsTaskTrigger/', 'nodes/CtsEventTrigger/', 'nodes/shared/triggers/', 'nodes/shared/pacing/triggerPacing.ts', 'nodes/shared/calendar/watchedCalendars.ts', 'nodes/shared/calendar/calendarLists.ts'];
const OPERATIONS = ['nodes/CtsTask/', 'nodes/CtsEvent/', 'nodes/shared/', 'credentials/'];

export const E2E_PLAN = {
	'queue-mode.test.mjs': { minutes: 20, covers: [...TRIGGERS, ...OPERATIONS, 'scripts/queue-stack.mjs', 'scripts/setup-queue.sh'] },
	'community-nodes.test.mjs': { minutes: 7.5, lines: ['2', '1'], covers: ['package.json', 'scripts/local-registry.mjs', 'test/release/', 'nodes/', 'credentials/', 'icons/'] },
	'triggerBacklog.test.mjs': { minutes: 2.5, weight: 0.5, n8n: 'shared', covers: [...TRIGGERS, 'nodes/shared/pacing/'] },
	'budget.test.mjs': { minutes: 4.5, lines: ['2', '1'], covers: ['nodes/shared/pacing/', 'nodes/shared/transport/'] },
	'n8n2-server.test.mjs': { minutes: 1.5, weight: 0.5, n8n: 'shared', covers: [...TRIGGERS, 'credentials/', 'nodes/shared/credentials/'] },
	'restart.test.mjs': { minutes: 2.5, covers: TRIGGERS },
	'editor.test.mjs': { minutes: 12, n8n: 'shared', covers: [...OPERATIONS, 'scripts/examples.mjs', 'icons/'] },
	'sync-examples.test.mjs': { minutes: 3, weight: 0.5, n8n: 'shared', covers: ['nodes/CtsTask/resources/task/sync.ts', 'nodes/CtsTask/resources/task/upsert.ts', 'nodes/CtsTask/resources/task/syncFields.ts', 'nodes/CtsTask/shared/', 'nodes/shared/copies/', 'nodes/shared/tasks/', 'nodes/CtsTaskTrigger/', 'scripts/examples.mjs', 'scripts/example-files/'] },
	'start.test.mjs': { minutes: 3, covers: ['scripts/start.mjs', 'scripts/local-instance.mjs', 'scripts/examples.mjs', 'scripts/example-files/', 'scripts/time-zone.mjs', 'scripts/community-package.mjs', 'test/sandbox/starter.ts'] },
	'n8n2-cli.test.mjs': { minutes: 3.5, covers: OPERATIONS },
	'n8n1-cli.test.mjs': { minutes: 2.5, lines: ['1'], covers: OPERATIONS },
	'community-package.test.mjs': { minutes: 4, covers: [...OPERATIONS, 'scripts/community-package.mjs', 'package.json'] },
	'mcp.test.mjs': { minutes: 1, weight: 0.5, n8n: 'shared', covers: [...OPERATIONS, 'scripts/examples.mjs'] },
	'mirror-example.test.mjs': { minutes: 0.5, weight: 0.5, n8n: 'shared', covers: ['nodes/CtsEvent/resources/calendar/', 'nodes/shared/calendar/', 'nodes/shared/copies/', 'scripts/examples.mjs'] },
	'start-queue.test.mjs': { minutes: 2.5, covers: ['scripts/start-queue.mjs', 'scripts/queue-stack.mjs', 'scripts/local-instance.mjs', 'scripts/setup-queue.sh', 'scripts/examples.mjs'] },
};

/** Changes to these reach every end-to-end file. */
export const EVERY_FILE = ['test/sandbox/', 'scripts/n8n-runtime.mjs', 'scripts/n8n-rest.mjs', 'test/e2e/support/n8n.mjs', 'test/e2e/support/sandbox.mjs', 'package-lock.json'];
