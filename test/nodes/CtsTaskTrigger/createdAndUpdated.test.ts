/**
 * The CTS Task Trigger as an activated workflow runs it: poll() on n8n's PollContext over a
 * real Workflow, static data carried from poll to poll, against the sandbox with a controlled
 * clock. The invariant throughout: every version of a task (id + updated) that is open at a
 * successful poll has been delivered exactly once, and nothing is ever delivered twice.
 */
import { Container } from '@n8n/di';
import { Logger } from '@n8n/backend-common';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { AlteringProxy } from '../../harness/alteringProxy';
import { PollHarness } from '../../harness/engine';
import { ALICE_KEY, SandboxClient } from '../../harness/sandboxClient';

const sandbox = new SandboxClient();

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => {
	await sandbox.reset();
	await sandbox.control('clock', { now: '2026-03-01T09:00:00.000Z' });
});

// These tests are about what is delivered; sharing the point budget has its own tests, so the
// trigger may use all of it here (the sandbox's clock stands still, its window never resets).
function trigger(parameters: IDataObject = {}) {
	return new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'], options: { budgetShare: 100 }, ...parameters }, {
		ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url },
	});
}

const delivered = (result: INodeExecutionData[][] | null) => (result?.[0] ?? []).map((item) => item.json);
const tick = async (seconds = 1) => await sandbox.control('clock', { advanceSeconds: seconds });

async function listCalls() {
	return (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/list');
}

it('first activation sets the cursor without firing for existing tasks', async () => {
	await sandbox.createTask({ title: 'old 1' });
	await sandbox.createTask({ title: 'old 2' });
	await tick();
	await sandbox.clearRequests();
	const poller = trigger();
	expect(await poller.poll()).toBeNull();
	expect(poller.savedStaticData).toHaveProperty(['node:Trigger', 'cursor']);
	const calls = await sandbox.requests();
	expect(calls.map((call) => call.path)).toEqual(['/v3/tasks/list']);
	expect(calls[0].points).toBe(10);
	await tick();
	expect(await poller.poll()).toBeNull();
});

it('first activation on the service\'s real clock: tasks changed minutes ago are not delivered, later ones are', async () => {
	await sandbox.control('clock', { now: null });
	const old = await sandbox.createTask({ title: 'changed just before activation' });
	const poller = trigger();
	expect(await poller.poll()).toBeNull();
	await new Promise((resolve) => setTimeout(resolve, 5));
	await sandbox.api('POST', '/v3/tasks/update', { body: { id: old, description: 'after activation' } });
	const fresh = await sandbox.createTask({ title: 'after activation' });
	const changes = delivered(await poller.poll());
	expect(changes.map((task) => [task.id, task.triggerEvent]).sort()).toEqual(
		[
			[old, 'updated'],
			[fresh, 'created'],
		].sort(),
	);
});

it('first activation behind a proxy that removes the Date header: starts from the local clock, says so, loses nothing', async () => {
	await sandbox.control('clock', { now: null });
	const proxy = new AlteringProxy(sandbox.url, (_method, _path, answer) => {
		const headers = { ...answer.headers };
		delete headers.date;
		return { ...answer, headers };
	});
	await proxy.start();
	const warn = jest.spyOn(Container.get(Logger), 'warn');
	try {
		const poller = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'] }, {
			ctsApi: { apiKey: ALICE_KEY, baseUrl: proxy.url },
		});
		expect(await poller.poll()).toBeNull();
		expect(warn).toHaveBeenCalledWith(expect.stringContaining("the service's answer had no Date header"));
		const fresh = await sandbox.createTask({ title: 'after activation' });
		expect(delivered(await poller.poll()).map((task) => [task.id, task.triggerEvent])).toEqual([[fresh, 'created']]);
	} finally {
		warn.mockRestore();
		await proxy.stop();
	}
});

it('delivers a created and an updated task once each, marked with the event; an idle poll is one list call', async () => {
	const existing = await sandbox.createTask({ title: 'existing' });
	await tick();
	const poller = trigger();
	await poller.poll();
	await tick();
	const fresh = await sandbox.createTask({ title: 'fresh' });
	await sandbox.api('POST', '/v3/tasks/update', { body: { id: existing, title: 'existing, changed' } });
	await tick();
	const first = delivered(await poller.poll());
	expect(first.map((task) => [task.id, task.triggerEvent]).sort()).toEqual(
		[
			[existing, 'updated'],
			[fresh, 'created'],
		].sort(),
	);
	expect(first.find((task) => task.id === existing)!.title).toBe('existing, changed');
	await sandbox.clearRequests();
	expect(await poller.poll()).toBeNull();
	const calls = await sandbox.requests();
	expect(calls).toHaveLength(1);
	expect(calls[0]).toMatchObject({ path: '/v3/tasks/list', points: 10 });
});

it('delivers every task of ties that straddle page boundaries exactly once', async () => {
	const poller = trigger();
	await poller.poll();
	await tick();
	const ids: string[] = [];
	for (let index = 0; index < 60; index++) ids.push(await sandbox.createTask({ title: `a${index}` }));
	await tick();
	for (let index = 0; index < 99; index++) ids.push(await sandbox.createTask({ title: `b${index}` }));
	await tick();
	await sandbox.clearRequests();
	const result = delivered(await poller.poll());
	expect(result.map((task) => task.id).sort()).toEqual([...ids].sort());
	expect(result.every((task) => task.triggerEvent === 'created')).toBe(true);
	// 60 + 40 of the tie, then the tie re-read with its 59 others: the second page is not full.
	expect(await listCalls()).toHaveLength(2);
	expect(await poller.poll()).toBeNull();
});

it('more than 100 tasks on one timestamp: delivers what it can, logs it, never loops', async () => {
	const warn = jest.spyOn(Container.get(Logger), 'warn');
	const poller = trigger();
	await poller.poll();
	await tick();
	for (let index = 0; index < 120; index++) await sandbox.createTask({ title: `t${index}` });
	await tick();
	for (let index = 0; index < 5; index++) await sandbox.createTask({ title: `later${index}` });
	await tick();
	const result = delivered(await poller.poll());
	expect(result).toHaveLength(105);
	expect(new Set(result.map((task) => task.id)).size).toBe(105);
	expect(warn).toHaveBeenCalledWith(expect.stringContaining('more than 100 tasks share the "updated" time'));
	expect(await poller.poll()).toBeNull();
	warn.mockRestore();
});

it('only the chosen events, and only tasks that pass the filters, start the workflow', async () => {
	const updatedOnly = trigger({ events: ['updated'], filters: { tags: 'urgent', priorities: [1, 2] } });
	const keep = await sandbox.createTask({ title: 'keep', tags: ['urgent'], priority: 1 });
	const otherTag = await sandbox.createTask({ title: 'other tag', tags: ['later'], priority: 1 });
	const lowPriority = await sandbox.createTask({ title: 'low', tags: ['urgent'], priority: 9 });
	await tick();
	await updatedOnly.poll();
	await tick();
	const created = await sandbox.createTask({ title: 'new', tags: ['urgent'], priority: 1 });
	for (const id of [keep, otherTag, lowPriority]) await sandbox.api('POST', '/v3/tasks/update', { body: { id, description: 'x' } });
	await tick();
	expect(delivered(await updatedOnly.poll()).map((task) => task.id)).toEqual([keep]);
	await sandbox.api('POST', '/v3/tasks/update', { body: { id: created, description: 'now updated' } });
	await tick();
	expect(delivered(await updatedOnly.poll()).map((task) => [task.id, task.triggerEvent])).toEqual([[created, 'updated']]);

	const inList = trigger({ filters: { taskListId: 'other-list' } });
	await inList.poll();
	await tick();
	await sandbox.createTask({ title: 'default list' });
	const listed = await sandbox.createTask({ title: 'other list', taskListId: 'other-list' });
	await tick();
	expect(delivered(await inList.poll()).map((task) => task.id)).toEqual([listed]);
});

it('a failed poll delivers nothing and does not move the cursor; the next poll delivers it', async () => {
	const poller = trigger();
	await poller.poll();
	await tick();
	const id = await sandbox.createTask({ title: 'during outage' });
	await tick();
	const before = poller.savedStaticData;
	await sandbox.control('faults', { status: 500, count: 4 });
	await expect(poller.poll()).rejects.toThrow(/The service failed/);
	expect(poller.savedStaticData).toEqual(before);
	expect(delivered(await poller.poll()).map((task) => task.id)).toEqual([id]);
});

it('waits out a short 429 within the poll', async () => {
	const poller = trigger();
	await poller.poll();
	await tick();
	const id = await sandbox.createTask({ title: 'limited' });
	await tick();
	await sandbox.control('faults', { status: 429, count: 1 });
	expect(delivered(await poller.poll()).map((task) => task.id)).toEqual([id]);
});

it('continues after a restart from the saved static data without repeating or missing', async () => {
	let poller = trigger();
	await poller.poll();
	await tick();
	const a = await sandbox.createTask({ title: 'a' });
	await tick();
	expect(delivered(await poller.poll()).map((task) => task.id)).toEqual([a]);
	const saved = poller.savedStaticData;
	poller = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'] }, { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } }, saved);
	const b = await sandbox.createTask({ title: 'b' });
	await tick();
	expect(delivered(await poller.poll()).map((task) => task.id)).toEqual([b]);
	poller.restart();
	expect(await poller.poll()).toBeNull();
});

describe('Fetch Test Event', () => {
	it('returns a real recent task even when nothing changed, and changes nothing', async () => {
		const poller = trigger();
		await sandbox.createTask({ title: 'older' });
		await tick(60);
		const recent = await sandbox.createTask({ title: 'recent' });
		const [[sample]] = (await poller.poll('manual'))!;
		expect(sample.json).toMatchObject({ id: recent, title: 'recent', triggerEvent: 'created' });
		expect(poller.savedStaticData['node:Trigger'] ?? {}).not.toHaveProperty('cursor');
		await poller.poll();
		await tick();
		const [[again]] = (await poller.poll('manual'))!;
		expect(again.json.id).toBe(recent);
	});
});

// Randomized runs (10,000+ changes with faults and restarts) are in test/reliability/triggerSoak.test.ts.
