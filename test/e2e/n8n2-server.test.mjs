/**
 * A started n8n 2.41.1 (`n8n start`) with the package installed as a community package: the credential tests as n8n's
 * server runs them (its credential test endpoint), and both triggers activated: a task or an
 * event created in the sandbox produces an execution that carries it, and a task completed or
 * deleted produces exactly one item each.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';

import { parseFlatted } from '../../scripts/n8n-rest.mjs';
import { N8nHarness, OWNER } from './support/n8n.mjs';
import { startSandbox } from './support/sandbox.mjs';
import { eventTriggerWorkflow, taskTriggerWorkflow } from './support/workflows.mjs';

const OK = { status: 'OK', message: 'Connection successful: 299 of 300 points left; the budget resets in 15 min' };

/**
 * How long a published trigger takes at most to read again: its reads are spread evenly over the
 * service's 15-minute window (at the default Budget Share of 25%, 7 reads: one every 128 s), checked
 * on its schedule (every minute), plus the time the check takes.
 */
const READ_SPACING_MS = 220_000;
/**
 * The other trigger tests give their trigger the whole budget (Budget Share 100%: 30 reads per
 * window, one every 30 s), so it reads at each tick of its schedule (every minute): a tick plus
 * the check.
 */
const WHOLE_BUDGET = { budgetShare: 100 };
const TICK_WAIT_MS = 150_000;

describe('n8n 2.41.1 server: credential tests and the triggers', () => {
	let sandbox;
	let n8n;

	before(async () => {
		sandbox = await startSandbox();
		n8n = await N8nHarness.create({ line: '2', asCommunityPackage: true });
		await n8n.start();
		await n8n.rest.ensureOwner(OWNER);
	});

	after(async () => {
		await n8n?.dispose();
		await sandbox?.close();
	});

	/** Creates a credential through the REST API, then has n8n test it. */
	const testCredential = async (type, name, data) => {
		const { id } = await n8n.rest.createCredential({ name, type, data });
		return await n8n.rest.testCredential({ id, name, type, data });
	};

	/** Creates the trigger workflow in n8n with a new CTS API credential for Alice (not yet active). */
	const createTriggerWorkflow = async (definition, credentialName) => {
		const credential = await n8n.rest.createCredential({ name: credentialName, type: 'ctsApi', data: { apiKey: 'sandbox-alice-key', baseUrl: sandbox.url } });
		definition.nodes[0].credentials = { ctsApi: { id: credential.id, name: credentialName } };
		const { id, ...body } = definition;
		void id;
		return await n8n.rest.createWorkflow(body);
	};

	it('CTS API credential: n8n passes a valid key and names an invalid key and a plan without API access', async () => {
		await sandbox.reset();
		assert.deepEqual(await testCredential('ctsApi', 'valid key', { apiKey: 'sandbox-alice-key', baseUrl: sandbox.url }), OK);
		assert.deepEqual(await testCredential('ctsApi', 'invalid key', { apiKey: 'wrong-key', baseUrl: sandbox.url }), {
			status: 'Error',
			message: 'Invalid API key: the service did not accept it',
		});
		assert.deepEqual(await testCredential('ctsApi', 'no plan', { apiKey: 'sandbox-noplan-key', baseUrl: sandbox.url }), {
			status: 'Error',
			message: 'The API key is valid, but its plan lacks API access',
		});
		const unreachable = await testCredential('ctsApi', 'unreachable', { apiKey: 'sandbox-alice-key', baseUrl: 'http://127.0.0.1:9' });
		assert.deepEqual(unreachable, {
			status: 'Error',
			message: 'Could not reach the service at this address (ECONNREFUSED): check the URL and that n8n can reach it',
		});
		// A Base URL that answers, but is not the service: n8n's own address.
		const notTheService = await testCredential('ctsApi', 'n8n itself', { apiKey: 'sandbox-alice-key', baseUrl: `http://127.0.0.1:${n8n.port}` });
		assert.equal(notTheService.status, 'Error');
		assert.match(notTheService.message, /^The Base URL does not point at the service: /);
		// What n8n sent: the 1-point read of a task that cannot exist.
		const calls = await sandbox.requests();
		assert.deepEqual([...new Set(calls.map((call) => `${call.method} ${call.path} ${call.status}`))], ['GET /v3/tasks 200', 'GET /v3/tasks 401', 'GET /v3/tasks 403']);
		assert.ok(calls.every((call) => call.query.id === 'n8n-credential-test'));
	});

	it('a Base URL that redirects: n8n reports the redirect and sends the key nowhere else', async () => {
		/** Loopback servers: one answers every request with `status` and a Location on the other, which records what reaches it. */
		const received = [];
		const target = createServer((request, response) => {
			received.push({ path: request.url, authorization: request.headers.authorization });
			response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"task":null}}');
		});
		let status = 302;
		const redirector = createServer((request, response) => {
			request.resume();
			response.writeHead(status, { location: `http://127.0.0.1:${target.address().port}/v3/tasks?apiKey=x` }).end();
		});
		await Promise.all([target, redirector].map((server) => new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))));
		try {
			for (status of [302, 307, 308]) {
				const result = await testCredential('ctsApi', `redirect ${status}`, { apiKey: 'sandbox-alice-key', baseUrl: `http://127.0.0.1:${redirector.address().port}` });
				assert.deepEqual(result, {
					status: 'Error',
					message: `The Base URL does not point at the service: use the address of the Calendar and Task Service, without /v3 or /v1 (it answered HTTP ${status}, a redirect to http://127.0.0.1:${target.address().port}/v3/tasks; the credential was not sent there. If the service moved, enter its new address)`,
				});
			}
			assert.deepEqual(received, []);
		} finally {
			await Promise.all([target, redirector].map((server) => new Promise((resolve) => server.close(resolve))));
		}
	});

	it('CTS Sync API credential: n8n passes a valid token and refuses an expired or malformed one and a wrong URL', async () => {
		await sandbox.reset();
		const token = await sandbox.token('alice');
		assert.deepEqual(await testCredential('ctsSyncApi', 'valid token', { token, syncUrl: sandbox.url }), OK);
		const invalid = { status: 'Error', message: 'Invalid or expired token: the service did not accept it' };
		assert.deepEqual(await testCredential('ctsSyncApi', 'expired token', { token: await sandbox.token('alice', -60), syncUrl: sandbox.url }), invalid);
		assert.deepEqual(await testCredential('ctsSyncApi', 'not a token', { token: 'not-a-jwt', syncUrl: sandbox.url }), invalid);
		const elsewhere = await testCredential('ctsSyncApi', 'wrong url', { token, syncUrl: `${sandbox.url}/elsewhere` });
		assert.equal(elsewhere.status, 'Error');
		assert.match(elsewhere.message, /^The Sync URL does not point at the service: /);
	});

	it('task trigger: activated, it starts an execution for a task created in the service', async () => {
		await sandbox.reset();
		const workflow = await createTriggerWorkflow(taskTriggerWorkflow(n8n.prefix), 'CTS API (trigger)');
		const existing = await sandbox.createTask({ title: 'Existed before activation' });

		await n8n.rest.activateWorkflow(workflow.id);
		// Activation runs the first poll at once: it sets the cursor after the newest task.
		await waitUntil(async () => (await sandbox.requests()).some((call) => call.path === '/v3/tasks/list'), 30_000, 'the first poll');
		const taskId = await sandbox.createTask({ title: 'Made after activation', priority: 2 });

		// The next read comes within the trigger's even spacing plus a tick of its schedule (every minute):
		// at the default Budget Share (25%) one read about every 2 minutes (128 s).
		const execution = await waitUntil(
			async () => {
				const [latest] = await n8n.rest.listExecutions(workflow.id);
				return latest && latest.status !== 'running' && latest.status !== 'new' ? latest : undefined;
			},
			READ_SPACING_MS,
			'an execution of the trigger workflow',
		);
		const full = await n8n.rest.getExecution(execution.id);
		const data = typeof full.data === 'string' ? parseFlatted(full.data) : full.data;
		const items = data.resultData.runData['CTS Task Trigger'][0].data.main[0].map((item) => item.json);
		assert.deepEqual(items.map((task) => task.id), [taskId], 'only the new task, not the one that existed before');
		assert.equal(items[0].title, 'Made after activation');
		assert.equal(items[0].triggerEvent, 'created');
		assert.notEqual(items[0].id, existing);
		assert.equal(full.status ?? execution.status, 'success');

		await n8n.rest.deactivateWorkflow(workflow.id);
	});

	it('task trigger with Task Completed and Task Deleted: published, it fires exactly once for each', async () => {
		await sandbox.reset();
		const definition = taskTriggerWorkflow(n8n.prefix);
		definition.name = 'E2E: task trigger (completed, deleted)';
		Object.assign(definition.nodes[0].parameters, { events: ['completed', 'deleted'], options: WHOLE_BUDGET });
		const workflow = await createTriggerWorkflow(definition, 'CTS API (completed and deleted)');
		const done = await sandbox.createTask({ title: 'To complete' });
		const gone = await sandbox.createTask({ title: 'To delete' });
		await sandbox.createTask({ title: 'Stays open' });

		await n8n.rest.activateWorkflow(workflow.id);
		// Activation runs the first poll at once: it learns the open tasks and fires nothing.
		const listCalls = async () => (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/list').length;
		await waitUntil(async () => (await listCalls()) >= 1, 30_000, 'the first poll');
		for (const [path, taskId] of [['/v3/tasks/close', done], ['/v3/tasks/delete', gone]]) {
			assert.equal((await sandbox.api('POST', path, { body: { id: taskId } })).status, 204);
		}

		const delivered = async () => {
			const items = [];
			for (const execution of await n8n.rest.listExecutions(workflow.id)) {
				if (execution.status === 'running' || execution.status === 'new') return undefined;
				const full = await n8n.rest.getExecution(execution.id);
				const data = typeof full.data === 'string' ? parseFlatted(full.data) : full.data;
				assert.equal(full.status ?? execution.status, 'success');
				items.push(...data.resultData.runData['CTS Task Trigger'][0].data.main[0].map((item) => [item.json.id, item.json.triggerEvent, item.json.progress]));
			}
			return items;
		};
		await waitUntil(async () => ((await delivered()) ?? []).length >= 2, TICK_WAIT_MS, 'the completed and the deleted task');
		// One more read after the delivery: nothing fires again.
		const after = await listCalls();
		await waitUntil(async () => (await listCalls()) > after, TICK_WAIT_MS, 'the poll after the delivery');
		await new Promise((resolve) => setTimeout(resolve, 3000));
		const items = await delivered();
		assert.deepEqual(
			items.sort((a, b) => a[1].localeCompare(b[1])),
			[
				[done, 'completed', 'completed'],
				[gone, 'deleted', 'needs-action'],
			],
		);

		await n8n.rest.deactivateWorkflow(workflow.id);
	});

	it('event trigger: activated, it starts an execution for an event created in the calendar', async () => {
		await sandbox.reset();
		const definition = eventTriggerWorkflow(n8n.prefix);
		definition.nodes[0].parameters.options = WHOLE_BUDGET;
		const workflow = await createTriggerWorkflow(definition, 'CTS API (event trigger)');
		const inOneDay = (hours) => new Date(Date.now() + hours * 3600 * 1000).toISOString().slice(0, 19);
		const event = (title, start) => ({
			accountId: 'acc-alice-a',
			calendarId: 'cal-alice-a-primary',
			title,
			start,
			duration: 'PT1H',
			timeZone: 'UTC',
			showWithoutTime: false,
		});
		await sandbox.api('POST', '/v3/events/create', { body: event('Existed before activation', inOneDay(24)) });

		await n8n.rest.activateWorkflow(workflow.id);
		await waitUntil(async () => (await sandbox.requests()).some((call) => call.path === '/v3/events/list'), 30_000, 'the first poll');
		const created = await sandbox.api('POST', '/v3/events/create', { body: event('Made after activation', inOneDay(48)) });

		const execution = await waitUntil(
			async () => {
				const [latest] = await n8n.rest.listExecutions(workflow.id);
				return latest && latest.status !== 'running' && latest.status !== 'new' ? latest : undefined;
			},
			TICK_WAIT_MS,
			'an execution of the event trigger workflow',
		);
		const full = await n8n.rest.getExecution(execution.id);
		const data = typeof full.data === 'string' ? parseFlatted(full.data) : full.data;
		const items = data.resultData.runData['CTS Event Trigger'][0].data.main[0].map((item) => item.json);
		assert.deepEqual(items.map((item) => [item.id, item.triggerEvent]), [[created.body.data.event.id, 'created']]);
		assert.equal(items[0].title, 'Made after activation');
		assert.equal(full.status ?? execution.status, 'success');

		await n8n.rest.deactivateWorkflow(workflow.id);
	});
});

async function waitUntil(check, timeoutMs, what) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const result = await check();
		if (result) return result;
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 1000));
	}
}
