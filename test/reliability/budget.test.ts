/**
 * The point budget with windows longer than a minute, as the service's real 15-minute window is
 * (the real one would make each test take most of an hour): bulk jobs paced at the budget's
 * rate, a wait interrupted by stopping the execution, and triggers that skip checks beside a
 * bulk job instead of starving it. The sandbox runs on the real clock here.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { Engine, PollHarness } from '../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../harness/sandboxClient';

const WINDOW_SECONDS = 65;
const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });
const credentials = () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

function startCreates(count: number, prefix: string) {
	return engine.startNode({
		type: 'ctsTask',
		parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false },
		credentials: credentials(),
		items: Array.from({ length: count }, (_, index) => ({ title: `${prefix} ${index}` })),
		// A bulk job of a published workflow: it waits for the budget (the editor's runs do not, see noSilentWaits.test.ts).
		mode: 'trigger',
	});
}

async function creates() {
	return (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/create');
}

it(`a job of three windows' points under a ${WINDOW_SECONDS}-second window: every task created exactly once, paced, with at most a handful of 429s`, async () => {
	await sandbox.control('limits', { points: 30, windowSeconds: WINDOW_SECONDS });
	const started = Date.now();
	const { items, error } = await startCreates(90, 'bulk').result;
	const seconds = (Date.now() - started) / 1000;
	expect(error).toBeUndefined();
	expect(items).toHaveLength(90);
	const calls = await creates();
	const accepted = calls.filter((call) => call.status === 200).map((call) => (call.body as { title: string }).title);
	const refused = calls.filter((call) => call.status === 429).length;
	console.log(`budget: 90 creates, 30 points per ${WINDOW_SECONDS} s: ${seconds.toFixed(1)} s, ${refused} answered 429`);
	expect(new Set(accepted).size).toBe(90);
	expect(accepted).toHaveLength(90);
	expect(refused).toBeLessThanOrEqual(3);
	expect(new Set(items.map((item) => item.json.id)).size).toBe(90);
}, 400_000);

it('stopping the execution while it waits for the budget ends it within a second', async () => {
	await sandbox.control('limits', { points: 30, windowSeconds: WINDOW_SECONDS });
	const job = startCreates(40, 'stopped');
	while ((await creates()).length < 30) await sleep(20);
	await sleep(500); // now waiting for the window to reset, about a minute away
	const stoppedAt = Date.now();
	job.cancel();
	const { items } = await job.result;
	const elapsed = Date.now() - stoppedAt;
	console.log(`budget: stopped while waiting, the run ended ${elapsed} ms later`);
	expect(elapsed).toBeLessThan(1000);
	expect(items.filter((item) => !item.json.error)).toHaveLength(0); // the node did not finish
	expect(await creates()).toHaveLength(30);
}, 60_000);

it('a task trigger and an event trigger checking beside a bulk job: the job completes, the triggers skip checks instead of starving it, and every change arrives exactly once', async () => {
	await sandbox.control('limits', { points: 120, windowSeconds: WINDOW_SECONDS });
	const taskTrigger = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'] }, credentials(), {}, 'Task Trigger');
	const eventTrigger = new PollHarness(
		new CtsEventTrigger(),
		'ctsEventTrigger',
		{ accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', events: ['created', 'updated', 'cancelled'], lookAheadDays: 30, lookBackDays: 0 },
		credentials(),
		{},
		'Event Trigger',
	);
	await taskTrigger.poll();
	await eventTrigger.poll();
	await sleep(1100); // changes after the triggers' start, on the service's whole-second clock

	const taskVersions = new Map<string, number>();
	const eventsCreated = new Map<string, number>();
	const expectedEvents: string[] = [];
	let checks = 0;
	const check = async () => {
		const record = (result: INodeExecutionData[][] | null, into: Map<string, number>, key: (json: IDataObject) => string | undefined) => {
			for (const { json } of result?.[0] ?? []) {
				const k = key(json);
				if (k) into.set(k, (into.get(k) ?? 0) + 1);
			}
		};
		record(await taskTrigger.poll(), taskVersions, (json) => `${json.id}@${json.updated}`);
		record(await eventTrigger.poll(), eventsCreated, (json) => (json.triggerEvent === 'created' ? String(json.id) : undefined));
		checks += 2;
	};
	const inThreeDays = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString().slice(0, 19);
	const makeEvent = async (title: string) => {
		const { status, body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ title, start: inThreeDays }) });
		if (status === 200) expectedEvents.push(body.data.event.id);
	};

	// Changes by another client of the account before the job, and (those the budget lets
	// through) during it.
	await makeEvent('before the job 1');
	await makeEvent('before the job 2');
	const early = [await sandbox.createTask({ title: 'before the job 1' }), await sandbox.createTask({ title: 'before the job 2' })];
	await sandbox.api('POST', '/v3/tasks/update', { body: { id: early[0], title: 'before the job 1, changed' } });

	const job = startCreates(200, 'job');
	const jobDone = job.result.then((result) => ({ ...result, finished: Date.now() }));
	let finished = false;
	void jobDone.then(() => (finished = true));
	let round = 0;
	while (!finished) {
		// "Every minute", compressed: a check of each trigger every 10 s, and now and then a change
		// made by another client of the account.
		if (round % 2 === 0) await makeEvent(`event ${round}`);
		await check();
		round++;
		await sleep(10_000);
	}
	const { items, error } = await jobDone;
	expect(error).toBeUndefined();
	expect(items).toHaveLength(200);
	const listCallsDuringJob = (await sandbox.requests()).filter((call) => call.method === 'GET' && call.path.endsWith('/list')).length;

	// After the job: the triggers deliver what they skipped, once the budget lets them.
	const deadline = Date.now() + 3 * WINDOW_SECONDS * 1000;
	const allTasks = async () => {
		const ids = new Map<string, string>();
		let after: string | undefined;
		for (;;) {
			const { status, body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100', ...(after ? { updatedAfter: after } : {}) } });
			if (status === 429) return undefined;
			const known = ids.size;
			for (const task of body.data.tasks) ids.set(task.id, `${task.id}@${task.updated}`);
			if (body.data.tasks.length < 100 || ids.size === known) return [...ids.values()];
			// updatedAfter is strict and tasks may share an `updated` value: start just before the last one.
			after = new Date(Date.parse(body.data.tasks.at(-1).updated) - 1).toISOString();
		}
	};
	let tasks: string[] | undefined;
	for (;;) {
		await check();
		tasks = (await allTasks()) ?? tasks;
		const complete =
			tasks !== undefined &&
			tasks.length >= 202 &&
			tasks.every((version) => taskVersions.has(version)) &&
			expectedEvents.every((id) => eventsCreated.has(id));
		if (complete || Date.now() > deadline) break;
		await sleep(5_000);
	}
	const duplicatedTasks = [...taskVersions.values()].filter((times) => times > 1).length;
	const duplicatedEvents = [...eventsCreated.values()].filter((times) => times > 1).length;
	const lostEvents = expectedEvents.filter((id) => !eventsCreated.has(id)).length;
	console.log(
		`budget: job of 200 beside two triggers: ${checks} checks, ${listCallsDuringJob} list calls while the job ran; ${taskVersions.size} task versions and ${eventsCreated.size} events delivered, ${duplicatedTasks + duplicatedEvents} twice, ${lostEvents} events lost`,
	);
	expect(listCallsDuringJob).toBeLessThan(checks); // checks were skipped while the job waited
	expect(duplicatedTasks).toBe(0);
	expect(duplicatedEvents).toBe(0);
	expect(lostEvents).toBe(0);
	// The service's open tasks, as last read (a read may meet the used-up budget: it is another client).
	expect(tasks?.length).toBeGreaterThanOrEqual(202);
	expect(tasks!.filter((version) => !taskVersions.has(version))).toEqual([]);
	expect(expectedEvents.length).toBeGreaterThanOrEqual(2);
	const jobCreates = (await creates()).filter((call) => call.status === 200 && String((call.body as { title: string }).title).startsWith('job'));
	expect(jobCreates).toHaveLength(200);
}, 900_000);
