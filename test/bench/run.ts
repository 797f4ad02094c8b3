/**
 * `npm run bench`: what the package costs per unit of work, side by side in one run against the
 * sandbox (in a child process): per-item time against n8n's HTTP Request node and raw fetch,
 * API calls and points against the minimum the interface allows, memory, a bulk job under the
 * point budget, and the sandbox's own throughput. Prints one Markdown table.
 *
 * Options: `--only=1,2,…` runs some sections; `--record` writes the table into BENCHMARKS.md.
 * Environment: BENCH_RUNS (timed runs per variant in section 1, default 9), BENCH_ITEMS
 * (items in section 1, default 1000), BENCH_SYNC_ITEMS (source items in section 11, default 1000), BENCH_WINDOW_SECONDS (budget window of sections 6, 10 and 11, default 65, at least 61).
 */
// First: sets n8n's environment before n8n-core loads, and loads the nodes.
import { apiCredential as credentialFor, createEngine, createVariants, CtsEvent, CtsEventTrigger, CtsEventV1, CtsTask, CtsTaskTrigger, ROOT, runNode as runWith } from './setup';

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { PollHarness, testCredential, type Engine, type NodeRunOptions, type NodeRunResult } from '../harness/engine';
import { ALICE_KEY, timedEvent } from '../harness/sandboxClient';
import { HTTP_REQUEST_VERSION, NODES_BASE_VERSION } from './httpRequestNode';
import { countExpressions, expressionCost } from './expressions';
import { sectionBudgetJob } from './budgetJob';
import { sectionFreeTime } from './freeTime';
import { sectionSyncJob } from './syncJob';
import { walkMinimum } from './walkMinimum';
import { canCollectGarbage, mb, median, timed, withMemory } from './measure';
import { record, table, type Row } from './report';
import { SandboxProcess } from './sandboxProcess';

const args = process.argv.slice(2);
const only = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const WINDOW_SECONDS = Math.max(61, Number(process.env.BENCH_WINDOW_SECONDS ?? 65));
const PAGE = 100;
const LIST_POINTS = 10;

const sandbox = new SandboxProcess();
let engine: Engine;
const rows: Row[] = [];
const log = (message: string) => console.error(`[bench] ${message}`);

const apiCredential = (): Record<string, ICredentialDataDecryptedObject> => credentialFor(sandbox);
const runNode = async (options: NodeRunOptions): Promise<NodeRunResult> => await runWith(engine, sandbox, options);

async function freshSandbox(): Promise<void> {
	await sandbox.reset();
	await sandbox.unlimited();
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 3 : 0)} ms`;
const ratio = (value: number) => `${value.toFixed(2)}×`;
const count = (value: number) => value.toLocaleString('en');

// ---------------------------------------------------------------------------------------------
// 1. Create 1,000 tasks: CTS Task node vs HTTP Request node vs the engine's request helper vs raw fetch
// ---------------------------------------------------------------------------------------------
async function sectionCreate(): Promise<void> {
	const items = Array.from({ length: ITEMS }, (_, index) => ({ title: `bench-${index}` }));
	const variants = createVariants(engine, sandbox, items);
	const names = Object.keys(variants);
	const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
	// CPU time of this process (where n8n runs) during each run, beside the wall time.
	const cpuTimes: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
	const usage: Record<string, { calls: number; points: number }> = {};
	// One warm-up round, then RUNS timed rounds; the order rotates from round to round.
	for (let round = 0; round <= RUNS; round++) {
		for (let index = 0; index < names.length; index++) {
			const name = names[(index + round) % names.length];
			await freshSandbox();
			const cpuBefore = process.cpuUsage();
			const { ms: elapsed, ids } = await variants[name].run();
			const cpu = process.cpuUsage(cpuBefore);
			if (ids.length !== ITEMS || new Set(ids).size !== ITEMS || ids.some((id) => typeof id !== 'string')) {
				throw new Error(`${name}: expected ${ITEMS} distinct task ids, got ${ids.length}`);
			}
			const used = await sandbox.usage();
			if (used.statuses['200'] !== ITEMS || used.calls !== ITEMS) throw new Error(`${name}: ${JSON.stringify(used.statuses)}`);
			usage[name] = used;
			if (round > 0) {
				times[name].push(elapsed);
				cpuTimes[name].push((cpu.user + cpu.system) / 1000);
			}
		}
		log(`create ${ITEMS}: round ${round}${round === 0 ? ' (warm-up)' : ''} done`);
	}
	// One more run of each, counting the n8n expressions evaluated (not timed: counting costs time).
	const evaluations: Record<string, { perItem: number; parts: string }> = {};
	for (const name of names) {
		await freshSandbox();
		const { byText, total } = await countExpressions(async () => await variants[name].run());
		const parts = [...byText.entries()].map(([text, times]) => `${expressionLabel(text)} ×${times / ITEMS}`).join(', ');
		evaluations[name] = { perItem: total / ITEMS, parts };
	}
	const zone = 'America/New_York';
	const evaluationMicros = expressionCost(zone);

	const perItem = Object.fromEntries(names.map((name) => [name, median(times[name]) / ITEMS]));
	const cpuPerItem = Object.fromEntries(names.map((name) => [name, median(cpuTimes[name]) / ITEMS]));
	// Ratios round by round (the variants of a round ran back to back, under the same load), then the median.
	const paired = (series: Record<string, number[]>, a: string, b: string) => {
		const ratios = series[a].map((value, round) => value / series[b][round]);
		return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
	};
	const pairedText = (a: string, b: string) => {
		const wall = paired(times, a, b);
		const cpu = paired(cpuTimes, a, b);
		return `${ratio(wall.median)} (rounds ${ratio(wall.min)}–${ratio(wall.max)}); CPU ${ratio(cpu.median)}`;
	};
	for (const name of names) {
		const list = times[name].map((value) => Math.round(value)).join(', ');
		const { perItem: perItemEvaluations, parts } = evaluations[name];
		rows.push({
			section: '1',
			benchmark: `Create ${count(ITEMS)} tasks: ${variants[name].label}`,
			measured: `${ms(perItem[name])} per item (median of ${RUNS}: ${list} ms); CPU ${ms(cpuPerItem[name])} per item; ${count(usage[name].calls)} calls, ${count(usage[name].points)} points; ${perItemEvaluations} expression evaluations per item${parts ? ` (${parts})` : ''}`,
			reference: name === 'raw' ? 'floor' : `${ratio(paired(times, name, 'raw').median)} raw fetch`,
		});
	}
	const versusHttp = paired(times, 'cts', 'http').median;
	rows.push({
		section: '1',
		benchmark: 'Create: CTS ÷ HTTP Request node, per item',
		measured: pairedText('cts', 'http'),
		reference: 'target ≤ 1.00×',
		met: versusHttp <= 1.0,
	});
	const versusRaw = paired(times, 'cts', 'raw').median;
	rows.push({
		section: '1',
		benchmark: 'Create: CTS ÷ raw fetch, per item',
		measured: `${pairedText('cts', 'raw')}; the minimal programmatic node: ${pairedText('floor', 'raw')}`,
		reference: 'target ≤ 1.10×; the minimal node shows the engine\'s own floor',
		met: versusRaw <= 1.1,
	});
	const extra = evaluations.cts.perItem - evaluations.http.perItem;
	rows.push({
		section: '1',
		benchmark: 'Create: n8n expression evaluations per item',
		measured: `one costs ${evaluationMicros.toFixed(0)} µs; CTS evaluates ${extra} more per item than the HTTP Request node: ≈ ${ms((extra * evaluationMicros) / 1000)} of CPU per item`,
		reference: `{{ $json.title }} evaluated alone in a workflow in ${zone} (n8n's default zone), median of 7 × 1,000; CPU profile by activity in BENCHMARKS.md`,
	});
}

/** A short name for an expression the runs evaluated. */
function expressionLabel(text: string): string {
	if (text.includes('$credentials.baseUrl')) return 'base URL';
	if (text.includes('$credentials.apiKey')) return 'credential header';
	if (text.includes('$json.title')) return 'Title';
	return text;
}

// ---------------------------------------------------------------------------------------------
// 2. Get Many, Return All over 10,000 tasks
// ---------------------------------------------------------------------------------------------
async function sectionGetMany(): Promise<void> {
	// The memory goal at twice the size too: what a list of tasks costs should grow with it, not faster.
	for (const TASKS of [10_000, 20_000]) await getManyOver(TASKS);
}

async function getManyOver(TASKS: number): Promise<void> {
	await freshSandbox();
	await sandbox.freezeClock('2026-03-01T09:00:00.000Z');
	log(`creating ${count(TASKS)} tasks with distinct updated values…`);
	await sandbox.createDistinctTasks(TASKS, 'many');
	await sandbox.clearRequests();
	const measured = await withMemory(
		async () =>
			await runNode({ type: 'ctsTask', parameters: { resource: 'task', operation: 'getAll', returnAll: true, filters: {} } }),
	);
	const items = measured.result.items;
	const distinct = new Set(items.map((item) => item.json.id)).size;
	if (items.length !== TASKS || distinct !== TASKS) throw new Error(`Get Many returned ${items.length} items, ${distinct} distinct`);
	const used = await sandbox.usage();
	const minimum = walkMinimum(TASKS, false);
	rows.push({
		section: '2',
		benchmark: `Get Many, Return All over ${count(TASKS)} tasks (distinct updated values): list calls`,
		measured: `${used.calls} calls, ${count(used.points)} points; ${count(items.length)} items, all distinct`,
		reference: `${minimum} (ceil(N/100) = ${Math.ceil(TASKS / PAGE)}, +1 call to see the end of a full page, +1 for the boundary task each later page re-reads)`,
		met: used.calls === minimum && used.points === minimum * LIST_POINTS,
	});
	rows.push({
		section: '2',
		benchmark: `Get Many, Return All over ${count(TASKS)} tasks: wall time, memory`,
		measured: `${ms(measured.ms)} (${ms(measured.ms / used.calls)} per list call); peak added ${mb(measured.peakAddedBytes)}, retained with the output ${mb(measured.retainedBytes)}`,
		reference: 'memory: heapUsed + external after a full GC, sampled every 5 ms; target < 50 MB',
		met: measured.peakAddedBytes < 50 * 1024 * 1024,
	});
}

// ---------------------------------------------------------------------------------------------
// 3. Events over 12 months, one calendar, 200 weekly series
// ---------------------------------------------------------------------------------------------
async function sectionEvents(): Promise<void> {
	await createWeeklySeries(200, 0);
	const getMany = (windowMonths: number, output: 'simplified' | 'raw', end = '2028-01-01T00:00:00Z') =>
		withMemory(
			async () =>
				await runNode({
					type: 'ctsEvent',
					parameters: {
						resource: 'event',
						operation: 'getAll',
						accountId: 'acc-alice-a',
						calendarIds: 'cal-alice-a-primary',
						start: '2027-01-01T00:00:00Z',
						end,
						returnAll: true,
						options: { windowMonths },
						output,
					},
				}),
		);
	// The default output (Simplified) against the service's objects untouched (Raw): what simplifying costs.
	for (const [windowMonths, output] of [[2, 'simplified'], [6, 'simplified'], [2, 'raw']] as const) {
		await sandbox.clearRequests();
		const measured = await getMany(windowMonths, output);
		const items = measured.result.items;
		const distinct = new Set(items.map((item) => item.json.id)).size;
		if (distinct !== items.length) throw new Error(`Events: ${items.length} items, ${distinct} distinct`);
		const used = await sandbox.usage();
		const calls = Math.ceil(12 / windowMonths);
		rows.push({
			section: '3',
			benchmark: `Events over 12 months, 1 calendar, 200 weekly series, window ${windowMonths} months${windowMonths === 2 ? ' (default)' : ''}, Output ${output === 'raw' ? 'Raw' : 'Simplified (default)'}`,
			measured: `${used.calls} list calls, ${used.points} points; ${count(items.length)} occurrences; ${ms(measured.ms)}; peak added ${mb(measured.peakAddedBytes)}, retained ${mb(measured.retainedBytes)}`,
			// The interface's minimum is 1 call per 6 months (its longest list window): 2 for a year.
			reference:
				windowMonths === 6
					? '2 calls: the minimum (the interface lists at most 6 months per call)'
					: `${calls} calls (12 months ÷ ${windowMonths}); the minimum is 2 (6-month windows): the default keeps each answer small (about 1,700 occurrences)`,
			met: used.calls === calls && used.points === calls * LIST_POINTS,
		});
	}
	// Simplified against Raw, rounds alternating (ratios round by round), at the default window and at about 42,000 occurrences.
	for (const [label, series, end] of [
		['10,428 occurrences (200 weekly series, 12 months)', 0, '2028-01-01T00:00:00Z'],
		['about 42,000 occurrences (400 weekly series, 2 years)', 200, '2029-01-01T00:00:00Z'],
	] as const) {
		if (series > 0) await createWeeklySeries(series, 200);
		const timeRatios: number[] = [];
		const memoryRatios: number[] = [];
		let occurrences = 0;
		let last = { simplified: 0, raw: 0, simplifiedMb: 0, rawMb: 0 };
		for (let round = 0; round < 5; round++) {
			const order = round % 2 === 0 ? (['simplified', 'raw'] as const) : (['raw', 'simplified'] as const);
			const got: Record<string, Awaited<ReturnType<typeof getMany>>> = {};
			for (const output of order) got[output] = await getMany(2, output, end);
			occurrences = got.raw.result.items.length;
			timeRatios.push(got.simplified.ms / got.raw.ms);
			memoryRatios.push(got.simplified.peakAddedBytes / got.raw.peakAddedBytes);
			last = { simplified: got.simplified.ms, raw: got.raw.ms, simplifiedMb: got.simplified.peakAddedBytes, rawMb: got.raw.peakAddedBytes };
		}
		const range = (values: number[]) => `${ratio(Math.min(...values))}–${ratio(Math.max(...values))}`;
		rows.push({
			section: '3',
			benchmark: `Events: Simplified ÷ Raw, Get Many (window 2 months), ${label}`,
			measured: `${count(occurrences)} occurrences; time ${ratio(median(timeRatios))} (rounds ${range(timeRatios)}), peak memory ${ratio(median(memoryRatios))} (rounds ${range(memoryRatios)}), median of 5 alternating rounds; last round ${ms(last.simplified)} / ${ms(last.raw)}, ${mb(last.simplifiedMb)} / ${mb(last.rawMb)}`,
			reference: 'target ≤ 1.5× in time and in memory',
			met: median(timeRatios) <= 1.5 && median(memoryRatios) <= 1.5,
		});
	}
}

/** `series` weekly series of 30 minutes in alice's primary calendar from 28 December 2026, numbered from `first`. */
async function createWeeklySeries(series: number, first: number): Promise<void> {
	if (first === 0) await freshSandbox();
	log(`creating ${series} weekly series…`);
	for (let index = first; index < first + series; index++) {
		const start = new Date(Date.UTC(2026, 11, 28 + (index % 7), 7 + (index % 11), (index * 5) % 60)).toISOString().slice(0, 19);
		const { status, body } = await sandbox.api('POST', '/v3/events/create', {
			body: timedEvent({
				title: `Series ${index}`,
				start,
				duration: 'PT30M',
				recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1 }],
			}),
		});
		if (status !== 200) throw new Error(`create series answered ${status}: ${JSON.stringify(body)}`);
	}
}

// ---------------------------------------------------------------------------------------------
// 4. Triggers: an idle poll and a poll that delivers 1,000 changes
// ---------------------------------------------------------------------------------------------
async function sectionTriggers(): Promise<void> {
	const CHANGES = 1000;
	// The service's clock agrees with this machine's (frozen at the current second), as in real use:
	// the Task Trigger's first poll looks for the newest change from ten minutes before this machine's
	// time, and the Event Trigger's window is placed again when the clocks are over 5 minutes apart.
	const freezeAtThisMachinesTime = async () => {
		const now = Math.floor(Date.now() / 1000) * 1000;
		await sandbox.freezeClock(new Date(now).toISOString());
		return now;
	};
	await freshSandbox();
	await freezeAtThisMachinesTime();
	await sandbox.createDistinctTasks(50, 'before');
	await sandbox.advanceClock(1);
	const tasks = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'] }, apiCredential());

	const poll = async (harness: PollHarness) => {
		await sandbox.clearRequests();
		const { result, ms: elapsed } = await timed(async () => await harness.poll());
		return { items: result?.[0] ?? [], ms: elapsed, ...(await sandbox.usage()) };
	};
	const triggerRow = (name: string, got: Awaited<ReturnType<typeof poll>>, minCalls: number, minPoints: number, reference: string, items?: number) =>
		rows.push({
			section: '4',
			benchmark: name,
			measured: `${got.calls} ${got.calls === 1 ? 'call' : 'calls'}, ${got.points} points; ${count(got.items.length)} items; ${ms(got.ms)}`,
			reference,
			met: got.calls === minCalls && got.points === minPoints && (items === undefined || got.items.length === items),
		});

	const first = await poll(tasks);
	triggerRow(
		'Task Trigger: first activation (sets the cursor, fires nothing)',
		first,
		1,
		LIST_POINTS,
		'1 list call, 10 points, 0 items',
		0,
	);
	await sandbox.advanceClock(1);
	const idle = await poll(tasks);
	triggerRow('Task Trigger: idle poll', idle, 1, LIST_POINTS, '1 list call, 10 points, 0 items', 0);

	await sandbox.advanceClock(1);
	await sandbox.createDistinctTasks(CHANGES, 'change');
	await sandbox.advanceClock(1);
	const cursor = (tasks.savedStaticData['node:Trigger'] as IDataObject).cursor as { idsAtUpdated: string[] };
	const minimum = walkMinimum(CHANGES, cursor.idsAtUpdated.length > 0);
	const busy = await poll(tasks);
	if (busy.items.length !== CHANGES) throw new Error(`Task trigger delivered ${busy.items.length} of ${CHANGES} changes`);
	triggerRow(`Task Trigger: poll delivering ${count(CHANGES)} changes`, busy, minimum, minimum * LIST_POINTS, `${minimum} list calls, ${minimum * LIST_POINTS} points (ceil(N/100) = ${Math.ceil(CHANGES / PAGE)}, +1 to see the end)`);

	// Event trigger: one calendar, 14 days ahead.
	await freshSandbox();
	const now = await freezeAtThisMachinesTime();
	const events = new PollHarness(
		new CtsEventTrigger(),
		'ctsEventTrigger',
		{ accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', events: ['created', 'updated', 'cancelled'], lookAheadDays: 14 },
		apiCredential(),
	);
	const firstEvents = await poll(events);
	triggerRow(
		'Event Trigger: first poll (learns the window, fires nothing)',
		firstEvents,
		1,
		LIST_POINTS,
		'1 list call, 10 points, 0 items',
		0,
	);
	await sandbox.advanceClock(60);
	const idleEvents = await poll(events);
	triggerRow('Event Trigger: idle poll', idleEvents, 1, LIST_POINTS, '1 list call, 10 points, 0 items', 0);
	for (let index = 0; index < CHANGES; index++) {
		const start = new Date(now + ((1 + (index % 10)) * 24 + (index % 12)) * 3_600_000 + ((index * 7) % 60) * 60_000).toISOString().slice(0, 19);
		await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ title: `Event ${index}`, start, duration: 'PT30M' }) });
	}
	await sandbox.advanceClock(60);
	const busyEvents = await poll(events);
	if (busyEvents.items.length !== CHANGES) throw new Error(`Event trigger delivered ${busyEvents.items.length} of ${CHANGES}`);
	triggerRow(`Event Trigger: poll delivering ${count(CHANGES)} created events`, busyEvents, 1, LIST_POINTS, '1 list call, 10 points');
}

// ---------------------------------------------------------------------------------------------
// 5. Points per operation, every operation of both nodes, against the interface's minimum
// ---------------------------------------------------------------------------------------------
interface OperationCase {
	name: string;
	/** Arranges state; returns parameters for the node. */
	arrange: () => Promise<IDataObject>;
	type: 'ctsTask' | 'ctsEvent' | 'ctsEventV1';
	v1?: boolean;
	minCalls: number;
	minPoints: number;
	why: string;
}

async function sectionOperations(): Promise<void> {
	const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
	const task = async (fields: IDataObject = {}) => await sandbox.createTask({ title: 'Arranged', ...fields });
	const closedTask = async () => {
		const id = await task();
		await sandbox.api('POST', '/v3/tasks/close', { body: { id } });
		return id;
	};
	const event = async (fields: IDataObject = {}) => {
		const { status, body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent(fields) });
		if (status !== 200) throw new Error(`arrange event: ${status}`);
		return body.data.event as IDataObject;
	};
	const weekly = [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1 }];
	const owner = Buffer.from('alice@sandbox.example').toString('base64');
	const one = 'one call, 1 point';

	const cases: OperationCase[] = [
		{ name: 'Task: Create, Return Task on', type: 'ctsTask', minCalls: 2, minPoints: 2, why: 'create does not echo the task: create + get',
			arrange: async () => ({ operation: 'create', title: 'x', returnTask: true }) },
		{ name: 'Task: Create, Return Task off (default)', type: 'ctsTask', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'create', title: 'x' }) },
		{ name: 'Task: Get', type: 'ctsTask', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'get', taskId: await task() }) },
		{ name: 'Task: Get Many, Limit 50 (of 120 open tasks)', type: 'ctsTask', minCalls: 1, minPoints: 10, why: 'one list call',
			arrange: async () => {
				await sandbox.freezeClock('2026-03-01T09:00:00.000Z');
				await sandbox.createDistinctTasks(120, 'op');
				return { operation: 'getAll', returnAll: false, limit: 50 };
			} },
		{ name: 'Task: Get Many, Return All (250 open tasks)', type: 'ctsTask', minCalls: 3, minPoints: 30, why: 'ceil(250/100) list calls',
			arrange: async () => {
				await sandbox.freezeClock('2026-03-01T09:00:00.000Z');
				await sandbox.createDistinctTasks(250, 'op');
				return { operation: 'getAll', returnAll: true };
			} },
		{ name: 'Task: Update, Return Task off (default)', type: 'ctsTask', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'update', taskId: await task(), updateFields: { title: 'y' } }) },
		{ name: 'Task: Update, Return Task on', type: 'ctsTask', minCalls: 2, minPoints: 2, why: 'update answers 204: update + get',
			arrange: async () => ({ operation: 'update', taskId: await task(), updateFields: { title: 'y' }, returnTask: true }) },
		{ name: 'Task: Move, Return Task off (default)', type: 'ctsTask', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'move', taskId: await task(), position: 'first', parent: 'keep' }) },
		{ name: 'Task: Move, Return Task on', type: 'ctsTask', minCalls: 2, minPoints: 2, why: 'move answers 204: move + get',
			arrange: async () => ({ operation: 'move', taskId: await task(), position: 'first', parent: 'keep', returnTask: true }) },
		{ name: 'Task: Delete', type: 'ctsTask', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'delete', taskId: await task() }) },
		{ name: 'Task: Complete, Return Task off (default)', type: 'ctsTask', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'close', taskId: await task() }) },
		{ name: 'Task: Complete, Return Task on', type: 'ctsTask', minCalls: 2, minPoints: 2, why: 'complete answers 204: complete + get',
			arrange: async () => ({ operation: 'close', taskId: await task(), returnTask: true }) },
		{ name: 'Task: Reopen, Return Task off (default)', type: 'ctsTask', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'reopen', taskId: await closedTask() }) },
		{ name: 'Task: Reopen, Return Task on', type: 'ctsTask', minCalls: 2, minPoints: 2, why: 'reopen answers 204: reopen + get',
			arrange: async () => ({ operation: 'reopen', taskId: await closedTask(), returnTask: true }) },
		{ name: 'Event v3: Create (outputs the created event)', type: 'ctsEvent', minCalls: 1, minPoints: 1, why: 'create answers with the event',
			arrange: async () => ({ operation: 'create', ...target, title: 'x', start: '2026-12-01T09:00:00', endMode: 'end', end: '2026-12-01T10:00:00', timeZone: 'Europe/Berlin' }) },
		{ name: 'Event v3: Get', type: 'ctsEvent', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'get', eventId: (await event()).id }) },
		{ name: 'Event v3: Get Many, 1 month', type: 'ctsEvent', minCalls: 1, minPoints: 10, why: 'one list call',
			arrange: async () => {
				await event();
				return { operation: 'getAll', accountId: target.accountId, calendarIds: target.calendarId, start: '2026-12-01T00:00:00Z', end: '2027-01-01T00:00:00Z', returnAll: true };
			} },
		{ name: 'Event v3: Get Many, 1 month, One Item per Series (3 series)', type: 'ctsEvent', minCalls: 4, minPoints: 13, why: 'one list call + one read per series master (the list has occurrences only)',
			arrange: async () => {
				for (let index = 0; index < 3; index++) await event({ title: `S${index}`, recurrenceRules: weekly });
				return { operation: 'getAll', accountId: target.accountId, calendarIds: target.calendarId, start: '2026-12-01T00:00:00Z', end: '2027-01-01T00:00:00Z', returnAll: true, options: { recurringEvents: 'series' } };
			} },
		{ name: 'Event v3: Update, title', type: 'ctsEvent', minCalls: 1, minPoints: 1, why: 'update answers with the event',
			arrange: async () => ({ operation: 'update', eventId: (await event()).id, ...target, updateFields: { title: 'y' } }) },
		{ name: 'Event v3: Update, all timing fields', type: 'ctsEvent', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'update', eventId: (await event()).id, ...target, updateFields: { allDay: false, start: '2026-12-01T11:00:00', end: '2026-12-01T12:00:00', timeZone: 'Europe/Berlin' } }) },
		{ name: 'Event v3: Update, Start only', type: 'ctsEvent', minCalls: 2, minPoints: 2, why: 'timing fields go together: read the rest + update',
			arrange: async () => ({ operation: 'update', eventId: (await event()).id, ...target, updateFields: { start: '2026-12-01T11:00:00' } }) },
		{ name: 'Event v3: Delete', type: 'ctsEvent', minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'delete', eventId: (await event()).id, ...target }) },
		{ name: 'Event v3: Delete, already deleted (counts as success)', type: 'ctsEvent', minCalls: 1, minPoints: 1, why: 'one call (answered 404)',
			arrange: async () => {
				const { id } = await event();
				await sandbox.api('POST', '/v3/events/delete', { body: { id, ...target } });
				return { operation: 'delete', eventId: id, ...target };
			} },
		{ name: 'Event v1: Create', type: 'ctsEventV1', v1: true, minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'create', calendarId: 'cal-alice-b-primary', title: 'x', start: '2026-12-01T09:00:00', end: '2026-12-01T09:30:00', timeZone: 'Europe/Berlin' }) },
		{ name: 'Event v1: Get Many, 1 month', type: 'ctsEventV1', v1: true, minCalls: 1, minPoints: 10, why: 'one list call',
			arrange: async () => {
				await event();
				return { operation: 'getAll', calendarIds: target.calendarId, start: '2026-12-01T00:00:00Z', end: '2027-01-01T00:00:00Z', returnAll: true };
			} },
		{ name: 'Event v1: Update', type: 'ctsEventV1', v1: true, minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'update', eventId: (await event()).id, updateFields: { title: 'y' } }) },
		{ name: 'Event v1: Delete', type: 'ctsEventV1', v1: true, minCalls: 1, minPoints: 1, why: one,
			arrange: async () => ({ operation: 'delete', eventId: (await event()).id }) },
		{ name: 'Event v1: RSVP', type: 'ctsEventV1', v1: true, minCalls: 1, minPoints: 1, why: one,
			arrange: async () => {
				const { id } = await event({
					participants: { [owner]: { '@type': 'Participant', email: 'alice@sandbox.example', roles: { attendee: true }, participationStatus: 'needs-action' } },
				});
				return { operation: 'rsvp', eventId: id, rsvpAction: 'accept' };
			} },
	];

	for (const operation of cases) {
		await freshSandbox();
		const parameters = await operation.arrange();
		await sandbox.clearRequests();
		const credentials: Record<string, ICredentialDataDecryptedObject> = operation.v1
			? { ctsSyncApi: { token: await sandbox.token('alice'), syncUrl: sandbox.url } }
			: apiCredential();
		const base = operation.type === 'ctsTask' ? { resource: 'task' } : { resource: 'event' };
		await runNode({ type: operation.type, parameters: { ...base, ...parameters }, credentials });
		const used = await sandbox.usage();
		rows.push({
			section: '5',
			benchmark: operation.name,
			measured: `${used.calls} ${used.calls === 1 ? 'call' : 'calls'}, ${used.points} ${used.points === 1 ? 'point' : 'points'}`,
			reference: `${operation.minPoints} (${operation.why})`,
			met: used.calls === operation.minCalls && used.points === operation.minPoints,
		});
	}

	for (const [type, data] of [
		['ctsApi', { apiKey: ALICE_KEY, baseUrl: '' }],
		['ctsSyncApi', { token: '', syncUrl: '' }],
	] as const) {
		await freshSandbox();
		const credential: ICredentialDataDecryptedObject =
			type === 'ctsApi' ? { ...data, baseUrl: sandbox.url } : { token: await sandbox.token('alice'), syncUrl: sandbox.url };
		const outcome = await testCredential(type, credential, [new CtsTask(), new CtsEvent(), new CtsEventV1()]);
		if (outcome.status !== 'OK') throw new Error(`credential test ${type}: ${outcome.message}`);
		const used = await sandbox.usage();
		rows.push({
			section: '5',
			benchmark: `Credential test: ${type === 'ctsApi' ? 'CTS API' : 'CTS Sync API'}`,
			measured: `${used.calls} call, ${used.points} point`,
			reference: '1 (one call, 1 point)',
			met: used.calls === 1 && used.points === 1,
		});
	}
}

// ---------------------------------------------------------------------------------------------
// 6. Bulk jobs under the point budget, windows longer than a minute
// ---------------------------------------------------------------------------------------------
/** Creates `count` tasks in one run; the sandbox's request log tells what was sent and answered. */
async function bulkCreates(count: number, prefix: string) {
	const items = Array.from({ length: count }, (_, index) => ({ title: `${prefix}-${index}` }));
	const { result, ms: elapsed } = await timed(
		async () =>
			await engine.runNode({
				type: 'ctsTask',
				parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false },
				credentials: apiCredential(),
				items,
				continueOnFail: true,
				// A bulk job of a published workflow (a run from the editor would not wait for the budget).
				mode: 'trigger',
			}),
	);
	const failed = result.error ? count : result.items.filter((item: INodeExecutionData) => item.error || typeof item.json.id !== 'string').length;
	const calls = (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/create');
	const accepted = calls.filter((call) => call.status === 200 && String((call.body as { title: string }).title).startsWith(prefix));
	const distinct = new Set(accepted.map((call) => (call.body as { title: string }).title)).size;
	const refused = calls.filter((call) => call.status === 429);
	return { elapsed, failed, accepted: accepted.length, distinct, refused };
}

async function sectionBulk(): Promise<void> {
	// Accounts of 100 and 300 points per window: the same jobs, scaled to the budget.
	for (const points of [100, 300]) await bulkAtBudget(points);
}

async function bulkAtBudget(POINTS: number): Promise<void> {
	const TASKS = Math.round((POINTS * 10) / 3);
	const windowMs = WINDOW_SECONDS * 1000;
	// Windows are fixed and start with a user's first charged call: N points need ceil(N / P) - 1
	// resets after the first window, the least time any client can take.
	const minimumMs = (points: number, windowsUsedBefore = 0) => (Math.ceil(points / POINTS) - 1 + windowsUsedBefore) * windowMs;

	// a) Another client of the account used the whole first window: the job's first request meets a
	//    429 whose Retry-After is the rest of the window (over a minute), then the job paces itself.
	await sandbox.reset();
	await sandbox.control('limits', { points: POINTS, windowSeconds: WINDOW_SECONDS });
	for (let call = 0; call < POINTS; call++) await sandbox.api('GET', '/v3/tasks', { qs: { id: 'other-client' } });
	await sandbox.clearRequests();
	log(`bulk: ${TASKS} creates at ${POINTS} points per ${WINDOW_SECONDS} s, the first window used up by another client (about ${Math.round(minimumMs(TASKS, 1) / 1000)} s)…`);
	const alone = await bulkCreates(TASKS, 'bulk');
	const windowsA = Math.ceil(TASKS / POINTS) + 1;
	rows.push({
		section: '6',
		benchmark: `Bulk: ${count(TASKS)} task creates at ${POINTS} points per ${WINDOW_SECONDS} s window, the first window used by another client (its 429 says Retry-After ${WINDOW_SECONDS} s)`,
		measured: `${(alone.elapsed / 1000).toFixed(1)} s = ${ratio(alone.elapsed / minimumMs(TASKS, 1))} the budget's minimum; ${alone.failed} failed items; ${alone.accepted} creates accepted (${alone.distinct} distinct); ${alone.refused.length} answers 429 in ${windowsA} windows`,
		reference: `${(minimumMs(TASKS, 1) / 1000).toFixed(0)} s (${Math.ceil(TASKS / POINTS)} window resets of ${WINDOW_SECONDS} s); target ≤ 1.05×, 0 failed, ≤ 1 answer 429 per window`,
		met:
			alone.elapsed <= minimumMs(TASKS, 1) * 1.05 &&
			alone.failed === 0 &&
			alone.accepted === TASKS &&
			alone.distinct === TASKS &&
			alone.refused.length <= windowsA,
	});

	// b) Two triggers checking every 10 s beside a bulk job: they skip their checks while the job
	//    waits for points, and deliver every change once it is done.
	const JOB = POINTS * 2;
	await sandbox.reset();
	await sandbox.control('limits', { points: POINTS, windowSeconds: WINDOW_SECONDS });
	const taskTrigger = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'] }, apiCredential(), {}, 'Task Trigger');
	const eventTrigger = new PollHarness(
		new CtsEventTrigger(),
		'ctsEventTrigger',
		{ accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', events: ['created'], lookAheadDays: 30 },
		apiCredential(),
		{},
		'Event Trigger',
	);
	await taskTrigger.poll();
	await eventTrigger.poll();
	await sandbox.clearRequests();
	const delivered = new Map<string, number>();
	let checks = 0;
	let done = false;
	const checking = (async () => {
		while (!done) {
			for (const trigger of [taskTrigger, eventTrigger]) {
				checks++;
				for (const { json } of (await trigger.poll())?.[0] ?? []) delivered.set(String(json.id), (delivered.get(String(json.id)) ?? 0) + 1);
			}
			await new Promise((resolve) => setTimeout(resolve, 10_000));
		}
	})();
	log(`bulk: ${JOB} creates beside a task trigger and an event trigger checking every 10 s (about ${Math.round(minimumMs(JOB + 20) / 1000)} s)…`);
	const beside = await bulkCreates(JOB, 'beside');
	done = true;
	await checking;
	const listCalls = (await sandbox.requests()).filter((call) => call.path.endsWith('/list')).length;
	// After the job: the triggers catch up once the budget lets them.
	const catchUpStart = Date.now();
	while ([...delivered.keys()].length < JOB && Date.now() - catchUpStart < 2 * windowMs) {
		for (const { json } of (await taskTrigger.poll())?.[0] ?? []) delivered.set(String(json.id), (delivered.get(String(json.id)) ?? 0) + 1);
		await new Promise((resolve) => setTimeout(resolve, 5_000));
	}
	const twice = [...delivered.values()].filter((times) => times > 1).length;
	rows.push({
		section: '6',
		benchmark: `Bulk beside triggers: ${count(JOB)} task creates, a task trigger and an event trigger checking every 10 s, one budget of ${POINTS} per ${WINDOW_SECONDS} s`,
		measured: `${(beside.elapsed / 1000).toFixed(1)} s = ${ratio(beside.elapsed / minimumMs(JOB + 20))} the budget's minimum; ${beside.failed} failed; ${beside.refused.length} answers 429; ${checks} checks, ${listCalls} list calls while the job ran; after it, ${delivered.size} tasks delivered, ${twice} twice`,
		reference: `${(minimumMs(JOB + 20) / 1000).toFixed(0)} s (the job's points and the triggers' first checks); target ≤ 1.05×, 0 failed, checks skipped while the job waits, every task delivered once`,
		met: beside.elapsed <= minimumMs(JOB + 20) * 1.05 && beside.failed === 0 && listCalls < checks && delivered.size >= JOB && twice === 0,
	});
}

// ---------------------------------------------------------------------------------------------
// 7. The sandbox's throughput (its own benchmark, `npm run bench:sandbox`)
// ---------------------------------------------------------------------------------------------
async function sectionSandbox(): Promise<void> {
	const script = join(__dirname, '..', 'sandbox', 'bench.js');
	const seconds = process.env.BENCH_SANDBOX_SECONDS ?? '3';
	const run = spawnSync(process.execPath, [script], { env: { ...process.env, BENCH_SECONDS: seconds }, encoding: 'utf8' });
	if (run.status !== 0) throw new Error(`sandbox bench failed: ${run.stderr}`);
	const header = run.stdout.split('\n').find((line) => line.startsWith('sandbox at')) ?? '';
	for (const line of run.stdout.split('\n')) {
		const throughput = /^(.+?)\s+(\d+) requests\/s(.*)$/.exec(line.trim());
		if (throughput) {
			rows.push({
				section: '7',
				benchmark: `Sandbox: ${throughput[1].trim()}`,
				measured: `${count(Number(throughput[2]))} requests/s${throughput[3]}`,
				reference: header.replace(/^sandbox at \S+: /, ''),
			});
			continue;
		}
		// Times: the list over 200 series, the recurrence expander, injected delays.
		const time = /^(.+?)\s{2,}(\d[\d.]* (?:ms|µs) .*?)(?:; (target\b.*))?$/.exec(line.trim());
		if (time) rows.push({ section: '7', benchmark: `Sandbox: ${time[1].trim()}`, measured: time[2], reference: time[3] ?? '' });
	}
}

// ---------------------------------------------------------------------------------------------
// 8. npm start: time to ready when everything is set up, against n8n alone
// ---------------------------------------------------------------------------------------------
async function sectionStart(): Promise<void> {
	const run = spawnSync(process.execPath, [join(ROOT, 'test', 'bench', 'startup.mjs')], {
		env: process.env,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	if (run.status !== 0) throw new Error(`npm start bench failed (exit ${run.status})`);
	const { n8nVersion, firstSeconds, startSeconds, aloneSeconds } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
		n8nVersion: string;
		firstSeconds: number;
		startSeconds: number[];
		aloneSeconds: number[];
	};
	const seconds = (value: number) => `${value.toFixed(1)} s`;
	const ratios = startSeconds.map((value, round) => value / aloneSeconds[round]);
	const startMedian = median(startSeconds);
	rows.push({
		section: '8',
		benchmark: 'npm start, second start (install and setup reused): time until it prints that it is ready',
		measured: `${seconds(startMedian)} (median of ${startSeconds.length}: ${startSeconds.map(seconds).join(', ')}) = ${ratio(median(ratios))} n8n alone (rounds ${ratio(Math.min(...ratios))}–${ratio(Math.max(...ratios))}); the first start, which sets up the owner, credentials and workflows: ${seconds(firstSeconds)}`,
		reference: `n8n ${n8nVersion} alone, same runtime, user folder and package, until its editor is served: ${seconds(median(aloneSeconds))} (${aloneSeconds.map(seconds).join(', ')}); target < 60 s`,
		met: startMedian < 60,
	});
}

// ---------------------------------------------------------------------------------------------

function versionOf(name: string): string {
	return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`, { paths: [ROOT] }), 'utf8')) as { version: string }).version;
}

function environment(): string[] {
	const cpu = cpus();
	let os = `${process.platform} ${process.arch}`;
	try {
		os = execFileSync('uname', ['-sr'], { encoding: 'utf8' }).trim();
	} catch {
		// not a Unix: keep the platform name
	}
	return [
		`- CPU: ${cpu[0]?.model ?? 'unknown'} × ${cpu.length}; OS: ${os}`,
		`- Node ${process.version}; n8n-core ${versionOf('n8n-core')}, n8n-workflow ${versionOf('n8n-workflow')}, n8n-nodes-base ${NODES_BASE_VERSION} (HTTP Request node ${HTTP_REQUEST_VERSION})`,
		`- Sandbox in a child process on 127.0.0.1; section 1: ${count(ITEMS)} items, median of ${RUNS} runs after a warm-up; date ${new Date().toISOString().slice(0, 10)}`,
	];
}

const SECTIONS: Record<string, () => Promise<void>> = {
	'1': sectionCreate,
	'2': sectionGetMany,
	'3': sectionEvents,
	'4': sectionTriggers,
	'5': sectionOperations,
	'6': sectionBulk,
	'7': sectionSandbox,
	'8': sectionStart,
	'9': async () => await sectionFreeTime(rows, log),
	'10': async () => await sectionBudgetJob(engine, sandbox, rows, log, WINDOW_SECONDS),
	'11': async () => {
		// Two more sandboxes: the three jobs compared run side by side, each with its own budget and request log.
		const others = [new SandboxProcess(), new SandboxProcess()];
		for (const other of others) await other.start();
		try {
			await sectionSyncJob(engine, [sandbox, ...others], rows, log, WINDOW_SECONDS);
		} finally {
			for (const other of others) await other.stop();
		}
	},
};

async function main(): Promise<void> {
	if (!canCollectGarbage()) throw new Error('Run with node --expose-gc (npm run bench does)');
	// Section 9 brings its own engine and sandbox; the others need n8n's HTTP Request node (installed on first use).
	if (!only || only.some((id) => id !== '9')) engine = createEngine();
	await sandbox.start();
	const started = Date.now();
	try {
		for (const [id, section] of Object.entries(SECTIONS)) {
			if (only && !only.includes(id)) continue;
			log(`section ${id}…`);
			await section();
		}
	} finally {
		await sandbox.stop();
	}
	const output = [...environment(), `- Whole run: ${((Date.now() - started) / 1000).toFixed(0)} s`, '', table(rows)].join('\n');
	console.log(output);
	if (args.includes('--record')) {
		record(join(ROOT, 'BENCHMARKS.md'), output);
		log('recorded in BENCHMARKS.md');
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
