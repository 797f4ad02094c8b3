/**
 * Section 11: keeping the items of another tool in step with tasks, run after run, under the point
 * budget. Four runs of the same source, each after the last: the first (every item new), again with
 * nothing changed, with 20 items changed, and with 20 items changed and 20 tasks edited in the app.
 * Three jobs do the same side by side, each against a sandbox of its own (its own budget and request
 * log): Task → Sync Tasks in a published workflow (its memory kept between runs, as n8n keeps static
 * data), the same node started from the editor (every run reads every open task, as a sync without a
 * memory must), and the job built from n8n's own nodes: CTS Task Get Many (Return All) and n8n's
 * Compare Datasets node, "In A only" to CTS Task Create, "Different" to CTS Task Update. 1,000 items at
 * 100 and at 300 points per window (`BENCH_WINDOW_SECONDS`, over a minute: points do not depend on its
 * length), and 10,000 items on an unlimited budget (points, and the windows they would take).
 */
import { WorkflowExecute } from 'n8n-core';
import { NodeConnectionTypes, Workflow, type IDataObject, type INode, type IRun } from 'n8n-workflow';

import { additionalDataFor, PACKAGE_NAME, type CredentialStore, type Engine } from '../harness/engine';
import { ALICE_KEY, type LoggedRequest } from '../harness/sandboxClient';
import { COMPARE_DATASETS_TYPE, COMPARE_DATASETS_VERSION } from './httpRequestNode';
import type { Row } from './report';
import { apiCredential, forgetDistBudgets } from './setup';
import type { SandboxProcess } from './sandboxProcess';

/** Items of the source at the paced budgets (`BENCH_SYNC_ITEMS`, default 1,000; a multiple of 20), and at the large size. */
const ITEMS = Number(process.env.BENCH_SYNC_ITEMS ?? 1000);
const LARGE_ITEMS = Number(process.env.BENCH_SYNC_LARGE_ITEMS ?? 10_000);
const CHANGED = 20;
/** Tasks of unchanged items edited in the service's app before the last run. */
const EDITED_IN_APP = 20;
/** Changes a 15-minute schedule must keep up with on a 100-point account. */
const KEEP_UP_CHANGES = 40;
const PAGE = 100;
const LIST_POINTS = 10;
const SOURCE = 'sheet';

interface SourceItem extends IDataObject {
	id: string;
	title: string;
	description: string;
	priority: number;
}

/** The source's rows: an ID, a title, notes and a priority, as a spreadsheet or a notes app would give them; `changed` of them, spread out, with new notes. */
function sourceItems(count: number, changed: number): SourceItem[] {
	const step = Math.floor(count / Math.max(changed, 1));
	return Array.from({ length: count }, (_, index) => ({
		id: `row-${index}`,
		title: `Item ${index}`,
		description: `Notes of item ${index}${changed > 0 && index % step === 0 && index / step < changed ? ', edited' : ''}`,
		priority: (index % 9) + 1,
	}));
}

/** What one run cost, read from its sandbox's request log. */
interface RunCost {
	calls: number;
	points: number;
	listCalls: number;
	writes: number;
	refused: number;
	/** From the run's first call to its last write, on the sandbox's clock (seconds). */
	seconds: number;
	/** What the run's nodes output, by action (Sync Tasks) or by node (the built job). */
	outcome: string;
}

function costOf(log: LoggedRequest[], outcome: string): RunCost {
	const charged = log.filter((call) => call.status !== 429);
	const writes = log.filter((call) => call.method === 'POST' && call.status >= 200 && call.status < 300);
	const first = log[0] ? Date.parse(log[0].time) : 0;
	const last = writes.length > 0 ? Date.parse(writes[writes.length - 1].time) : first;
	return {
		calls: log.length,
		points: charged.reduce((sum, call) => sum + call.points, 0),
		listCalls: log.filter((call) => call.path.endsWith('/list')).length,
		writes: writes.length,
		refused: log.length - charged.length,
		seconds: (last - first) / 1000,
		outcome,
	};
}

/** One job: its first run (all items new) and its second (some changed), against one sandbox. */
interface Job {
	label: string;
	sandbox: SandboxProcess;
	run: (items: SourceItem[]) => Promise<string>;
}

function countsOf(values: unknown[]): string {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
	return [...counts.entries()].map(([value, times]) => `${times.toLocaleString('en')} ${value}`).join(', ');
}

/**
 * Task → Sync Tasks: in a published workflow (its memory kept between runs, as n8n keeps static
 * data), or started from the editor, where every run reads every open task (the editor's short wait
 * for the budget lifted with Maximum Wait, as a user running a large sync by hand does).
 */
function syncJob(engine: Engine, sandbox: SandboxProcess, mode: 'trigger' | 'manual'): Job {
	const staticData = { stored: {} as IDataObject };
	return {
		label: mode === 'trigger' ? 'Sync Tasks' : 'Sync Tasks, every open task read each run (run from the editor)',
		sandbox,
		run: async (items) => {
			const result = await engine.runNode({
				type: 'ctsTask',
				parameters: {
					resource: 'task',
					operation: 'sync',
					source: SOURCE,
					sourceKey: '={{ $json.id }}',
					title: '={{ $json.title }}',
					syncFields: { description: '={{ $json.description }}', priority: '={{ $json.priority }}' },
					options: mode === 'manual' ? { maxWaitSeconds: 7200 } : {},
				},
				items,
				credentials: apiCredential(sandbox),
				staticData,
				mode,
			});
			// The description names what went wrong (a network error's code, the service's reason).
			if (result.error) throw new Error(`Sync Tasks failed: ${result.error.message} (${(result.error as { description?: string }).description ?? 'no description'})`);
			return countsOf(result.items.map((item) => item.json.action));
		},
	};
}

/**
 * The fields of Get Many's (simplified) tasks that the source's rows do not have: what a user
 * types into Compare Datasets' Fields to Skip Comparing after looking at Get Many's output, so
 * that a task and its row compare the same when title, description and priority are the same.
 */
const TASK_ONLY_FIELDS = 'id, syncSource, syncKey, due, timeZone, estimatedDuration, progress, tags, taskListId, parentTaskId, position, scheduled, deleted, accountId, created, updated, notices';

/**
 * Get Many → Compare Datasets (rows as Input A, tasks as Input B, matched by title) → "In A only"
 * to Create, "Different" to Update, in one workflow run by n8n's engine. The rows are matched by
 * title (the one field both sides have: the tasks carry no row ID), and Different items take the
 * row's fields and the task's ID (When There Are Differences: a mix, the row's version except `id`).
 */
function builtJob(engine: Engine, sandbox: SandboxProcess, skipFields: string): Job {
	const credentialId = `bench-${sandbox.url}`;
	const store: CredentialStore = new Map([[credentialId, { type: 'ctsApi', data: { apiKey: ALICE_KEY, baseUrl: sandbox.url } }]]);
	const credentials = { ctsApi: { id: credentialId, name: 'CTS account' } };
	const cts = `${PACKAGE_NAME}.ctsTask`;
	const node = (name: string, type: string, position: [number, number], parameters: IDataObject, extra: Partial<INode> = {}): INode => ({
		id: name,
		name,
		type,
		typeVersion: 1,
		position,
		parameters: parameters as INode['parameters'],
		...extra,
	});
	return {
		label: `Get Many + Compare Datasets ${COMPARE_DATASETS_VERSION}${skipFields ? '' : ' (without Fields to Skip Comparing)'} + Create / Update`,
		sandbox,
		run: async (items) => {
			const nodes: INode[] = [
				node('Start', 'test.input', [0, 0], { items: '[{}]' }),
				node('Source Rows', 'test.input', [200, -100], { items: JSON.stringify(items) }),
				node('Get Many', cts, [200, 100], { resource: 'task', operation: 'getAll', returnAll: true, filters: {} }, { credentials }),
				node(
					'Compare Datasets',
					COMPARE_DATASETS_TYPE,
					[400, 0],
					{
						mergeByFields: { values: [{ field1: 'title', field2: 'title' }] },
						resolve: 'mix',
						preferWhenMix: 'input1',
						exceptWhenMix: 'id',
						options: skipFields ? { skipFields } : {},
					},
					{ typeVersion: COMPARE_DATASETS_VERSION },
				),
				node(
					'Create',
					cts,
					[600, -100],
					{
						resource: 'task',
						operation: 'create',
						title: '={{ $json.title }}',
						additionalFields: { description: '={{ $json.description }}', priority: '={{ $json.priority }}' },
						returnTask: false,
					},
					{ credentials },
				),
				node(
					'Update',
					cts,
					[600, 100],
					{
						resource: 'task',
						operation: 'update',
						taskId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
						updateFields: { description: '={{ $json.description }}', priority: '={{ $json.priority }}' },
						returnTask: false,
					},
					{ credentials },
				),
			];
			const main = NodeConnectionTypes.Main;
			const to = (name: string, index = 0) => ({ node: name, type: main, index });
			const connections = {
				Start: { main: [[to('Source Rows'), to('Get Many')]] },
				'Source Rows': { main: [[to('Compare Datasets', 0)]] },
				'Get Many': { main: [[to('Compare Datasets', 1)]] },
				'Compare Datasets': { main: [[to('Create')], [], [to('Update')], []] },
			};
			const workflowData = { id: 'bench-built-sync', name: 'Built sync', nodes, connections };
			const workflow = new Workflow({ ...workflowData, active: true, nodeTypes: engine.nodeTypes, settings: { executionOrder: 'v1', timezone: 'America/New_York' } });
			const run: IRun = await new WorkflowExecute(additionalDataFor(store, 'trigger', workflowData), 'trigger').run({ workflow, startNode: nodes[0] });
			const { runData, error } = run.data.resultData;
			const failed = error ?? Object.values(runData).find((tasks) => tasks[0]?.error)?.[0]?.error;
			if (failed) throw new Error(`the built job failed: ${failed.message} (${(failed as { description?: string }).description ?? 'no description'})`);
			const output = (name: string, index = 0) => runData[name]?.[0]?.data?.main?.[index]?.length ?? 0;
			return `Compare Datasets: ${output('Compare Datasets', 0)} in A only, ${output('Compare Datasets', 1)} same, ${output('Compare Datasets', 2)} different, ${output('Compare Datasets', 3)} in B only; ${output('Create')} created, ${output('Update')} updated`;
		},
	};
}

/** Runs the jobs side by side, each against its own sandbox; what each run cost. */
async function runSideBySide(jobs: Job[], items: SourceItem[]): Promise<RunCost[]> {
	for (const job of jobs) await job.sandbox.clearRequests();
	const outcomes = await Promise.all(jobs.map(async (job) => await job.run(items)));
	return await Promise.all(jobs.map(async (job, index) => costOf(await job.sandbox.requests(), outcomes[index])));
}

/** Fresh budgets of `points` per window on every sandbox, forgotten by the nodes (as n8n restarted, or the next window). */
async function freshBudgets(sandboxes: SandboxProcess[], points: number | null, windowSeconds: number): Promise<void> {
	for (const sandbox of sandboxes) await sandbox.control('limits', points === null ? { points: null } : { points, windowSeconds });
}

/** Renames the tasks of `count` unchanged items in the service's app (an edit the sync keeps). */
async function editInApp(sandbox: SandboxProcess, count: number): Promise<void> {
	const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: String(PAGE) } });
	const tasks = (body.data.tasks as Array<{ id: string; title: string; description: string }>).filter((task) => !task.description.includes(', edited'));
	for (const task of tasks.slice(0, count)) await sandbox.api('POST', '/v3/tasks/update', { body: { id: task.id, title: `${task.title} (renamed in the app)` } });
}

/**
 * One run's least points and the target for a sync that remembers: the writes, plus seeing
 * the tasks they touch (the cheaper of a read by ID each and one list call per 100); the target allows
 * a list call of what changed since the last run (one per 100 tasks changed in the app) and 2 points
 * per changed item; a first run reads the open tasks once, writes, and checks after creating.
 */
interface RunPlan {
	what: string;
	items: SourceItem[];
	writes: number;
	/** Tasks changed in the app since the last run. */
	editedInApp: number;
	first: boolean;
}

function minimumOf(plan: RunPlan): number {
	if (plan.first) return LIST_POINTS + plan.writes;
	return plan.writes + Math.min(plan.writes, Math.ceil(plan.writes / PAGE) * LIST_POINTS);
}

function targetOf(plan: RunPlan): number {
	if (plan.first) return LIST_POINTS + plan.writes + Math.ceil(plan.writes / PAGE + 1) * LIST_POINTS;
	return Math.max(1, Math.ceil(plan.editedInApp / PAGE)) * LIST_POINTS + 2 * plan.writes;
}

function plans(count: number): RunPlan[] {
	const n = count.toLocaleString('en');
	return [
		{ what: `first run, ${n} new items`, items: sourceItems(count, 0), writes: count, editedInApp: 0, first: true },
		{ what: 'again, nothing changed', items: sourceItems(count, 0), writes: 0, editedInApp: 0, first: false },
		{ what: `${CHANGED} items changed`, items: sourceItems(count, CHANGED), writes: CHANGED, editedInApp: 0, first: false },
		{ what: `${CHANGED} more changed, ${EDITED_IN_APP} tasks edited in the app`, items: sourceItems(count, 0), writes: CHANGED, editedInApp: EDITED_IN_APP, first: false },
	];
}

export async function sectionSyncJob(engine: Engine, sandboxes: SandboxProcess[], rows: Row[], log: (message: string) => void, windowSeconds: number): Promise<void> {
	const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');
	const sizes: Array<[number, Array<number | null>]> = [
		[ITEMS, [100, 300]],
		[LARGE_ITEMS, [null]],
	];
	for (const [count, budgets] of sizes) {
		for (const points of budgets) {
			for (const sandbox of sandboxes) await sandbox.reset();
			const jobs = [syncJob(engine, sandboxes[0], 'trigger'), syncJob(engine, sandboxes[1], 'manual'), builtJob(engine, sandboxes[2], TASK_ONLY_FIELDS)];
			const budget = points === null ? 'unlimited budget' : `${points} points per ${windowSeconds} s`;
			for (const plan of plans(count)) {
				if (plan.editedInApp > 0) for (const sandbox of sandboxes) await editInApp(sandbox, plan.editedInApp);
				await freshBudgets(sandboxes, points, windowSeconds);
				forgetDistBudgets();
				log(`sync job, ${count.toLocaleString('en')} items at ${budget}, ${plan.what}…`);
				const costs = await runSideBySide(jobs, plan.items);
				const minimum = minimumOf(plan);
				const target = targetOf(plan);
				costs.forEach((cost, index) => {
					const windows = (limit: number) => Math.ceil(cost.points / limit) - 1;
					rows.push({
						section: '11',
						benchmark: `Sync ${count.toLocaleString('en')} items at ${budget}, ${plan.what}: ${jobs[index].label}`,
						measured:
							`${cost.points.toLocaleString('en')} points = ${ratio(cost.points / minimum)} the minimum, ${ratio(cost.points / target)} the target (${cost.listCalls} list calls, ${cost.writes.toLocaleString('en')} writes); ` +
							(points === null ? `window resets it needs: ${windows(100)} at 100 points, ${windows(300)} at 300` : `${cost.seconds.toFixed(1)} s from the first call to the last write; ${cost.refused} answers 429`) +
							`; ${cost.outcome}`,
						reference: `minimum ${minimum.toLocaleString('en')} (${plan.writes.toLocaleString('en')} writes${plan.first ? ' + one read of an empty account' : plan.writes > 0 ? ' + seeing the tasks they touch' : ''}); target ${target.toLocaleString('en')}${plan.first ? ' (+ the check after creating)' : ' (one list call of the changes per 100 edited in the app + 2 per changed item)'}`,
						...(index === 0 ? { met: cost.points <= target } : {}),
					});
				});
			}
		}
	}

	// A 15-minute schedule on a 100-point account: a run with 40 changes fits one window.
	for (const sandbox of sandboxes) await sandbox.reset();
	await freshBudgets(sandboxes, null, windowSeconds);
	const keepUp = syncJob(engine, sandboxes[0], 'trigger');
	await runSideBySide([keepUp], sourceItems(ITEMS, 0));
	await freshBudgets(sandboxes, 100, windowSeconds);
	forgetDistBudgets();
	log(`sync job, ${ITEMS} items, ${KEEP_UP_CHANGES} changed, at 100 points…`);
	const [cost] = await runSideBySide([keepUp], sourceItems(ITEMS, KEEP_UP_CHANGES));
	rows.push({
		section: '11',
		benchmark: `Sync ${ITEMS.toLocaleString('en')} items every 15 minutes on a 100-point account, ${KEEP_UP_CHANGES} changed since the last run: Sync Tasks`,
		measured: `${cost.points} points, ${cost.seconds.toFixed(1)} s, ${cost.refused} answers 429: ${cost.points <= 100 ? 'fits one window, the schedule keeps up' : 'more than a window'}`,
		reference: '100 points per 15 minutes',
		met: cost.points <= 100 && cost.refused === 0,
	});
}
