/**
 * The restart test of both triggers, shared by queue mode (queue-mode.test.mjs) and
 * single-process n8n (restart.test.mjs). While a task trigger and an event trigger are published,
 * randomized task and event changes are made in the sandbox and n8n's main process is killed
 * (SIGKILL) and started again: every other kill right after the service answered a trigger's list
 * call, while that poll is being turned into an execution, the others at random moments; one
 * outage may last longer than a poll interval. What the triggers delivered is read back from
 * n8n's execution records.
 *
 * Every change must be delivered exactly once. For that to be a strict rule, a task or event is
 * changed again only after its previous version was delivered: no change can be hidden by a
 * later one before any poll saw it (a polling trigger only ever sees the current version).
 *
 * One loss is n8n's, not the trigger's: with n8n's default static data, a poll that returns items
 * has its static data saved before its execution is stored, so a kill between the two keeps the
 * poll's state and loses its items. When the caller can read the stored static data after a kill,
 * such losses are told apart: the change was first read by the killed poll, and the static data
 * stored at the kill already counts it as delivered.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

import { parseFlatted } from '../../../scripts/n8n-rest.mjs';
import { CREDENTIALS } from './workflows.mjs';

const CALENDAR = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
export const TASK_TRIGGER = 'CTS Task Trigger';
export const EVENT_TRIGGER = 'CTS Event Trigger';

/** A deterministic generator, so a failing run can be replayed from its printed seed. */
export function seededRandom(seed) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
	};
}

/**
 * n8n's "Every Minute" poll time. No outage longer than a poll interval: it would add a minute,
 * and the ten-second schedule shows that nothing polls while the main process is down.
 */
export const EVERY_MINUTE = { intervalMs: 60_000, pollTimes: () => ({ item: [{ mode: 'everyMinute' }] }) };

/**
 * A poll every ten seconds: six "Custom (Cron)" poll times, each firing once a minute (n8n refuses
 * one expression that fires more often than once a minute). One outage lasts longer than that.
 */
export const EVERY_TEN_SECONDS = {
	intervalMs: 10_000,
	longOutageMs: 12_000,
	pollTimes: (offsetSeconds) => ({
		item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${(second + offsetSeconds) % 60} * * * * *` })),
	}),
};

/** A task trigger and an event trigger workflow, polling on `schedule` (the event trigger 5 s later). */
export function restartTriggerWorkflows(prefix, idSuffix, schedule) {
	const trigger = (id, name, type, parameters) => ({
		id,
		name,
		nodes: [
			{
				id: randomUUID(),
				name: type === 'ctsTaskTrigger' ? TASK_TRIGGER : EVENT_TRIGGER,
				type: `${prefix}.${type}`,
				typeVersion: 1,
				position: [0, 0],
				parameters,
				credentials: { ctsApi: { id: CREDENTIALS.api.id, name: CREDENTIALS.api.name } },
			},
		],
		connections: {},
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	});
	return {
		schedule,
		task: trigger(`ctsRestartTask${idSuffix}`, `Restarts: task trigger (${idSuffix})`, 'ctsTaskTrigger', {
			pollTimes: schedule.pollTimes(0),
			events: ['created', 'updated'],
			filters: {},
		}),
		event: trigger(`ctsRestartEvnt${idSuffix}`, `Restarts: event trigger (${idSuffix})`, 'ctsEventTrigger', {
			pollTimes: schedule.pollTimes(5),
			...CALENDAR,
			calendarIds: CALENDAR.calendarId,
			events: ['created', 'updated', 'cancelled'],
			lookAheadDays: 14,
		}),
	};
}

/** The key of a delivered item: the task or event version, or the event's cancellation. */
function deliveryKey(kind, item) {
	return item.triggerEvent === 'cancelled' ? `${kind}:${item.id}@cancelled` : `${kind}:${item.id}@${item.updated}`;
}

/** The trigger's items of a stored execution: its output when it ran, else what it was started with. */
function triggerItems(data, triggerName) {
	const output = data?.resultData?.runData?.[triggerName]?.[0]?.data?.main?.[0];
	if (output) return output.map((item) => item.json);
	const start = (data?.executionData?.nodeExecutionStack ?? []).find((entry) => entry.node?.name === triggerName);
	return (start?.data?.main?.[0] ?? []).map((item) => item.json);
}

/**
 * What the triggers delivered, read from n8n's execution records: each execution of the two
 * trigger workflows, the items it carries, and its status.
 */
export class Deliveries {
	constructor(workflows) {
		this.workflows = workflows; // { task: id, event: id }
		this.byKey = new Map(); // key -> [{ executionId, triggerEvent }]
		this.executions = new Map(); // id -> { workflowId, status, items }
	}

	count(key) {
		return this.byKey.get(key)?.length ?? 0;
	}

	/** Reads the executions not read yet (and the status of all). Fails when n8n does not answer. */
	async refresh(rest) {
		for (const [kind, workflowId] of Object.entries(this.workflows)) {
			const triggerName = kind === 'task' ? TASK_TRIGGER : EVENT_TRIGGER;
			for (const summary of await rest.listAllExecutions(workflowId)) {
				const id = String(summary.id);
				const known = this.executions.get(id);
				if (known) {
					known.status = summary.status;
					continue;
				}
				const full = await rest.getExecution(id);
				const data = typeof full.data === 'string' ? parseFlatted(full.data) : full.data;
				const items = triggerItems(data, triggerName);
				// An execution is created with the items it starts with; until they are readable, read it again later.
				if (items.length === 0) continue;
				this.executions.set(id, { workflowId, kind, status: full.status ?? summary.status, items });
				for (const item of items) {
					const key = deliveryKey(kind, item);
					if (!this.byKey.has(key)) this.byKey.set(key, []);
					this.byKey.get(key).push({ executionId: id, triggerEvent: item.triggerEvent });
				}
			}
		}
	}
}

/**
 * Makes randomized changes in the sandbox as user alice: tasks are created or updated, events in
 * the trigger's window created, renamed or deleted. A task or event is changed again only after
 * its current version was delivered. Every change is recorded with what the trigger must report.
 */
export class ChangeMaker {
	constructor(sandbox, random, isDelivered) {
		Object.assign(this, { sandbox, random, isDelivered });
		this.tasks = new Map(); // id -> key of its current version
		this.events = new Map(); // id -> key of its current version
		this.changes = []; // { key, kind, expected, at }
	}

	counts() {
		const of = (kind) => this.changes.filter((change) => change.kind === kind).length;
		return { task: of('task'), event: of('event') };
	}

	record(kind, key, expected) {
		this.changes.push({ kind, key, expected, at: Date.now() });
	}

	async call(method, path, body, qs) {
		const { status, body: answer } = await this.sandbox.api(method, path, { body, qs });
		if (status >= 300) throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(answer)}`);
		return answer;
	}

	/** One task change: an update of a delivered task, or a new task. */
	async changeTask() {
		const ready = [...this.tasks].filter(([, key]) => this.isDelivered(key));
		if (ready.length > 0 && this.random() < 0.7) {
			const [id] = ready[Math.floor(this.random() * ready.length)];
			await this.call('POST', '/v3/tasks/update', { id, title: `task ${id.slice(0, 6)} v${this.changes.length}`, priority: Math.floor(this.random() * 10) });
			const task = (await this.call('GET', '/v3/tasks', undefined, { id })).data.task;
			this.tasks.set(id, `task:${id}@${task.updated}`);
			this.record('task', this.tasks.get(id), 'updated');
			return;
		}
		const id = (await this.call('POST', '/v3/tasks/create', { title: `task c${this.changes.length}` })).data.id;
		const task = (await this.call('GET', '/v3/tasks', undefined, { id })).data.task;
		this.tasks.set(id, `task:${id}@${task.updated}`);
		this.record('task', this.tasks.get(id), 'created');
	}

	/** One event change: a delivered event renamed or deleted, or a new event in the next days. */
	async changeEvent() {
		const ready = [...this.events].filter(([, key]) => this.isDelivered(key));
		const choice = this.random();
		if (ready.length > 0 && choice < 0.65) {
			const [id] = ready[Math.floor(this.random() * ready.length)];
			if (choice < 0.45) {
				const answer = await this.call('POST', '/v3/events/update', { id, ...CALENDAR, title: `event v${this.changes.length}` });
				const event = answer?.data?.event ?? answer;
				this.events.set(id, `event:${id}@${event.updated}`);
				this.record('event', this.events.get(id), 'updated');
			} else {
				await this.call('POST', '/v3/events/delete', { id, ...CALENDAR });
				this.events.delete(id);
				this.record('event', `event:${id}@cancelled`, 'cancelled');
			}
			return;
		}
		// Whole minutes from one to ten days ahead: inside the trigger's 14-day window.
		const startMs = Date.now() + (1 + Math.floor(this.random() * 9)) * 86_400_000 + Math.floor(this.random() * 1440) * 60_000;
		const answer = await this.call('POST', '/v3/events/create', {
			...CALENDAR,
			title: `event c${this.changes.length}`,
			start: new Date(startMs).toISOString().slice(0, 16) + ':00',
			duration: 'PT30M',
			timeZone: 'UTC',
			showWithoutTime: false,
		});
		const event = answer?.data?.event ?? answer;
		this.events.set(event.id, `event:${event.id}@${event.updated}`);
		this.record('event', this.events.get(event.id), 'created');
	}
}

/**
 * Waits until `check()` is truthy (polling every `everyMs`); resolves to its value.
 */
export async function waitFor(check, timeoutMs, what, everyMs = 500) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
		await new Promise((r) => setTimeout(r, everyMs));
	}
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Workflow ID -> static data, from exported workflows. */
export function storedStaticData(exported) {
	return Object.fromEntries(exported.map((workflow) => [workflow.id, workflow.staticData]));
}

/**
 * Whether a trigger's stored static data counts the change as delivered: the task cursor is past
 * its version, or the event trigger knows the event at that version (or no longer knows it, for a
 * cancellation).
 */
function storedStateCovers(staticData, change) {
	const at = change.key.lastIndexOf('@');
	const id = change.key.slice(change.key.indexOf(':') + 1, at);
	const version = change.key.slice(at + 1);
	if (change.kind === 'task') {
		const cursor = staticData?.[`node:${TASK_TRIGGER}`]?.cursor;
		if (!cursor?.updated) return false;
		return Date.parse(version) < Date.parse(cursor.updated) || (version === cursor.updated && cursor.idsAtUpdated.includes(id));
	}
	const known = staticData?.[`node:${EVENT_TRIGGER}`]?.state?.known;
	if (!known) return false;
	return version === 'cancelled' ? !(id in known) : known[id]?.updated === version;
}

/**
 * Imports and publishes the two trigger workflows, and resolves once each trigger has polled
 * twice: publishing runs the first poll, and with durable poller cursors only a scheduled poll
 * stores where the trigger starts (n8n 2.41.1 does not store the cursor of the activation poll).
 */
export async function publishTriggers({ cli, rest, sandbox, triggers }) {
	await cli.importWorkflows([triggers.task, triggers.event]);
	for (const workflow of [triggers.task, triggers.event]) await rest.activateWorkflow(workflow.id);
	await waitFor(
		async () => {
			const calls = await sandbox.requests();
			return ['/v3/tasks/list', '/v3/events/list'].every((path) => calls.filter((call) => call.path === path).length >= 2);
		},
		Math.max(3 * triggers.schedule.intervalMs, 60_000),
		'two polls of each trigger',
		1000,
	);
	await sleep(2000);
}

/**
 * Runs the scenario on the published `triggers` (restartTriggerWorkflows, publishTriggers). The caller provides how to
 * kill and start n8n's main process (and optionally a worker), a REST client getter (its session
 * survives restarts) and, to tell n8n's losses apart, `readStoredStaticData()`: workflow ID ->
 * static data as stored in the database, read while main is down.
 *
 * @returns counts, the changes, the deliveries, the intervals from each kill until main was
 *   started again, and a timeline
 */
export async function runRestartScenario({
	sandbox,
	rest,
	triggers,
	seed,
	taskChanges,
	eventChanges,
	mainKills,
	killMain,
	startMain,
	killWorker,
	startWorker,
	readStoredStaticData,
	log = () => {},
}) {
	const random = seededRandom(seed);
	const workflows = { task: triggers.task.id, event: triggers.event.id };
	const { intervalMs, longOutageMs } = triggers.schedule;
	const deliveries = new Deliveries(workflows);
	const changes = new ChangeMaker(sandbox, random, (key) => deliveries.count(key) > 0);
	const downIntervals = [];
	const timeline = [];
	const started = Date.now();
	const mark = (what) => {
		timeline.push(`${((Date.now() - started) / 1000).toFixed(1)} s ${what}`);
		log(`  ${timeline.at(-1)}`);
	};
	let mainUp = true;
	let chaosDone = false;
	/** Kills right after a trigger's list call: that call, and the static data stored at the kill. */
	const pollKills = [];
	let failure;

	const changesDone = () => {
		const made = changes.counts();
		return made.task >= taskChanges && made.event >= eventChanges;
	};
	const running = () => !failure && (!chaosDone || !changesDone());
	// Reads deliveries while main is up; a refresh that fails because main just died is repeated later.
	const collect = async () => {
		while (running()) {
			if (mainUp) await deliveries.refresh(rest()).catch(() => {});
			await sleep(2000);
		}
	};
	// Task and event changes in the proportion asked for, about six a second.
	const change = async () => {
		while (running()) {
			const made = changes.counts();
			const wantTask = made.event >= eventChanges || (made.task < taskChanges && random() < taskChanges / (taskChanges + eventChanges));
			await (wantTask ? changes.changeTask() : changes.changeEvent());
			await sleep(80 + random() * 160);
		}
	};
	const chaos = async () => {
		for (let kill = 1; kill <= mainKills; kill++) {
			await sleep(4000 + random() * 8000);
			// Every other kill while a trigger polls: right after the service answered its list call.
			const pollCall = kill % 2 === 1 ? await sandbox.nextRequest((call) => call.path.endsWith('/list'), 2.5 * intervalMs + 10_000) : undefined;
			if (pollCall) await sleep(random() * 40);
			mainUp = false;
			await killMain();
			const downSince = Date.now();
			mark(`main killed (${kill})${pollCall ? ` while polling (${pollCall.path})` : ''}`);
			if (pollCall) pollKills.push({ path: pollCall.path, time: Date.parse(pollCall.time), stored: await readStoredStaticData?.() });
			if (kill === 2 && killWorker) {
				await killWorker();
				mark('worker-1 killed');
			}
			// Started again within seconds, or once after a longer outage (see the schedules).
			await sleep(kill === 3 && longOutageMs ? longOutageMs : random() * 3000);
			downIntervals.push([downSince, Date.now()]);
			await startMain();
			mainUp = true;
			mark(`main started again (${kill})`);
			if (kill === 2 && startWorker) {
				await startWorker();
				mark('worker-1 started again');
			}
		}
	};
	const guard = (task) => task().catch((error) => (failure ??= error));
	await Promise.all([
		guard(collect),
		guard(change),
		guard(chaos).finally(() => (chaosDone = true)),
	]);
	if (failure) throw failure;
	mark(`changes stopped: ${JSON.stringify(changes.counts())}`);

	// A lost change is n8n's loss when the first poll that read it was killed and the static data
	// stored at that kill already counts it as delivered.
	let listCalls = [];
	const lostByN8n = (change) => {
		const path = change.kind === 'task' ? '/v3/tasks/list' : '/v3/events/list';
		const workflowId = workflows[change.kind];
		return pollKills.some(
			(kill) =>
				kill.path === path &&
				change.at < kill.time &&
				listCalls
					.filter((call) => call.path === path && call.time > change.at && call.time < kill.time)
					.every((call) => pollKills.some((other) => other.path === path && other.time === call.time)) &&
				storedStateCovers(kill.stored?.[workflowId], change),
		);
	};
	const readListCalls = async () => {
		listCalls = (await sandbox.requests()).filter((call) => call.path.endsWith('/list')).map((call) => ({ path: call.path, time: Date.parse(call.time) }));
	};

	// Settle: until every change is delivered (or lost by n8n), or nothing new arrived for two poll intervals.
	let lastNew = Date.now();
	let known = deliveries.byKey.size;
	const pending = () => changes.changes.some((change) => deliveries.count(change.key) === 0 && !lostByN8n(change));
	await readListCalls();
	while (Date.now() - lastNew < 2 * intervalMs + 5000 && pending()) {
		await sleep(2000);
		await deliveries.refresh(rest());
		await readListCalls();
		if (deliveries.byKey.size !== known) {
			known = deliveries.byKey.size;
			lastNew = Date.now();
		}
	}
	await deliveries.refresh(rest());
	mark('settled');

	const lostKeys = [];
	const counts = {
		changes: changes.changes.length,
		tasks: 0,
		events: 0,
		delivered: 0,
		lost: 0,
		lostBetweenStaticDataAndExecution: 0,
		duplicated: 0,
		wrongEvent: 0,
		unexpected: 0,
	};
	const expectedKeys = new Set();
	for (const change of changes.changes) {
		expectedKeys.add(change.key);
		counts[change.kind === 'task' ? 'tasks' : 'events']++;
		const delivered = deliveries.byKey.get(change.key) ?? [];
		if (delivered.length > 0) counts.delivered++;
		else if (lostByN8n(change)) counts.lostBetweenStaticDataAndExecution++;
		else {
			counts.lost++;
			lostKeys.push(change.key);
		}
		if (delivered.length > 1) counts.duplicated += delivered.length - 1;
		if (delivered.some((entry) => entry.triggerEvent !== change.expected)) counts.wrongEvent++;
	}
	for (const key of deliveries.byKey.keys()) if (!expectedKeys.has(key)) counts.unexpected++;
	counts.restarts = downIntervals.length;
	counts.killsWhilePolling = pollKills.length;
	return { counts, lostKeys, changes: changes.changes, deliveries, downIntervals, timeline, schedule: triggers.schedule };
}

/** One line with the counts of a run. */
export function describeCounts(label, counts) {
	return (
		`${label}: ${counts.changes} changes (${counts.tasks} task, ${counts.events} event), ${counts.delivered} delivered, ${counts.lost} lost, ` +
		`${counts.lostBetweenStaticDataAndExecution} lost by n8n between saving static data and storing the execution, ${counts.duplicated} duplicated, ` +
		`${counts.wrongEvent} with the wrong event, ${counts.unexpected} unexpected; ${counts.restarts} restarts (${counts.killsWhilePolling} killed while polling)`
	);
}

/**
 * The assertions both restart tests share: enough changes and kills, every change delivered
 * exactly once with the right event, and no poll while the main process was down. Prints the
 * polls when a delivery rule fails, to see when the triggers polled.
 */
export async function assertExactlyOnce(result, { sandbox, taskChanges, eventChanges, mainKills }) {
	const { counts } = result;
	const calls = await sandbox.requests();
	if (counts.lost + counts.lostBetweenStaticDataAndExecution + counts.duplicated + counts.wrongEvent + counts.unexpected > 0) {
		const polls = calls.filter((call) => call.path.endsWith('/list')).map((call) => `${call.time.slice(11, 23)} ${call.path} ${call.query.updatedAfter ?? call.query.start ?? ''}`);
		console.log(`${result.timeline.join('\n')}\npolls:\n${polls.join('\n')}`);
	}
	assert.ok(counts.tasks >= taskChanges && counts.events >= eventChanges, JSON.stringify(counts));
	assert.ok(counts.restarts >= mainKills);
	assert.equal(counts.lost, 0, `lost: ${result.lostKeys.slice(0, 20).join(', ')}`);
	assert.equal(counts.duplicated, 0, 'delivered more than once');
	assert.equal(counts.wrongEvent, 0, 'delivered with another trigger event than the change');
	assert.equal(counts.unexpected, 0, 'delivered without a matching change');
	// Polls come from the main process only: none while it was down.
	for (const [from, to] of result.downIntervals) {
		const during = calls.filter((call) => call.path.endsWith('/list') && Date.parse(call.time) > from + 1000 && Date.parse(call.time) < to);
		assert.deepEqual(during, [], `list calls while main was down (${new Date(from).toISOString()} to ${new Date(to).toISOString()})`);
	}
	if (result.schedule.longOutageMs) {
		assert.ok(result.downIntervals.some(([from, to]) => to - from > result.schedule.intervalMs), 'one outage spans a poll time of each trigger');
	}
}
