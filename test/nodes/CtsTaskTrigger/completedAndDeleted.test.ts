/**
 * Task Completed and Task Deleted in the CTS Task Trigger, through n8n's engine (PollHarness)
 * against the sandbox: the trigger reads all open tasks, keeps their IDs and `updated` values,
 * and reads each task that left them once by ID.
 */
import { Container } from '@n8n/di';
import { Logger } from '@n8n/backend-common';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PollHarness } from '../../harness/engine';
import { triggerSandbox } from '../../harness/triggerSandbox';

const { sandbox, credentials, advance, fired } = triggerSandbox();

const ALL = ['created', 'updated', 'completed', 'deleted'];

function trigger(parameters: IDataObject = {}, staticData?: IDataObject) {
	return new PollHarness(
		new CtsTaskTrigger(),
		'ctsTaskTrigger',
		{ events: ALL, output: 'raw', options: { budgetShare: 100 }, ...parameters },
		credentials(),
		staticData,
	);
}

/** The node type as a newly started n8n process loads it: a fresh copy of the package's modules. */
function inNewProcess(): CtsTaskTrigger {
	let nodeType: CtsTaskTrigger | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const loaded = require('../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node') as typeof import('../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node');
		nodeType = new loaded.CtsTaskTrigger();
	});
	return nodeType!;
}

const delivered = (result: INodeExecutionData[][] | null) => (result?.[0] ?? []).map((item) => item.json);
const post = async (path: string, body: IDataObject) => {
	const { status } = await sandbox.api('POST', path, { body });
	expect(status).toBe(204);
};
const calls = async () => (await sandbox.requests()).map((call) => `${call.method} ${call.path}`);

/** A trigger that has learnt the open tasks (its first check), the clock moved on. */
async function activated(parameters: IDataObject = {}) {
	const poller = trigger(parameters);
	expect(await poller.poll()).toBeNull();
	await advance(1);
	return poller;
}

it('the first check learns the open tasks without firing; an idle check is one list call', async () => {
	await sandbox.createTask({ title: 'existing' });
	await advance(1);
	await sandbox.clearRequests();
	const poller = trigger();
	expect(await poller.poll()).toBeNull();
	expect(poller.savedStaticData).toHaveProperty(['node:Trigger', 'openTasks', 'known']);
	await advance(1);
	await sandbox.clearRequests();
	expect(await poller.poll()).toBeNull();
	expect(await calls()).toEqual(['GET /v3/tasks/list']);
});

it('complete, delete and reopen: completed and deleted once each, with the task as the read returned it; the reopened task comes back as updated', async () => {
	const done = await sandbox.createTask({ title: 'to complete' });
	const gone = await sandbox.createTask({ title: 'to delete' });
	await sandbox.createTask({ title: 'untouched' });
	const poller = await activated();

	await post('/v3/tasks/close', { id: done });
	await post('/v3/tasks/delete', { id: gone });
	await advance(1);
	await sandbox.clearRequests();
	const changes = delivered(await poller.poll());
	expect(changes.map((task) => `${task.triggerEvent}:${task.title}`).sort()).toEqual(['completed:to complete', 'deleted:to delete']);
	expect(changes.find((task) => task.id === done)).toMatchObject({ progress: 'completed', '@type': 'Task' });
	expect(changes.find((task) => task.id === done)).not.toHaveProperty('deleted');
	expect(changes.find((task) => task.id === gone)).toMatchObject({ deleted: true, progress: 'needs-action' });
	// One list call and one read by ID per task that left the open tasks: 12 points.
	expect((await calls()).sort()).toEqual(['GET /v3/tasks', 'GET /v3/tasks', 'GET /v3/tasks/list']);
	await advance(1);
	expect(await poller.poll()).toBeNull();

	await post('/v3/tasks/reopen', { id: done });
	await advance(1);
	const reopened = delivered(await poller.poll());
	expect(reopened.map((task) => [task.id, task.triggerEvent, task.progress])).toEqual([[done, 'updated', 'needs-action']]);
	await advance(1);
	expect(await poller.poll()).toBeNull();
});

it('deleting a parent deletes its subtasks: one deleted item each', async () => {
	const parent = await sandbox.createTask({ title: 'parent' });
	await sandbox.createTask({ title: 'child 1', relatedTo: { [parent]: { relation: { parent: true } } } });
	await sandbox.createTask({ title: 'child 2', relatedTo: { [parent]: { relation: { parent: true } } } });
	const poller = await activated();
	await post('/v3/tasks/delete', { id: parent });
	await advance(1);
	expect(fired(await poller.poll()).sort()).toEqual(['deleted:child 1', 'deleted:child 2', 'deleted:parent']);
	await advance(1);
	expect(await poller.poll()).toBeNull();
});

it("closing a recurring task's occurrence (occurrenceStart) is delivered as completed", async () => {
	const id = await sandbox.createTask({ title: 'weekly review' });
	const poller = await activated();
	await post('/v3/tasks/close', { id, occurrenceStart: '2026-12-01T09:00:00Z' });
	await advance(1);
	const [task] = delivered(await poller.poll());
	expect(task).toMatchObject({ id, triggerEvent: 'completed', progress: 'completed' });
});

it('a task moved to another list is updated, not deleted', async () => {
	const id = await sandbox.createTask({ title: 'moving' });
	const poller = await activated();
	await post('/v3/tasks/update', { id, taskListId: 'errands' });
	await advance(1);
	expect(delivered(await poller.poll()).map((task) => [task.id, task.triggerEvent, task.taskListId])).toEqual([[id, 'updated', 'errands']]);
});

it('changed and completed between two checks: one completed item with the change; a task created and completed between checks was never visible', async () => {
	const id = await sandbox.createTask({ title: 'before' });
	const poller = await activated();
	await post('/v3/tasks/update', { id, title: 'after' });
	await advance(1);
	await post('/v3/tasks/close', { id });
	const fleeting = await sandbox.createTask({ title: 'fleeting' });
	await post('/v3/tasks/close', { id: fleeting });
	await advance(1);
	expect(fired(await poller.poll())).toEqual(['completed:after']);
	await advance(1);
	expect(await poller.poll()).toBeNull();
});

it('created and updated come from the same read; cancelled progress is an update; only the chosen events and filters are delivered', async () => {
	const urgent = await sandbox.createTask({ title: 'urgent', tags: ['urgent'] });
	const routine = await sandbox.createTask({ title: 'routine' });
	const cancelled = await sandbox.createTask({ title: 'to cancel', tags: ['urgent'] });
	const all = await activated();
	const completedOnly = await activated({ events: ['completed'], filters: { tags: 'urgent' } });
	await sandbox.createTask({ title: 'fresh', tags: ['urgent'] });
	await post('/v3/tasks/update', { id: urgent, description: 'changed' });
	await post('/v3/tasks/update', { id: cancelled, progress: 'cancelled' });
	await post('/v3/tasks/close', { id: urgent });
	await post('/v3/tasks/close', { id: routine });
	await advance(1);
	expect(fired(await all.poll()).sort()).toEqual(['completed:routine', 'completed:urgent', 'created:fresh', 'updated:to cancel']);
	expect(fired(await completedOnly.poll())).toEqual(['completed:urgent']);
});

it('a task the service no longer shows is reported in the log, not guessed', async () => {
	const id = await sandbox.createTask({ title: 'vanishing' });
	const poller = await activated();
	// The stored set names a task the account cannot see (as when a shared task is withdrawn).
	const saved = poller.savedStaticData;
	(saved['node:Trigger'] as { openTasks: { known: Record<string, number> } }).openTasks.known['not-visible-any-more'] = 1;
	const restarted = trigger({}, saved);
	const info = jest.spyOn(Container.get(Logger), 'info');
	try {
		await post('/v3/tasks/close', { id });
		await advance(1);
		expect(fired(await restarted.poll())).toEqual(['completed:vanishing']);
		expect(info).toHaveBeenCalledWith(expect.stringContaining('task not-visible-any-more left the open tasks and the service no longer shows it'));
	} finally {
		info.mockRestore();
	}
});

it('continues after a restart from the stored static data without repeating or missing', async () => {
	const a = await sandbox.createTask({ title: 'a' });
	const b = await sandbox.createTask({ title: 'b' });
	const poller = await activated();
	await post('/v3/tasks/close', { id: a });
	await advance(1);
	expect(fired(await poller.poll())).toEqual(['completed:a']);
	poller.restartFromStored();
	await advance(1);
	expect(await poller.poll()).toBeNull();
	await post('/v3/tasks/delete', { id: b });
	await advance(1);
	poller.restartFromStored();
	expect(fired(await poller.poll())).toEqual(['deleted:b']);
	poller.restartFromStored();
	await advance(1);
	expect(await poller.poll()).toBeNull();
});

it('a failed check delivers nothing and changes nothing; the next check delivers it', async () => {
	const id = await sandbox.createTask({ title: 'during outage' });
	const poller = await activated();
	await post('/v3/tasks/close', { id });
	await advance(1);
	const before = poller.savedStaticData;
	await sandbox.control('faults', { status: 500, count: 4, path: '/v3/tasks' });
	await expect(poller.poll()).rejects.toThrow(/The service failed/);
	expect(poller.savedStaticData).toEqual(before);
	expect(fired(await poller.poll())).toEqual(['completed:during outage']);
});

it('with Redeliver After a Restart, a check that delivered is delivered again after a restart, and confirmed by a later check otherwise', async () => {
	const id = await sandbox.createTask({ title: 'done' });
	const poller = await activated({ options: { budgetShare: 100, redeliverAfterRestart: true } });
	await post('/v3/tasks/close', { id });
	await advance(1);
	expect(fired(await poller.poll())).toEqual(['completed:done']);
	poller.restartFromStored(inNewProcess());
	expect(fired(await poller.poll())).toEqual(['completed:done']);
	await advance(1);
	expect(await poller.poll()).toBeNull();
	await advance(1);
	expect(await poller.poll()).toBeNull();
});

describe('Fetch Test Event', () => {
	it('offers the task completed most recently, read again; without one, a recent open task', async () => {
		const id = await sandbox.createTask({ title: 'finished' });
		await advance(1);
		await sandbox.createTask({ title: 'open' });
		const poller = await activated();
		const [[before]] = (await poller.poll('manual'))!;
		expect(before.json).toMatchObject({ title: 'open' });
		await post('/v3/tasks/close', { id });
		await advance(1);
		await poller.poll();
		const [[sample]] = (await poller.poll('manual'))!;
		expect(sample.json).toMatchObject({ id, title: 'finished', progress: 'completed', triggerEvent: 'completed' });
	});
});

it('points per check against the number of open tasks: 10 per 100 (a full last page needs one more call), plus 1 per task that left', async () => {
	const poller = trigger();
	let open = 0;
	const ids: string[] = [];
	for (const target of [0, 1, 99, 100, 101, 250, 1000]) {
		while (open < target) {
			ids.push(await sandbox.createTask({ title: `t${open++}` }));
			// One millisecond apart: no two share an `updated` value, the case with the fewest calls.
			await sandbox.control('clock', { advanceSeconds: 0.001 });
		}
		await advance(1);
		await poller.poll();
		await advance(1);
		await sandbox.clearRequests();
		expect(await poller.poll()).toBeNull();
		const points = (await sandbox.requests()).reduce((sum, call) => sum + call.points, 0);
		expect(points).toBe(10 * (Math.floor(open / 100) + 1));
	}
	for (const id of ids.slice(0, 10)) await post('/v3/tasks/close', { id });
	await advance(1);
	await sandbox.clearRequests();
	expect(fired(await poller.poll())).toHaveLength(10);
	const points = (await sandbox.requests()).reduce((sum, call) => sum + call.points, 0);
	expect(points).toBe(100 + 10);
}, 60_000);
