/**
 * The two sync examples as `npm start` sets them up, in n8n 2.41.1 against the sandbox:
 * - "sync tasks from a CSV file" runs green: each row once (the done row makes no task), a second
 *   run writes nothing, and a row edited in the file updates only its task;
 * - "two-way sync with a data table": "Execute workflow" as the editor starts it (from Task Completed,
 *   which n8n ranks above the schedule; its test sample says no task was completed yet) makes the
 *   rows tasks. Published: a task completed in the service ticks its row and the sync that follows
 *   writes nothing, and a task the sync itself completes (its row ticked at the source) does not
 *   come back out of the trigger: over three polls, one delivery and 0 echoes.
 * The CSV sync runs as the editor's "Execute workflow" starts it; the table's scheduled sync as
 * "Execute workflow" from Every 15 Minutes (its schedule is every 15 minutes); the trigger polls on
 * its own, as published.
 * - Two runs of a published Sync Tasks workflow that overlap (250 rows at 100 points per 20 s, the
 *   second started 25 s after the first) leave 250 open tasks for 250 keys, and a third run writes
 *   nothing (support/syncOverlap.mjs; the same in queue mode, queue-mode.test.mjs).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { exampleFilesDir, SYNC_EXAMPLES, SYNC_SOURCES } from '../../scripts/examples.mjs';
import { startExamples } from './support/examples.mjs';
import { newFinishedExecutions, nodeOutput, runFromEditor, runWorkflow } from './support/executions.mjs';
import { overlapSyncWorkflow, runOverlapScenario } from './support/syncOverlap.mjs';
import { sleep, waitFor } from './support/waiting.mjs';

describe('the sync examples of npm start in n8n 2.41.1', () => {
	let examples;
	let stateDir;
	let rest;

	before(async () => {
		examples = await startExamples('sync-examples');
		({ stateDir, rest } = examples);
	});

	after(async () => await examples?.dispose());

	const api = async (method, path, body) => {
		const answer = await examples.sandbox.api(method, path, { body });
		assert.ok(answer.status >= 200 && answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
		return answer.body;
	};
	const requests = async () => await examples.sandbox.requests();
	/** The open tasks a source's sync made, by key (the key is the second part of the marker line). */
	const openTasksOf = async (source) => {
		const { data } = await api('GET', '/v3/tasks/list?limit=100');
		const marked = data.tasks.map((task) => [task, /^Synced from: ([^|]*) \| ([^|]*) \|/m.exec(task.description ?? '')]);
		return new Map(marked.filter(([, marker]) => marker?.[1] === source).map(([task, marker]) => [marker[2], task]));
	};

	/** What the Sync Tasks node of a run did, by key. */
	const actions = (execution) => Object.fromEntries(nodeOutput(execution, 'Sync Tasks').map((item) => [item.key, item.action]));

	it('sync tasks from a CSV file: each row once, a second run writes nothing, an edited row updates its task only', async () => {
		const id = examples.workflowId(SYNC_EXAMPLES.csv);
		assert.deepEqual(actions(await runWorkflow(rest, id, 'Run')), { 'T-1': 'created', 'T-2': 'created', 'T-3': 'created', 'T-4': 'unchanged' });
		const tasks = await openTasksOf(SYNC_SOURCES.csv);
		assert.deepEqual([...tasks.keys()].sort(), ['T-1', 'T-2', 'T-3']);
		assert.equal(tasks.get('T-1').title, 'Renew the office lease');
		assert.equal(tasks.get('T-1').priority, 3);
		assert.match(tasks.get('T-1').description, /^Call the landlord before signing/);
		assert.equal(tasks.get('T-1').tags.length, 2);

		const before = (await requests()).length;
		const second = await runWorkflow(rest, id, 'Run');
		assert.deepEqual(actions(second), { 'T-1': 'unchanged', 'T-2': 'unchanged', 'T-3': 'unchanged', 'T-4': 'unchanged' }, JSON.stringify(nodeOutput(second, 'Sync Tasks')));
		assert.deepEqual((await requests()).slice(before).filter((request) => request.method !== 'GET'), [], 'nothing changed: nothing written');

		// The user's file, edited: the file the example reads, in the folder npm start lets n8n read.
		const file = join(exampleFilesDir(stateDir), 'tasks.csv');
		writeFileSync(file, readFileSync(file, 'utf8').replace('Three machines', 'Four machines'));
		const third = await runWorkflow(rest, id, 'Run');
		assert.deepEqual(actions(third), { 'T-1': 'unchanged', 'T-2': 'updated', 'T-3': 'unchanged', 'T-4': 'unchanged' });
		assert.match((await openTasksOf(SYNC_SOURCES.csv)).get('T-2').description, /^Four machines/);
	});

	it('two-way sync with a data table, published: a task completed in the service ticks its row, over three polls with 0 echoes', async () => {
		const id = examples.workflowId(SYNC_EXAMPLES.table);
		const { id: projectId } = await rest.personalProject();
		const [table] = (await rest.listDataTables(projectId)).filter((candidate) => candidate.name === 'CTS example tasks');
		const rows = async () => await rest.listDataTableRows(projectId, table.id);
		const [first, second, third] = await rows();

		// The first click of Execute workflow: from Task Completed, whose sample (no completion seen yet)
		// is no task of this table; the sync runs anyway and the rows become tasks.
		const firstClick = await runFromEditor(rest, id, 'Task Completed');
		const firstRun = firstClick.id;
		assert.equal(firstClick.status, 'success', firstClick.error);
		assert.match(nodeOutput(firstClick, 'Task Completed')[0].notices[0], /^No completed task to show/);
		assert.deepEqual(nodeOutput(firstClick, 'Rows of This Table'), []);
		assert.deepEqual(Object.values(actions(firstClick)), ['created', 'created', 'created']);
		const tasks = await openTasksOf(SYNC_SOURCES.table);
		assert.deepEqual([...tasks.keys()].sort(), [first.id, second.id, third.id].map(String).sort());
		// Each check of the trigger reads the open tasks once, as each sync run does.
		const listCalls = async () => (await requests()).filter((request) => request.method === 'GET' && request.path === '/v3/tasks/list').length;
		// The workflow's finished executions by the node that started them (a sync run, or the trigger's delivery).
		const finished = [];
		const startedBy = async (node) => {
			finished.push(...(await newFinishedExecutions(rest, id, new Set(finished.map((run) => run.id)))));
			return finished.filter((run) => run.runData[node]);
		};
		const syncRuns = async () => (await startedBy('Sync Tasks')).length;
		const listedBefore = (await listCalls()) - (await syncRuns());
		const polls = async () => (await listCalls()) - (await syncRuns()) - listedBefore;
		const deliveries = async () => (await startedBy('Task Completed')).filter((run) => run.id !== firstRun);
		await rest.activateWorkflow(id);
		await waitFor(async () => (await polls()) >= 1, 90_000, 'the first poll');

		// In the service: the second row's task completed.
		await api('POST', '/v3/tasks/close', { id: tasks.get(String(second.id)).id });
		// The next poll delivers the completion, and the workflow ticks the second row.
		const [delivery] = await waitFor(async () => {
			const found = await deliveries();
			return found.length > 0 ? found : undefined;
		}, 150_000, 'the trigger to deliver the completed task');
		const delivered = delivery;
		assert.equal(delivered.status, 'success');
		assert.deepEqual(nodeOutput(delivered, 'Task Completed').map((task) => [task.triggerEvent, task.syncKey]), [['completed', String(second.id)]]);
		assert.equal((await rows()).find((row) => row.id === second.id).done, true, 'the completed task ticked its row');
		// The sync after it reads the ticked row: its task is completed already, nothing is written.
		assert.deepEqual(Object.values(actions(delivered)), ['unchanged', 'unchanged', 'unchanged']);
		assert.ok((await polls()) >= 2);

		// At the source: the first row ticked done. The sync's next run completes its task; the second
		// stays completed (its row is done too).
		await rest.updateDataTableRows(projectId, table.id, { id: first.id }, { done: true });
		const next = await runWorkflow(rest, id, 'Every 15 Minutes');
		assert.deepEqual(actions(next), { [first.id]: 'completed', [second.id]: 'unchanged', [third.id]: 'unchanged' });
		// The next poll (the third, or a later one) sees the sync's own completion and delivers nothing: no echo.
		const pollsBefore = await polls();
		await waitFor(async () => (await polls()) > pollsBefore, 150_000, 'a poll after the sync\'s run');
		assert.ok((await polls()) >= 3);
		await sleep(3000);
		assert.equal((await deliveries()).length, 1, '0 echoes: the sync\'s own completion is not delivered');
		assert.deepEqual((await rows()).map((row) => [row.id, row.done]), [[first.id, true], [second.id, true], [third.id, false]]);
		assert.deepEqual([...(await openTasksOf(SYNC_SOURCES.table)).keys()], [String(third.id)]);
		await rest.deactivateWorkflow(id);
	});

	it('two runs of a published sync that overlap leave one task per key, and a third run writes nothing', async () => {
		const apiCredential = (await rest.listCredentials()).find((credential) => credential.type === 'ctsApi');
		const workflow = overlapSyncWorkflow(examples.n8n.prefix);
		for (const node of workflow.nodes) if (node.credentials) node.credentials = { ctsApi: { id: apiCredential.id, name: apiCredential.name } };
		const { id } = await rest.createWorkflow(workflow);
		await rest.activateWorkflow(id);
		const webhook = `${rest.baseUrl}/webhook/${workflow.id}`;
		await runOverlapScenario({
			// The webhook is served once the publication has registered it.
			post: async (rows) => await waitFor(async () => (await fetch(webhook, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rows }) })).status === 200, 60_000, 'the sync webhook'),
			rest,
			workflowId: id,
			sandbox: examples.sandbox.url,
		});
		await rest.deactivateWorkflow(id);
	});
});
