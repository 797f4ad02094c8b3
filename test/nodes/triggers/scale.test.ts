/**
 * The triggers at real scale, through the engine (PollHarness) against the sandbox with its real
 * budget (300 points per 900 s window, with RateLimit-* headers) and a window far longer than the
 * poll schedule (every minute). Time is controlled: the sandbox's clock is frozen and moved by
 * the test, and this process's clock (`Date.now`, which the package's budget reads) moves with it,
 * so a 15-minute window passes in a step.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
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

/** Moves both clocks on. */
async function advance(seconds: number) {
	await sandbox.control('clock', { advanceSeconds: seconds });
	now += seconds * 1000;
}

const realBudget = async () => await sandbox.control('limits', { points: 300, windowSeconds: WINDOW_S });


function taskTrigger(name: string, parameters: IDataObject = {}) {
	return new PollHarness(
		withPollTimes(new CtsTaskTrigger()),
		'ctsTaskTrigger',
		{ events: ['created', 'updated'], filters: {}, options: {}, pollTimes: EVERY_MINUTE, ...parameters },
		credentials(),
		{},
		name,
	);
}

/** Creates `count` tasks, `perSecond` of them on each `updated` value, without charging the trigger's budget. */
async function backlog(count: number, perSecond = 50): Promise<string[]> {
	await sandbox.control('limits', { points: null });
	const ids: string[] = [];
	for (let index = 0; index < count; index++) {
		if (index % perSecond === 0) await advance(1);
		ids.push(await sandbox.createTask({ title: `backlog ${index}` }));
	}
	await realBudget();
	return ids;
}

const ids = (result: INodeExecutionData[][] | null) => (result?.[0] ?? []).map((item) => String(item.json.id));

/** The list calls the sandbox answered since the log was cleared, with their (sandbox) times. */
async function listCalls() {
	return (await sandbox.requests()).filter((call) => call.path.endsWith('/list'));
}

describe('task trigger', () => {
	it('a backlog of 3,500 changes is delivered exactly once within the windows its share allows, one page per evenly spaced read, never refused', async () => {
		await realBudget();
		const trigger = taskTrigger('Backlog');
		expect(await trigger.poll()).toBeNull();
		const created = await backlog(3500, 10);
		// The activation's window is over: the next starts with the trigger's first read.
		await advance(WINDOW_S);
		await sandbox.clearRequests();

		const delivered = new Map<string, number>();
		let minutes = 0;
		const readMinutes: number[] = [];
		while (delivered.size < created.length && minutes < 15 * 8) {
			const before = (await listCalls()).length;
			for (const id of ids(await trigger.poll())) delivered.set(id, (delivered.get(id) ?? 0) + 1);
			if ((await listCalls()).length > before) readMinutes.push(minutes);
			await advance(60);
			minutes++;
		}
		const calls = await listCalls();
		const windows = Math.ceil(minutes / 15);
		const points = calls.reduce((sum, call) => sum + call.points, 0);
		console.log(`task backlog: 3500 changes in ${minutes} polls (${windows} windows), ${calls.length} list calls, ${points} points, ${(points / 3500).toFixed(3)} points per delivered change`);
		expect(delivered.size).toBe(3500);
		expect([...delivered.values()].every((times) => times === 1)).toBe(true);
		expect(calls.every((call) => call.status === 200)).toBe(true);
		// Its points divided by its allowance per window (75 points of share: 7 list calls, 70 points), plus one.
		expect(windows).toBeLessThanOrEqual(Math.floor(points / 70 + 1));
		// At most its share (75 points) in any window, and reads evenly spaced: 128 s apart at 25%,
		// so no gap longer than that plus one tick of the schedule.
		for (let window = 0; window < windows; window++) {
			expect(readMinutes.filter((minute) => Math.floor(minute / 15) === window).length).toBeLessThanOrEqual(7);
		}
		const gaps = readMinutes.slice(1).map((minute, index) => (minute - readMinutes[index]) * 60);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(WINDOW_S / 7 + 60);
		expect(await trigger.poll()).toBeNull();
	}, 120_000);

	it('with Task Completed chosen, the full reads of the open tasks keep the even pacing, and a completion is delivered once', async () => {
		await realBudget();
		const open = await backlog(150, 50);
		const trigger = taskTrigger('Completed', { events: ['completed'] });
		await advance(WINDOW_S);
		// Learning the open tasks: one page per evenly spaced read; then a window of its own.
		for (let minute = 0; minute < 5; minute++) {
			expect(await trigger.poll()).toBeNull();
			await advance(60);
		}
		await sandbox.control('limits', { points: null });
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: open[7] } });
		await advance(WINDOW_S);
		await realBudget();
		await sandbox.clearRequests();

		const readMinutes: number[] = [];
		const completed: string[] = [];
		for (let minute = 0; minute < 30; minute++) {
			const before = (await listCalls()).length;
			completed.push(...ids(await trigger.poll()));
			if ((await listCalls()).length > before) readMinutes.push(minute);
			await advance(60);
		}
		expect(completed).toEqual([open[7]]);
		// A full read is two pages, read one per evenly spaced check (one every 128 s at 25%), never two
		// in the same or the next minute, and no pause longer than that spacing plus one tick.
		const gaps = readMinutes.slice(1).map((minute, index) => (minute - readMinutes[index]) * 60);
		expect(readMinutes.length).toBeGreaterThanOrEqual(4);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(120);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(WINDOW_S / 7 + 60);
	}, 120_000);

	it('four triggers of one user share one feed: at most 1.25 times the list calls of one, each change delivered once to each', async () => {
		const run = async (count: number) => {
			await sandbox.reset();
			await sandbox.control('clock', { now: new Date(START).toISOString() });
			now = START;
			await realBudget();
			const triggers = Array.from({ length: count }, (_, index) =>
				taskTrigger(`Trigger ${index}`, index % 2 === 0 ? {} : { filters: { priorities: [1] } }),
			);
			for (const trigger of triggers) expect(await trigger.poll()).toBeNull();
			await sandbox.clearRequests();
			const expected = new Map<string, number>();
			const delivered = triggers.map(() => new Map<string, number>());
			for (let minute = 0; minute < 30; minute++) {
				if (minute % 3 === 0) {
					for (let index = 0; index < 4; index++) {
						const priority = index % 2 === 0 ? 1 : 5;
						const id = await sandbox.createTask({ title: `m${minute}-${index}`, priority });
						expected.set(id, priority);
					}
				}
				await advance(1);
				for (const [index, trigger] of triggers.entries()) {
					for (const id of ids(await trigger.poll())) delivered[index].set(id, (delivered[index].get(id) ?? 0) + 1);
				}
				await advance(59);
			}
			// Drain: the schedule goes on until each has read to the end.
			for (let minute = 0; minute < 4; minute++) {
				for (const [index, trigger] of triggers.entries()) {
					for (const id of ids(await trigger.poll())) delivered[index].set(id, (delivered[index].get(id) ?? 0) + 1);
				}
				await advance(60);
			}
			for (const [index, got] of delivered.entries()) {
				const wanted = [...expected].filter(([, priority]) => index % 2 === 0 || priority === 1).map(([id]) => id);
				expect([...got.keys()].sort()).toEqual(wanted.sort());
				expect([...got.values()].every((times) => times === 1)).toBe(true);
			}
			return (await listCalls()).length;
		};
		const one = await run(1);
		const four = await run(4);
		console.log(`task triggers of one user over 2 windows: 1 trigger ${one} list calls, 4 triggers ${four}`);
		expect(four).toBeLessThanOrEqual(one * 1.25);
	}, 120_000);

	it('a budget learnt in the middle of a poll (the answers before carried no headers) holds that poll to its share', async () => {
		await sandbox.control('limits', { points: null });
		const trigger = taskTrigger('Learning');
		await trigger.poll();
		await backlog(1500, 10);
		await sandbox.clearRequests();
		const first = ids(await trigger.poll());
		const calls = await listCalls();
		// 25% of 300 points is 7 list calls; the activation's counts too: 6 pages, each delivered.
		expect(calls).toHaveLength(6);
		expect(first.length).toBeGreaterThan(500);
		expect(new Set(first).size).toBe(first.length);
	});

	it('answers without rate-limit headers never hold a poll: every poll reads at once', async () => {
		await sandbox.control('limits', { points: null });
		const trigger = taskTrigger('Unmetered', { options: { budgetShare: 1 } });
		await trigger.poll();
		await sandbox.clearRequests();
		const started = performance.now();
		for (let poll = 0; poll < 40; poll++) {
			await sandbox.createTask({ title: `t${poll}` });
			await advance(60);
			expect(ids(await trigger.poll())).toHaveLength(1);
		}
		expect((await listCalls()).length).toBe(40);
		expect(performance.now() - started).toBeLessThan(20_000);
	});
});

describe('event trigger', () => {
	function eventTrigger(name: string, events = ['created', 'updated', 'cancelled']) {
		return new PollHarness(
			withPollTimes(new CtsEventTrigger()),
			'ctsEventTrigger',
			{
				accountId: target.accountId,
				calendarIds: target.calendarId,
				events,
				lookAheadDays: 14,
				lookBackDays: 0,
				options: {},
				pollTimes: EVERY_MINUTE,
			},
			credentials(),
			{},
			name,
		);
	}
	const reads = async () => (await sandbox.requests()).filter((call) => call.path === '/v3/events');

	it('350 deleted events: each cancellation delivered once within the windows its share allows, the reads spread over the checks', async () => {
		await sandbox.control('limits', { points: null });
		const ids: string[] = [];
		for (let index = 0; index < 350; index++) {
			const day = 2 + (index % 12);
			ids.push(String((await sandbox.createEvent(timedEvent({ title: `e${index}`, start: `2026-12-${String(day).padStart(2, '0')}T${String(8 + (index % 10)).padStart(2, '0')}:00:00` }))).id));
		}
		await realBudget();
		const trigger = eventTrigger('Deletions');
		expect(await trigger.poll()).toBeNull();
		await sandbox.control('limits', { points: null });
		for (const id of ids) expect((await sandbox.api('POST', '/v3/events/delete', { body: { id, ...target } })).status).toBe(204);
		await realBudget();
		await advance(WINDOW_S);
		await sandbox.clearRequests();

		const cancelled = new Map<string, number>();
		let minutes = 0;
		while (cancelled.size < ids.length && minutes < 15 * 14) {
			for (const { json } of (await trigger.poll())?.[0] ?? []) {
				expect(json.triggerEvent).toBe('cancelled');
				cancelled.set(String(json.id), (cancelled.get(String(json.id)) ?? 0) + 1);
			}
			await advance(60);
			minutes++;
		}
		const calls = await sandbox.requests();
		const points = calls.reduce((sum, call) => sum + call.points, 0);
		const windows = Math.ceil(minutes / 15);
		console.log(`event deletions: 350 cancellations in ${minutes} polls (${windows} windows), ${(await reads()).length} reads, ${calls.length - (await reads()).length} list calls, ${points} points, ${(points / 350).toFixed(3)} points per delivered change`);
		expect([...cancelled.keys()].sort()).toEqual([...ids].sort());
		expect([...cancelled.values()].every((times) => times === 1)).toBe(true);
		expect(calls.every((call) => call.status === 200 || call.status === 404)).toBe(true);
		expect(await reads()).toHaveLength(350);
		expect(windows).toBeLessThanOrEqual(Math.floor(points / 70 + 1));
		await advance(WINDOW_S);
		expect(await trigger.poll()).toBeNull();
	}, 120_000);

	it('a budget learnt from the list call (the answers before carried no headers) holds the reads to the share; the rest follow', async () => {
		await sandbox.control('limits', { points: null });
		const ids: string[] = [];
		for (let index = 0; index < 100; index++) ids.push(String((await sandbox.createEvent(timedEvent({ title: `e${index}`, start: `2026-12-0${2 + (index % 7)}T10:00:00` }))).id));
		const trigger = new PollHarness(
			new CtsEventTrigger(),
			'ctsEventTrigger',
			{ accountId: target.accountId, calendarIds: target.calendarId, events: ['cancelled'], lookAheadDays: 14, lookBackDays: 0, options: {} },
			credentials(),
			{},
			'Learning',
		);
		expect(await trigger.poll()).toBeNull();
		for (const id of ids) expect((await sandbox.api('POST', '/v3/events/delete', { body: { id, ...target } })).status).toBe(204);
		await realBudget();
		await sandbox.clearRequests();
		const first = ((await trigger.poll())?.[0] ?? []).map((item) => String(item.json.id));
		// 75 points of share: the activation's list call and this one (20), then 55 reads.
		expect(first).toHaveLength(55);
		expect(await reads()).toHaveLength(55);
		await advance(WINDOW_S);
		const rest = ((await trigger.poll())?.[0] ?? []).map((item) => String(item.json.id));
		expect([...first, ...rest].sort()).toEqual([...ids].sort());
	});

	it('a deleted daily series costs one read, whatever its number of occurrences in the window', async () => {
		await realBudget();
		const trigger = eventTrigger('Series');
		expect(await trigger.poll()).toBeNull();
		const series = await sandbox.createEvent(
			timedEvent({ title: 'daily', start: '2026-12-01T10:00:00', timeZone: 'UTC', recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1 }] }),
		);
		await advance(300);
		expect((await trigger.poll())?.[0].length).toBe(14);
		expect((await sandbox.api('POST', '/v3/events/delete', { qs: { seriesUpdateMode: 'all' }, body: { id: series.id, ...target } })).status).toBe(204);
		await advance(300);
		await sandbox.clearRequests();
		const result = (await trigger.poll())?.[0] ?? [];
		expect(result.map((item) => item.json.triggerEvent)).toEqual(Array(14).fill('cancelled'));
		expect(new Set(result.map((item) => item.json.id)).size).toBe(14);
		expect((await reads()).map((call) => call.query.id)).toEqual([series.id]);
	});

	it('four triggers over the same account, calendars and window share their listing: at most 1.25 times the list calls of one, each change delivered once to each', async () => {
		const run = async (count: number) => {
			await sandbox.reset();
			await sandbox.control('clock', { now: new Date(START).toISOString() });
			now = START;
			await realBudget();
			const triggers = Array.from({ length: count }, (_, index) => eventTrigger(`Events ${index}`, index % 2 === 0 ? ['created', 'cancelled'] : ['created']));
			for (const trigger of triggers) expect(await trigger.poll()).toBeNull();
			await sandbox.clearRequests();
			const created: string[] = [];
			const deleted: string[] = [];
			const delivered = triggers.map(() => new Map<string, number>());
			const poll = async () => {
				for (const [index, trigger] of triggers.entries()) {
					for (const { json } of (await trigger.poll())?.[0] ?? []) {
						const key = `${json.triggerEvent}:${json.id}`;
						delivered[index].set(key, (delivered[index].get(key) ?? 0) + 1);
					}
				}
			};
			for (let minute = 0; minute < 30; minute++) {
				if (minute % 3 === 0) {
					const event = await sandbox.createEvent(timedEvent({ title: `m${minute}`, start: `2026-12-0${2 + (minute % 7)}T10:00:00` }));
					created.push(String(event.id));
					if (minute % 6 === 0 && created.length > 1) {
						const gone = created[created.length - 2];
						expect((await sandbox.api('POST', '/v3/events/delete', { body: { id: gone, ...target } })).status).toBe(204);
						deleted.push(gone);
					}
				}
				await advance(1);
				await poll();
				await advance(59);
			}
			for (let minute = 0; minute < 4; minute++) {
				await poll();
				await advance(60);
			}
			for (const [index, got] of delivered.entries()) {
				const wanted = [...created.map((id) => `created:${id}`), ...(index % 2 === 0 ? deleted.map((id) => `cancelled:${id}`) : [])];
				expect([...got.keys()].sort()).toEqual(wanted.sort());
				expect([...got.values()].every((times) => times === 1)).toBe(true);
			}
			const calls = await sandbox.requests();
			return { lists: calls.filter((call) => call.path === '/v3/events/list').length, reads: calls.filter((call) => call.path === '/v3/events').length };
		};
		const one = await run(1);
		const four = await run(4);
		console.log(`event triggers over one calendar over 2 windows: 1 trigger ${one.lists} list calls and ${one.reads} reads, 4 triggers ${four.lists} and ${four.reads}`);
		expect(four.lists).toBeLessThanOrEqual(one.lists * 1.25);
		expect(four.reads).toBeLessThanOrEqual(one.reads * 1.25);
	}, 120_000);
});
