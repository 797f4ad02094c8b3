/**
 * The restart test of both triggers, shared by queue mode (queue-mode.test.mjs) and
 * single-process n8n (restart.test.mjs). While a task trigger and an event trigger are published,
 * randomized task and event changes are made in the sandbox and n8n's main process is killed
 * (SIGKILL) at random moments, some of them while a trigger is polling, and started again. What
 * the triggers delivered is read back from n8n's execution records.
 *
 * Every change must be delivered exactly once. For that to be a strict rule, a task or event is
 * changed again only after its previous version was delivered: no change can be hidden by a
 * later one before any poll saw it (a polling trigger only ever sees the current version).
 */
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
 * Poll times that start a poll every ten seconds: six "Custom (Cron)" entries, each firing once a
 * minute (n8n refuses a single expression that fires more often than once a minute).
 */
export function everyTenSeconds(offsetSeconds = 0) {
	return { item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${(second + offsetSeconds) % 60} * * * * *` })) };
}

/** A task trigger and an event trigger workflow, polling every ten seconds. */
export function restartTriggerWorkflows(prefix, idSuffix) {
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
		task: trigger(`ctsRestartTask${idSuffix}`, `Restarts: task trigger (${idSuffix})`, 'ctsTaskTrigger', {
			pollTimes: everyTenSeconds(0),
			events: ['created', 'updated'],
			filters: {},
		}),
		event: trigger(`ctsRestartEvnt${idSuffix}`, `Restarts: event trigger (${idSuffix})`, 'ctsEventTrigger', {
			pollTimes: everyTenSeconds(5),
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

/**
 * Runs the scenario on published trigger workflows. The caller provides how to kill and start
 * n8n's main process (and optionally a worker), and a REST client getter (the session survives
 * restarts). Kill number `longOutageKill` keeps main down for 25 s.
 *
 * @returns counts, the changes, the deliveries, the intervals from each kill until main was
 *   started again (no n8n process of the instance's main role ran then), and a timeline
 */
export async function runRestartScenario({
	sandbox,
	rest,
	workflows,
	seed,
	taskChanges,
	eventChanges,
	mainKills,
	longOutageKill,
	killMain,
	startMain,
	killWorker,
	startWorker,
	log = () => {},
}) {
	const random = seededRandom(seed);
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
	let failure;

	// Reads deliveries while main is up; a refresh that fails because main just died is repeated later.
	const collect = async () => {
		while (!chaosDone || !changesDone()) {
			if (mainUp) await deliveries.refresh(rest()).catch(() => {});
			await sleep(2000);
		}
	};
	const changesDone = () => {
		const made = changes.counts();
		return made.task >= taskChanges && made.event >= eventChanges;
	};
	// About three task changes for every event change, at about four changes a second.
	const change = async () => {
		while (!failure && (!chaosDone || !changesDone())) {
			const made = changes.counts();
			const wantTask = made.event >= eventChanges || (made.task < taskChanges && random() < taskChanges / (taskChanges + eventChanges));
			await (wantTask ? changes.changeTask() : changes.changeEvent());
			await sleep(150 + random() * 200);
		}
	};
	const chaos = async () => {
		try {
			for (let kill = 1; kill <= mainKills; kill++) {
				await sleep(8000 + random() * 12_000);
				if (random() < 0.5) {
					// While a trigger polls: right after the service answered one of its list calls.
					await sandbox.nextRequest((call) => call.path.endsWith('/list'), 30_000);
					await sleep(random() * 40);
					mainUp = false;
					await killMain();
					mark(`main killed (${kill}) while a trigger was polling`);
				} else {
					mainUp = false;
					await killMain();
					mark(`main killed (${kill})`);
				}
				const downSince = Date.now();
				if (kill === 2 && killWorker) {
					await killWorker();
					mark('worker-1 killed');
				}
				// Usually started again within seconds; once it stays down for 25 s (more than two poll times).
				await sleep(kill === longOutageKill ? 25_000 : random() * 3000);
				downIntervals.push([downSince, Date.now()]);
				await startMain();
				mainUp = true;
				mark(`main started again (${kill})`);
				if (kill === 2 && startWorker) {
					await startWorker();
					mark('worker-1 started again');
				}
			}
		} catch (error) {
			failure = error;
		} finally {
			chaosDone = true;
		}
	};
	await Promise.all([collect(), change().catch((error) => (failure = error)), chaos()]);
	if (failure) throw failure;
	mark(`changes stopped: ${JSON.stringify(changes.counts())}`);

	// Settle: until every change is delivered, or nothing new arrived for four poll intervals.
	let lastNew = Date.now();
	let known = deliveries.byKey.size;
	while (Date.now() - lastNew < 40_000 && changes.changes.some((c) => deliveries.count(c.key) === 0)) {
		await sleep(2000);
		await deliveries.refresh(rest());
		if (deliveries.byKey.size !== known) {
			known = deliveries.byKey.size;
			lastNew = Date.now();
		}
	}
	await deliveries.refresh(rest());
	mark('settled');

	const counted = { changes: changes.changes.length, tasks: 0, events: 0, delivered: 0, lost: 0, duplicated: 0, wrongEvent: 0, unexpected: 0 };
	const expectedKeys = new Set();
	for (const change of changes.changes) {
		expectedKeys.add(change.key);
		counted[change.kind === 'task' ? 'tasks' : 'events']++;
		const delivered = deliveries.byKey.get(change.key) ?? [];
		if (delivered.length === 0) counted.lost++;
		else counted.delivered++;
		if (delivered.length > 1) counted.duplicated += delivered.length - 1;
		if (delivered.some((entry) => entry.triggerEvent !== change.expected)) counted.wrongEvent++;
	}
	for (const key of deliveries.byKey.keys()) if (!expectedKeys.has(key)) counted.unexpected++;
	counted.restarts = downIntervals.length;
	return { counts: counted, changes: changes.changes, deliveries, downIntervals, timeline };
}
