/**
 * What `npm start` and `npm run start:queue` share: the ports, the dist/ check, the pinned n8n,
 * the state folder, the sandbox as a child process, the supervision of every child (Ctrl-C and
 * SIGTERM stop them all, by PID), the owner account, the two CTS credentials, the example
 * workflows (each set up once, reused on later starts) and the banner printed when ready.
 *
 * Exit codes: 0 after Ctrl-C or SIGTERM; 1 when the start fails (after stopping whatever it had
 * started, the detached sandbox included) or when a child stops unexpectedly (after stopping the
 * others). Plain Node ESM.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { exampleFilesDir, exampleWorkflows, EXAMPLE_CREDENTIALS, EXAMPLE_TASKS_CSV, EXAMPLE_TASKS_TABLE, START_OWNER } from './examples.mjs';
import { ensureRuntime, projectRoot, runtimeRoot } from './n8n-runtime.mjs';
import { startTimeZone } from './time-zone.mjs';

export const SANDBOX_KEY = 'sandbox-alice-key';
const TOKEN_TTL_SECONDS = 365 * 24 * 3600;

export async function waitFor(url, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			const response = await fetch(url);
			if (response.ok) return;
		} catch {
			// not up yet
		}
		if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
		await new Promise((r) => setTimeout(r, 250));
	}
}

export async function portInUse(port) {
	try {
		await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
		return true;
	} catch (error) {
		return error?.cause?.code !== 'ECONNREFUSED';
	}
}

/**
 * The sandbox's budget when `npm start` is given none: points per 15 minutes, ten times a usual
 * account's, so that an hour of trying every example several times (a round of all of them costs
 * about 200 points from the editor) never stops for the budget. A real account's budget is one
 * setting away: `SANDBOX_POINTS=100 npm start` (or 300, 500). It stays a budget, not none, so
 * every answer carries the `RateLimit-*` headers the nodes pace themselves by, as the service's do.
 */
export const TRYING_POINTS = 3000;

/** Whether the environment sets the sandbox's budget (test/sandbox/main.ts reads these): then the trying budget is not used. */
const budgetChosen = (env) => ['SANDBOX_POINTS', 'SANDBOX_WINDOW_SECONDS', 'SANDBOX_COUNTING'].some((name) => env[name]);

/**
 * The compiled sandbox (build/test/sandbox) on 127.0.0.1:`port`, its state kept in `dataFile`; a
 * new state begins with the starter world, its times in `starterZone` (see test/sandbox/starter.ts).
 * Its budget is the one `env` sets, else {@link TRYING_POINTS}.
 */
export function startSandboxProcess(port, dataFile, starterZone, env = process.env) {
	const budget = budgetChosen(env) ? {} : { SANDBOX_POINTS: String(TRYING_POINTS) };
	const child = spawn(process.execPath, [join(projectRoot, 'build', 'test', 'sandbox', 'main.js')], {
		env: { ...env, ...budget, SANDBOX_PORT: String(port), SANDBOX_HOST: '127.0.0.1', SANDBOX_DATA: dataFile, ...(starterZone ? { SANDBOX_STARTER: starterZone } : {}) },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	const exited = new Promise((r) => child.on('exit', r));
	return { child, output: () => output, exited };
}

/** Finds a credential by name, or creates it. */
async function ensureCredential(rest, { name, type, data }) {
	const existing = ((await rest.listCredentials()) ?? []).find((credential) => credential.name === name && credential.type === type);
	if (existing) return { id: existing.id, name, type, created: false };
	const created = await rest.createCredential({ name, type, data });
	return { id: created.id, name, type, created: true };
}

/** The example data table with its rows, created once (a user's later edits stay). */
async function ensureTasksTable(rest) {
	const { id: projectId } = await rest.personalProject();
	const existing = (await rest.listDataTables(projectId)).find((table) => table.name === EXAMPLE_TASKS_TABLE.name);
	if (existing) return { id: existing.id, name: existing.name };
	const { name, columns, rows } = EXAMPLE_TASKS_TABLE;
	const created = await rest.createDataTable(projectId, { name, columns });
	await rest.insertDataTableRows(projectId, created.id, rows);
	return { id: created.id, name };
}

/** The example CSV in the folder n8n may read files from, copied once (a user's later edits stay). */
function ensureTasksCsv(stateDir) {
	const folder = exampleFilesDir(stateDir);
	mkdirSync(folder, { recursive: true });
	const file = join(folder, 'tasks.csv');
	if (!existsSync(file)) copyFileSync(EXAMPLE_TASKS_CSV, file);
	return file;
}

/** The example to try first: the editor banner links to it. */
export const FIRST_EXAMPLE = 'CTS example: task round trip';

/**
 * The owner account (logged in), then everything {@link provisionExamples} sets up. Resolves to
 * how many workflows were added and the ID of the {@link FIRST_EXAMPLE}.
 */
export async function provisionInstance(rest, options) {
	await rest.ensureOwner(START_OWNER);
	return await provisionExamples(rest, options);
}

/**
 * For the user `rest` is logged in as: both credentials pointing at the sandbox, the example CSV
 * file and data table, and the example workflows with node types under `prefix`, each only once.
 */
export async function provisionExamples(rest, { sandboxUrl, prefix, stateDir }) {
	const tokenResponse = await fetch(`${sandboxUrl}/_sandbox/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ user: 'alice', ttlSeconds: TOKEN_TTL_SECONDS }),
	});
	const { token } = await tokenResponse.json();
	const credentials = {
		api: await ensureCredential(rest, { ...EXAMPLE_CREDENTIALS.api, data: { apiKey: SANDBOX_KEY, baseUrl: sandboxUrl } }),
		sync: await ensureCredential(rest, { ...EXAMPLE_CREDENTIALS.sync, data: { token, syncUrl: sandboxUrl } }),
	};
	const existing = new Map(((await rest.listWorkflows()) ?? []).map((workflow) => [workflow.name, workflow.id]));
	let added = 0;
	const syncSetup = { tasksCsv: ensureTasksCsv(stateDir), tasksTable: await ensureTasksTable(rest) };
	for (const workflow of exampleWorkflows(prefix, credentials, syncSetup)) {
		if (existing.has(workflow.name)) continue;
		const created = await rest.createWorkflow(workflow);
		existing.set(workflow.name, created?.id);
		added++;
	}
	return { added, firstExampleId: existing.get(FIRST_EXAMPLE) };
}

/**
 * Runs a local instance: checks dist/ and the ports, installs the pinned n8n once, makes the
 * state folder (`CTS_START_DIR`, default `.n8n-runtime/<stateFolder>`), starts the sandbox, then
 * `start(instance)`, which starts n8n, registers how to stop it (`instance.onStop`) and each
 * process to watch (`instance.watch`), and resolves to the lines of the ready banner.
 *
 * Environment: N8N_PORT (default 5678), SANDBOX_PORT (default 8787), CTS_START_DIR,
 * GENERIC_TIMEZONE (n8n's time zone; default this machine's, which `start` gets as `timeZone`),
 * SANDBOX_POINTS, SANDBOX_WINDOW_SECONDS, SANDBOX_COUNTING (the sandbox's budget; default
 * {@link TRYING_POINTS} points per 15 minutes).
 *
 * @param options.command      how the user ran it (`npm start`), for messages
 * @param options.stateFolder  the state folder's name under .n8n-runtime/
 * @param options.start        async (instance) => { title, editorUrl, added, firstExampleId, details }
 */
export async function runLocalInstance({ command, stateFolder, start }) {
	const started = Date.now();
	const log = (message) => console.log(message);
	const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
	const fail = (error) => console.error(`${command}: ${error?.message ?? error}`);

	let setup;
	try {
		setup = await prepare(command, stateFolder);
	} catch (error) {
		// Nothing is running yet.
		fail(error);
		process.exit(1);
	}
	const { n8nPort, sandboxPort, sandboxUrl, stateDir, info, timeZone } = setup;

	const sandbox = startSandboxProcess(sandboxPort, join(stateDir, 'sandbox.json'), timeZone);
	const stoppers = [];
	let describe = () => 'the sandbox';
	let stopping = false;
	const stop = async (reason, code) => {
		if (stopping) return;
		stopping = true;
		log(`\n${reason}: stopping ${describe()}…`);
		// n8n first (it may still be polling the sandbox), then the sandbox.
		for (const stopChildren of stoppers.reverse()) await stopChildren();
		if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) sandbox.child.kill('SIGTERM');
		await sandbox.exited;
		log('Stopped.');
		process.exit(code);
	};
	process.on('SIGINT', () => void stop('Ctrl-C', 0));
	process.on('SIGTERM', () => void stop('SIGTERM', 0));
	const watch = (name, exited, output) => {
		exited.then((result) => {
			if (stopping) return;
			const status = typeof result === 'object' && result !== null ? (result.code ?? result.signal) : result;
			console.error(`${name} stopped unexpectedly (exit ${status}):\n${output().slice(-5000)}`);
			void stop(`${name} stopped`, 1);
		});
	};
	watch('The sandbox', sandbox.exited, sandbox.output);

	let ready;
	let budget;
	try {
		await waitFor(`${sandboxUrl}/_sandbox/health`, 20_000);
		log(`Sandbox running on ${sandboxUrl} (${elapsed()})`);
		budget = await (await fetch(`${sandboxUrl}/_sandbox/limits`)).json();
		ready = await start({
			info,
			n8nPort,
			sandboxUrl,
			stateDir,
			timeZone,
			log,
			elapsed,
			watch,
			onStop: (stopChildren, description) => {
				stoppers.push(stopChildren);
				describe = description;
			},
		});
	} catch (error) {
		fail(error);
		await stop('start failed', 1);
		return;
	}
	if (stopping) return;
	printReady({ ...ready, command, sandboxUrl, stateDir, timeZone, budget, elapsed: elapsed() });
}

/** Ports, dist/, the pinned n8n and the state folder: everything checked before a process starts. */
async function prepare(command, stateFolder) {
	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	const sandboxPort = Number(process.env.SANDBOX_PORT ?? 8787);
	if (!existsSync(join(projectRoot, 'dist', 'nodes'))) throw new Error(`dist/ is missing: run \`npm run build\` (${command} does it)`);
	const info = await ensureRuntime('2');
	for (const [what, port, variable] of [['n8n', n8nPort, 'N8N_PORT'], ['the sandbox', sandboxPort, 'SANDBOX_PORT']]) {
		if (await portInUse(port)) throw new Error(`Port ${port} for ${what} is in use (another start?). Stop that, or set ${variable}=<port>.`);
	}
	const stateDir = process.env.CTS_START_DIR ? resolve(process.env.CTS_START_DIR) : join(runtimeRoot, stateFolder);
	mkdirSync(stateDir, { recursive: true });
	// n8n's own default is America/New_York: a user's times belong in the user's zone (as n8n's list names it).
	const timeZone = startTimeZone();
	return { info, n8nPort, sandboxPort, sandboxUrl: `http://127.0.0.1:${sandboxPort}`, stateDir, timeZone };
}

/** The banner's lines about the sandbox's budget: its size, and how to run as a real account (or that it was chosen so). */
function budgetLines({ points, windowSeconds, counting }, command) {
	if (points === null || points === undefined) return ['none: the sandbox answers without RateLimit headers'];
	const size = `${points} ${counting === 'requests' ? 'requests' : 'points'} per ${windowSeconds === 900 ? '15 min' : `${windowSeconds} s`}`;
	if (budgetChosen(process.env)) return [`${size}, as SANDBOX_POINTS (or SANDBOX_WINDOW_SECONDS, SANDBOX_COUNTING) set it; a new start begins with it full`];
	return [`${size}, to try every example freely (a real account has 100, 300 or 500 points)`, `SANDBOX_POINTS=100 ${command} runs as a 100-point account; a new start begins with the budget full`];
}

function printReady({ title, command, editorUrl, added, firstExampleId, details, sandboxUrl, stateDir, timeZone, budget, elapsed }) {
	const log = (message) => console.log(message);
	log('');
	log('────────────────────────────────────────────────────────────────────');
	log(` ${title} is ready (${elapsed})`);
	log('');
	log(`   Editor:    ${editorUrl}/`);
	log(`   Log in:    ${START_OWNER.email}  /  ${START_OWNER.password}`);
	if (firstExampleId) log(`   Try first: ${editorUrl}/workflow/${firstExampleId}   ("${FIRST_EXAMPLE}": click Execute workflow)`);
	log(`   Time zone: ${timeZone} (${process.env.GENERIC_TIMEZONE ? 'GENERIC_TIMEZONE' : "this machine's; set GENERIC_TIMEZONE for another"})`);
	log(`   Sandbox:   ${sandboxUrl}   (API key ${SANDBOX_KEY}; state in ${join(stateDir, 'sandbox.json')})`);
	const [size, ...more] = budgetLines(budget, command);
	log(`   Budget:    ${size}`);
	for (const line of more) log(`              ${line}`);
	log(`   Workflows: ${added > 0 ? `${added} example workflows added` : 'the example workflows'} ("CTS example: …"): open one and click Execute workflow, or Publish the trigger and MCP server examples`);
	log(`   Credentials: "${EXAMPLE_CREDENTIALS.api.name}", "${EXAMPLE_CREDENTIALS.sync.name}"`);
	log('');
	for (const line of details) log(line);
	log('────────────────────────────────────────────────────────────────────');
}
