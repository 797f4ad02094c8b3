/**
 * The point budget in real n8n, with a window longer than a minute: a bulk job of three windows'
 * points finishes with every item done (n8n 2.41.1, `n8n execute`), and stopping an execution
 * while it waits for the budget ends the wait at once, so nothing is sent after the stop (a
 * started n8n 2.41.1 and 1.123.81, the execution stopped through n8n's REST API). Each waits out
 * the service's window with an n8n and a sandbox of its own: the bulk job runs beside the two stops.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';

import { finishedExecution } from './support/executions.mjs';
import { N8nHarness, OWNER, outputOf } from './support/n8n.mjs';
import { startSandbox } from './support/sandbox.mjs';
import { sleep, waitFor } from './support/waiting.mjs';
import { CREDENTIALS, credentialsFile } from './support/workflows.mjs';

const WINDOW_SECONDS = 65;

/** Start → Set (a list of titles) → Split Out (one item per title) → CTS Task Create. */
function bulkCreateWorkflow({ id, start, count, prefix, credential }) {
	const titles = Array.from({ length: count }, (_, index) => `budget ${index}`);
	const nodes = [
		{ id: randomUUID(), ...start, position: [0, 0] },
		{
			id: randomUUID(),
			name: 'Titles',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [220, 0],
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ titles }) },
		},
		{
			id: randomUUID(),
			name: 'One Item per Title',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [440, 0],
			parameters: { fieldToSplitOut: 'titles', include: 'noOtherFields' },
		},
		{
			id: randomUUID(),
			name: 'Create',
			type: `${prefix}.ctsTask`,
			typeVersion: 1,
			position: [660, 0],
			parameters: { resource: 'task', operation: 'create', title: '={{ $json.titles }}', returnTask: false },
			credentials: { ctsApi: credential },
		},
	];
	const link = (from, to) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });
	return {
		...(id ? { id } : {}),
		name: `E2E: budget, ${count} creates`,
		nodes,
		connections: { ...link(start.name, 'Titles'), ...link('Titles', 'One Item per Title'), ...link('One Item per Title', 'Create') },
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

async function creates(sandbox) {
	return (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/create');
}

/** A sandbox and an n8n of `line` for the describe() it is called in (`started`: `n8n start` with the owner set up). */
function sandboxAndN8n(line, { started }) {
	const setup = {};
	before(async () => {
		setup.sandbox = await startSandbox();
		setup.n8n = await N8nHarness.create({ line });
		if (!started) return;
		await setup.n8n.start();
		await setup.n8n.rest.ensureOwner(OWNER);
	});
	after(async () => {
		await setup.n8n?.dispose();
		await setup.sandbox?.close();
	});
	return setup;
}

describe('the point budget in real n8n: the bulk job beside the stops', { concurrency: true }, () => {
	describe(`n8n 2.41.1: a bulk job of three windows' points under a ${WINDOW_SECONDS}-second window`, () => {
		const setup = sandboxAndN8n('2', { started: false });

		it('creates every task exactly once, with 0 failed items and at most a handful of 429s', async () => {
			const { sandbox, n8n } = setup;
			const token = await sandbox.token('alice');
			await n8n.importCredentials(credentialsFile({ sandboxUrl: sandbox.url, token, expiredToken: token }));
			await sandbox.reset();
			await sandbox.control('limits', { points: 30, windowSeconds: WINDOW_SECONDS });
			const start = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} };
			await n8n.importWorkflows([
				bulkCreateWorkflow({ id: 'ctsE2eBudget0001', start, count: 90, prefix: 'CUSTOM', credential: { id: CREDENTIALS.api.id, name: CREDENTIALS.api.name } }),
			]);
			const started = Date.now();
			// Two window resets (130 s) after n8n has started: on a busy machine, near execute's default limit of 180 s.
			const { code, run } = await n8n.execute('ctsE2eBudget0001', { timeoutMs: 480_000 }).catch(async (error) => {
				const calls = await creates(sandbox);
				throw new Error(`${error.message.split('\n')[0]}: ${calls.filter((call) => call.status === 200).length} creates accepted, ${calls.filter((call) => call.status === 429).length} answered 429 by then\n${error.message.slice(-3000)}`);
			});
			const seconds = (Date.now() - started) / 1000;
			assert.equal(code, 0);
			const items = outputOf(run, 'Create');
			const calls = await creates(sandbox);
			const accepted = calls.filter((call) => call.status === 200).map((call) => call.body.title);
			const refused = calls.filter((call) => call.status === 429).length;
			const sent = calls.map((call) => Date.parse(call.time));
			const span = (Math.max(...sent) - Math.min(...sent)) / 1000;
			console.log(
				`budget in n8n 2.41.1: 90 creates, 30 points per ${WINDOW_SECONDS} s: ${seconds.toFixed(1)} s (first to last create ${span.toFixed(1)} s, the rest n8n's start), ${refused} answered 429`,
			);
			assert.equal(items.length, 90);
			assert.equal(items.filter((item) => item.error || typeof item.id !== 'string').length, 0, 'no failed items');
			assert.equal(new Set(accepted).size, 90);
			assert.equal(accepted.length, 90);
			assert.ok(refused <= 3, `${refused} answered 429`);
		});
	});

	// One after the other, beside the bulk job: each stop is timed.
	describe('stopping an execution that waits for the budget, in each n8n line', { concurrency: 1 }, () => {
		for (const line of ['2', '1']) {
			describe(`n8n ${line === '2' ? '2.41.1' : '1.123.81'} server: stopping an execution that waits for the budget`, () => {
				const setup = sandboxAndN8n(line, { started: true });

				it('ends the execution within a second, and nothing is sent after the stop', async () => {
					const { sandbox, n8n } = setup;
					await sandbox.reset();
					await sandbox.control('limits', { points: 30, windowSeconds: WINDOW_SECONDS });
					const credential = await n8n.rest.createCredential({
						name: 'CTS API (budget)',
						type: 'ctsApi',
						data: { apiKey: 'sandbox-alice-key', baseUrl: sandbox.url },
					});
					const path = `cts-budget-${line}`;
					const start = {
						name: 'Webhook',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						webhookId: randomUUID(),
						parameters: { httpMethod: 'POST', path, responseMode: 'onReceived' },
					};
					const workflow = await n8n.rest.createWorkflow(
						bulkCreateWorkflow({ start, count: 40, prefix: 'CUSTOM', credential: { id: credential.id, name: 'CTS API (budget)' } }),
					);
					await n8n.rest.activateWorkflow(workflow.id);
					// n8n 2.x registers a published workflow's webhook a moment after answering the publish.
					const answer = await waitFor(
						async () => {
							const posted = await fetch(`${n8n.server.url}/webhook/${path}`, { method: 'POST' });
							return posted.status !== 404 && posted;
						},
						10_000,
						`the webhook ${path}`,
					);
					assert.equal(answer.status, 200);

					// 30 creates use the window up; the other 10 wait for it to reset, about a minute away.
					const deadline = Date.now() + 50_000;
					while ((await creates(sandbox)).length < 30) {
						if (Date.now() > deadline) {
							const executions = await n8n.rest.listExecutions(workflow.id);
							const sent = (await sandbox.requests()).map((call) => `${call.status} ${call.path}`);
							assert.fail(
								`the job did not use the window up: ${sent.length} requests reached the sandbox (${sent.slice(-5).join(', ')}), ` +
									`executions ${JSON.stringify(executions.map(({ id, status, mode }) => ({ id, status, mode })))}\n` +
									`n8n's output:\n${n8n.server.output().slice(-4000)}`,
							);
						}
						await sleep(100);
					}
					await sleep(1000);
					const [running] = await n8n.rest.listExecutions(workflow.id);
					assert.equal(running?.status, 'running');
					const stoppedAt = Date.now();
					await n8n.rest.request('POST', `/executions/${running.id}/stop`, {});
					const { status, stoppedAt: ended } = await finishedExecution(n8n.rest, running.id, { timeoutMs: 10_000 });
					// When n8n ended it, as n8n recorded it (not when this test saw it: a busy machine answers late).
					const elapsed = (Date.parse(ended ?? '') || Date.now()) - stoppedAt;
					console.log(`budget in n8n ${line}.x: stopped while waiting; the execution was ${status} ${elapsed} ms later`);
					assert.ok(elapsed < 1000, `ended ${elapsed} ms after the stop`);
					assert.equal(status, 'canceled');

					// The window resets: a wait that had gone on would now send the last 10 creates.
					await sleep((WINDOW_SECONDS + 5) * 1000);
					assert.equal((await creates(sandbox)).length, 30, 'creates sent after the stop');
					await n8n.rest.deactivateWorkflow(workflow.id);
				});
			});
		}
	});
});
