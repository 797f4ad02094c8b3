/**
 * Section 11: keeping 1,000 items of another tool in step with tasks, under the point budget. A
 * first run with 1,000 new items and a second with 20 of them changed, done by Task → Sync Tasks
 * and by the same job built from n8n's own nodes as a user would: CTS Task Get Many (Return All)
 * and n8n's Compare Datasets node, whose "In A only" output goes to a CTS Task Create node and its
 * "Different" output to a CTS Task Update node. Each job has a sandbox of its own (its own budget
 * and request log), and the two run side by side, at 100 and at 300 points per window
 * (`BENCH_WINDOW_SECONDS`, over a minute: the ratios do not depend on its length).
 */
import { WorkflowExecute } from 'n8n-core';
import { NodeConnectionTypes, Workflow, type IDataObject, type INode, type IRun } from 'n8n-workflow';

import { additionalDataFor, PACKAGE_NAME, type CredentialStore, type Engine } from '../harness/engine';
import { ALICE_KEY, type LoggedRequest } from '../harness/sandboxClient';
import { COMPARE_DATASETS_TYPE, COMPARE_DATASETS_VERSION } from './httpRequestNode';
import type { Row } from './report';
import { apiCredential, forgetDistBudgets } from './setup';
import { walkMinimum } from './walkMinimum';
import type { SandboxProcess } from './sandboxProcess';

/** Items of the source (`BENCH_SYNC_ITEMS`, default 1,000; a multiple of 20 for a shorter trial). */
const ITEMS = Number(process.env.BENCH_SYNC_ITEMS ?? 1000);
const CHANGED = 20;
/** Items completed in the service's app before the second run, in the extra comparison on an unlimited budget. */
const COMPLETED_IN_APP = 5;
const PAGE = 100;
const LIST_POINTS = 10;
const SOURCE = 'sheet';

interface SourceItem extends IDataObject {
	id: string;
	title: string;
	description: string;
	priority: number;
}

/** The source's rows: an ID, a title, notes and a priority, as a spreadsheet or a notes app would give them. */
function sourceItems(changed: number): SourceItem[] {
	const step = ITEMS / CHANGED;
	return Array.from({ length: ITEMS }, (_, index) => ({
		id: `row-${index}`,
		title: `Item ${index}`,
		description: `Notes of item ${index}${index % step === 0 && index / step < changed ? ', edited' : ''}`,
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

/** Task → Sync Tasks in a published workflow (its memory kept between runs, as n8n keeps static data). */
function syncJob(engine: Engine, sandbox: SandboxProcess): Job {
	const staticData = { stored: {} as IDataObject };
	return {
		label: 'CTS Task → Sync Tasks',
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
				},
				items,
				credentials: apiCredential(sandbox),
				staticData,
				mode: 'trigger',
			});
			if (result.error) throw new Error(`Sync Tasks failed: ${result.error.message}`);
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
		label: `CTS Task Get Many + Compare Datasets ${COMPARE_DATASETS_VERSION}${skipFields ? '' : ' (without Fields to Skip Comparing)'} + CTS Task Create / Update`,
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
			if (failed) throw new Error(`the built job failed: ${failed.message}`);
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
	forgetDistBudgets();
}

/** The least a sync can spend: one read of the open tasks (10 points per 100, at least one call) and one point per write. */
function minimumPoints(openTasks: number, writes: number): number {
	return Math.max(1, Math.ceil(openTasks / PAGE)) * LIST_POINTS + writes;
}

export async function sectionSyncJob(engine: Engine, sandboxes: [SandboxProcess, SandboxProcess], rows: Row[], log: (message: string) => void, windowSeconds: number): Promise<void> {
	const [forSync, forBuilt] = sandboxes;
	const ratio = (value: number) => `${value.toFixed(2)}×`;
	for (const points of [100, 300]) {
		for (const sandbox of sandboxes) await sandbox.reset();
		const jobs = [syncJob(engine, forSync), builtJob(engine, forBuilt, TASK_ONLY_FIELDS)];
		const runs: Array<[string, SourceItem[], number, number]> = [
			[`first run, ${ITEMS.toLocaleString('en')} new items`, sourceItems(0), 0, ITEMS],
			[`second run, ${CHANGED} of the items changed`, sourceItems(CHANGED), ITEMS, CHANGED],
		];
		for (const [what, items, openBefore, neededWrites] of runs) {
			await freshBudgets(sandboxes, points, windowSeconds);
			const minimum = minimumPoints(openBefore, neededWrites);
			const paceSeconds = (minimum / points) * windowSeconds;
			// What the interface allows a correct walk (section 2's rule: a full page needs one more call
			// to see the end, each later page re-reads its boundary task), and the least time: windows
			// are fixed and start with the first charged call, so N points need ceil(N / P) - 1 resets.
			const walk = walkMinimum(openBefore, false);
			const floor = walk * LIST_POINTS + neededWrites;
			const floorSeconds = (Math.ceil(floor / points) - 1) * windowSeconds;
			log(`sync job at ${points} points per ${windowSeconds} s, ${what}: ${jobs.map((job) => job.label).join(' beside ')} (pace ${paceSeconds.toFixed(0)} s)…`);
			const costs = await runSideBySide(jobs, items);
			costs.forEach((cost, index) => {
				const isSync = index === 0;
				rows.push({
					section: '11',
					benchmark: `Sync ${ITEMS.toLocaleString('en')} items at ${points} points per ${windowSeconds} s, ${what}: ${jobs[index].label}`,
					measured: `${cost.points.toLocaleString('en')} points = ${ratio(cost.points / minimum)} the minimum (${cost.listCalls} list calls, ${cost.writes.toLocaleString('en')} writes); ${cost.seconds.toFixed(1)} s from the first call to the last write = ${ratio(cost.seconds / paceSeconds)} the pace; ${cost.refused} answers 429; ${cost.outcome}`,
					reference:
						`${minimum.toLocaleString('en')} points (${Math.max(1, Math.ceil(openBefore / PAGE))} list ${openBefore > PAGE ? 'calls' : 'call'} over ${openBefore.toLocaleString('en')} open tasks + ${neededWrites.toLocaleString('en')} writes); pace ${paceSeconds.toFixed(0)} s (minimum ÷ ${points} × ${windowSeconds} s). ` +
						`A correct walk needs ${walk} list ${walk === 1 ? 'call' : 'calls'}: ${floor.toLocaleString('en')} points, at least ${floorSeconds.toFixed(0)} s (${Math.ceil(floor / points) - 1} window resets)` +
						(isSync ? '; target ≤ 1.05× those points, that time + 5 s, ≤ 1 answer 429 per window' : ''),
					...(isSync ? { met: cost.points <= floor * 1.05 && cost.seconds <= floorSeconds * 1.05 + 5 && cost.refused <= Math.ceil(floor / points) } : {}),
				});
			});
		}
	}

	// What the built job costs when its comparison is not tuned, and what either job does with tasks
	// completed in the service's app: counted on an unlimited budget (points, not time).
	for (const sandbox of sandboxes) await sandbox.reset();
	await freshBudgets(sandboxes, null, windowSeconds);
	const jobs = [syncJob(engine, forSync), builtJob(engine, forBuilt, TASK_ONLY_FIELDS), builtJob(engine, forBuilt, '')];
	log(`sync job, unlimited budget: a second run after ${CHANGED} items changed and ${COMPLETED_IN_APP} tasks completed in the app…`);
	await runSideBySide(jobs.slice(0, 2), sourceItems(0));
	// Tasks of rows that do not change: the source item is the same, the task is completed in the app.
	const unchangedRow = (title: string) => Number(title.replace('Item ', '')) % (ITEMS / CHANGED) !== 0;
	for (const sandbox of sandboxes) {
		const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: String(PAGE) } });
		const toComplete = (body.data.tasks as Array<{ id: string; title: string }>).filter((task) => unchangedRow(task.title)).slice(0, COMPLETED_IN_APP);
		if (toComplete.length !== COMPLETED_IN_APP) throw new Error(`found ${toComplete.length} tasks to complete`);
		for (const task of toComplete) await sandbox.api('POST', '/v3/tasks/close', { body: { id: task.id } });
	}
	const [syncCost, builtCost] = await runSideBySide(jobs.slice(0, 2), sourceItems(CHANGED));
	const minimum = minimumPoints(ITEMS - COMPLETED_IN_APP, CHANGED);
	for (const [index, cost] of [syncCost, builtCost].entries()) {
		rows.push({
			section: '11',
			benchmark: `Sync ${ITEMS.toLocaleString('en')} items, second run after ${CHANGED} items changed and ${COMPLETED_IN_APP} of their tasks completed in the service's app (unlimited budget): ${jobs[index].label}`,
			measured: `${cost.points.toLocaleString('en')} points = ${ratio(cost.points / minimum)} the minimum (${cost.listCalls} list calls, ${cost.writes} writes); ${cost.outcome}`,
			reference: `${minimum} points (${Math.ceil((ITEMS - COMPLETED_IN_APP) / PAGE)} list calls + ${CHANGED} writes); a completed task stays completed while its row is unchanged`,
		});
	}
	// The untuned comparison: the built job's first run again, then its second run with every field compared.
	await forBuilt.reset();
	await freshBudgets([forBuilt], null, windowSeconds);
	await runSideBySide(jobs.slice(1, 2), sourceItems(0));
	const [untuned] = await runSideBySide(jobs.slice(2), sourceItems(CHANGED));
	const untunedMinimum = minimumPoints(ITEMS, CHANGED);
	rows.push({
		section: '11',
		benchmark: `Sync ${ITEMS.toLocaleString('en')} items, second run, ${CHANGED} changed (unlimited budget): ${jobs[2].label}`,
		measured: `${untuned.points.toLocaleString('en')} points = ${ratio(untuned.points / untunedMinimum)} the minimum (${untuned.listCalls} list calls, ${untuned.writes.toLocaleString('en')} writes); ${untuned.outcome}`,
		reference: `${untunedMinimum} points; at 100 points per window about ${Math.ceil(untuned.points / 100) - 1} window resets instead of ${Math.ceil(untunedMinimum / 100) - 1}`,
	});
}
