/**
 * All state of the sandbox in one object: users, API keys, calendar accounts, calendars, tasks
 * and events (both keyed by user), with the fixtures every start and every reset begins from.
 *
 * Persistence is optional: with a data file the state is loaded at start (fixtures when the file
 * does not exist yet) and written after every change, debounced by {@link SAVE_DELAY_MS}.
 * `flush()` writes pending changes at once; `close()` flushes and stops the timer. Writes go to a
 * temporary file that is then renamed over the data file, so a crash never leaves half a file.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export type IntegrationId = 'providerA' | 'providerB' | 'caldav';

/** `expired` answers 401 and `revoked` 403 on every event call for the account. */
export type ConnectionState = 'active' | 'expired' | 'revoked';

export interface User {
	id: string;
	email: string;
	/** False: the plan lacks API access (403 on every API call). */
	apiAccess: boolean;
	/** Account that first-party tasks of the user belong to (`accountId` of tasks). */
	taskAccountId: string;
}

export interface ApiKeyRecord {
	key: string;
	userId: string;
}

export interface Account {
	id: string;
	userId: string;
	integrationId: IntegrationId;
	connection: ConnectionState;
	/** E-mail address of the account owner. */
	ownerEmail: string;
}

export interface Calendar {
	id: string;
	accountId: string;
	userId: string;
	name: string;
	primary: boolean;
}

export type Progress = 'needs-action' | 'in-process' | 'completed' | 'failed' | 'cancelled';

export interface Relation {
	'@type': 'Relation';
	relation: { parent: boolean };
}

/** A stored task: the task as the interface shows it, less the derived fields. */
export interface TaskRecord {
	'@type': 'Task';
	id: string;
	accountId: string;
	integrationId: 'service';
	taskListId: string;
	title: string;
	description?: string;
	descriptionContentType: 'text/plain' | 'text/html';
	due?: string;
	timeZone?: string;
	estimatedDuration?: string;
	priority: number;
	progress: Progress;
	position: number;
	relatedTo?: Record<string, Relation>;
	tags?: string[];
	created: string;
	updated: string;
	links?: Record<string, unknown>;
	deleted?: true;
}

/**
 * A stored event. Its shape belongs to the events area; the store only requires that it is
 * JSON-serialisable. `service.example:metadata.taskId` links the event to a task (see
 * {@link Store.isTaskScheduled}).
 */
export type EventRecord = Record<string, unknown>;

/** Open tasks are the ones the list returns: not deleted, and progress `needs-action` or `in-process`. */
export function isOpenTask(task: TaskRecord): boolean {
	return !task.deleted && (task.progress === 'needs-action' || task.progress === 'in-process');
}

const byUpdatedThenId = (a: TaskRecord, b: TaskRecord): number =>
	a.updated < b.updated ? -1 : a.updated > b.updated ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * A user's open tasks in list order (ascending `updated`, ties by `id`), so a list call is a
 * binary search and a slice however many tasks the user has. Kept current by
 * {@link Store.addTask} and {@link Store.updateTask}.
 */
export class OpenTaskIndex {
	private readonly items: TaskRecord[];

	constructor(tasks: Iterable<TaskRecord>) {
		this.items = [];
		for (const task of tasks) if (isOpenTask(task)) this.items.push(task);
		this.items.sort(byUpdatedThenId);
	}

	/** First position whose entry sorts at or after `task`. */
	private lowerBound(task: TaskRecord): number {
		let lo = 0;
		let hi = this.items.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (byUpdatedThenId(this.items[mid], task) < 0) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	add(task: TaskRecord): void {
		if (!isOpenTask(task)) return;
		this.items.splice(this.lowerBound(task), 0, task);
	}

	remove(task: TaskRecord): void {
		const at = this.lowerBound(task);
		if (this.items[at] === task) this.items.splice(at, 1);
		else {
			const found = this.items.indexOf(task);
			if (found >= 0) this.items.splice(found, 1);
		}
	}

	/** Up to `limit` open tasks with `updated` strictly after `updatedAfter` (a timestamp), in list order. */
	page(updatedAfter: string | undefined, limit: number): TaskRecord[] {
		let lo = 0;
		if (updatedAfter !== undefined) {
			let hi = this.items.length;
			while (lo < hi) {
				const mid = (lo + hi) >>> 1;
				if (this.items[mid].updated <= updatedAfter) lo = mid + 1;
				else hi = mid;
			}
		}
		return this.items.slice(lo, lo + limit);
	}

	get size(): number {
		return this.items.length;
	}
}

export const SAVE_DELAY_MS = 100;

const FORMAT = 'cts-sandbox-state';
const FORMAT_VERSION = 1;

interface Fixtures {
	users: User[];
	apiKeys: ApiKeyRecord[];
	accounts: Account[];
	calendars: Calendar[];
}

/** The fixtures after start and after reset. */
export function fixtures(): Fixtures {
	return {
		users: [
			{ id: 'alice', email: 'alice@sandbox.example', apiAccess: true, taskAccountId: 'acc-alice-service' },
			{ id: 'bob', email: 'bob@sandbox.example', apiAccess: true, taskAccountId: 'acc-bob-service' },
			{ id: 'noplan', email: 'noplan@sandbox.example', apiAccess: false, taskAccountId: 'acc-noplan-service' },
		],
		apiKeys: [
			{ key: 'sandbox-alice-key', userId: 'alice' },
			{ key: 'sandbox-bob-key', userId: 'bob' },
			{ key: 'sandbox-noplan-key', userId: 'noplan' },
		],
		accounts: [
			account('acc-alice-a', 'alice', 'providerA', 'active', 'alice@sandbox.example'),
			account('acc-alice-b', 'alice', 'providerB', 'active', 'alice@sandbox.example'),
			account('acc-alice-c', 'alice', 'caldav', 'active', 'alice@sandbox.example'),
			account('acc-alice-expired', 'alice', 'providerA', 'expired', 'alice@sandbox.example'),
			account('acc-alice-revoked', 'alice', 'providerB', 'revoked', 'alice@sandbox.example'),
			account('acc-bob-a', 'bob', 'providerA', 'active', 'bob@sandbox.example'),
		],
		calendars: [
			{ id: 'cal-alice-a-primary', accountId: 'acc-alice-a', userId: 'alice', name: 'Alice', primary: true },
			{ id: 'cal-alice-a-team', accountId: 'acc-alice-a', userId: 'alice', name: 'Team', primary: false },
			{ id: 'cal-alice-b-primary', accountId: 'acc-alice-b', userId: 'alice', name: 'Calendar', primary: true },
			{ id: 'cal-alice-c-home', accountId: 'acc-alice-c', userId: 'alice', name: 'Home', primary: true },
			{ id: 'cal-alice-expired', accountId: 'acc-alice-expired', userId: 'alice', name: 'Old', primary: true },
			{ id: 'cal-alice-revoked', accountId: 'acc-alice-revoked', userId: 'alice', name: 'Former', primary: true },
			{ id: 'cal-bob-a-primary', accountId: 'acc-bob-a', userId: 'bob', name: 'Bob', primary: true },
		],
	};
}

function account(
	id: string,
	userId: string,
	integrationId: IntegrationId,
	connection: ConnectionState,
	ownerEmail: string,
): Account {
	return { id, userId, integrationId, connection, ownerEmail };
}

interface PersistedState {
	format: typeof FORMAT;
	version: number;
	savedAt: string;
	positionSeq: number;
	users: User[];
	apiKeys: ApiKeyRecord[];
	accounts: Account[];
	calendars: Calendar[];
	tasks: Record<string, [string, TaskRecord][]>;
	events: Record<string, [string, EventRecord][]>;
}

export class Store {
	users = new Map<string, User>();

	apiKeys = new Map<string, ApiKeyRecord>();

	accounts = new Map<string, Account>();

	calendars = new Map<string, Calendar>();

	/** Tasks per user id, then per task id. */
	tasks = new Map<string, Map<string, TaskRecord>>();

	/** Events per user id, then per event id. */
	events = new Map<string, Map<string, EventRecord>>();

	/** Open-task indexes per user, built on first use. */
	private openTasks = new Map<string, OpenTaskIndex>();

	/** Highest task position handed out so far: new tasks go after every existing one. */
	positionSeq = 0;

	readonly dataFile: string | undefined;

	private saveTimer: NodeJS.Timeout | undefined;

	private dirty = false;

	constructor(options: { dataFile?: string } = {}) {
		this.dataFile = options.dataFile;
		if (this.dataFile && existsSync(this.dataFile)) {
			this.restore(JSON.parse(readFileSync(this.dataFile, 'utf8')) as unknown, this.dataFile);
		} else {
			this.loadFixtures();
		}
	}

	/** Back to the fixtures: no tasks, no events. */
	reset(): void {
		this.loadFixtures();
		this.changed();
	}

	private loadFixtures(): void {
		const f = fixtures();
		this.users = new Map(f.users.map((u) => [u.id, u]));
		this.apiKeys = new Map(f.apiKeys.map((k) => [k.key, k]));
		this.accounts = new Map(f.accounts.map((a) => [a.id, a]));
		this.calendars = new Map(f.calendars.map((c) => [c.id, c]));
		this.tasks = new Map();
		this.events = new Map();
		this.openTasks = new Map();
		this.positionSeq = 0;
	}

	userByApiKey(key: string): User | undefined {
		const record = this.apiKeys.get(key);
		return record && this.users.get(record.userId);
	}

	/** The tasks of a user (created empty on first use). */
	tasksOf(userId: string): Map<string, TaskRecord> {
		let tasks = this.tasks.get(userId);
		if (!tasks) {
			tasks = new Map();
			this.tasks.set(userId, tasks);
		}
		return tasks;
	}

	/** The user's open tasks in list order. */
	openTasksOf(userId: string): OpenTaskIndex {
		let index = this.openTasks.get(userId);
		if (!index) {
			index = new OpenTaskIndex(this.tasks.get(userId)?.values() ?? []);
			this.openTasks.set(userId, index);
		}
		return index;
	}

	/** Stores a new task. */
	addTask(userId: string, task: TaskRecord): void {
		this.tasksOf(userId).set(task.id, task);
		this.openTasks.get(userId)?.add(task);
		this.changed();
	}

	/**
	 * Changes a stored task: every change of a task goes through here, so the list order stays
	 * current and the change is saved.
	 */
	updateTask(userId: string, task: TaskRecord, change: (task: TaskRecord) => void): void {
		const index = this.openTasks.get(userId);
		index?.remove(task);
		change(task);
		index?.add(task);
		this.changed();
	}

	/** The events of a user (created empty on first use). */
	eventsOf(userId: string): Map<string, EventRecord> {
		let events = this.events.get(userId);
		if (!events) {
			events = new Map();
			this.events.set(userId, events);
		}
		return events;
	}

	/** A position after every position handed out so far. */
	nextPosition(): number {
		this.positionSeq = Math.floor(this.positionSeq) + 1;
		return this.positionSeq;
	}

	/** Records that a position was assigned, so later new tasks still go after it. */
	notePosition(position: number): void {
		if (position > this.positionSeq) this.positionSeq = Math.ceil(position);
	}

	/**
	 * Whether an event of the user links the task through `service.example:metadata.taskId`
	 * (the task's `service.example:derived.scheduled`). Deleted or cancelled events do not count.
	 */
	isTaskScheduled(userId: string, taskId: string): boolean {
		const events = this.events.get(userId);
		if (!events || events.size === 0) return false;
		for (const event of events.values()) {
			const metadata = event['service.example:metadata'] as { taskId?: unknown } | undefined;
			if (metadata?.taskId === taskId && event.deleted !== true && event.cancelled !== true) return true;
		}
		return false;
	}

	/** Call after every change of state: schedules a save when there is a data file. */
	changed(): void {
		if (!this.dataFile) return;
		this.dirty = true;
		if (this.saveTimer) return;
		this.saveTimer = setTimeout(() => {
			this.saveTimer = undefined;
			this.flush();
		}, SAVE_DELAY_MS);
		this.saveTimer.unref();
	}

	/** Writes pending changes now. */
	flush(): void {
		if (this.saveTimer) {
			clearTimeout(this.saveTimer);
			this.saveTimer = undefined;
		}
		if (!this.dataFile || !this.dirty) return;
		const temp = `${this.dataFile}.${process.pid}.tmp`;
		try {
			writeFileSync(temp, JSON.stringify(this.snapshot()));
			renameSync(temp, this.dataFile);
			this.dirty = false;
		} catch (error) {
			console.error(`sandbox: could not save state to ${this.dataFile}: ${(error as Error).message}`);
		}
	}

	/** Flushes and stops the save timer. */
	close(): void {
		this.flush();
	}

	snapshot(): PersistedState {
		const perUser = <T>(map: Map<string, Map<string, T>>): Record<string, [string, T][]> => {
			const out: Record<string, [string, T][]> = {};
			for (const [userId, items] of map) if (items.size > 0) out[userId] = [...items];
			return out;
		};
		return {
			format: FORMAT,
			version: FORMAT_VERSION,
			savedAt: new Date().toISOString(),
			positionSeq: this.positionSeq,
			users: [...this.users.values()],
			apiKeys: [...this.apiKeys.values()],
			accounts: [...this.accounts.values()],
			calendars: [...this.calendars.values()],
			tasks: perUser(this.tasks),
			events: perUser(this.events),
		};
	}

	private restore(value: unknown, source: string): void {
		const state = value as Partial<PersistedState> | null;
		if (!state || state.format !== FORMAT || state.version !== FORMAT_VERSION) {
			throw new Error(`${source} is not a sandbox state file (format ${FORMAT} version ${FORMAT_VERSION})`);
		}
		const perUser = <T>(record: Record<string, [string, T][]> | undefined): Map<string, Map<string, T>> =>
			new Map(Object.entries(record ?? {}).map(([userId, entries]) => [userId, new Map(entries)]));
		this.users = new Map((state.users ?? []).map((u) => [u.id, u]));
		this.apiKeys = new Map((state.apiKeys ?? []).map((k) => [k.key, k]));
		this.accounts = new Map((state.accounts ?? []).map((a) => [a.id, a]));
		this.calendars = new Map((state.calendars ?? []).map((c) => [c.id, c]));
		this.tasks = perUser(state.tasks);
		this.events = perUser(state.events);
		this.openTasks = new Map();
		this.positionSeq = typeof state.positionSeq === 'number' ? state.positionSeq : 0;
	}
}
