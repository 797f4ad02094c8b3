/**
 * Sync Tasks under random sequences of changes at the source (add, edit, remove, bring back, mark
 * done, re-open) interleaved with changes in the service's app (edit, complete, delete) and with
 * second tasks of a key planted as an older version or a copied workflow leaves them, run by n8n's
 * real engine against the sandbox as a published workflow. Each run is 1 to 4 executions of the
 * workflow that overlap, started at random moments in one n8n process or two (queue-mode
 * workers), on a random point budget. After every run the tasks are checked against the documented
 * rules: 0 duplicates, 0 lost, 0 resurrected, 0 foreign tasks touched. The seed is in the test's
 * name; SYNC_SEED=<n>[,<n>…] runs others.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { engineInAnotherProcess } from '../../../harness/otherProcess';
import { ALICE_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engines = [new Engine({ ctsTask: new CtsTask() }), engineInAnotherProcess(({ CtsTask: Task }) => ({ ctsTask: new Task() }))];
sandboxWithFreshLists(sandbox);

type Json = Record<string, any>;

/** mulberry32: a small seeded generator, so a failing sequence can be run again. */
function generator(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return { next, pick: <T>(list: T[]): T => list[Math.floor(next() * list.length)], chance: (p: number) => next() < p };
}

interface Item {
	key: string;
	title: string;
	body: string;
	done: boolean;
}

/** What the rules say of one key, as the model follows them. */
interface Expect {
	item?: Item;
	/** The item as it was when it left the input, to bring it back. */
	lastItem?: Item;
	/** The user completed or deleted its task in the app, and the item has not changed since. */
	closedInApp: boolean;
	/** A title the user gave the task in the app, while the item has not changed since. */
	titleInApp?: string;
	/** Removed from the input: whether its task is still open (kept). */
	keptOpen?: boolean;
	/** Removed from the input: its task was completed or deleted by a run (Complete, Delete), so it comes back open. */
	closedBySync?: boolean;
}

async function allOpenTasks(): Promise<Json[]> {
	const tasks: Json[] = [];
	let after: string | undefined;
	for (;;) {
		const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100', ...(after ? { updatedAfter: after } : {}) } });
		const page = body.data.tasks as Json[];
		tasks.push(...page);
		if (page.length < 100) return tasks;
		after = page[page.length - 1].updated;
	}
}

const keyOf = (task: Json) => /^Synced from: random \| (\S+) \|/m.exec(String(task.description ?? ''))?.[1];

const SEEDS = process.env.SYNC_SEED ? process.env.SYNC_SEED.split(',').map(Number) : [20261128, 7, 4242, 44047];

describe.each(SEEDS)('Sync Tasks, random changes at the source and in the app (seed %i)', (seed) => {
	it('keeps every rule after every run', async () => {
		const random = generator(seed);
		const staticData = { stored: {} as IDataObject };
		const model = new Map<string, Expect>();
		let counter = 0;
		const newItem = (): Item => ({ key: `item-${++counter}`, title: `Task ${counter}`, body: `Body ${counter}`, done: random.chance(0.1) });
		// Tasks the sync must never touch: one made by hand, one of another source.
		const byHand = await sandbox.createTask({ title: 'Made by hand' });
		const foreign = await sandbox.createTask({ title: 'Another source', description: 'Synced from: other | item-1 | 0000000000000000 | 0000000000000000' });
		const untouched = [await sandbox.getTask(byHand), await sandbox.getTask(foreign)];
		for (let n = 0; n < 6; n++) {
			const item = newItem();
			model.set(item.key, { item, closedInApp: false });
		}

		const syncAll = async (mode: string, engine = engines[0]) => {
			const items = [...model.values()].flatMap((entry) => (entry.item ? [entry.item] : []));
			return await engine.runNode({
				type: 'ctsTask',
				parameters: { resource: 'task', operation: 'sync', source: 'random', sourceKey: '={{ $json.key }}', title: '={{ $json.title }}', syncFields: { description: '={{ $json.body }}', done: '={{ $json.done }}' }, missingTasks: mode },
				items: items.map((item) => ({ ...item })),
				credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
				staticData,
				mode: 'trigger',
			});
		};
		/** 1 to 4 executions of the run, overlapping: each in one of two processes, started up to 300 ms apart. */
		const overlapping = async (mode: string) => {
			const count = 1 + Math.floor(random.next() * 4);
			const starts = Array.from({ length: count }, (_unused, index) => ({ engine: engines[Math.floor(random.next() * 2)], delay: index === 0 ? 0 : Math.floor(random.next() * 300) }));
			return {
				count,
				results: await Promise.all(starts.map(async ({ engine, delay }) => {
					await new Promise((resolve) => setTimeout(resolve, delay));
					return await syncAll(mode, engine);
				})),
			};
		};
		for (let run = 0; run < 10; run++) {
			const mode = random.pick(['keep', 'keep', 'complete', 'delete'] as const);
			// A budget of 40 to 300 points per 1 to 3 s: the executions wait for it, and each other.
			const budget = { points: random.pick([40, 100, 300]), windowSeconds: 1 + Math.floor(random.next() * 3) };
			await sandbox.control('limits', budget);
			const { count, results } = await overlapping(mode);
			await sandbox.control('limits', { points: null });
			const context = `seed ${seed}, run ${run}, mode ${mode}, ${count} executions, ${budget.points} points per ${budget.windowSeconds} s`;
			for (const { error, items: output } of results) {
				expect([context, error?.message]).toEqual([context, undefined]);
				expect([context, output.filter((entry) => entry.json.error)]).toEqual([context, []]);
			}
			for (const entry of model.values()) {
				if (!entry.item && entry.keptOpen && mode !== 'keep') {
					entry.keptOpen = false;
					entry.closedBySync = true;
				}
			}

			// The rules, after the run.
			const open = await allOpenTasks();
			const byKey = new Map<string, Json[]>();
			for (const task of open) {
				const key = keyOf(task);
				if (key) byKey.set(key, [...(byKey.get(key) ?? []), task]);
			}
			for (const [key, entry] of model) {
				const tasks = byKey.get(key) ?? [];
				const wanted = entry.item ? !entry.item.done && !entry.closedInApp : entry.keptOpen === true;
				expect([context, key, tasks.length]).toEqual([context, key, wanted ? 1 : 0]);
				if (wanted && entry.item) expect([context, key, tasks[0].title]).toEqual([context, key, entry.titleInApp ?? entry.item.title]);
			}
			expect([context, [await sandbox.getTask(byHand), await sandbox.getTask(foreign)]]).toEqual([context, untouched]);

			// Changes in the app, to open tasks of items.
			for (const [key, entry] of model) {
				const task = (byKey.get(key) ?? [])[0];
				if (!task || !entry.item) continue;
				const roll = random.next();
				if (roll < 0.1) {
					await sandbox.api('POST', '/v3/tasks/close', { body: { id: task.id } });
					entry.closedInApp = true;
				} else if (roll < 0.15) {
					await sandbox.api('POST', '/v3/tasks/delete', { body: { id: task.id } });
					entry.closedInApp = true;
				} else if (roll < 0.25) {
					entry.titleInApp = `${String(task.title)} (app ${run})`;
					await sandbox.api('POST', '/v3/tasks/update', { body: { id: task.id, title: entry.titleInApp } });
				}
			}
			// Changes at the source.
			for (const [key, entry] of model) {
				if (!entry.item) continue;
				const roll = random.next();
				const changed = (change: Partial<Item>) => {
					entry.item = { ...entry.item!, ...change };
					entry.closedInApp = false;
					entry.titleInApp = undefined;
				};
				if (roll < 0.08) {
					model.set(key, { lastItem: entry.item, closedInApp: entry.closedInApp, titleInApp: entry.titleInApp, keptOpen: !entry.item.done && !entry.closedInApp });
				} else if (roll < 0.18) changed({ title: `${entry.item.title}, edited ${run}` });
				else if (roll < 0.25) changed({ body: `${entry.item.body}, edited ${run}` });
				else if (roll < 0.33) changed({ done: !entry.item.done });
			}
			// Keys that left come back: unchanged or changed.
			for (const [key, entry] of model) {
				if (entry.item || !entry.lastItem || !random.chance(0.3)) continue;
				const changed = random.chance(0.5);
				const item = changed ? { ...entry.lastItem, title: `${entry.lastItem.title}, back ${run}` } : entry.lastItem;
				// Completed or deleted by a run while away: reopened (or made anew) with the item's values. Closed in
				// the app: stays so while the item is unchanged. Kept open: found again, with the app's title.
				const closedInApp = !entry.closedBySync && entry.closedInApp && !changed;
				const titleInApp = !entry.closedBySync && !changed ? entry.titleInApp : undefined;
				model.set(key, { item, closedInApp, titleInApp });
			}
			if (random.chance(0.7)) {
				const item = newItem();
				model.set(item.key, { item, closedInApp: false });
			}
			// A second open task for a key, as an older version or a copied workflow left it: the next run removes it.
			if (random.chance(0.4)) {
				// A copy of a task that is still open (a copy of one the user closed would be a new task of theirs).
				const stillOpen = new Set((await allOpenTasks()).map((task) => task.id));
				const withTask = [...byKey.values()].filter((tasks) => tasks.length === 1 && stillOpen.has(tasks[0].id));
				if (withTask.length > 0) {
					const [task] = random.pick(withTask);
					await sandbox.createTask({ title: random.chance(0.5) ? task.title : `${String(task.title)} (copy)`, description: task.description });
				}
			}
		}
		// Nothing changed since the last run: two more runs write nothing at all.
		await syncAll('keep');
		await sandbox.clearRequests();
		await syncAll('keep');
		expect((await sandbox.requests()).filter((request) => request.method === 'POST')).toEqual([]);
	});
});
