/**
 * Two-way sync through the real Task Trigger: Sync Tasks writes the rows of a table into tasks,
 * the trigger feeds changes made in the app back to the rows, over several polls. The trigger
 * delivers every change made in the app and none of the sync's own writes (0 echoes); without
 * the filter, the sync's writes come out marked `changedBySync: true`.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { Engine, PollHarness } from '../../../harness/engine';
import { triggerSandbox } from '../../../harness/triggerSandbox';

const { sandbox, credentials, advance } = triggerSandbox();
const engine = new Engine({ ctsTask: new CtsTask() });

interface Row {
	id: string;
	title: string;
	done: boolean;
}

type Json = Record<string, any>;

function syncRows(rows: Row[], staticData: { stored: IDataObject }) {
	return engine.runNode({
		type: 'ctsTask',
		parameters: { resource: 'task', operation: 'sync', source: 'table', sourceKey: '={{ $json.id }}', title: '={{ $json.title }}', syncFields: { done: '={{ $json.done }}' } },
		items: rows.map((row) => ({ ...row })),
		credentials: credentials(),
		staticData,
		mode: 'trigger',
	});
}

function trigger(filters: IDataObject) {
	return new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated', 'completed'], filters, output: 'simplified' }, credentials());
}

describe('Sync Tasks with the Task Trigger on the same tasks', () => {
	it('delivers the changes made in the app and none of the sync\'s own writes, over several polls', async () => {
		const rows: Row[] = [1, 2, 3, 4].map((n) => ({ id: `row-${n}`, title: `Row ${n}`, done: false }));
		const memory = { stored: {} as IDataObject };
		const watcher = trigger({ ignoreSyncChanges: true });
		const marked = trigger({});
		await watcher.poll();
		await marked.poll();
		const delivered: string[] = [];
		const expected: string[] = [];
		const ownWrites: string[] = [];
		const taskOf = new Map<string, string>();

		for (let round = 0; round < 4; round++) {
			// Tasks the trigger has seen open: the user acts on those (a task created and changed between two polls comes out once, as created).
			const seen = new Set(taskOf.keys());
			await advance(60);
			const { items, error } = await syncRows(rows, memory);
			expect(error).toBeUndefined();
			for (const item of items.map((entry) => entry.json as Json)) {
				if (item.taskId) taskOf.set(item.key, item.taskId);
				if (item.action !== 'unchanged') ownWrites.push(`${item.action}:${item.key}`);
			}
			await advance(60);
			// The user works in the app: completes one task, renames another.
			const complete = rows.find((row) => !row.done && seen.has(row.id) && Number(row.id.slice(4)) % 4 === round % 4);
			if (complete) {
				await sandbox.api('POST', '/v3/tasks/close', { body: { id: taskOf.get(complete.id) } });
				expected.push(`completed:${complete.id}`);
			}
			const rename = rows.find((row) => !row.done && row !== complete && seen.has(row.id));
			if (rename) {
				await sandbox.api('POST', '/v3/tasks/update', { body: { id: taskOf.get(rename.id), title: `${rename.title} (edited in the app)` } });
				expected.push(`updated:${rename.id}`);
			}
			await advance(60);
			const fired = ((await watcher.poll())?.[0] ?? []).map((item) => item.json as Json);
			for (const task of fired) {
				delivered.push(`${task.triggerEvent}:${task.syncKey}`);
				expect(task.changedBySync).toBe(false);
				// Fed back to the table, as the two-way workflow does.
				const row = rows.find((candidate) => candidate.id === task.syncKey)!;
				if (task.triggerEvent === 'completed') row.done = true;
				else row.title = String(task.title);
			}
			const all = ((await marked.poll())?.[0] ?? []).map((item) => item.json as Json);
			expect(all.filter((task) => task.changedBySync === false).length).toBe(fired.length);
			// The source changes too: a new row, and a row re-opened.
			rows.push({ id: `row-${5 + round}`, title: `Row ${5 + round}`, done: false });
		}
		await advance(60);
		await syncRows(rows, memory);
		await advance(60);
		expect(await watcher.poll()).toBeNull();
		expect(delivered.sort()).toEqual(expected.sort());
		expect(ownWrites.length).toBeGreaterThan(4);
		// Every task once, and each row's task as the row says.
		const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
		const open = (body.data.tasks as Json[]).filter((task) => String(task.description).includes('Synced from: table'));
		expect(open.map((task) => task.title).sort()).toEqual(rows.filter((row) => !row.done).map((row) => row.title).sort());
	});

	it('without the filter, the sync\'s own writes come out marked changedBySync: true', async () => {
		const memory = { stored: {} as IDataObject };
		const marked = trigger({});
		await marked.poll();
		await advance(60);
		await syncRows([{ id: 'row-1', title: 'Row 1', done: false }], memory);
		await advance(60);
		const fired = ((await marked.poll())?.[0] ?? []).map((item) => item.json as Json);
		expect(fired.map((task) => [task.triggerEvent, task.syncSource, task.syncKey, task.changedBySync])).toEqual([['created', 'table', 'row-1', true]]);
		await advance(60);
		await syncRows([{ id: 'row-1', title: 'Row 1', done: true }], memory);
		await advance(60);
		const completed = ((await marked.poll())?.[0] ?? []).map((item) => item.json as Json);
		expect(completed.map((task) => [task.triggerEvent, task.changedBySync])).toEqual([['completed', true]]);
	});
});
