/**
 * Task → Sync Tasks and Create or Update of the CTS Task node, run by n8n's real engine against
 * the sandbox over HTTP: tasks kept in step with a source's items by a key in their description,
 * one read of the open tasks per run, one write per change, the memory a published workflow keeps
 * of tasks completed or deleted in the app, Preview, and every error.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { asTool, Engine, type NodeRunOptions } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask(), ctsTaskTool: asTool(new CtsTask()) });

sandboxWithFreshLists(sandbox);

type Json = Record<string, any>;

const FIELDS = { description: '={{ $json.body }}', due: '={{ $json.due }}', priority: '={{ $json.priority }}', done: '={{ $json.state === "closed" }}' };

/** A published workflow's memory, kept across its runs (as n8n keeps a workflow's static data). */
function published() {
	return { staticData: { stored: {} as IDataObject }, mode: 'trigger' as const };
}

function sync(items: Json[], parameters: Json = {}, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsTask',
		parameters: {
			resource: 'task',
			operation: 'sync',
			source: 'github',
			sourceKey: '={{ $json.url }}',
			title: '={{ $json.title }}',
			syncFields: FIELDS,
			...parameters,
		},
		items,
		timezone: 'Europe/Berlin',
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

function upsert(items: Json[], parameters: Json = {}, options: Partial<NodeRunOptions> = {}) {
	return sync(items, { operation: 'upsert', ...parameters }, options);
}

const issue = (n: number, fields: Json = {}) => ({ url: `https://github.com/acme/app/issues/${n}`, title: `Issue ${n}`, body: `Body of issue ${n}`, due: '', priority: 'medium', state: 'open', ...fields });
const json = (items: Array<{ json: unknown }>) => items.map((item) => item.json as Json);
const actions = (items: Array<{ json: unknown }>) => json(items).map((item) => [item.key.replace('https://github.com/acme/app/issues/', '#'), item.action]);

async function openTasks(): Promise<Json[]> {
	const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
	return body.data.tasks as Json[];
}

async function writes() {
	return (await sandbox.requests()).filter((request) => request.method === 'POST');
}

describe('Sync Tasks', () => {
	it('creates a task per item with the key in its description; a second run with nothing changed writes nothing and reads once', async () => {
		const { items, error } = await sync([issue(1), issue(2, { due: '2026-12-03T17:00:00', priority: 'high' })]);
		expect(error).toBeUndefined();
		expect(actions(items)).toEqual([['#1', 'created'], ['#2', 'created']]);
		const tasks = await openTasks();
		const second = tasks.find((task) => task.title === 'Issue 2')!;
		expect(second).toMatchObject({ due: '2026-12-03T17:00:00', timeZone: 'Europe/Berlin', priority: 3 });
		expect(second.description).toMatch(/^Body of issue 2\n\nSynced from: github \| https:\/\/github.com\/acme\/app\/issues\/2 \| [0-9a-f]{16} \| [0-9a-f]{16}$/);
		expect(json(items)[1]).toMatchObject({ taskId: second.id, source: 'github', title: 'Issue 2', changes: { title: { from: '', to: 'Issue 2' }, priority: { from: 0, to: 3 } }, preview: false });

		await sandbox.clearRequests();
		const again = await sync([issue(1), issue(2, { due: '2026-12-03T17:00:00', priority: 'high' })]);
		expect(actions(again.items)).toEqual([['#1', 'unchanged'], ['#2', 'unchanged']]);
		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v3/tasks/list']);
	});

	it('an item edited at the source updates only the fields that changed, in one write', async () => {
		await sync([issue(1), issue(2)]);
		await sandbox.clearRequests();
		const { items } = await sync([issue(1, { title: 'Issue 1, renamed' }), issue(2)]);
		expect(actions(items)).toEqual([['#1', 'updated'], ['#2', 'unchanged']]);
		expect(json(items)[0].changes).toEqual({ title: { from: 'Issue 1', to: 'Issue 1, renamed' } });
		const posted = await writes();
		expect(posted).toHaveLength(1);
		expect(Object.keys(posted[0].body as Json).sort()).toEqual(['description', 'id', 'title']);
	});

	it('a task completed in the app is not created again while its item is unchanged; when the item changes, it is reopened', async () => {
		const run = published();
		const first = await sync([issue(1), issue(2)], {}, run);
		const taskId = json(first.items)[0].taskId;
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: taskId } });
		await sandbox.clearRequests();
		const second = await sync([issue(1), issue(2)], {}, run);
		expect(actions(second.items)).toEqual([['#1', 'unchanged'], ['#2', 'unchanged']]);
		// Nothing changed at the source: the run reads only what changed since the last one, and writes nothing.
		expect((await sandbox.requests()).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v3/tasks/list']);
		expect((await openTasks()).filter((task) => task.title === 'Issue 1')).toHaveLength(0);
		// A manual run reads every open task, so it can say why.
		const manual = await sync([issue(1), issue(2)], {}, { staticData: run.staticData, mode: 'manual' });
		expect(json(manual.items)[0].reason).toMatch(/completed or deleted in the service/);

		const third = await sync([issue(1, { body: 'New comment' }), issue(2)], {}, run);
		expect(actions(third.items)).toEqual([['#1', 'reopened'], ['#2', 'unchanged']]);
		expect(await sandbox.getTask(taskId)).toMatchObject({ progress: 'needs-action', description: expect.stringMatching(/^New comment\n\nSynced from/) });
		expect((await openTasks()).filter((task) => task.title === 'Issue 1')).toHaveLength(1);
	});

	it('a task deleted in the app stays deleted while its item is unchanged and is created anew when it changes', async () => {
		const run = published();
		const first = await sync([issue(1)], {}, run);
		await sandbox.api('POST', '/v3/tasks/delete', { body: { id: json(first.items)[0].taskId } });
		expect(actions((await sync([issue(1)], {}, run)).items)).toEqual([['#1', 'unchanged']]);
		const changed = await sync([issue(1, { priority: 'low' })], {}, run);
		expect(actions(changed.items)).toEqual([['#1', 'created']]);
		expect(json(changed.items)[0].notices).toEqual([expect.stringMatching(/deleted in the service; the source item changed since, so it is created again/)]);
	});

	it('a manual run reads what the published workflow remembers but stores nothing', async () => {
		const run = published();
		const first = await sync([issue(1)], {}, run);
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: json(first.items)[0].taskId } });
		// Manual: the memory of the published runs is read, so the completed task stays completed.
		expect(actions((await sync([issue(1)], {}, { staticData: run.staticData, mode: 'manual' })).items)).toEqual([['#1', 'unchanged']]);
		// A task a manual run created is not remembered: completed in the app, the next run creates it again.
		const manual = await sync([issue(5)], {}, { staticData: run.staticData, mode: 'manual' });
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: json(manual.items)[0].taskId } });
		expect(actions((await sync([issue(5)], {}, { staticData: run.staticData, mode: 'manual' })).items)).toEqual([['#5', 'created']]);
	});

	it('a done item completes its task in one write and a re-opened item reopens it', async () => {
		const run = published();
		await sync([issue(1), issue(2)], {}, run);
		await sandbox.clearRequests();
		const closed = await sync([issue(1, { state: 'closed' }), issue(2)], {}, run);
		expect(actions(closed.items)).toEqual([['#1', 'completed'], ['#2', 'unchanged']]);
		const posted = await writes();
		expect(posted.map((request) => [request.path, (request.body as Json).progress])).toEqual([['/v3/tasks/update', 'completed']]);
		expect(actions((await sync([issue(1, { state: 'closed' }), issue(2)], {}, run)).items)).toEqual([['#1', 'unchanged'], ['#2', 'unchanged']]);
		const reopened = await sync([issue(1), issue(2)], {}, run);
		expect(actions(reopened.items)).toEqual([['#1', 'reopened'], ['#2', 'unchanged']]);
		// A new item that is already done makes no task.
		const done = await sync([issue(1), issue(2), issue(3, { state: 'closed' })], {}, run);
		expect(actions(done.items)).toEqual([['#1', 'unchanged'], ['#2', 'unchanged'], ['#3', 'unchanged']]);
		expect(json(done.items)[2].reason).toMatch(/done and has no open task/);
	});

	it('two sources never touch each other\'s tasks or tasks made by hand, whatever happens to tasks no longer in the input', async () => {
		const byHand = await sandbox.createTask({ title: 'Issue 1' });
		await sync([issue(1), issue(2)]);
		await sync([issue(1), issue(2)], { source: 'jira' });
		expect((await openTasks()).filter((task) => task.title === 'Issue 1')).toHaveLength(3);
		const { items } = await sync([issue(2)], { missingTasks: 'delete' });
		expect(actions(items)).toEqual([['#2', 'unchanged'], ['#1', 'deleted']]);
		const left = await openTasks();
		expect(left.filter((task) => task.title === 'Issue 1').map((task) => task.id)).toContain(byHand);
		expect(left.filter((task) => String(task.description).includes('Synced from: jira'))).toHaveLength(2);
		const completed = await sync([], { source: 'jira', missingTasks: 'complete' }, {});
		expect(completed.error).toBeUndefined();
	});

	it('Tasks No Longer in the Input: Complete completes only this source\'s open tasks; Keep leaves them', async () => {
		await sync([issue(1), issue(2)]);
		const kept = await sync([issue(2)]);
		expect(json(kept.items).map((item) => [item.action, item.reason ?? null])).toEqual([['unchanged', null]]);
		expect((await openTasks()).map((task) => task.title)).toContain('Issue 1');
		const completed = await sync([issue(2)], { missingTasks: 'complete' });
		expect(actions(completed.items)).toEqual([['#2', 'unchanged'], ['#1', 'completed']]);
		expect((await openTasks()).map((task) => task.title)).not.toContain('Issue 1');
	});

	it('a key given twice makes one task: the later item wins, with a notice', async () => {
		const { items } = await sync([issue(1, { title: 'First' }), issue(2), issue(1, { title: 'Second' })]);
		expect(json(items).map((item) => [item.title, item.action])).toEqual([['Issue 2', 'created'], ['Second', 'created']]);
		expect(json(items)[1].notices).toEqual(['The Source Key is given 2 times (items 0, 2): the last one is synced']);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect((await openTasks()).filter((task) => String(task.description).includes('issues/1 |'))).toHaveLength(1);
	});

	it('Preview outputs the plan with the fields that would change and writes nothing', async () => {
		await sync([issue(1), issue(2)]);
		await sandbox.clearRequests();
		const { items } = await sync([issue(1, { state: 'closed' }), issue(3)], { preview: true, missingTasks: 'delete' });
		expect(actions(items)).toEqual([['#1', 'complete'], ['#3', 'create'], ['#2', 'delete']]);
		expect(json(items)[0]).toMatchObject({ changes: { done: { from: false, to: true } }, preview: true });
		expect(await writes()).toEqual([]);
	});

	it('a change made in the app is kept while the source item is unchanged, and replaced with a notice when the item changes too', async () => {
		const first = await sync([issue(1)]);
		const taskId = json(first.items)[0].taskId;
		await sandbox.api('POST', '/v3/tasks/update', { body: { id: taskId, title: 'Renamed in the app' } });
		const kept = await sync([issue(1)]);
		expect(json(kept.items)[0]).toMatchObject({ action: 'unchanged', reason: expect.stringMatching(/Changed in the service since the last sync \(Title\) and not at the source/) });
		expect((await sandbox.getTask(taskId))!.title).toBe('Renamed in the app');
		const replaced = await sync([issue(1, { title: 'Renamed at the source' })]);
		expect(json(replaced.items)[0]).toMatchObject({ action: 'updated', notices: [expect.stringMatching(/^A manual run reads every open task/), expect.stringMatching(/Also changed in the service since the last sync/)] });
		expect((await sandbox.getTask(taskId))!.title).toBe('Renamed at the source');
	});

	it('a description edited in the app around the key line keeps the key; tags by name, made when missing', async () => {
		const first = await sync([issue(1, { labels: ['bug', 'ui'] })], { syncFields: { tags: '={{ $json.labels }}' } });
		expect(first.error).toBeUndefined();
		const taskId = json(first.items)[0].taskId;
		expect(json(first.items)[0].newTags).toEqual(['bug', 'ui']);
		const task = (await sandbox.getTask(taskId))!;
		expect(task.tags).toHaveLength(2);
		await sandbox.api('POST', '/v3/tasks/update', { body: { id: taskId, description: `My notes\n${String(task.description)}` } });
		const again = await sync([issue(1, { labels: ['ui', 'bug'] })], { syncFields: { tags: '={{ $json.labels }}' } });
		expect(actions(again.items)).toEqual([['#1', 'unchanged']]);
		expect((await openTasks()).filter((open) => open.title === 'Issue 1')).toHaveLength(1);
	});

	it('a value the service would refuse fails its item naming the field, before any write; with Continue On Fail the others go on', async () => {
		const bad = [issue(1), issue(2, { due: 'next tuesdayish' }), issue(3, { priority: 'very' })];
		const stopped = await sync(bad);
		expect(stopped.error?.message).toBe('Due: "next tuesdayish" is not a date and time');
		expect(await writes()).toEqual([]);
		const { items } = await sync(bad, {}, { continueOnFail: true });
		expect(json(items)).toEqual([
			expect.objectContaining({ action: 'created' }),
			{ error: 'Due: "next tuesdayish" is not a date and time' },
			{ error: 'Priority: "very" is not a priority: use 0 to 9, or None, Highest, High, Medium, Low or Lowest' },
		]);
		const empty = await sync([issue(1, { url: '' })]);
		expect(empty.error?.message).toMatch(/^Source Key: must not be empty/);
		const noSource = await sync([issue(1)], { source: ' ' });
		expect(noSource.error?.message).toMatch(/^Source: must not be empty/);
	});

	it('a run stopped half-way through 500 items is finished by the next one, each item once', async () => {
		await sandbox.control('limits', { points: null });
		const many = Array.from({ length: 500 }, (_, n) => issue(n + 1));
		const started = engine.startNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'sync', source: 'github', sourceKey: '={{ $json.url }}', title: '={{ $json.title }}' },
			items: many,
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		for (let wait = 0; wait < 600; wait++) {
			if ((await writes()).length >= 250) break;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		started.cancel();
		await started.result;
		const before = (await writes()).length;
		expect(before).toBeGreaterThanOrEqual(250);
		expect(before).toBeLessThan(500);
		const { items, error } = await sync(many, { syncFields: {} });
		expect(error).toBeUndefined();
		const counts = json(items).reduce<Record<string, number>>((all, item) => ({ ...all, [item.action]: (all[item.action] ?? 0) + 1 }), {});
		expect(counts.created + counts.unchanged).toBe(500);
		expect(counts.unchanged).toBeGreaterThanOrEqual(before);
		const all: Json[] = [];
		let after: string | undefined;
		for (;;) {
			const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100', ...(after ? { updatedAfter: after } : {}) } });
			const page = body.data.tasks as Json[];
			all.push(...page);
			if (page.length < 100) break;
			after = page[page.length - 1].updated;
		}
		const keys = all.map((task) => /issues\/(\d+) \|/.exec(String(task.description))?.[1]).filter(Boolean);
		expect(new Set(keys).size).toBe(500);
		expect(keys).toHaveLength(500);
	});
});

describe('Create or Update', () => {
	it('creates, then updates only what differs, then writes nothing; one full read per manual run, one check after each create', async () => {
		const { items } = await upsert([issue(1), issue(2), issue(1, { title: 'Issue 1, renamed' })]);
		expect(actions(items)).toEqual([['#1', 'created'], ['#2', 'created'], ['#1', 'updated']]);
		const requests = await sandbox.requests();
		// #1: the full read, the create and the check after it; #2: the create and its check; #1 again: the task by ID, the update.
		expect(requests.map((request) => `${request.method} ${request.path}${request.query?.updatedAfter ? ' since' : ''}`)).toEqual([
			'GET /v3/tasks/list',
			'POST /v3/tasks/create',
			'GET /v3/tasks/list',
			'POST /v3/tasks/create',
			'GET /v3/tasks/list since',
			'GET /v3/tasks',
			'POST /v3/tasks/update',
		]);
		expect(json(items)[2].changes).toEqual({ title: { from: 'Issue 1', to: 'Issue 1, renamed' } });
		await sandbox.clearRequests();
		const again = await upsert([issue(1, { title: 'Issue 1, renamed' })]);
		expect(actions(again.items)).toEqual([['#1', 'unchanged']]);
		expect(await writes()).toEqual([]);
		expect((await openTasks()).filter((task) => String(task.description).includes('Synced from: github'))).toHaveLength(2);
	});

	it('finds every key again, also ones that look like HTML or hold the marker\'s separators: an e-mail\'s <Message-ID>, a | b, 100%, two lines', async () => {
		const keys = ['<CAF1x9@mail.example.com>', 'a <b>bold</b> key', 'a | b', '100% done', 'line 1\nline 2', '<br>'];
		const items = keys.map((key, index) => issue(index + 1, { url: key }));
		expect(json((await upsert(items)).items).map((item) => item.action)).toEqual(keys.map(() => 'created'));
		await sandbox.clearRequests();
		const again = json((await upsert(items)).items);
		expect(again.map((item) => [item.key, item.action])).toEqual(keys.map((key) => [key, 'unchanged']));
		expect(await writes()).toEqual([]);
	});

	it('finds the tasks Sync Tasks made for the same source and key', async () => {
		await sync([issue(1)]);
		const { items } = await upsert([issue(1, { priority: 'highest' })]);
		expect(json(items)[0]).toMatchObject({ action: 'updated', changes: { priority: { from: 5, to: 1 } } });
	});
});

describe('as an AI tool', () => {
	const tool = (operation: string, parameters: Json) =>
		engine.runNode({
			type: 'ctsTaskTool',
			parameters: { resource: 'task', operation, source: 'ai-agent', ...parameters },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});

	it('Create or Update adds the task unless it is already there: an agent that calls twice makes one task', async () => {
		const call = { sourceKey: 'mail:4711', title: 'Answer Bob about the offsite', syncFields: { due: '2026-12-04T12:00:00+01:00' } };
		expect(json((await tool('upsert', call)).items)[0]).toMatchObject({ action: 'created', source: 'ai-agent', key: 'mail:4711' });
		expect(json((await tool('upsert', call)).items)[0]).toMatchObject({ action: 'unchanged' });
		expect((await openTasks()).filter((task) => task.title === 'Answer Bob about the offsite')).toHaveLength(1);
	});

	it('Sync Tasks as a tool previews by default and keeps tasks not in its call', async () => {
		await sync([issue(1), issue(2)], { source: 'ai-agent' });
		await sandbox.clearRequests();
		const previewed = await tool('sync', { sourceKey: issue(3).url, title: 'Issue 3', preview: true });
		expect(json(previewed.items)).toEqual([expect.objectContaining({ action: 'create', key: issue(3).url, preview: true })]);
		expect(await writes()).toEqual([]);
		const written = await tool('sync', { sourceKey: issue(3).url, title: 'Issue 3', preview: false, missingTasks: 'delete' });
		expect(json(written.items).map((item) => item.action)).toEqual(['created']);
		expect((await openTasks()).filter((task) => String(task.description).includes('Synced from: ai-agent'))).toHaveLength(3);
	});
});
