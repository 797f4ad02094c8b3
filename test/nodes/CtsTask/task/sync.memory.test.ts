/**
 * What a published sync remembers between runs, run by n8n's real engine against the sandbox: each
 * key's task, kept while the key is out of the input, so a key that comes back finds its task again;
 * and where the last read ended, so a run reads only what changed since and an unchanged item costs
 * nothing.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { FORGET_CLOSED_AFTER_DAYS, forgetHandedOver, today } from '../../../../nodes/CtsTask/shared/syncMemory';
import { Engine, type NodeRunOptions, type NodeRunResult } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, BOB_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });
sandboxWithFreshLists(sandbox);

type Json = Record<string, any>;

const item = (key: string, fields: Json = {}) => ({ key, title: `Task ${key}`, body: `About ${key}`, done: false, ...fields });
const json = (result: NodeRunResult) => result.items.map((entry) => entry.json as Json);
const actions = (result: NodeRunResult) => json(result).map((entry) => [entry.key, entry.action]);

function published() {
	return { staticData: { stored: {} as IDataObject }, mode: 'trigger' as const };
}

async function run(operation: 'sync' | 'upsert', items: Json[], options: Partial<NodeRunOptions>, parameters: Json = {}, apiKey = ALICE_KEY) {
	const result = await engine.runNode({
		type: 'ctsTask',
		parameters: {
			resource: 'task',
			operation,
			source: 'proj',
			sourceKey: '={{ $json.key }}',
			title: '={{ $json.title }}',
			syncFields: { description: '={{ $json.body }}', done: '={{ $json.done }}' },
			...parameters,
		},
		items,
		credentials: { ctsApi: { apiKey, baseUrl: sandbox.url } },
		...options,
	});
	expect(result.error?.message).toBeUndefined();
	return result;
}

const sync = (items: Json[], options: Partial<NodeRunOptions>, missingTasks = 'keep') => run('sync', items, options, { missingTasks });

async function openTasksOf(key: string): Promise<Json[]> {
	const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
	return (body.data.tasks as Json[]).filter((task) => String(task.description ?? '').includes(`Synced from: proj | ${key} |`));
}

/** The requests since the last clear, as `METHOD path` (`since` for a list of the changes after a cursor). */
async function requests(): Promise<string[]> {
	return (await sandbox.requests()).map((request) => `${request.method} ${request.path}${request.query.updatedAfter ? ' since' : ''}`);
}

describe('A key that leaves the input and comes back', () => {
	it('its task, completed in the app while the key was away (Keep), stays completed when the item comes back unchanged, and is reopened when it changed', async () => {
		const wf = published();
		const [created] = json(await sync([item('PROJ-50'), item('PROJ-51')], wf));
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: created.taskId } });
		await sync([item('PROJ-51')], wf);
		await sync([item('PROJ-51')], wf);
		expect(actions(await sync([item('PROJ-50'), item('PROJ-51')], wf))).toEqual([['PROJ-50', 'unchanged'], ['PROJ-51', 'unchanged']]);
		expect(await openTasksOf('PROJ-50')).toEqual([]);
		const changed = await sync([item('PROJ-50', { title: 'Task PROJ-50, renamed' }), item('PROJ-51')], wf);
		expect(json(changed)[0]).toMatchObject({ action: 'reopened', taskId: created.taskId });
		expect((await openTasksOf('PROJ-50')).map((task) => task.id)).toEqual([created.taskId]);
	});

	it('its task, completed by the sync when the key left (Complete), is reopened with the item\'s values: one task, same ID', async () => {
		const wf = published();
		const [first, second] = json(await sync([item('Ünï 6'), item('k 28 x'), item('stays')], wf, 'complete'));
		expect(actions(await sync([item('stays')], wf, 'complete'))).toEqual([['stays', 'unchanged'], ['Ünï 6', 'completed'], ['k 28 x', 'completed']]);
		expect(actions(await sync([item('stays')], wf, 'complete'))).toEqual([['stays', 'unchanged']]);
		const back = await sync([item('Ünï 6', { body: 'Back again' }), item('k 28 x'), item('stays')], wf, 'complete');
		expect(json(back).map((entry) => [entry.key, entry.action, entry.taskId])).toEqual([
			['Ünï 6', 'reopened', first.taskId],
			['k 28 x', 'reopened', second.taskId],
			['stays', 'unchanged', expect.any(String)],
		]);
		expect(json(back)[1].notices).toEqual(['Back in the input: its task, completed when the key left the input, is reopened']);
		expect(await sandbox.getTask(first.taskId)).toMatchObject({ progress: 'needs-action', description: expect.stringMatching(/^Back again\n\nSynced from/) });
		expect((await openTasksOf('Ünï 6')).map((task) => task.id)).toEqual([first.taskId]);
	});

	it('its task, deleted by the sync when the key left (Delete), is created anew: one open task', async () => {
		const wf = published();
		const [first] = json(await sync([item('PROJ-7'), item('stays')], wf, 'delete'));
		expect(actions(await sync([item('stays')], wf, 'delete'))).toEqual([['stays', 'unchanged'], ['PROJ-7', 'deleted']]);
		const back = await sync([item('PROJ-7'), item('stays')], wf, 'delete');
		expect(actions(back)).toEqual([['PROJ-7', 'created'], ['stays', 'unchanged']]);
		expect(json(back)[0].taskId).not.toBe(first.taskId);
		expect(await openTasksOf('PROJ-7')).toHaveLength(1);
	});

	it(`is forgotten ${FORGET_CLOSED_AFTER_DAYS} days after it left when its task is closed, never while its task is open`, async () => {
		const wf = published();
		await sync([item('left'), item('kept'), item('other')], wf);
		await sync([item('kept'), item('other')], wf, 'complete');
		await sync([item('other')], wf);
		const memory = () => (wf.staticData.stored['node:CTS'] as Json).syncedTasks.proj;
		// About 70 bytes of n8n's database per key.
		expect(JSON.stringify(memory().keys).length / Object.keys(memory().keys).length).toBeLessThan(80);
		memory().keys.left[3] = today() - FORGET_CLOSED_AFTER_DAYS - 1;
		memory().keys.kept[3] = today() - FORGET_CLOSED_AFTER_DAYS - 1;
		await sync([item('other')], wf);
		expect(Object.keys(memory().keys).sort()).toEqual(['kept', 'other']);
		// The forgotten key comes back as a new item: a new task (its old one stays completed). The open one is found again.
		const back = await sync([item('left'), item('kept'), item('other')], wf);
		expect(actions(back)).toEqual([['left', 'created'], ['kept', 'unchanged'], ['other', 'unchanged']]);
		expect(await openTasksOf('left')).toHaveLength(1);
		expect(await openTasksOf('kept')).toHaveLength(1);
	});

	it('the same for Create or Update: a key back after its task was completed in the app stays completed; changed, it is reopened', async () => {
		const wf = published();
		const [created] = json(await run('upsert', [item('mail:1')], wf));
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: created.taskId } });
		await run('upsert', [item('mail:2')], wf);
		expect(actions(await run('upsert', [item('mail:1')], wf))).toEqual([['mail:1', 'unchanged']]);
		expect(await openTasksOf('mail:1')).toEqual([]);
		expect(json(await run('upsert', [item('mail:1', { body: 'A new reply' })], wf))[0]).toMatchObject({ action: 'reopened', taskId: created.taskId });
	});
});

describe('What a published run reads', () => {
	it('Sync Tasks: a first run reads every open task; an unchanged re-run one list call and no write; k changed items the list, k reads by ID and k writes', async () => {
		const wf = published();
		for (let n = 0; n < 3; n++) await sandbox.createTask({ title: `Made by hand ${n}` });
		const items = Array.from({ length: 30 }, (_unused, index) => item(`K-${index}`));
		await sandbox.clearRequests();
		const first = await sync(items, wf);
		expect(json(first)[0].notices).toEqual([expect.stringMatching(/^First run for this source: every open task was read once/)]);
		const firstRequests = await requests();
		// The full read, 30 creates, and the check after creating.
		expect(firstRequests.filter((line) => line.startsWith('GET'))).toEqual(['GET /v3/tasks/list', 'GET /v3/tasks/list since']);
		expect(firstRequests.filter((line) => line === 'POST /v3/tasks/create')).toHaveLength(30);

		await sandbox.clearRequests();
		const again = await sync(items, wf);
		expect(json(again).every((entry) => entry.action === 'unchanged' && entry.notices === undefined)).toBe(true);
		expect(await requests()).toEqual(['GET /v3/tasks/list since']);

		// Two items changed at the source, one task edited in the app.
		const edited = json(first)[5].taskId;
		await sandbox.api('POST', '/v3/tasks/update', { body: { id: edited, title: 'Renamed in the app' } });
		items[1] = item('K-1', { title: 'Renamed at the source' });
		items[2] = item('K-2', { done: true });
		await sandbox.clearRequests();
		const changed = await sync(items, wf);
		expect(json(changed).filter((entry) => entry.action !== 'unchanged').map((entry) => [entry.key, entry.action])).toEqual([['K-1', 'updated'], ['K-2', 'completed']]);
		expect(json(changed)[5].reason).toMatch(/Changed in the service since the last sync \(Title\)/);
		expect(await requests()).toEqual(['GET /v3/tasks/list since', 'GET /v3/tasks', 'GET /v3/tasks', 'POST /v3/tasks/update', 'POST /v3/tasks/update']);
	});

	it('Sync Tasks: when most items changed (a field newly mapped), one read of every open task costs less than reading each task', async () => {
		const wf = published();
		const items = Array.from({ length: 30 }, (_unused, index) => item(`K-${index}`));
		await sync(items, wf);
		await sandbox.clearRequests();
		const renamed = await sync(items.map((entry) => ({ ...entry, title: `${entry.title}, renamed` })), wf);
		expect(json(renamed).map((entry) => entry.action)).toEqual(Array(30).fill('updated'));
		expect(json(renamed)[0].notices).toEqual([expect.stringMatching(/^So many items changed that reading every open task once cost less/)]);
		const lines = await requests();
		expect(lines.filter((line) => line.startsWith('GET'))).toEqual(['GET /v3/tasks/list']);
		expect(lines.filter((line) => line === 'POST /v3/tasks/update')).toHaveLength(30);
	});

	it('Create or Update: an unchanged item costs nothing, a changed one a read by ID and the write, a new key a list of the changes, the create and the check', async () => {
		const wf = published();
		await run('upsert', [item('mail:1')], wf);
		await sandbox.clearRequests();
		expect(actions(await run('upsert', [item('mail:1')], wf))).toEqual([['mail:1', 'unchanged']]);
		expect(await requests()).toEqual([]);
		expect(actions(await run('upsert', [item('mail:1', { body: 'Edited' })], wf))).toEqual([['mail:1', 'updated']]);
		expect(await requests()).toEqual(['GET /v3/tasks', 'POST /v3/tasks/update']);
		await sandbox.clearRequests();
		expect(actions(await run('upsert', [item('mail:2')], wf))).toEqual([['mail:2', 'created']]);
		expect(await requests()).toEqual(['GET /v3/tasks/list since', 'POST /v3/tasks/create', 'GET /v3/tasks/list since']);
	});

	it('a memory of another account, or of an older version, makes the run read every open task once, and says so', async () => {
		const wf = published();
		await sync([item('A')], wf);
		const other = await run('sync', [item('A')], wf, {}, BOB_KEY);
		expect(json(other)[0]).toMatchObject({ action: 'created', notices: [expect.stringMatching(/^The memory was of another account: every open task was read once/)] });
		// An older version kept key → [task ID, source fingerprint]: a completed task stays completed.
		const [task] = await openTasksOf('A');
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: task.id } });
		const marker = /Synced from: proj \| A \| ([0-9a-f]{16}) \|/.exec(task.description)![1];
		wf.staticData.stored = { 'node:CTS': { syncedTasks: { proj: { A: [task.id, marker] } } } };
		// n8n restarted with the new version: nothing handed over in the process.
		forgetHandedOver();
		const older = await sync([item('A')], wf);
		expect(json(older)[0]).toMatchObject({ action: 'unchanged', reason: expect.stringMatching(/completed or deleted in the service/), notices: [expect.stringMatching(/^The memory was kept by an older version/)] });
		expect(await openTasksOf('A')).toEqual([]);
	});
});
