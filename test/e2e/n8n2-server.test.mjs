/**
 * A started n8n 2.41.1 (`n8n start`) with the package installed as a community package: the credential tests as n8n's
 * server runs them (its credential test endpoint), and both triggers activated: a task or an
 * event created in the sandbox produces an execution that carries it, and a task completed or
 * deleted produces exactly one item each. The trigger tests wait for n8n's minute schedule, so
 * they run side by side, each against a sandbox of its own.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';

import { hasFinished, newFinishedExecutions, nodeOutput } from './support/executions.mjs';
import { startSandbox } from './support/sandbox.mjs';
import { n8nForFile } from './support/sharedN8n.mjs';
import { sleep, waitFor } from './support/waiting.mjs';
import { eventTriggerWorkflow, forRestApi, taskTriggerWorkflow } from './support/workflows.mjs';

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
		n8n = await n8nForFile('n8n2-server');
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

	/** Creates the trigger workflow in n8n with a new CTS API credential for Alice on `service` (not yet active). */
	const createTriggerWorkflow = async (definition, credentialName, service) => {
		const credential = await n8n.rest.createCredential({ name: credentialName, type: 'ctsApi', data: { apiKey: 'sandbox-alice-key', baseUrl: service.url } });
		return await n8n.rest.createWorkflow(forRestApi(definition, { id: credential.id, name: credentialName }));
	};

	/** Runs `test` against a sandbox of its own, so that it can run beside the others. */
	const withOwnSandbox = async (test) => {
		const service = await startSandbox();
		try {
			await test(service);
		} finally {
			await service.close();
		}
	};

	// Started first: they wait for the schedule; the credential tests run meanwhile.
	describe('the triggers, published, each against its own sandbox', { concurrency: true }, () => {
		/** The trigger's items of every finished execution of the workflow, once none runs any more. */
		const delivered = async (workflowId, triggerName) => {
			const summaries = await n8n.rest.listExecutions(workflowId);
			if (!summaries.every(hasFinished)) return undefined;
			const executions = await newFinishedExecutions(n8n.rest, workflowId);
			for (const execution of executions) assert.equal(execution.status, 'success');
			return executions.flatMap((execution) => nodeOutput(execution, triggerName));
		};

		it('task trigger: activated, it starts an execution for a task created in the service', async () => {
			await withOwnSandbox(async (service) => {
				const workflow = await createTriggerWorkflow(taskTriggerWorkflow(n8n.prefix), 'CTS API (trigger)', service);
				const existing = await service.createTask({ title: 'Existed before activation' });

				await n8n.rest.activateWorkflow(workflow.id);
				// Activation runs the first poll at once: it sets the cursor after the newest task.
				await waitFor(async () => (await service.requests()).some((call) => call.path === '/v3/tasks/list'), 30_000, 'the first poll', 1000);
				const taskId = await service.createTask({ title: 'Made after activation', priority: 2 });

				// The next read comes within the trigger's even spacing plus a tick of its schedule (every minute):
				// at the default Budget Share (25%) one read about every 2 minutes (128 s).
				const items = await waitFor(async () => {
					const found = await delivered(workflow.id, 'CTS Task Trigger');
					return found?.length ? found : undefined;
				}, READ_SPACING_MS, 'an execution of the trigger workflow', 1000);
				assert.deepEqual(items.map((task) => task.id), [taskId], 'only the new task, not the one that existed before');
				assert.equal(items[0].title, 'Made after activation');
				assert.equal(items[0].triggerEvent, 'created');
				assert.notEqual(items[0].id, existing);

				await n8n.rest.deactivateWorkflow(workflow.id);
			});
		});

		it('task trigger with Task Completed and Task Deleted: published, it fires exactly once for each', async () => {
			await withOwnSandbox(async (service) => {
				const definition = taskTriggerWorkflow(n8n.prefix);
				definition.name = 'E2E: task trigger (completed, deleted)';
				Object.assign(definition.nodes[0].parameters, { events: ['completed', 'deleted'], options: WHOLE_BUDGET });
				const workflow = await createTriggerWorkflow(definition, 'CTS API (completed and deleted)', service);
				const done = await service.createTask({ title: 'To complete' });
				const gone = await service.createTask({ title: 'To delete' });
				await service.createTask({ title: 'Stays open' });

				await n8n.rest.activateWorkflow(workflow.id);
				// Activation runs the first poll at once: it learns the open tasks and fires nothing.
				const listCalls = async () => (await service.requests()).filter((call) => call.path === '/v3/tasks/list').length;
				await waitFor(async () => (await listCalls()) >= 1, 30_000, 'the first poll', 1000);
				for (const [path, taskId] of [['/v3/tasks/close', done], ['/v3/tasks/delete', gone]]) {
					assert.equal((await service.api('POST', path, { body: { id: taskId } })).status, 204);
				}

				const triggered = async () => ((await delivered(workflow.id, 'CTS Task Trigger')) ?? []).map((task) => [task.id, task.triggerEvent, task.progress]);
				await waitFor(async () => (await triggered()).length >= 2, TICK_WAIT_MS, 'the completed and the deleted task', 1000);
				// One more read after the delivery: nothing fires again.
				const after = await listCalls();
				await waitFor(async () => (await listCalls()) > after, TICK_WAIT_MS, 'the poll after the delivery', 1000);
				await sleep(3000);
				assert.deepEqual(
					(await triggered()).sort((a, b) => a[1].localeCompare(b[1])),
					[
						[done, 'completed', 'completed'],
						[gone, 'deleted', 'needs-action'],
					],
				);

				await n8n.rest.deactivateWorkflow(workflow.id);
			});
		});

		it('event trigger: activated, it starts an execution for an event created in the calendar', async () => {
			await withOwnSandbox(async (service) => {
				const definition = eventTriggerWorkflow(n8n.prefix);
				definition.nodes[0].parameters.options = WHOLE_BUDGET;
				const workflow = await createTriggerWorkflow(definition, 'CTS API (event trigger)', service);
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
				await service.api('POST', '/v3/events/create', { body: event('Existed before activation', inOneDay(24)) });

				await n8n.rest.activateWorkflow(workflow.id);
				await waitFor(async () => (await service.requests()).some((call) => call.path === '/v3/events/list'), 30_000, 'the first poll', 1000);
				const created = await service.api('POST', '/v3/events/create', { body: event('Made after activation', inOneDay(48)) });

				const items = await waitFor(async () => {
					const found = await delivered(workflow.id, 'CTS Event Trigger');
					return found?.length ? found : undefined;
				}, TICK_WAIT_MS, 'an execution of the event trigger workflow', 1000);
				assert.deepEqual(items.map((item) => [item.id, item.triggerEvent]), [[created.body.data.event.id, 'created']]);
				assert.equal(items[0].title, 'Made after activation');

				await n8n.rest.deactivateWorkflow(workflow.id);
			});
		});
	});

	describe('the credential tests', { concurrency: 1 }, () => {
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
			const notTheService = await testCredential('ctsApi', 'n8n itself', { apiKey: 'sandbox-alice-key', baseUrl: n8n.url });
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
	});
});
