/**
 * `npm start` (scripts/start.mjs, on the built package): it starts the sandbox and n8n, sets up
 * the owner, both credentials (their tests pass in n8n) and the example workflows, and Ctrl-C
 * stops both. The example workflows then run to the end against the sandbox it left behind.
 * A second start reuses everything. When n8n stops unexpectedly, or fails to start, the script
 * stops the sandbox too and exits 1.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { EXAMPLE_CREDENTIALS, exampleFilesEnv, PLANNING_EXAMPLE, START_OWNER } from '../../scripts/examples.mjs';
import { freePort, n8nEnv, projectRoot, runN8nCli, runtimeInfo } from '../../scripts/n8n-runtime.mjs';
import { N8nRestClient } from '../../scripts/n8n-rest.mjs';
import { startTimeZone } from '../../scripts/time-zone.mjs';
import { parseRun } from './support/n8n.mjs';
import { startNpmStart } from './support/npmStart.mjs';
import { processesMentioning, runningProcesses, runStartWithFailingN8n } from './support/processes.mjs';

describe('npm start', () => {
	let stateDir;
	let n8nPort;
	let sandboxPort;

	before(async () => {
		stateDir = mkdtempSync(join(tmpdir(), 'cts-start-'));
		n8nPort = await freePort();
		sandboxPort = await freePort();
	});

	after(() => rmSync(stateDir, { recursive: true, force: true }));

	const start = async () => await startNpmStart({ stateDir, n8nPort, sandboxPort });

	it('starts n8n with the package, the owner, both credentials and the example workflows; Ctrl-C stops both', async () => {
		const run = await start();
		try {
			await checkSetup(run.output());
			assert.ok(processesMentioning(stateDir).length >= 2, 'n8n and the sandbox are found by their state folder');
		} finally {
			assert.equal(await run.stop(), 0);
		}
		assert.match(run.output(), /Stopped\./);
		assert.deepEqual(processesMentioning(stateDir), [], 'no process is left behind');
		for (const port of [n8nPort, sandboxPort]) {
			await assert.rejects(fetch(`http://127.0.0.1:${port}/`), 'nothing listens after Ctrl-C');
		}
	});

	const checkSetup = async (text) => {
		assert.match(text, new RegExp(`Editor: +http://localhost:${n8nPort}/`));
		assert.match(text, new RegExp(`Log in: +${START_OWNER.email} +/ +${START_OWNER.password}`));
		assert.match(text, /11 example workflows added/);
		assert.match(text, new RegExp(`Try first: +http://localhost:${n8nPort}/workflow/\\S+ +\\("CTS example: task round trip"`));
		const timeZone = startTimeZone();
		assert.match(text, new RegExp(`Time zone: +${timeZone.replace('+', '\\+')} `));
		// A new state begins with the starter world: open tasks for the triggers' Fetch Test Event.
		const tasks = await fetch(`http://127.0.0.1:${sandboxPort}/v3/tasks/list?limit=100`, { headers: { authorization: 'ApiKey sandbox-alice-key' } }).then((r) => r.json());
		assert.equal(tasks.data.tasks.length, 5);
		assert.match(text, /Base URL \/ Sync URL/);

		const rest = new N8nRestClient(`http://localhost:${n8nPort}`);
		await rest.login(START_OWNER.email, START_OWNER.password);
		// The zone is one of n8n's own list (Workflow Settings → Timezone; UTC is `Etc/UTC` there).
		const n8nZones = await rest.request('GET', '/options/timezones');
		assert.ok(Object.hasOwn(n8nZones, timeZone), `n8n's list of time zones holds ${timeZone}`);
		const workflows = (await rest.listWorkflows()).map((workflow) => workflow.name).sort();
		assert.deepEqual(workflows, [
			'CTS example: MCP server (tools for AI agents)',
			'CTS example: RSVP (v1)',
			'CTS example: event round trip with a recurring series (v3)',
			'CTS example: mirror busy time between work and personal calendars',
			'CTS example: morning briefing',
			'CTS example: plan open tasks into free time',
			'CTS example: sync tasks from a CSV file',
			'CTS example: task completed',
			'CTS example: task round trip',
			'CTS example: task trigger',
			'CTS example: two-way sync with a data table',
		]);
		const credentials = await rest.listCredentials();
		for (const { name, type } of Object.values(EXAMPLE_CREDENTIALS)) {
			const credential = credentials.find((candidate) => candidate.name === name && candidate.type === type);
			assert.ok(credential, `credential "${name}" exists`);
			// As the editor does: the stored data (secrets redacted) sent back to the test endpoint.
			const { data } = await rest.getCredential(credential.id);
			assert.equal(data.baseUrl ?? data.syncUrl, `http://127.0.0.1:${sandboxPort}`);
			const tested = await rest.testCredential({ id: credential.id, name, type, data });
			assert.equal(tested.status, 'OK', tested.message);
			assert.match(tested.message, /^Connection successful: \d+ of 300 points left/);
		}
	};

	it('the example workflows run to the end against the sandbox', async () => {
		// The sandbox again, on its port and with its data, as npm start runs it.
		const sandbox = spawn(process.execPath, [join(projectRoot, 'build', 'test', 'sandbox', 'main.js')], {
			env: { ...process.env, SANDBOX_PORT: String(sandboxPort), SANDBOX_DATA: join(stateDir, 'sandbox.json') },
			stdio: 'ignore',
		});
		try {
			for (let attempt = 0; attempt < 40; attempt++) {
				if (await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/health`).then((r) => r.ok, () => false)) break;
				await new Promise((r) => setTimeout(r, 250));
			}
			const info = runtimeInfo('2');
			const env = n8nEnv(info, {
				userFolder: join(stateDir, 'n8n'),
				port: n8nPort,
				brokerPort: await freePort(),
				// The package as npm start installed it (the user folder's community-nodes folder).
				env: { N8N_LOG_LEVEL: 'info', N8N_LOG_FORMAT: 'json', ...exampleFilesEnv(stateDir) },
			});
			const exported = join(stateDir, 'workflows.json');
			assert.equal((await runN8nCli(info, ['export:workflow', '--all', `--output=${exported}`], { env })).code, 0);
			// The workflows that can be started by hand (the triggers and the MCP server wait for events once published).
			// The planning example reads every calendar twice a run: it is run twice in the editor test, in a
			// budget window of its own (with it, two rounds of these would not fit a 300-point window).
			const examples = JSON.parse(readFileSync(exported, 'utf8')).filter(
				(workflow) => workflow.nodes.some((node) => node.type === 'n8n-nodes-base.manualTrigger') && workflow.name !== PLANNING_EXAMPLE,
			);
			assert.equal(examples.length, 5);
			await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/requests`, { method: 'DELETE' });
			// Twice, as a newcomer tries them: both rounds fit the starter account's 300 points, so no run waits.
			for (const workflow of [...examples, ...examples]) {
				const result = await runN8nCli(info, ['execute', `--id=${workflow.id}`, '--rawOutput'], { env });
				const executed = parseRun(result.stdout);
				assert.equal(executed?.status, 'success', `${workflow.name}:\n${result.stdout.slice(-2000)}`);
				const ran = Object.keys(executed.data.resultData.runData);
				// A workflow with a schedule beside its manual trigger (the morning briefing) starts from one of them.
				const triggers = workflow.nodes.filter((node) => ['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.scheduleTrigger'].includes(node.type)).map((node) => node.name);
				const nodes = workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote' && !triggers.includes(node.name)).map((node) => node.name);
				assert.equal(ran.filter((name) => triggers.includes(name)).length, 1, `${workflow.name}: one trigger started it`);
				assert.deepEqual(ran.filter((name) => !triggers.includes(name)).sort(), nodes.sort(), `${workflow.name}: every node ran`);
			}
			const { requests } = await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/requests`).then((r) => r.json());
			const points = (version) => requests.filter((call) => call.path.startsWith(`/${version}/`)).reduce((sum, call) => sum + call.points, 0);
			console.log(`two rounds of the ${examples.length} examples: ${points('v3')} points of the API key's 300, ${points('v1')} of the bearer token's`);
			assert.ok(points('v3') <= 300, `two rounds cost ${points('v3')} points of 300`);
			assert.equal(requests.filter((call) => call.status === 429).length, 0, 'no request was refused');
		} finally {
			sandbox.kill('SIGTERM');
		}
	});

	// How long a second start takes is a benchmark figure (npm run bench, section 8).
	it('a second start reuses the install and the setup', async () => {
		const run = await start();
		try {
			assert.match(run.output(), /the example workflows \("CTS example: …"\)/);
			assert.doesNotMatch(run.output(), /Installing n8n/, 'the install is reused');
		} finally {
			assert.equal(await run.stop(), 0);
		}
	});

	it('n8n stopping unexpectedly stops the sandbox too, and the script exits 1', async () => {
		const run = await start();
		try {
			// `n8n start` itself (its task runners, if any, are its children and end with it).
			const n8n = runningProcesses(stateDir).filter(({ args }) => args.at(-1) === 'start' && args.some((arg) => arg.endsWith('/bin/n8n')));
			assert.equal(n8n.length, 1, JSON.stringify(runningProcesses(stateDir)));
			process.kill(n8n[0].pid, 'SIGKILL');
			assert.equal(await run.exited, 1, run.output());
		} finally {
			await run.stop();
		}
		assert.match(run.output(), /n8n stopped unexpectedly \(exit SIGKILL\)/);
		assert.match(run.output(), /Stopped\./);
		assert.deepEqual(processesMentioning(stateDir), [], 'no process is left behind');
	});

	it('n8n failing to start leaves no process behind, and the script exits 1', async () => {
		const { code, output, left } = await runStartWithFailingN8n('start.mjs', 'n8n');
		assert.equal(code, 1, output);
		assert.match(output, /Sandbox running on/, 'the sandbox had started');
		assert.match(output, /npm start: n8n exited before it was ready:[\s\S]*Mismatching encryption keys/);
		assert.match(output, /start failed: stopping n8n and the sandbox…\nStopped\./);
		assert.deepEqual(left, [], 'no process is left behind');
	});
});
