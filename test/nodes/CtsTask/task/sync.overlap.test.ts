/**
 * Sync Tasks and Create or Update when executions overlap, run by n8n's real engine against the
 * sandbox as published workflows (each execution loads the static data stored before it and stores
 * its own at its end, the last one winning, as n8n does): a schedule firing while a run waits for
 * the budget, a manual run beside the published one, two processes (queue-mode workers) at once,
 * two agent calls at once. A key always ends with one open task; a second one, however it came, is
 * removed by the next run.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { asTool, Engine, type NodeRunOptions, type NodeRunResult } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { engineInAnotherProcess } from '../../../harness/otherProcess';
import { ALICE_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const nodes = (Task: new () => CtsTask) => ({ ctsTask: new Task(), ctsTaskTool: asTool(new Task()) });
const engine = new Engine(nodes(CtsTask));
const otherProcess = engineInAnotherProcess(({ CtsTask: Task }) => nodes(Task as new () => CtsTask));

sandboxWithFreshLists(sandbox);

type Json = Record<string, any>;

const SOURCE = 'overlap';
const item = (n: number, fields: Json = {}) => ({ key: `ROW-${n}`, title: `Row ${n}`, body: `Body ${n}`, ...fields });
const rows = (count: number) => Array.from({ length: count }, (_unused, index) => item(index + 1));
const json = (result: NodeRunResult) => result.items.map((entry) => entry.json as Json);

/** A published workflow's static data, shared by its executions. */
function published() {
	return { staticData: { stored: {} as IDataObject }, mode: 'trigger' as const };
}

function syncIn(runner: Engine, items: Json[], options: Partial<NodeRunOptions>, parameters: Json = {}) {
	return runner.startNode({
		type: 'ctsTask',
		parameters: {
			resource: 'task',
			operation: 'sync',
			source: SOURCE,
			sourceKey: '={{ $json.key }}',
			title: '={{ $json.title }}',
			syncFields: { description: '={{ $json.body }}' },
			...parameters,
		},
		items,
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	}).result;
}

/** Every open task of the account, by the key of this source's sync marker. */
async function openByKey(): Promise<Map<string, Json[]>> {
	await sandbox.control('limits', { points: null });
	const byKey = new Map<string, Json[]>();
	let after: string | undefined;
	for (;;) {
		const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100', ...(after ? { updatedAfter: after } : {}) } });
		const page = body.data.tasks as Json[];
		for (const task of page) {
			const key = new RegExp(`^Synced from: ${SOURCE} \\| (\\S+) \\|`, 'm').exec(String(task.description ?? ''))?.[1];
			if (key) byKey.set(key, [...(byKey.get(key) ?? []), task]);
		}
		if (page.length < 100) return byKey;
		after = page[page.length - 1].updated;
	}
}

async function duplicates(): Promise<string[]> {
	return [...(await openByKey())].filter(([, tasks]) => tasks.length > 1).map(([key]) => key);
}

/** The writes the sandbox carried out (not those it refused for the budget). */
async function posts(): Promise<string[]> {
	return (await sandbox.requests()).filter((request) => request.method === 'POST' && request.status < 300).map((request) => request.path);
}

/** The tasks the sandbox deleted, each once. */
async function deletedTasks(): Promise<Set<string>> {
	const deletes = (await sandbox.requests()).filter((request) => request.path === '/v3/tasks/delete' && request.status < 300);
	return new Set(deletes.map((request) => String((request.body as Json).id)));
}

/** Resolves once the sandbox has answered `count` creates. */
async function afterCreates(count: number): Promise<void> {
	for (;;) {
		if ((await posts()).filter((path) => path === '/v3/tasks/create').length >= count) return;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

describe('Sync Tasks, executions that overlap', () => {
	beforeEach(async () => {
		// Small windows keep the test short; budgets at full scale are proven in BENCHMARKS and in real n8n.
		await sandbox.control('limits', { points: 30, windowSeconds: 2 });
	});

	it('a run started while the first one waits for the budget waits its turn, then writes nothing', async () => {
		const run = published();
		const first = syncIn(engine, rows(60), run);
		await afterCreates(10);
		const second = syncIn(engine, rows(60), run);
		const [one, two] = await Promise.all([first, second]);
		expect([one.error, two.error]).toEqual([undefined, undefined]);
		expect(json(one).filter((entry) => entry.action === 'created')).toHaveLength(60);
		expect(json(two).map((entry) => entry.action)).toEqual(Array(60).fill('unchanged'));
		expect((await posts()).filter((path) => path === '/v3/tasks/create')).toHaveLength(60);
		// The second run started from what the first left: it read only what changed since (one list call).
		const reads = (await sandbox.requests()).filter((request) => request.path === '/v3/tasks/list');
		expect(reads.at(-1)?.query.updatedAfter).toBeDefined();
		expect((await openByKey()).size).toBe(60);
		expect(await duplicates()).toEqual([]);
	});

	it('two processes creating the same keys at once end with one task per key, and a third run writes nothing', async () => {
		// Started together with budget to spare, both find no task and create every key.
		await sandbox.control('limits', { points: null });
		const run = published();
		const [one, two] = await Promise.all([syncIn(engine, rows(40), run), syncIn(otherProcess, rows(40), run)]);
		expect([one.error?.message, two.error?.message]).toEqual([undefined, undefined]);
		// Both created some keys at once; every second task was removed.
		const written = await posts();
		const created = written.filter((path) => path === '/v3/tasks/create').length;
		expect(created).toBeGreaterThan(40);
		expect((await deletedTasks()).size).toBe(created - 40);
		expect(await duplicates()).toEqual([]);
		expect((await openByKey()).size).toBe(40);
		// Each item reports the task its key kept.
		const kept = new Map([...(await openByKey())].map(([key, [task]]) => [key, task.id]));
		for (const result of [one, two]) for (const entry of json(result)) if (entry.action !== 'deleted') expect([entry.key, entry.taskId]).toEqual([entry.key, kept.get(entry.key)]);
		await sandbox.clearRequests();
		const third = await syncIn(engine, rows(40), run);
		expect(json(third).map((entry) => entry.action)).toEqual(Array(40).fill('unchanged'));
		expect(await posts()).toEqual([]);
	});

	it('a manual run beside the published one makes no second task', async () => {
		const run = published();
		const first = syncIn(engine, rows(40), run);
		await afterCreates(5);
		const manual = syncIn(engine, rows(40), { staticData: run.staticData, mode: 'manual' }, { options: { maxWaitSeconds: 60 } });
		const [one, two] = await Promise.all([first, manual]);
		expect([one.error?.message, two.error?.message]).toEqual([undefined, undefined]);
		expect((await posts()).filter((path) => path === '/v3/tasks/create').length).toBeGreaterThan(40);
		expect(await duplicates()).toEqual([]);
		expect((await openByKey()).size).toBe(40);
	});
});

describe('Sync Tasks, a second open task of a key', () => {
	it('is removed by the next run, the oldest kept: deleted when untouched, completed when edited in the app; Preview says so first', async () => {
		const run = published();
		await syncIn(engine, rows(3), run);
		const [original] = (await openByKey()).get('ROW-1')!;
		const [second] = (await openByKey()).get('ROW-2')!;
		// Copies with the same key line, as an older version, a copied workflow or a restored backup leaves them.
		const untouchedCopy = await sandbox.createTask({ title: original.title, description: original.description });
		const editedCopy = await sandbox.createTask({ title: 'Row 2, my own notes', description: second.description });
		expect(await duplicates()).toEqual(['ROW-1', 'ROW-2']);

		await sandbox.clearRequests();
		const preview = await syncIn(engine, rows(3), run, { preview: true });
		expect(json(preview).map((entry) => [entry.key, entry.action, entry.taskId])).toEqual([
			['ROW-1', 'unchanged', original.id],
			['ROW-1', 'delete', untouchedCopy],
			['ROW-2', 'unchanged', second.id],
			['ROW-2', 'complete', editedCopy],
			['ROW-3', 'unchanged', expect.any(String)],
		]);
		expect(json(preview)[1].reason).toBe(`A second open task for this key: the oldest, ${original.id}, is kept`);
		expect(json(preview)[3].reason).toMatch(/changed in the app, so it is completed rather than deleted/);
		expect(preview.items.map((entry) => entry.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }, { item: 1 }, { item: 2 }]);
		expect(await posts()).toEqual([]);

		const healed = await syncIn(engine, rows(3), run);
		expect(json(healed).map((entry) => [entry.key, entry.action])).toEqual([
			['ROW-1', 'unchanged'],
			['ROW-1', 'deleted'],
			['ROW-2', 'unchanged'],
			['ROW-2', 'completed'],
			['ROW-3', 'unchanged'],
		]);
		expect(await duplicates()).toEqual([]);
		expect(await sandbox.getTask(untouchedCopy)).toMatchObject({ deleted: true });
		expect(await sandbox.getTask(editedCopy)).toMatchObject({ progress: 'completed', title: 'Row 2, my own notes' });
		expect((await openByKey()).get('ROW-1')!.map((task) => task.id)).toEqual([original.id]);
	});
});

describe('Create or Update, calls that overlap', () => {
	const call = (runner: Engine, options: Partial<NodeRunOptions>) =>
		runner.startNode({
			type: 'ctsTaskTool',
			parameters: { resource: 'task', operation: 'upsert', source: 'ai-agent', sourceKey: 'mail:<4711@example.com>', title: 'Answer Bob' },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
			...options,
		}).result;

	it('two agent calls at once, in two processes, make one task', async () => {
		const run = published();
		const [one, two] = await Promise.all([call(engine, run), call(otherProcess, run)]);
		expect([one.error?.message, two.error?.message]).toEqual([undefined, undefined]);
		const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
		const tasks = (body.data.tasks as Json[]).filter((task) => task.title === 'Answer Bob');
		expect(tasks).toHaveLength(1);
		expect([json(one)[0].taskId, json(two)[0].taskId]).toEqual([tasks[0].id, tasks[0].id]);
	});

	it('two calls at once in one process take turns: one create, and the second call writes nothing', async () => {
		const run = published();
		await Promise.all([call(engine, run), call(engine, run)]);
		expect(await posts()).toEqual(['/v3/tasks/create']);
	});
});
