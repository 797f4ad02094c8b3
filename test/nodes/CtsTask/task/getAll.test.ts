/**
 * Get Many through the real engine against the sandbox: paging on `updated`, ties across page
 * boundaries, Limit, Updated After, and the one case the interface cannot page past.
 */
import { Container } from '@n8n/di';
import { Logger } from '@n8n/backend-common';

import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { AlteringProxy } from '../../../harness/alteringProxy';
import { asTool, Engine } from '../../../harness/engine';
import { ALICE_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask(), ctsTaskTool: asTool(new CtsTask()) });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

function getMany(parameters: Record<string, unknown>) {
	return engine.runNode({
		type: 'ctsTask',
		parameters: { resource: 'task', operation: 'getAll', ...parameters },
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
	});
}

/** Creates groups of tasks; the tasks of one group share one `updated` value (frozen clock). */
async function createGroups(sizes: number[], start = '2026-03-01T09:00:00.000Z'): Promise<string[]> {
	await sandbox.control('clock', { now: start });
	const ids: string[] = [];
	for (const [group, size] of sizes.entries()) {
		for (let index = 0; index < size; index++) ids.push(await sandbox.createTask({ title: `g${group}-${index}` }));
		await sandbox.control('clock', { advanceSeconds: 1 });
	}
	await sandbox.clearRequests();
	return ids;
}

async function listCalls() {
	return (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/list');
}

it('Return All reads 250 tasks whose ties straddle page boundaries, each exactly once, in 4 list calls', async () => {
	// Positions 60-109 share one `updated` value (across the boundary at 100), 160-209 another.
	const ids = await createGroups([60, 50, 50, 50, 40]);
	const { items, error } = await getMany({ returnAll: true });
	expect(error).toBeUndefined();
	const returned = items.map((item) => item.json.id as string);
	expect(new Set(returned).size).toBe(250);
	expect(returned.sort()).toEqual([...ids].sort());
	const calls = await listCalls();
	// 100 new, then 60 new (10 left of the tie + 50), then 50 new (the tie re-read), then the last 40.
	expect(calls).toHaveLength(4);
	expect(calls.every((call) => call.query.limit === '100')).toBe(true);
	expect(calls[0].query.updatedAfter).toBeUndefined();
	expect(calls.map((call) => call.points)).toEqual([10, 10, 10, 10]);
});

it('Return All outputs a task changed during the walk once, in its newest version', async () => {
	const ids = await createGroups([60, 60, 30]);
	let changed = false;
	const proxy = new AlteringProxy(sandbox.url, async (_method, path, answer) => {
		if (path === '/v3/tasks/list' && !changed) {
			// After the first page was read: the first task changes, and is listed again later.
			changed = true;
			await sandbox.control('clock', { advanceSeconds: 1 });
			await sandbox.api('POST', '/v3/tasks/update', { body: { id: ids[0], title: 'changed during the walk' } });
		}
		return answer;
	});
	await proxy.start();
	try {
		const { items, error } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'getAll', returnAll: true },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: proxy.url } },
		});
		expect(error).toBeUndefined();
		const returned = items.map((item) => item.json);
		expect(returned).toHaveLength(150);
		expect(new Set(returned.map((task) => task.id)).size).toBe(150);
		expect(returned.filter((task) => task.id === ids[0])).toEqual([expect.objectContaining({ title: 'changed during the walk' })]);
	} finally {
		await proxy.stop();
	}
});

it('Return All needs one call per 100 tasks when no timestamps are shared, plus one to see the end', async () => {
	await sandbox.control('clock', { now: '2026-03-01T09:00:00.000Z' });
	for (let index = 0; index < 150; index++) {
		await sandbox.createTask({ title: `t${index}` });
		await sandbox.control('clock', { advanceSeconds: 1 });
	}
	await sandbox.clearRequests();
	const { items, error } = await getMany({ returnAll: true });
	expect(error).toBeUndefined();
	expect(items).toHaveLength(150);
	// 100, then 51 (one re-read at the boundary + 50): a page that is not full ends the walk.
	expect(await listCalls()).toHaveLength(2);
});

it('Limit stops after that many tasks, asking only for what it still needs', async () => {
	await createGroups([60, 50, 50, 50, 40]);
	const { items, error } = await getMany({ returnAll: false, limit: 150 });
	expect(error).toBeUndefined();
	expect(items).toHaveLength(150);
	expect(new Set(items.map((item) => item.json.id)).size).toBe(150);
	const calls = await listCalls();
	expect(calls.map((call) => call.query.limit)).toEqual(['100', '90']);
});

it('Limit below 100 is one call of that size', async () => {
	await createGroups([5, 5]);
	const { items, error } = await getMany({ returnAll: false, limit: 3 });
	expect(error).toBeUndefined();
	expect(items).toHaveLength(3);
	expect((await listCalls()).map((call) => call.query.limit)).toEqual(['3']);
});

it('Updated After returns only tasks changed after that moment', async () => {
	await createGroups([3, 2]);
	const { items, error } = await getMany({ returnAll: true, filters: { updatedAfter: '2026-03-01T09:00:00.500Z' } });
	expect(error).toBeUndefined();
	expect(items.map((item) => item.json.title).sort()).toEqual(['g1-0', 'g1-1']);
	expect((await listCalls())[0].query.updatedAfter).toBe('2026-03-01T09:00:00.500Z');
});

it('completed and deleted tasks are not listed', async () => {
	const [open, done, gone] = await createGroups([3]);
	await sandbox.api('POST', '/v3/tasks/close', { body: { id: done } });
	await sandbox.api('POST', '/v3/tasks/delete', { body: { id: gone } });
	const { items, error } = await getMany({ returnAll: true });
	expect(error).toBeUndefined();
	expect(items.map((item) => item.json.id)).toEqual([open]);
});

it('more than 100 tasks on one timestamp: returns what it can, warns in the output, never loops', async () => {
	await createGroups([120, 5]);
	const { items, error } = await getMany({ returnAll: true });
	expect(error).toBeUndefined();
	expect(items).toHaveLength(105);
	expect(await listCalls()).toHaveLength(3);
	const notices = items.map((item) => item.json.notices).filter((notice) => notice !== undefined);
	expect(notices).toHaveLength(1);
	expect(items[0].json.notices).toEqual([expect.stringContaining('More than 100 tasks share the same "updated" time (2026-03-01T09:00:00.000Z)')]);
});

it('more than 100 tasks on one timestamp, as a tool: the same items, and the warning in n8n\'s log (a tool run has no output pane)', async () => {
	await createGroups([120, 5]);
	const warnings: string[] = [];
	jest.spyOn(Container.get(Logger), 'warn').mockImplementation((message: string) => void warnings.push(message));
	try {
		const { items, run, error } = await engine.runNode({
			type: 'ctsTaskTool',
			parameters: { resource: 'task', operation: 'getAll', returnAll: true },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(105);
		expect(items[0].json.notices).toEqual([expect.stringContaining('More than 100 tasks share the same "updated" time (2026-03-01T09:00:00.000Z)')]);
		expect(run.data.resultData.runData.CTS[0].hints ?? []).toEqual([]);
		expect(warnings).toEqual([expect.stringContaining('CTS: More than 100 tasks share the same "updated" time (2026-03-01T09:00:00.000Z)')]);
	} finally {
		jest.restoreAllMocks();
	}
});

it('an empty account gives no items and one call', async () => {
	const { items, error } = await getMany({ returnAll: true });
	expect(error).toBeUndefined();
	expect(items).toHaveLength(0);
	expect(await listCalls()).toHaveLength(1);
});
