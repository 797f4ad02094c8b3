/**
 * `npm start` (scripts/start.mjs, on the built package): it starts the sandbox (with a budget for
 * trying, which the banner states) and n8n, sets up the owner, both credentials (their tests pass
 * in n8n) and the example workflows; every example then runs three times in a row, as the editor
 * runs it, none refused for the budget; Ctrl-C stops both. A second start reuses everything, and
 * with SANDBOX_POINTS=100 its sandbox refuses as a 100-point account. When n8n stops
 * unexpectedly, or fails to start, the script stops the sandbox too and exits 1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { EXAMPLE_CREDENTIALS, START_OWNER } from '../../scripts/examples.mjs';
import { TRYING_POINTS } from '../../scripts/local-instance.mjs';
import { freePort } from '../../scripts/n8n-runtime.mjs';
import { N8nRestClient } from '../../scripts/n8n-rest.mjs';
import { startTimeZone } from '../../scripts/time-zone.mjs';
import { runFromEditor } from './support/executions.mjs';
import { startNpmStart } from './support/npmStart.mjs';
import { processesMentioning, runningProcesses, runStartWithFailingN8n } from './support/processes.mjs';

describe('npm start', () => {
	let stateDir;
	let n8nPort;
	let sandboxPort;
	/** The first start, kept running from the setup through every example's three runs to Ctrl-C. */
	let first;

	before(async () => {
		stateDir = mkdtempSync(join(tmpdir(), 'cts-start-'));
		n8nPort = await freePort();
		sandboxPort = await freePort();
	});

	after(async () => {
		await first?.stop();
		rmSync(stateDir, { recursive: true, force: true });
	});

	const start = async () => await startNpmStart({ stateDir, n8nPort, sandboxPort });

	it('starts n8n with the package, the owner, both credentials and the example workflows; the banner states the sandbox\'s budget', async () => {
		first = await start();
		await checkSetup(first.output());
		assert.ok(processesMentioning(stateDir).length >= 2, 'n8n and the sandbox are found by their state folder');
	});

	const checkSetup = async (text) => {
		assert.match(text, new RegExp(`Editor: +http://localhost:${n8nPort}/`));
		assert.match(text, new RegExp(`Log in: +${START_OWNER.email} +/ +${START_OWNER.password}`));
		assert.match(text, /11 example workflows added/);
		assert.match(text, new RegExp(`Try first: +http://localhost:${n8nPort}/workflow/\\S+ +\\("CTS example: task round trip"`));
		const timeZone = startTimeZone();
		assert.match(text, new RegExp(`Time zone: +${timeZone.replace('+', '\\+')} `));
		// The budget for trying, and the real accounts' one setting away.
		assert.match(text, new RegExp(`Budget: +${TRYING_POINTS} points per 15 min, to try every example freely \\(a real account has 100, 300 or 500 points\\)\\n +SANDBOX_POINTS=100 npm start runs as a 100-point account`));
		// A new state begins with the starter world: open tasks for the triggers' Fetch Test Event.
		const tasks = await fetch(`http://127.0.0.1:${sandboxPort}/v3/tasks/list?limit=100`, { headers: { authorization: 'ApiKey sandbox-alice-key' } });
		assert.equal((await tasks.json()).data.tasks.length, 5);
		assert.equal(tasks.headers.get('ratelimit-limit'), String(TRYING_POINTS));
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
			assert.match(tested.message, new RegExp(`^Connection successful: \\d+ of ${TRYING_POINTS} points left`));
		}
	};

	it('every example runs three times in a row, as the editor runs it, and none is refused for the budget', async () => {
		const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
		const rest = new N8nRestClient(`http://localhost:${n8nPort}`);
		await rest.login(START_OWNER.email, START_OWNER.password);
		// Every example that runs from the editor: from its manual trigger, else its schedule or polling trigger
		// (a trigger's run from the editor is its Fetch Test Event). The MCP server runs only when an MCP client
		// calls it (test/e2e/mcp.test.mjs).
		const TRIGGER = /(manualTrigger|scheduleTrigger|Trigger)$/;
		const startOf = (workflow) =>
			workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger') ??
			workflow.nodes.find((node) => TRIGGER.test(node.type) && !/mcpTrigger/i.test(node.type));
		const examples = (await Promise.all((await rest.listWorkflows()).map(async ({ id }) => await rest.getWorkflow(id)))).filter(startOf);
		assert.equal(examples.length, 10);
		await fetch(`${sandboxUrl}/_sandbox/requests`, { method: 'DELETE' });
		const spent = [];
		for (const round of [1, 2, 3]) {
			const logged = (await (await fetch(`${sandboxUrl}/_sandbox/requests`)).json()).requests.length;
			for (const workflow of examples) {
				const trigger = startOf(workflow).name;
				const { status, runData, error } = await runFromEditor(rest, workflow.id, trigger);
				assert.equal(status, 'success', `${workflow.name}, round ${round}: ${error}`);
				const ran = Object.keys(runData);
				assert.ok(ran.includes(trigger) && ran.length > 1, `${workflow.name}, round ${round}: ran from ${trigger} on: ${ran.join(', ')}`);
			}
			const calls = (await (await fetch(`${sandboxUrl}/_sandbox/requests`)).json()).requests.slice(logged);
			assert.deepEqual(calls.filter((call) => call.status === 429), [], `round ${round}: no request was refused`);
			const points = (version) => calls.filter((call) => call.path.startsWith(`/${version}/`)).reduce((sum, call) => sum + call.points, 0);
			spent.push(`round ${round}: ${points('v3')} points (API key), ${points('v1')} (bearer token)`);
		}
		console.log(`${examples.length} examples, three rounds from a fresh start, of the ${TRYING_POINTS}-point budget: ${spent.join('; ')}`);
	});

	it('Ctrl-C stops both and leaves no process behind', async () => {
		assert.equal(await first.stop(), 0);
		assert.match(first.output(), /Stopped\./);
		first = undefined;
		assert.deepEqual(processesMentioning(stateDir), [], 'no process is left behind');
		for (const port of [n8nPort, sandboxPort]) {
			await assert.rejects(fetch(`http://127.0.0.1:${port}/`), 'nothing listens after Ctrl-C');
		}
	});

	// How long a second start takes is a benchmark figure (npm run bench, section 8).
	it('a second start reuses the install and the setup; SANDBOX_POINTS=100 makes it a 100-point account, refused as the service refuses', async () => {
		const run = await startNpmStart({ stateDir, n8nPort, sandboxPort, env: { SANDBOX_POINTS: '100' } });
		try {
			assert.match(run.output(), /the example workflows \("CTS example: …"\)/);
			assert.doesNotMatch(run.output(), /Installing n8n/, 'the install is reused');
			assert.match(run.output(), /Budget: +100 points per 15 min, as SANDBOX_POINTS \(or SANDBOX_WINDOW_SECONDS, SANDBOX_COUNTING\) set it/);
			// The budget of a 100-point account: ten list calls use it up, the next call is refused.
			const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
			const call = async (path) => await fetch(`${sandboxUrl}${path}`, { headers: { authorization: 'ApiKey sandbox-alice-key' } });
			for (let list = 1; list <= 10; list++) {
				const answer = await call('/v3/tasks/list?limit=1');
				assert.equal(answer.status, 200);
				assert.deepEqual([answer.headers.get('ratelimit-limit'), answer.headers.get('ratelimit-remaining')], ['100', String(100 - 10 * list)]);
			}
			const refused = await call('/v3/tasks?id=any');
			assert.equal(refused.status, 429);
			assert.equal(refused.headers.get('ratelimit-remaining'), '0');
			const retryAfter = Number(refused.headers.get('retry-after'));
			assert.ok(retryAfter >= 1 && retryAfter <= 900, `Retry-After ${retryAfter}`);
			const body = await refused.json();
			assert.equal(body.status, 429);
			assert.match(body.errorRef, /\S/);
			assert.match(body.message, /^Rate limit exceeded: .* a budget of 100 points per 900 s/);
			// In n8n, the credential's test says so with the budget the answer reported.
			const rest = new N8nRestClient(`http://localhost:${n8nPort}`);
			await rest.login(START_OWNER.email, START_OWNER.password);
			const credential = (await rest.listCredentials()).find(({ name }) => name === EXAMPLE_CREDENTIALS.api.name);
			const { data } = await rest.getCredential(credential.id);
			const tested = await rest.testCredential({ id: credential.id, name: credential.name, type: credential.type, data });
			assert.match(tested.message, /^The credential works, but the point budget is used up: 0 of 100 points left; the budget resets in /);
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
