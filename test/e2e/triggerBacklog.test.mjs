/**
 * A published CTS Task Trigger in a started n8n 2.41.1 with a backlog needing more than one window
 * of its Budget Share: under a 90-second window (longer than the every-minute poll wait), the
 * trigger reads the backlog over several checks, each within its share, and delivers every change
 * once, while an action workflow of the same service user (a Schedule Trigger every 20 seconds →
 * CTS Task Get) keeps running and succeeding.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';

import { newFinishedExecutions, nodeOutput } from './support/executions.mjs';
import { startSandbox } from './support/sandbox.mjs';
import { n8nForFile } from './support/sharedN8n.mjs';
import { waitFor } from './support/waiting.mjs';
import { CREDENTIALS, forRestApi, taskTriggerWorkflow } from './support/workflows.mjs';

const WINDOW_SECONDS = 90;
const BACKLOG = 1000;

/** Schedule Trigger (every 20 s) → CTS Task Get of one task: an action workflow of the same user. */
function actionWorkflow(prefix, taskId) {
	return {
		id: 'ctsE2eBacklogAc1',
		name: 'E2E: action beside a trigger backlog',
		nodes: [
			{
				id: randomUUID(),
				name: 'Every 20 Seconds',
				type: 'n8n-nodes-base.scheduleTrigger',
				typeVersion: 1.2,
				position: [0, 0],
				parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 20 }] } },
			},
			{
				id: randomUUID(),
				name: 'Get',
				type: `${prefix}.ctsTask`,
				typeVersion: 1,
				position: [240, 0],
				parameters: { resource: 'task', operation: 'get', taskId: { __rl: true, mode: 'id', value: taskId } },
				credentials: { ctsApi: { id: CREDENTIALS.api.id, name: CREDENTIALS.api.name } },
			},
		],
		connections: { 'Every 20 Seconds': { main: [[{ node: 'Get', type: 'main', index: 0 }]] } },
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** Each finished execution of a workflow: status, and the items of `nodeName`. */
async function executions(rest, workflowId, nodeName) {
	return (await newFinishedExecutions(rest, workflowId)).map((execution) => ({ id: execution.id, status: execution.status, items: nodeOutput(execution, nodeName) }));
}

describe(`n8n 2.41.1: a published task trigger with a backlog of ${BACKLOG} changes under a ${WINDOW_SECONDS}-second window`, () => {
	let sandbox;
	let n8n;

	before(async () => {
		sandbox = await startSandbox();
		n8n = await n8nForFile('trigger-backlog');
	});

	after(async () => {
		await n8n?.dispose();
		await sandbox?.close();
	});

	it('delivers every change once over several windows while an action workflow of the same user keeps running', async () => {
		await sandbox.reset();
		await sandbox.control('limits', { points: 300, windowSeconds: WINDOW_SECONDS });
		const { body } = await sandbox.api('POST', '/v3/tasks/create', { body: { title: 'read by the action workflow' } });
		const actionTaskId = body.data.id;
		const credential = await n8n.rest.createCredential({ name: CREDENTIALS.api.name, type: 'ctsApi', data: { apiKey: 'sandbox-alice-key', baseUrl: sandbox.url } });
		const uses = { id: credential.id, name: CREDENTIALS.api.name };
		const trigger = await n8n.rest.createWorkflow(forRestApi(taskTriggerWorkflow(n8n.prefix), uses));
		const action = await n8n.rest.createWorkflow(forRestApi(actionWorkflow(n8n.prefix, actionTaskId), uses));
		await n8n.rest.activateWorkflow(trigger.id);
		const listCalls = async () => (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/list');
		// The activation's check sets the trigger's position; the backlog is made right after a check.
		await waitFor(async () => (await listCalls()).length >= 1, 120_000, 'the trigger to start', 1000);
		const before = (await listCalls()).length;
		await waitFor(async () => (await listCalls()).length > before, 120_000, 'a scheduled check', 1000);
		await sandbox.control('limits', { points: null });
		const backlog = [];
		for (let index = 0; index < BACKLOG; index++) {
			const created = await sandbox.api('POST', '/v3/tasks/create', { body: { title: `backlog ${index}` } });
			assert.equal(created.status, 200);
			backlog.push(created.body.data.id);
		}
		await sandbox.control('limits', { points: 300, windowSeconds: WINDOW_SECONDS });
		await n8n.rest.activateWorkflow(action.id);
		const started = Date.now();

		const delivered = new Map();
		let triggerRuns = [];
		await waitFor(
			async () => {
				triggerRuns = await executions(n8n.rest, trigger.id, 'CTS Task Trigger');
				delivered.clear();
				for (const run of triggerRuns) for (const item of run.items) delivered.set(item.id, (delivered.get(item.id) ?? 0) + 1);
				return backlog.every((id) => delivered.has(id));
			},
			12 * 60_000,
			'every change of the backlog',
			5000,
		);
		const minutes = (Date.now() - started) / 60_000;
		await n8n.rest.deactivateWorkflow(action.id);
		await n8n.rest.deactivateWorkflow(trigger.id);

		const actionRuns = await executions(n8n.rest, action.id, 'Get');
		const calls = await sandbox.requests();
		console.log(
			`backlog of ${BACKLOG}: delivered by ${triggerRuns.filter((run) => run.items.length > 0).length} executions in ${minutes.toFixed(1)} min; ` +
				`${calls.filter((call) => call.path === '/v3/tasks/list').length} list calls; action workflow ${actionRuns.length} runs, ` +
				`${actionRuns.filter((run) => run.status === 'success').length} succeeded; ${calls.filter((call) => call.status === 429).length} refused`,
		);
		assert.deepEqual(backlog.filter((id) => delivered.get(id) !== 1), [], 'every change of the backlog delivered exactly once');
		assert.ok(triggerRuns.every((run) => run.status === 'success'), 'every trigger execution succeeded');
		assert.ok(triggerRuns.filter((run) => run.items.length > 0).length >= 2, 'the backlog took more than one check');
		assert.ok(actionRuns.length >= 3, `the action workflow ran (${actionRuns.length} runs)`);
		assert.deepEqual(actionRuns.filter((run) => run.status !== 'success').map((run) => run.id), [], 'every run of the action workflow succeeded');
		assert.deepEqual(calls.filter((call) => call.status === 429).map((call) => call.path), [], 'the service refused nothing');
	});
});
