/**
 * Sync Tasks under random sequences of changes at the source (add, edit, remove, mark done,
 * re-open) interleaved with changes in the service's app (edit, complete, delete), run by n8n's
 * real engine against the sandbox as a published workflow. After every run the tasks are checked
 * against the documented rules: 0 duplicates, 0 lost, 0 resurrected, 0 foreign tasks touched.
 * The seed is in the test's name; SYNC_SEED=<n> runs another.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });
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
	/** The user completed or deleted its task in the app, and the item has not changed since. */
	closedInApp: boolean;
	/** A title the user gave the task in the app, while the item has not changed since. */
	titleInApp?: string;
	/** Removed from the input: whether its task is still open (kept). */
	keptOpen?: boolean;
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

const SEEDS = process.env.SYNC_SEED ? [Number(process.env.SYNC_SEED)] : [20261128, 7, 4242];

describe.each(SEEDS)('Sync Tasks, random changes at the source and in the app (seed %i)', (seed) => {
	it('keeps every rule after every run', async () => {
		// The rules, not the budget, are under test here (the budget's pacing has tests of its own).
		await sandbox.control('limits', { points: null });
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

		const syncAll = async (mode: string) => {
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
		for (let run = 0; run < 10; run++) {
			const mode = random.pick(['keep', 'keep', 'complete', 'delete'] as const);
			const { error, items: output } = await syncAll(mode);
			const context = `seed ${seed}, run ${run}, mode ${mode}`;
			expect([context, error?.message]).toEqual([context, undefined]);
			expect(output.filter((entry) => entry.json.error)).toEqual([]);
			for (const entry of model.values()) if (!entry.item && entry.keptOpen && mode !== 'keep') entry.keptOpen = false;

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
					model.set(key, { closedInApp: false, keptOpen: !entry.item.done && !entry.closedInApp });
				} else if (roll < 0.18) changed({ title: `${entry.item.title}, edited ${run}` });
				else if (roll < 0.25) changed({ body: `${entry.item.body}, edited ${run}` });
				else if (roll < 0.33) changed({ done: !entry.item.done });
			}
			if (random.chance(0.7)) {
				const item = newItem();
				model.set(item.key, { item, closedInApp: false });
			}
		}
		// Nothing changed since the last run: two more runs write nothing at all.
		await syncAll('keep');
		await sandbox.clearRequests();
		await syncAll('keep');
		expect((await sandbox.requests()).filter((request) => request.method === 'POST')).toEqual([]);
	});
});
