/**
 * The triggers on every account's budget: 100, 300 and 500 points per 15-minute window (and a
 * budget counted in requests), through the engine (PollHarness) against the sandbox with its real
 * `RateLimit-*` headers and 900-second windows, far longer than the poll schedule (every minute)
 * and the poll's wait for the budget (a minute). Time is controlled: the sandbox's clock is frozen
 * and moved by the test, and this process's clock (`Date.now`, which the pacing reads) moves with
 * it, so a window passes in a step.
 *
 * At the smallest share the editor allows and at the default, a backlog that needs several
 * windows is delivered exactly once, and no window passes without a check.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { checksPerWindow, COST_TABLE, DEFAULT_BUDGET_SHARE, MIN_BUDGET_SHARE, sharePoints } from '../../../nodes/shared/pacing/costModel';
import { PollHarness, withPollTimes } from '../../harness/engine';
import { timedEvent } from '../../harness/sandboxClient';
import { triggerSandbox } from '../../harness/triggerSandbox';

const { sandbox, target, credentials } = triggerSandbox();
const START = Date.parse('2026-12-01T08:00:00.000Z');
const WINDOW_S = 900;
const EVERY_MINUTE = { item: [{ mode: 'everyMinute' }] };

let now = START;
beforeEach(() => {
	now = START;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

async function advance(seconds: number) {
	await sandbox.control('clock', { advanceSeconds: seconds });
	now += seconds * 1000;
}

interface Account {
	name: string;
	points: number;
	counting?: 'requests';
}
const ACCOUNTS: Account[] = [
	{ name: '100 points', points: 100 },
	{ name: '300 points', points: 300 },
	{ name: '500 points', points: 500 },
];
const accountBudget = async (account: Account) =>
	await sandbox.control('limits', { points: account.points, windowSeconds: WINDOW_S, ...(account.counting ? { counting: account.counting } : {}) });

/** The minute since `startMs` each request to these paths was answered at, from the sandbox's log. */
async function requestMinutes(startMs: number, paths: (path: string) => boolean): Promise<number[]> {
	return (await sandbox.requests()).filter((call) => paths(call.path)).map((call) => Math.floor((Date.parse(call.time) - startMs) / 60_000));
}

/** The windows of the run (15 polls each) in which the trigger sent nothing. */
function windowsWithoutCheck(checkMinutes: number[], minutes: number): number[] {
	const windows = Math.ceil(minutes / 15);
	return Array.from({ length: windows }, (_, window) => window).filter((window) => !checkMinutes.some((minute) => Math.floor(minute / 15) === window));
}

const ids = (result: INodeExecutionData[][] | null) => (result?.[0] ?? []).map((item) => String(item.json.id));

function taskTrigger(share: number) {
	return new PollHarness(
		withPollTimes(new CtsTaskTrigger()),
		'ctsTaskTrigger',
		{ events: ['created', 'updated'], filters: {}, options: { budgetShare: share }, pollTimes: EVERY_MINUTE },
		credentials(),
		{},
		`Task Trigger ${share}%`,
	);
}

/** Tasks the size of two and a half windows of the share's pages (100 tasks per list call), made without charging the trigger's budget. */
async function backlogFor(account: Account, share: number): Promise<string[]> {
	const pagesPerWindow = checksPerWindow(account.points, share, account.counting ? 1 : COST_TABLE.list);
	const count = Math.ceil(pagesPerWindow * 100 * 2.5);
	await sandbox.control('limits', { points: null });
	const created: string[] = [];
	for (let index = 0; index < count; index++) {
		if (index % 50 === 0) await advance(1);
		created.push(await sandbox.createTask({ title: `backlog ${index}` }));
	}
	return created;
}

/**
 * A Task Trigger with this share, activated on this account, then a backlog of two and a half
 * windows of its pages, polled every minute once the activation's window is over until all is
 * delivered: what each task was delivered, and the minutes (since then) of its list calls.
 */
async function readBacklog(account: Account, share: number) {
	const trigger = taskTrigger(share);
	await accountBudget(account);
	expect(await trigger.poll()).toBeNull();
	const created = await backlogFor(account, share);
	await advance(WINDOW_S);
	await accountBudget(account);
	await sandbox.clearRequests();
	const startMs = now;
	const delivered = new Map<string, number>();
	let minutes = 0;
	while (delivered.size < created.length && minutes < 15 * 12) {
		for (const id of ids(await trigger.poll())) delivered.set(id, (delivered.get(id) ?? 0) + 1);
		await advance(60);
		minutes++;
	}
	const lists = await requestMinutes(startMs, (path) => path.endsWith('/list'));
	const calls = await sandbox.requests();
	// All of it delivered: the next check finds nothing.
	expect(await trigger.poll()).toBeNull();
	return { created, delivered, minutes, lists, calls };
}

describe.each(ACCOUNTS)('Task Trigger on an account of $name', (account) => {
	it.each([MIN_BUDGET_SHARE, DEFAULT_BUDGET_SHARE])('at Budget Share %p%%: a backlog of several windows, each change once, a check in every window', async (share) => {
		const { created, delivered, minutes, lists, calls } = await readBacklog(account, share);
		const windows = Math.ceil(minutes / 15);
		console.log(`${account.name}, task trigger at ${share}%: ${created.length} changes in ${minutes} polls (${windows} windows), ${lists.length} list calls`);
		expect(delivered.size).toBe(created.length);
		expect([...delivered.values()].every((times) => times === 1)).toBe(true);
		expect(windows).toBeGreaterThanOrEqual(3);
		expect(windowsWithoutCheck(lists, minutes)).toEqual([]);
		expect(calls.every((call) => call.status === 200)).toBe(true);
		// Within its share in every window: the checks its share holds (at least one).
		const perWindow = checksPerWindow(account.points, share);
		for (let window = 0; window < windows; window++) {
			expect(lists.filter((minute) => Math.floor(minute / 15) === window).length).toBeLessThanOrEqual(perWindow + 1);
		}
	}, 180_000);
});

describe.each(ACCOUNTS)('Event Trigger on an account of $name', (account) => {
	it.each([MIN_BUDGET_SHARE, DEFAULT_BUDGET_SHARE])('at Budget Share %p%%: deletions of several windows, each cancellation once, a check in every window', async (share) => {
		const count = Math.max(25, Math.ceil(sharePoints(account.points, share) * 2.5));
		await sandbox.control('limits', { points: null });
		const events: string[] = [];
		for (let index = 0; index < count; index++) {
			const day = 2 + (index % 9);
			events.push(String((await sandbox.createEvent(timedEvent({ title: `e${index}`, start: `2026-12-${String(day).padStart(2, '0')}T10:00:00` }))).id));
		}
		const trigger = new PollHarness(
			withPollTimes(new CtsEventTrigger()),
			'ctsEventTrigger',
			{ accountId: target.accountId, calendarIds: target.calendarId, events: ['cancelled'], lookAheadDays: 14, lookBackDays: 0, options: { budgetShare: share }, pollTimes: EVERY_MINUTE },
			credentials(),
			{},
			`Event Trigger ${share}%`,
		);
		await accountBudget(account);
		expect(await trigger.poll()).toBeNull();
		await sandbox.control('limits', { points: null });
		for (const id of events) expect((await sandbox.api('POST', '/v3/events/delete', { body: { id, ...target } })).status).toBe(204);
		await advance(WINDOW_S);
		await accountBudget(account);
		await sandbox.clearRequests();
		const startMs = now;

		const cancelled = new Map<string, number>();
		let minutes = 0;
		while (cancelled.size < events.length && minutes < 15 * 16) {
			for (const { json } of (await trigger.poll())?.[0] ?? []) cancelled.set(String(json.id), (cancelled.get(String(json.id)) ?? 0) + 1);
			await advance(60);
			minutes++;
		}
		const checks = await requestMinutes(startMs, (path) => path.startsWith('/v3/events'));
		const windows = Math.ceil(minutes / 15);
		console.log(`${account.name}, event trigger at ${share}%: ${events.length} cancellations in ${minutes} polls (${windows} windows), ${checks.length} calls`);
		expect([...cancelled.keys()].sort()).toEqual([...events].sort());
		expect([...cancelled.values()].every((times) => times === 1)).toBe(true);
		expect(windows).toBeGreaterThanOrEqual(2);
		expect(windowsWithoutCheck(checks, minutes)).toEqual([]);
		const points = (await sandbox.requests()).reduce((sum, call) => sum + call.points, 0);
		// Never more than its share per window (one check's worth at least).
		expect(points).toBeLessThanOrEqual(windows * sharePoints(account.points, share));
	}, 180_000);
});

describe('a budget counted in requests', () => {
	it('the trigger reserves what the service counts (1 per list call), so its share holds more checks, and still delivers each change once', async () => {
		const { created, delivered, minutes, lists } = await readBacklog({ name: '300 requests', points: 300, counting: 'requests' }, MIN_BUDGET_SHARE);
		console.log(`300 requests, task trigger at 1%: ${created.length} changes in ${minutes} polls, ${lists.length} list calls`);
		expect(delivered.size).toBe(created.length);
		expect([...delivered.values()].every((times) => times === 1)).toBe(true);
		// 1% of 300 requests is 3: three checks per window once an answer showed that a list call counts 1
		// (the first check of the first window shows it), where 10 points a call would hold one.
		const secondWindow = lists.filter((minute) => Math.floor(minute / 15) === 1).length;
		expect(secondWindow).toBeGreaterThanOrEqual(2);
		expect(secondWindow).toBeLessThanOrEqual(3);
		expect(windowsWithoutCheck(lists, minutes)).toEqual([]);
	}, 180_000);
});
