/**
 * The restart test of both triggers, shared by queue mode (queue-mode.test.mjs) and
 * single-process n8n (restart.test.mjs). While a task trigger and an event trigger are published,
 * randomized task and event changes are made in the sandbox and n8n's main process is killed
 * (SIGKILL) and started again: every other kill right after the service answered a trigger's list
 * call, while that poll is being turned into an execution, the others at random moments; one
 * outage may last longer than a poll interval. What the triggers delivered is read back from
 * n8n's execution records.
 *
 * Every change must be delivered exactly once, by an execution that succeeded. For that to be a
 * strict rule, a task or event is changed again only after its previous version was delivered: no
 * change can be hidden by a later one before any poll saw it (a polling trigger only ever sees the
 * current version). Every run makes creations, updates and (of events) cancellations.
 *
 * Two kinds of loss are n8n's, not the trigger's, and each is proven change by change before it
 * is accepted (see `allowed`): with n8n's default static data, a poll that returns items has its
 * static data saved before its execution is stored, so a kill between the two keeps the poll's
 * state and loses its items (the static data read from the database right after the kill counts
 * them as delivered, and no execution of that poll exists); and an execution created by a main
 * instance that was killed before a worker took it is marked crashed and never runs. With the
 * triggers' Redeliver After a Restart option neither may lose anything, and repeats are allowed
 * in the first execution after a start of main only.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

import { hasFinished, readExecution } from './executions.mjs';
import { sleep, waitFor } from './waiting.mjs';
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
/**
 * How many changes and kills a restart scenario makes. `npm test` (and CI) runs every scenario at a
 * scale that keeps its time in bounds; `npm run test:scale` (CTS_SCALE=full) runs the full scale.
 */
export const RESTART_SCALE =
	process.env.CTS_SCALE === 'full' ? { taskChanges: 500, eventChanges: 200, mainKills: 5 } : { taskChanges: 200, eventChanges: 80, mainKills: 2 };

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

/**
 * A task trigger and an event trigger workflow, polling on `schedule` (the event trigger 5 s
 * later), with the triggers' Redeliver After a Restart option when `redeliverAfterRestart`.
 */
export function restartTriggerWorkflows(prefix, idSuffix, schedule, { redeliverAfterRestart = false } = {}) {
	const options = redeliverAfterRestart ? { redeliverAfterRestart: true } : {};
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
			options,
		}),
		event: trigger(`ctsRestartEvnt${idSuffix}`, `Restarts: event trigger (${idSuffix})`, 'ctsEventTrigger', {
			pollTimes: schedule.pollTimes(5),
			...CALENDAR,
			calendarIds: CALENDAR.calendarId,
			events: ['created', 'updated', 'cancelled'],
			lookAheadDays: 14,
			options,
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
 * trigger workflows, when it was created, the items it carries, and its status. Only an
 * execution that ended in success ran the workflow: items of a crashed execution were not
 * delivered.
 */
export class Deliveries {
	constructor(workflows) {
		this.workflows = workflows; // { task: id, event: id }
		this.byKey = new Map(); // key -> [{ executionId, triggerEvent }]
		this.executions = new Map(); // id -> { workflowId, kind, status, createdAt, items }
		this.all = new Map(); // id -> { workflowId, kind, status, createdAt }, also executions whose items were not readable yet
	}

	/** Executions that carry the key, whatever their status. */
	count(key) {
		return this.byKey.get(key)?.length ?? 0;
	}

	/** Successful executions that carry the key. */
	deliveredBy(key) {
		return (this.byKey.get(key) ?? []).filter((entry) => this.executions.get(entry.executionId)?.status === 'success');
	}

	/** Reads the executions not read yet (and the status of all). Fails when n8n does not answer. */
	async refresh(rest) {
		for (const [kind, workflowId] of Object.entries(this.workflows)) {
			const triggerName = kind === 'task' ? TASK_TRIGGER : EVENT_TRIGGER;
			for (const summary of await rest.listAllExecutions(workflowId)) {
				const id = String(summary.id);
				const createdAt = Date.parse(summary.createdAt ?? summary.startedAt);
				this.all.set(id, { workflowId, kind, status: summary.status, createdAt });
				const known = this.executions.get(id);
				if (known) {
					known.status = summary.status;
					continue;
				}
				const full = await readExecution(rest, id);
				const items = triggerItems(full.data, triggerName);
				// An execution is created with the items it starts with; until they are readable, read it again later.
				if (items.length === 0) continue;
				this.executions.set(id, { workflowId, kind, status: full.status ?? summary.status, createdAt, items });
				for (const item of items) {
					const key = deliveryKey(kind, item);
					if (!this.byKey.has(key)) this.byKey.set(key, []);
					this.byKey.get(key).push({ executionId: id, triggerEvent: item.triggerEvent });
				}
			}
		}
	}
}

/** The kinds of change the scenario makes, and the share of each trigger's changes each gets. */
const CHANGE_KINDS = {
	'task created': { kind: 'task', share: 0.6 },
	'task updated': { kind: 'task', share: 0.4 },
	'event created': { kind: 'event', share: 0.5 },
	'event updated': { kind: 'event', share: 0.3 },
	'event cancelled': { kind: 'event', share: 0.2 },
};

/** How many changes of each kind a run makes at least, for `taskChanges` and `eventChanges`. */
export function changeQuotas(taskChanges, eventChanges) {
	return Object.fromEntries(
		Object.entries(CHANGE_KINDS).map(([name, { kind, share }]) => [name, Math.round(share * (kind === 'task' ? taskChanges : eventChanges))]),
	);
}

/**
 * Makes randomized changes in the sandbox as user alice: tasks are created or updated, events in
 * the trigger's window created, renamed or deleted. A task or event is changed again only after
 * its current version was delivered (by an execution that succeeded). Each kind of change is
 * made at least its quota, whatever the timing: once the creations reached theirs, the maker
 * waits for deliveries instead of creating more, for `patienceMs` at most: when nothing of a kind
 * was delivered by then (every creation lost in n8n's static-data gap or carried only by an
 * execution n8n marked crashed), it creates as many more as updates are missing. Every change
 * is recorded with what the trigger must report.
 */
export class ChangeMaker {
	constructor(sandbox, random, isDelivered, quotas, patienceMs = Number.POSITIVE_INFINITY) {
		Object.assign(this, { sandbox, random, isDelivered, quotas, patienceMs });
		this.tasks = new Map(); // id -> key of its current version
		this.events = new Map(); // id -> key of its current version
		this.changes = []; // { key, kind, expected, at }
		/** Per kind: creations still to make beyond the quota because nothing of the kind was delivered. */
		this.recreate = { task: 0, event: 0 };
	}

	counts() {
		const of = (kind) => this.changes.filter((change) => change.kind === kind).length;
		return { task: of('task'), event: of('event') };
	}

	/** Changes made of a kind of CHANGE_KINDS. */
	made(name) {
		return this.changes.filter((change) => `${change.kind} ${change.expected}` === name).length;
	}

	/** Whether every kind of change (of `kind`, when given) reached its quota. */
	quotasMet(kind) {
		return Object.entries(this.quotas).every(([name, quota]) => (kind && CHANGE_KINDS[name].kind !== kind) || this.made(name) >= quota);
	}

	record(kind, key, expected) {
		this.changes.push({ kind, key, expected, at: Date.now() });
	}

	async call(method, path, body, qs) {
		const { status, body: answer } = await this.sandbox.api(method, path, { body, qs });
		if (status >= 300) throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(answer)}`);
		return answer;
	}

	ready(kind) {
		return [...(kind === 'task' ? this.tasks : this.events)].filter(([, key]) => this.isDelivered(key));
	}

	/**
	 * One change of a trigger's kind (`task` or `event`): the kinds below their quota first, in
	 * proportion to what is missing, then any; an update or cancellation needs a delivered task or
	 * event. Returns 'quota' for a change towards a quota, 'recreated' for a creation beyond the
	 * quota that gives the missing updates something to change, 'more' for a change beyond every
	 * quota of the kind, and false when nothing can be changed now (only updates are missing and
	 * nothing is delivered yet).
	 */
	async change(kind) {
		const names = Object.keys(CHANGE_KINDS).filter((name) => CHANGE_KINDS[name].kind === kind);
		const possible = names.filter((name) => name.endsWith('created') || this.ready(kind).length > 0);
		const missing = possible.filter((name) => this.made(name) < this.quotas[name]);
		const unmet = names.filter((name) => this.made(name) < this.quotas[name]);
		let choice;
		let outcome = 'quota';
		if (missing.length > 0) {
			const weights = missing.map((name) => this.quotas[name] - this.made(name));
			let pick = this.random() * weights.reduce((sum, weight) => sum + weight, 0);
			choice = missing.find((_, index) => (pick -= weights[index]) < 0) ?? missing.at(-1);
		} else if (unmet.length > 0) {
			const lastOfKind = this.changes.findLast((change) => change.kind === kind)?.at ?? 0;
			if (this.recreate[kind] === 0 && Date.now() - lastOfKind >= this.patienceMs) {
				this.recreate[kind] = unmet.reduce((sum, name) => sum + this.quotas[name] - this.made(name), 0);
			}
			if (this.recreate[kind] === 0) return false;
			this.recreate[kind]--;
			choice = `${kind} created`;
			outcome = 'recreated';
		} else {
			let pick = this.random();
			choice = possible.find((name) => (pick -= CHANGE_KINDS[name].share) < 0) ?? possible[0];
			outcome = 'more';
		}
		const ready = this.ready(kind);
		const [id] = ready[Math.floor(this.random() * ready.length)] ?? [];
		switch (choice) {
			case 'task created': {
				const created = (await this.call('POST', '/v3/tasks/create', { title: `task c${this.changes.length}` })).data.id;
				const task = (await this.call('GET', '/v3/tasks', undefined, { id: created })).data.task;
				this.tasks.set(created, `task:${created}@${task.updated}`);
				this.record('task', this.tasks.get(created), 'created');
				break;
			}
			case 'task updated': {
				await this.call('POST', '/v3/tasks/update', { id, title: `task ${id.slice(0, 6)} v${this.changes.length}`, priority: Math.floor(this.random() * 10) });
				const task = (await this.call('GET', '/v3/tasks', undefined, { id })).data.task;
				this.tasks.set(id, `task:${id}@${task.updated}`);
				this.record('task', this.tasks.get(id), 'updated');
				break;
			}
			case 'event created': {
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
				break;
			}
			case 'event updated': {
				const answer = await this.call('POST', '/v3/events/update', { id, ...CALENDAR, title: `event v${this.changes.length}` });
				const event = answer?.data?.event ?? answer;
				this.events.set(id, `event:${id}@${event.updated}`);
				this.record('event', this.events.get(id), 'updated');
				break;
			}
			case 'event cancelled': {
				await this.call('POST', '/v3/events/delete', { id, ...CALENDAR });
				this.events.delete(id);
				this.record('event', `event:${id}@cancelled`, 'cancelled');
				break;
			}
		}
		return outcome;
	}
}

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
 * What a run allows n8n to cause, each proven change by change (see the counts of
 * runRestartScenario); anything else not delivered once, with the right event, fails:
 * - `staticDataGap`: changes lost because a poll was killed after n8n had saved its static data
 *   and before it had stored the poll's execution (n8n's default static data);
 * - `crashedExecutions`: changes carried only by executions that n8n marked crashed because the
 *   process that had them was killed before they ran;
 * - `repeatsAfterRestart`: changes delivered again by the first execution of a trigger after a
 *   start of the main instance (Redeliver After a Restart), a change created and changed since
 *   the position the trigger restarts from reported as "created" there.
 */
export const DEFAULT_STATIC_DATA = { staticDataGap: true, crashedExecutions: true, repeatsAfterRestart: false };
export const DURABLE_CURSORS = { staticDataGap: false, crashedExecutions: true, repeatsAfterRestart: false };
export const REDELIVER_AFTER_RESTART = { staticDataGap: false, crashedExecutions: false, repeatsAfterRestart: true };

/**
 * Runs the scenario on the published `triggers` (restartTriggerWorkflows, publishTriggers). The
 * caller provides how to kill and start n8n's main process (and optionally a worker), a REST
 * client getter (its session survives restarts), `allowed` (see DEFAULT_STATIC_DATA), and to
 * prove n8n's losses: `readStoredStaticData()`, workflow ID -> static data as stored in the
 * database, read while main is down; in queue mode `startedBy(executionId)`, the worker whose log
 * says it started an execution, and `killedWorker`, the name of the worker `killWorker` kills.
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
	killedWorker,
	startedBy = () => undefined,
	readStoredStaticData,
	allowed,
	log = () => {},
}) {
	const random = seededRandom(seed);
	const workflows = { task: triggers.task.id, event: triggers.event.id };
	const { intervalMs, longOutageMs } = triggers.schedule;
	const deliveries = new Deliveries(workflows);
	const quotas = changeQuotas(taskChanges, eventChanges);
	// A creation is delivered within a poll interval or two (and a restart); waiting longer means it
	// was lost or carried only by a crashed execution.
	const patienceMs = 2 * intervalMs + 30_000;
	const changes = new ChangeMaker(sandbox, random, (key) => deliveries.deliveredBy(key).length > 0, quotas, patienceMs);
	const downIntervals = [];
	/** Kills of main and of the worker: when, and since when the killed process ran. */
	const kills = [];
	const timeline = [];
	const started = Date.now();
	const mark = (what) => {
		timeline.push(`${((Date.now() - started) / 1000).toFixed(1)} s ${what}`);
		log(`  ${timeline.at(-1)}`);
	};
	let mainUp = true;
	let mainSince = 0;
	let workerSince = 0;
	let chaosDone = false;
	/** Kills right after a trigger's list call: that call, the static data stored at the kill, and when main was started again. */
	const pollKills = [];
	let failure;

	const changesDone = () => {
		const made = changes.counts();
		return made.task >= taskChanges && made.event >= eventChanges && changes.quotasMet();
	};
	let lastChange = Date.now();
	// Once the kills are done, changes go on until every quota is met, unless none came nearer for
	// a while (nothing delivered): the assertions then tell which quota was not met.
	const running = () => !failure && (!chaosDone || (!changesDone() && Date.now() - lastChange < patienceMs + 2 * intervalMs + 60_000));
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
			const tasksDone = made.task >= taskChanges && changes.quotasMet('task');
			const eventsDone = made.event >= eventChanges && changes.quotasMet('event');
			const wantTask = eventsDone || (!tasksDone && random() < taskChanges / (taskChanges + eventChanges));
			const changed = (await changes.change(wantTask ? 'task' : 'event')) || (await changes.change(wantTask ? 'event' : 'task'));
			if (changed === 'quota' || changed === 'recreated') lastChange = Date.now();
			// Nothing to change until more is delivered.
			await sleep(changed ? 80 + random() * 160 : 1000);
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
			kills.push({ what: 'main', time: downSince, since: mainSince });
			mark(`main killed (${kill})${pollCall ? ` while polling (${pollCall.path})` : ''}`);
			const pollKill = pollCall && { path: pollCall.path, time: Date.parse(pollCall.time), stored: await readStoredStaticData?.() };
			if (kill === 2 && killWorker) {
				await killWorker();
				kills.push({ what: 'worker', name: killedWorker, time: Date.now(), since: workerSince });
				mark(`${killedWorker ?? 'a worker'} killed`);
			}
			// Started again within seconds, or once (the third kill, or the last of fewer) after a longer outage (see the schedules).
			await sleep(kill === Math.min(3, mainKills) && longOutageMs ? longOutageMs : random() * 3000);
			downIntervals.push([downSince, Date.now()]);
			mainSince = Date.now();
			if (pollKill) pollKills.push({ ...pollKill, restartedAt: mainSince });
			await startMain();
			mainUp = true;
			mark(`main started again (${kill})`);
			if (kill === 2 && startWorker) {
				workerSince = Date.now();
				await startWorker();
				mark(`${killedWorker ?? 'a worker'} started again`);
			}
		}
	};
	const guard = (task) => task().catch((error) => (failure ??= error));
	await Promise.all([guard(collect), guard(change), guard(chaos).finally(() => (chaosDone = true))]);
	if (failure) throw failure;
	mark(`changes stopped: ${JSON.stringify(changes.counts())}`);

	let listCalls = [];
	/**
	 * Why an execution crashed, when a kill explains it: the main instance that created it was
	 * killed before any worker started it, or the worker that started it was killed.
	 */
	const crashCause = (executionId) => {
		const execution = deliveries.all.get(executionId);
		if (execution?.status !== 'crashed') return undefined;
		const worker = startedBy(executionId);
		const byMain = kills.find((kill) => kill.what === 'main' && kill.since <= execution.createdAt && execution.createdAt <= kill.time);
		if (byMain && !worker) {
			return killedWorker === undefined
				? `n8n, which runs its executions itself, killed ${kill_s(byMain.time - execution.createdAt)} after creating it`
				: `main killed ${kill_s(byMain.time - execution.createdAt)} after creating it, before a worker started it`;
		}
		const byWorker = kills.find((kill) => kill.what === 'worker' && kill.name === worker && execution.createdAt <= kill.time);
		if (byWorker) return `${worker} killed ${kill_s(byWorker.time - execution.createdAt)} after it was created`;
		return undefined;
	};
	/**
	 * The poll that lost a change in n8n's static-data gap, when the records prove it: no execution
	 * carries the change; every poll that could have read it was killed right after its list call;
	 * the static data stored at the last of those kills counts it as delivered, so that poll's static
	 * data was saved; and no execution of the trigger was created between that list call and the
	 * next start of main, so that poll's execution does not exist.
	 */
	const gapPoll = (change) => {
		if (deliveries.count(change.key) > 0) return undefined;
		const path = change.kind === 'task' ? '/v3/tasks/list' : '/v3/events/list';
		const workflowId = workflows[change.kind];
		return pollKills.find(
			(kill) =>
				kill.path === path &&
				change.at < kill.time &&
				listCalls
					.filter((call) => call.path === path && call.time > change.at && call.time < kill.time)
					.every((call) => pollKills.some((other) => other.path === path && other.time === call.time)) &&
				storedStateCovers(kill.stored?.[workflowId], change) &&
				![...deliveries.all.values()].some((execution) => execution.workflowId === workflowId && execution.createdAt >= kill.time && execution.createdAt <= kill.restartedAt),
		);
	};
	/**
	 * Whether a poll killed right after its list call hit n8n's static-data gap: the static data
	 * stored at the kill (its pending position, with Redeliver After a Restart) counts a change made
	 * after the trigger's previous list call, so this poll saved it, and no execution of the
	 * trigger was created between the list call and the next start of main.
	 */
	const hitGap = (kill) => {
		const kind = kill.path === '/v3/tasks/list' ? 'task' : 'event';
		const workflowId = workflows[kind];
		const node = `node:${kind === 'task' ? TASK_TRIGGER : EVENT_TRIGGER}`;
		const stored = kill.stored?.[workflowId];
		const pending = stored?.[node]?.pending?.position;
		const saved = pending ? { [node]: kind === 'task' ? { cursor: pending } : { state: pending } } : stored;
		const previousCall = listCalls.filter((call) => call.path === kill.path && call.time < kill.time).at(-1)?.time ?? 0;
		// A margin, as a change is recorded once the service answered it.
		const onlyThisPoll = changes.changes.filter((change) => change.kind === kind && change.at > previousCall + 500 && change.at < kill.time);
		return (
			onlyThisPoll.some((change) => storedStateCovers(saved, change)) &&
			![...deliveries.all.values()].some((execution) => execution.workflowId === workflowId && execution.createdAt >= kill.time && execution.createdAt <= kill.restartedAt)
		);
	};
	/** Whether an execution is the first one of its trigger created after a start of main. */
	const firstAfterStart = (executionId) => {
		const execution = deliveries.all.get(executionId);
		const start = downIntervals.map(([, to]) => to).filter((to) => to <= execution.createdAt).at(-1);
		if (start === undefined) return false;
		return ![...deliveries.all.values()].some((other) => other.workflowId === execution.workflowId && other.createdAt > start && other.createdAt < execution.createdAt);
	};
	/** Crashed executions that carry the key, all explained by a kill. */
	const inCrashedExecutions = (key) => {
		const entries = deliveries.byKey.get(key) ?? [];
		return entries.length > 0 && entries.every((entry) => crashCause(entry.executionId) !== undefined);
	};
	const explained = (change) => (allowed.crashedExecutions && inCrashedExecutions(change.key)) || (allowed.staticDataGap && gapPoll(change) !== undefined);
	const readListCalls = async () => {
		listCalls = (await sandbox.requests()).filter((call) => call.path.endsWith('/list')).map((call) => ({ path: call.path, time: Date.parse(call.time) }));
	};

	// Settle: until every change is delivered (or its loss explained), or nothing new arrived for two poll
	// intervals and no execution of the triggers still runs (a busy machine takes its time; two minutes at most).
	let lastNew = Date.now();
	let known = deliveries.byKey.size;
	const pending = () => changes.changes.some((change) => deliveries.deliveredBy(change.key).length === 0 && !explained(change));
	const stillRunning = () => [...deliveries.all.values()].some((execution) => !hasFinished(execution));
	const runningUntil = Date.now() + 2 * 60_000;
	await readListCalls();
	while (pending() && (Date.now() - lastNew < 2 * intervalMs + 5000 || (stillRunning() && Date.now() < runningUntil))) {
		await sleep(2000);
		await deliveries.refresh(rest());
		await readListCalls();
		if (deliveries.byKey.size !== known) {
			known = deliveries.byKey.size;
			lastNew = Date.now();
		}
	}
	await deliveries.refresh(rest());
	await readListCalls();
	mark('settled');

	const lostKeys = [];
	const proofs = [];
	const counts = {
		changes: changes.changes.length,
		tasks: 0,
		events: 0,
		byKind: Object.fromEntries(Object.keys(quotas).map((name) => [name, { made: 0, delivered: 0 }])),
		delivered: 0,
		lost: 0,
		lostInStaticDataGap: 0,
		inCrashedExecutions: 0,
		duplicated: 0,
		repeatedAfterRestart: 0,
		wrongEvent: 0,
		createdAgainAfterRestart: 0,
		unexpected: 0,
	};
	const expectedKeys = new Set();
	for (const change of changes.changes) {
		expectedKeys.add(change.key);
		counts[change.kind === 'task' ? 'tasks' : 'events']++;
		const kind = counts.byKind[`${change.kind} ${change.expected}`];
		kind.made++;
		const delivered = deliveries.deliveredBy(change.key);
		if (delivered.length > 0) {
			counts.delivered++;
			kind.delivered++;
		} else if (inCrashedExecutions(change.key)) {
			counts.inCrashedExecutions++;
			const [{ executionId }] = deliveries.byKey.get(change.key);
			proofs.push(`${change.key}: only in crashed execution ${executionId} (${crashCause(executionId)})`);
		} else if (gapPoll(change)) {
			counts.lostInStaticDataGap++;
			const poll = gapPoll(change);
			proofs.push(`${change.key}: read by the ${poll.path} call at ${new Date(poll.time).toISOString()}, killed; its static data was stored, no execution of it exists`);
		} else {
			counts.lost++;
			lostKeys.push(change.key);
		}
		// Repeats, in order of the executions: each one after the first is n8n's, or the option's, when the first execution after a start of main carries it.
		const ordered = [...delivered].sort((a, b) => deliveries.all.get(a.executionId).createdAt - deliveries.all.get(b.executionId).createdAt);
		for (const entry of ordered.slice(1)) {
			if (allowed.repeatsAfterRestart && firstAfterStart(entry.executionId)) counts.repeatedAfterRestart++;
			else counts.duplicated++;
		}
		for (const entry of delivered) {
			if (entry.triggerEvent === change.expected) continue;
			if (allowed.repeatsAfterRestart && entry.triggerEvent === 'created' && change.expected === 'updated' && firstAfterStart(entry.executionId)) counts.createdAgainAfterRestart++;
			else counts.wrongEvent++;
		}
	}
	for (const key of deliveries.byKey.keys()) if (!expectedKeys.has(key)) counts.unexpected++;
	counts.restarts = downIntervals.length;
	counts.killsWhilePolling = pollKills.length;
	counts.killsInStaticDataGap = pollKills.filter(hitGap).length;
	return { counts, quotas, allowed, lostKeys, proofs, changes: changes.changes, deliveries, downIntervals, timeline, schedule: triggers.schedule };
}

const kill_s = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** One line with the counts of a run. */
export function describeCounts(label, counts) {
	const kinds = Object.entries(counts.byKind)
		.map(([name, { made, delivered }]) => `${name} ${delivered}/${made}`)
		.join(', ');
	return (
		`${label}: ${counts.changes} changes (${counts.tasks} task, ${counts.events} event; delivered of each kind: ${kinds}), ${counts.delivered} delivered, ` +
		`${counts.lost} lost by the trigger, ${counts.lostInStaticDataGap} lost by n8n between saving static data and storing the execution, ` +
		`${counts.inCrashedExecutions} only in executions n8n marked crashed, ${counts.duplicated} duplicated, ` +
		`${counts.repeatedAfterRestart} repeated by the first execution after a restart (${counts.createdAgainAfterRestart} of them as "created"), ` +
		`${counts.wrongEvent} with the wrong event, ${counts.unexpected} unexpected; ${counts.restarts} restarts (${counts.killsWhilePolling} killed while polling, ` +
		`${counts.killsInStaticDataGap} of them after n8n saved the poll's static data and before it created its execution)`
	);
}

/**
 * The assertions both restart tests share: enough changes of each kind and kills, every change
 * delivered exactly once with the right event by an execution that succeeded, except what
 * `result.allowed` lets n8n (or Redeliver After a Restart) cause, each case proven by
 * runRestartScenario, and no poll while the main process was down. Prints the timeline and the
 * polls when a delivery rule fails, and the proof of each loss n8n caused.
 */
export async function assertDeliveries(result, { sandbox, taskChanges, eventChanges, mainKills }) {
	const { counts, allowed } = result;
	const calls = await sandbox.requests();
	if (result.proofs.length > 0) console.log(`losses caused by n8n, each proven:\n  ${result.proofs.join('\n  ')}`);
	if (counts.lost + counts.duplicated + counts.wrongEvent + counts.unexpected > 0) {
		const polls = calls.filter((call) => call.path.endsWith('/list')).map((call) => `${call.time.slice(11, 23)} ${call.path} ${call.query.updatedAfter ?? call.query.start ?? ''}`);
		console.log(`${result.timeline.join('\n')}\npolls:\n${polls.join('\n')}`);
	}
	assert.ok(counts.tasks >= taskChanges && counts.events >= eventChanges, JSON.stringify(counts));
	for (const [name, quota] of Object.entries(result.quotas)) {
		assert.ok(counts.byKind[name].made >= quota, `${name}: ${counts.byKind[name].made} made, at least ${quota} wanted`);
		assert.ok(counts.byKind[name].delivered > 0, `${name}: none delivered`);
	}
	assert.ok(counts.restarts >= mainKills);
	assert.equal(counts.lost, 0, `lost: ${result.lostKeys.slice(0, 20).join(', ')}`);
	// What a suite does not allow (`allowed`) never happened.
	assert.ok(allowed.staticDataGap || counts.lostInStaticDataGap === 0, `lost between saving static data and storing the execution: ${counts.lostInStaticDataGap}`);
	assert.ok(allowed.crashedExecutions || counts.inCrashedExecutions === 0, `only in crashed executions: ${counts.inCrashedExecutions}`);
	assert.equal(counts.duplicated, 0, 'delivered more than once');
	assert.equal(counts.wrongEvent, 0, 'delivered with another trigger event than the change');
	assert.equal(counts.unexpected, 0, 'delivered without a matching change');
	// Polls come from the main process only: none while it was down.
	for (const [from, to] of result.downIntervals) {
		const during = calls.filter((call) => call.path.endsWith('/list') && Date.parse(call.time) > from + 1000 && Date.parse(call.time) < to);
		assert.deepEqual(during, [], `list calls while main was down (${new Date(from).toISOString()} to ${new Date(to).toISOString()})`);
	}
	// A schedule with a long outage has one outage that spans a poll time of each trigger.
	assert.ok(!result.schedule.longOutageMs || result.downIntervals.some(([from, to]) => to - from > result.schedule.intervalMs), 'one outage spans a poll time of each trigger');
}
