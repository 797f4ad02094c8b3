/**
 * The triggers at real scale: what a backlog, several triggers of one user and an idle schedule
 * cost under the service's real budget (300 points per 900-second window, with RateLimit-*
 * headers), polled every minute through n8n's PollContext. The sandbox runs in a child process
 * with its clock frozen; this process's clock (`Date.now`, which the package's budget reads) is
 * moved with it, so each 15-minute window passes in a step. Prints one Markdown table.
 *
 * Run: `npm run build && npx tsc -p tsconfig.bench.json && node build/test/bench/triggers.js`
 */
// First: sets n8n's environment before n8n-core loads, and loads the nodes.
import { apiCredential, CtsEventTrigger, CtsTaskTrigger } from './setup';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { PollHarness, withPollTimes } from '../harness/engine';
import { timedEvent } from '../harness/sandboxClient';
import { table, type Row } from './report';
import { SandboxProcess } from './sandboxProcess';

const START = Date.parse('2026-12-01T08:00:00.000Z');
const WINDOW_S = 900;
const SHARE = 25;
const EVERY_MINUTE = { item: [{ mode: 'everyMinute' }] };
/** What the share holds per window in whole list calls: 25% of 300 is 75 points, 7 list calls, 70 points. */
const ALLOWANCE = Math.floor((300 * SHARE) / 100 / 10) * 10;
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
	await sandbox.control('limits', { points: 300, windowSeconds: WINDOW_S });
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
	const ids = await sandbox.createDistinctTasks(3500, 'backlog');
	await sandbox.control('limits', { points: 300, windowSeconds: WINDOW_S });
	await advance(WINDOW_S);
	await sandbox.clearRequests();
	const delivered = new Map<string, number>();
	const { minutes, readMinutes } = await pollEveryMinute([trigger], 15 * 10, (_, item) => delivered.set(String(item.id), (delivered.get(String(item.id)) ?? 0) + 1), () => delivered.size >= ids.length);
	const usage = await sandbox.usage();
	const once = [...delivered.values()].every((times) => times === 1) && delivered.size === ids.length;
	const windows = Math.ceil(minutes / 15);
	rows.push({
		section: 'T1',
		benchmark: `Task Trigger, backlog of 3,500 changes, share ${SHARE}%, every minute`,
		measured: `${delivered.size} delivered${once ? ' once each' : ' (NOT once each)'} in ${windows} windows; ${usage.calls} list calls, ${usage.points} points (${(usage.points / ids.length).toFixed(3)} per change); longest pause between reads ${maxGap(readMinutes)} min; ${usage.statuses['429'] ?? 0} refused`,
		reference: `points ÷ allowance per window (${ALLOWANCE}) + 1 = ${Math.floor(usage.points / ALLOWANCE + 1)} windows; before: 0 delivered, 300 points per window`,
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
	rows.push({
		section: 'T3',
		benchmark: `Idle Task Trigger, share ${SHARE}%, every minute: when it reads, over 2 windows`,
		measured: `minutes ${readMinutes.join(', ')}; ${firstWindow.length} reads in the first window, longest pause ${maxGap(readMinutes)} min`,
		reference: `7 reads per window (75 points), one every 900 ÷ 7 = 129 s; before: 7 at once, then 8 minutes of silence`,
		met: firstWindow.length <= 7 && maxGap(readMinutes) * 60 <= WINDOW_S / 7 + 60,
	});
}

async function eventDeletions(): Promise<void> {
	await fresh();
	await sandbox.unlimited();
	const ids: string[] = [];
	for (let index = 0; index < 350; index++) {
		const day = 2 + (index % 12);
		const start = `2026-12-${String(day).padStart(2, '0')}T${String(8 + (index % 10)).padStart(2, '0')}:00:00`;
		const { body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ title: `e${index}`, start }) });
		ids.push(String(body.data.event.id));
	}
	await sandbox.control('limits', { points: 300, windowSeconds: WINDOW_S });
	const trigger = eventTrigger('Deletions');
	await trigger.poll();
	await sandbox.unlimited();
	for (const id of ids) await sandbox.api('POST', '/v3/events/delete', { body: { id, ...target } });
	await sandbox.control('limits', { points: 300, windowSeconds: WINDOW_S });
	await advance(WINDOW_S);
	await sandbox.clearRequests();
	const cancelled = new Map<string, number>();
	const { minutes } = await pollEveryMinute([trigger], 15 * 14, (_, item) => cancelled.set(String(item.id), (cancelled.get(String(item.id)) ?? 0) + 1), () => cancelled.size >= ids.length);
	const usage = await sandbox.usage();
	const once = cancelled.size === ids.length && [...cancelled.values()].every((times) => times === 1);
	const windows = Math.ceil(minutes / 15);
	rows.push({
		section: 'T4',
		benchmark: `Event Trigger, 350 events deleted, share ${SHARE}%, every minute`,
		measured: `${cancelled.size} cancellations${once ? ' once each' : ' (NOT once each)'} in ${windows} windows; ${usage.byPath['GET /v3/events'] ?? 0} reads, ${usage.byPath['GET /v3/events/list'] ?? 0} list calls, ${usage.points} points (${(usage.points / ids.length).toFixed(2)} per change)`,
		reference: `one read per deleted event (350), points ÷ allowance (${ALLOWANCE}) + 1 = ${Math.floor(usage.points / ALLOWANCE + 1)} windows; before: 291 reads per poll, 0 delivered`,
		met: once && windows <= Math.floor(usage.points / ALLOWANCE + 1),
	});
}

async function main(): Promise<void> {
	await sandbox.start();
	try {
		await backlog();
		const one = await severalTaskTriggers(1);
		const four = await severalTaskTriggers(4);
		rows.push({
			section: 'T2',
			benchmark: 'Task Triggers of one user, every minute, 40 changes over 2 windows: 1 trigger against 4',
			measured: `1 trigger: ${one.calls} list calls, ${one.points} points for ${one.delivered} deliveries (${(one.points / one.delivered).toFixed(2)} per delivered change); 4 triggers: ${four.calls} list calls, ${four.points} points for ${four.delivered} (${(four.points / four.delivered).toFixed(2)})`,
			reference: 'at most 1.25 × one trigger; before: one feed per trigger (4 ×)',
			met: four.calls <= one.calls * 1.25,
		});
		await idleSpacing();
		await eventDeletions();
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
