/**
 * The triggers at real scale: what a backlog, several triggers of one user and an idle schedule
 * cost on accounts of 100 and 300 points per 900-second window (with RateLimit-* headers), polled
 * every minute through n8n's PollContext. The sandbox runs in a child process
 * with its clock frozen; this process's clock (`Date.now`, which the package's budget reads) is
 * moved with it, so each 15-minute window passes in a step. Prints one Markdown table.
 *
 * Run: `npm run build && npx tsc -p tsconfig.bench.json && node build/test/bench/triggers.js`
 */
// First: sets n8n's environment before n8n-core loads, and loads the nodes.
import { apiCredential, CtsEventTrigger, CtsTaskTrigger } from './setup';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { checksPerWindow, COST_TABLE } from '../../nodes/shared/pacing/costModel';
import { PollHarness, withPollTimes } from '../harness/engine';
import { timedEvent } from '../harness/sandboxClient';
import { table, type Row } from './report';
import { SandboxProcess } from './sandboxProcess';

const START = Date.parse('2026-12-01T08:00:00.000Z');
const WINDOW_S = 900;
const SHARE = 25;
const EVERY_MINUTE = { item: [{ mode: 'everyMinute' }] };
/** The accounts' budgets the rows are measured at. */
const BUDGETS = [100, 300];
/** What the share holds per window in whole list calls: 25% of 300 is 75 points, 7 list calls, 70 points; of 100, 2 and 20. */
const allowance = (points: number) => checksPerWindow(points, SHARE) * COST_TABLE.list;
/** A backlog of five windows of the share's pages. */
const backlogSize = (points: number) => checksPerWindow(points, SHARE) * 100 * 5;
/** Deletions of about five windows of the share's reads. */
const deletionsFor = (points: number) => Math.round(allowance(points) * 5);
let points = 300;
const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

let now = START;
Date.now = () => now;

const sandbox = new SandboxProcess();
const rows: Row[] = [];

async function advance(seconds: number): Promise<void> {
	now += seconds * 1000;
	await sandbox.freezeClock(new Date(now).toISOString());
}

async function fresh(): Promise<void> {
	await sandbox.reset();
	now = START;
	await sandbox.freezeClock(new Date(now).toISOString());
	await sandbox.control('limits', { points, windowSeconds: WINDOW_S });
}


const taskTrigger = (name: string) =>
	new PollHarness(withPollTimes(new CtsTaskTrigger()), 'ctsTaskTrigger', { events: ['created', 'updated'], filters: {}, options: { budgetShare: SHARE }, pollTimes: EVERY_MINUTE }, apiCredential(sandbox), {}, name);
const eventTrigger = (name: string) =>
	new PollHarness(
		withPollTimes(new CtsEventTrigger()),
		'ctsEventTrigger',
		{ ...target, calendarIds: target.calendarId, events: ['created', 'updated', 'cancelled'], lookAheadDays: 14, lookBackDays: 0, options: { budgetShare: SHARE }, pollTimes: EVERY_MINUTE },
		apiCredential(sandbox),
		{},
		name,
	);

const itemsOf = (result: INodeExecutionData[][] | null): IDataObject[] => (result?.[0] ?? []).map((item) => item.json);

/** Polls every minute until `done` or `maxMinutes`; the minutes at which a list call was sent. */
async function pollEveryMinute(triggers: PollHarness[], maxMinutes: number, deliver: (index: number, item: IDataObject) => void, done = () => false) {
	const readMinutes: number[] = [];
	let minutes = 0;
	while (!done() && minutes < maxMinutes) {
		const before = (await sandbox.requests()).length;
		for (const [index, trigger] of triggers.entries()) for (const item of itemsOf(await trigger.poll())) deliver(index, item);
		const calls = (await sandbox.requests()).slice(before);
		if (calls.some((call) => call.path.endsWith('/list'))) readMinutes.push(minutes);
		await advance(60);
		minutes++;
	}
	return { minutes, readMinutes };
}

const maxGap = (minutes: number[]) => Math.max(0, ...minutes.slice(1).map((minute, index) => minute - minutes[index]));

async function backlog(): Promise<void> {
	await fresh();
	const trigger = taskTrigger('Backlog');
	await trigger.poll();
	await sandbox.unlimited();
	const ids = await sandbox.createDistinctTasks(backlogSize(points), 'backlog');
	await sandbox.control('limits', { points, windowSeconds: WINDOW_S });
	await advance(WINDOW_S);
	await sandbox.clearRequests();
	const delivered = new Map<string, number>();
	const { minutes, readMinutes } = await pollEveryMinute([trigger], 15 * 12, (_, item) => delivered.set(String(item.id), (delivered.get(String(item.id)) ?? 0) + 1), () => delivered.size >= ids.length);
	const usage = await sandbox.usage();
	const once = [...delivered.values()].every((times) => times === 1) && delivered.size === ids.length;
	const windows = Math.ceil(minutes / 15);
	const ALLOWANCE = allowance(points);
	rows.push({
		section: 'T1',
		benchmark: `${points}-point account: Task Trigger, backlog of ${ids.length.toLocaleString('en-US')} changes, share ${SHARE}%, every minute`,
		measured: `${delivered.size} delivered${once ? ' once each' : ' (NOT once each)'} in ${windows} windows; ${usage.calls} list calls, ${usage.points} points (${(usage.points / ids.length).toFixed(3)} per change); longest pause between reads ${maxGap(readMinutes)} min; ${usage.statuses['429'] ?? 0} refused`,
		reference: `points ÷ allowance per window (${ALLOWANCE}) + 1 = ${Math.floor(usage.points / ALLOWANCE + 1)} windows; a check in every window`,
		met: once && windows <= Math.floor(usage.points / ALLOWANCE + 1),
	});
}

async function severalTaskTriggers(count: number): Promise<{ calls: number; delivered: number; points: number }> {
	await fresh();
	const triggers = Array.from({ length: count }, (_, index) => taskTrigger(`Trigger ${index}`));
	for (const trigger of triggers) await trigger.poll();
	await sandbox.clearRequests();
	let delivered = 0;
	for (let minute = 0; minute < 30; minute++) {
		if (minute % 3 === 0) for (let index = 0; index < 4; index++) await sandbox.createTask({ title: `m${minute}-${index}` });
		await pollEveryMinute(triggers, 1, () => delivered++);
	}
	await pollEveryMinute(triggers, 4, () => delivered++);
	const lists = (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/list');
	return { calls: lists.length, delivered, points: lists.reduce((sum, call) => sum + call.points, 0) };
}

async function idleSpacing(): Promise<void> {
	await fresh();
	const trigger = taskTrigger('Idle');
	await trigger.poll();
	await advance(WINDOW_S);
	await sandbox.clearRequests();
	const { readMinutes } = await pollEveryMinute([trigger], 30, () => undefined);
	const firstWindow = readMinutes.filter((minute) => minute < 15);
	const checks = checksPerWindow(points, SHARE);
	rows.push({
		section: 'T3',
		benchmark: `${points}-point account: idle Task Trigger, share ${SHARE}%, every minute: when it reads, over 2 windows`,
		measured: `minutes ${readMinutes.join(', ')}; ${firstWindow.length} reads in the first window, longest pause ${maxGap(readMinutes)} min`,
		reference: `${checks} reads per window (${allowance(points)} points), one every 900 ÷ ${checks} = ${Math.round(WINDOW_S / checks)} s`,
		met: firstWindow.length <= checks && firstWindow.length >= 1 && maxGap(readMinutes) * 60 <= WINDOW_S / checks + 60,
	});
}

async function eventDeletions(): Promise<void> {
	await fresh();
	await sandbox.unlimited();
	const ids: string[] = [];
	const count = deletionsFor(points);
	for (let index = 0; index < count; index++) {
		const day = 2 + (index % 12);
		const start = `2026-12-${String(day).padStart(2, '0')}T${String(8 + (index % 10)).padStart(2, '0')}:00:00`;
		const { body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ title: `e${index}`, start }) });
		ids.push(String(body.data.event.id));
	}
	await sandbox.control('limits', { points, windowSeconds: WINDOW_S });
	const trigger = eventTrigger('Deletions');
	await trigger.poll();
	await sandbox.unlimited();
	for (const id of ids) await sandbox.api('POST', '/v3/events/delete', { body: { id, ...target } });
	await sandbox.control('limits', { points, windowSeconds: WINDOW_S });
	await advance(WINDOW_S);
	await sandbox.clearRequests();
	const cancelled = new Map<string, number>();
	const { minutes } = await pollEveryMinute([trigger], 15 * 14, (_, item) => cancelled.set(String(item.id), (cancelled.get(String(item.id)) ?? 0) + 1), () => cancelled.size >= ids.length);
	const usage = await sandbox.usage();
	const once = cancelled.size === ids.length && [...cancelled.values()].every((times) => times === 1);
	const windows = Math.ceil(minutes / 15);
	const ALLOWANCE = allowance(points);
	rows.push({
		section: 'T4',
		benchmark: `${points}-point account: Event Trigger, ${count} events deleted, share ${SHARE}%, every minute`,
		measured: `${cancelled.size} cancellations${once ? ' once each' : ' (NOT once each)'} in ${windows} windows; ${usage.byPath['GET /v3/events'] ?? 0} reads, ${usage.byPath['GET /v3/events/list'] ?? 0} list calls, ${usage.points} points (${(usage.points / ids.length).toFixed(2)} per change)`,
		reference: `one read per deleted event (${count}), points ÷ allowance (${ALLOWANCE}) + 1 = ${Math.floor(usage.points / ALLOWANCE + 1)} windows`,
		met: once && windows <= Math.floor(usage.points / ALLOWANCE + 1),
	});
}

async function main(): Promise<void> {
	await sandbox.start();
	try {
		for (const budget of BUDGETS) {
			points = budget;
			await backlog();
			await idleSpacing();
			await eventDeletions();
		}
		points = 300;
		const one = await severalTaskTriggers(1);
		const four = await severalTaskTriggers(4);
		rows.push({
			section: 'T2',
			benchmark: '300-point account: Task Triggers of one user, every minute, 40 changes over 2 windows: 1 trigger against 4',
			measured: `1 trigger: ${one.calls} list calls, ${one.points} points for ${one.delivered} deliveries (${(one.points / one.delivered).toFixed(2)} per delivered change); 4 triggers: ${four.calls} list calls, ${four.points} points for ${four.delivered} (${(four.points / four.delivered).toFixed(2)})`,
			reference: 'at most 1.25 × one trigger; before: one feed per trigger (4 ×)',
			met: four.calls <= one.calls * 1.25,
		});
	} finally {
		await sandbox.stop();
	}
	rows.sort((a, b) => a.section.localeCompare(b.section));
	console.log(table(rows));
	if (rows.some((row) => row.met === false)) process.exitCode = 1;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
