/**
 * All state of the sandbox in one object: users, API keys, calendar accounts, calendars, tasks,
 * events and tags (the last three keyed by user), loaded from the fixtures (`fixtures.ts`) at every
 * start and every reset.
 *
 * Persistence is optional. With a data file, the state on disk is a snapshot (the data file) and a
 * journal (`<data file>.journal`) of what changed since: one JSON line per request, holding every
 * record the request changed, whole. The server calls {@link Store.commit} after each request and
 * before answering it, so an answered write is on disk even if the process is killed right after.
 * At start the snapshot is loaded, the journal replayed, and a fresh snapshot written; once the
 * journal grows larger than the snapshot, a new snapshot replaces both. A snapshot goes to a
 * temporary file that is then renamed over the data file, so a crash never leaves half a file.
 */
import {
	appendFileSync,
	closeSync,
	existsSync,
	ftruncateSync,
	openSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';

import { fixtures } from './fixtures';

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
	/** E-mail address of the account owner at the provider (`providerUserId`). */
	ownerEmail: string;
	/** The owner's name at the provider (`providerUserDisplayName`). */
	displayName: string;
}

/** What the user may do with a calendar (JMAP `myRights`). */
export interface CalendarRights {
	mayReadFreeBusy: boolean;
	mayReadItems: boolean;
	mayWriteAll: boolean;
	mayWriteOwn: boolean;
	mayUpdatePrivate: boolean;
	mayRSVP: boolean;
	mayAdmin: boolean;
	mayDelete: boolean;
}

export interface Calendar {
	id: string;
	accountId: string;
	userId: string;
	/** The name at the provider. */
	name: string;
	primary: boolean;
	/** The colour at the provider, `#rrggbb`. */
	color: string;
	/** Order within the account. */
	sortOrder: number;
	myRights: CalendarRights;
	/** Offsets (ISO 8601, negative = before the start) of the calendar's default display alerts. */
	defaultAlertOffsets: { withTime: string[]; withoutTime: string[] };
	/** Whether the calendar counts for the user's availability. */
	busy: boolean;
	/** Colour and name the user gave the calendar in the service. */
	overrideColor?: string;
	overrideName?: string;
}

/** A tag of a user; a deleted tag is kept with `deleted: true` and its deletion time as `updated`. */
export interface TagRecord {
	id: string;
	name: string;
	color: string;
	updated: string;
	deleted?: true;
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

/** The collections whose records the journal saves one by one (per user, then per id). */
export type Collection = 'tasks' | 'events' | 'tags';

/** One journal line: the records one request changed, whole (null: no longer there). */
interface JournalEntry {
	/** Numbers the entries; a snapshot records the last one it includes, so replay skips those. */
	seq: number;
	positionSeq: number;
	records: [Collection, string, string, TaskRecord | EventRecord | TagRecord | null][];
}

/** The journal is compacted into a snapshot once it is larger than the snapshot and than this. */
const MIN_COMPACTED_JOURNAL_BYTES = 1024 * 1024;

const FORMAT = 'cts-sandbox-state';
/** Version 2 added tags and the calendar and account details; version 1 files are upgraded on load. */
const FORMAT_VERSION = 2;


/** A user's entry of a per-user map, created empty on first use. */
function ofUser<T>(perUser: Map<string, Map<string, T>>, userId: string): Map<string, T> {
	let items = perUser.get(userId);
	if (!items) {
		items = new Map();
		perUser.set(userId, items);
	}
	return items;
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
	tags: Record<string, [string, TagRecord][]>;
	/** The last journal entry the snapshot includes (absent before the journal existed: 0). */
	journalSeq?: number;
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

	/** Tags per user id, then per tag id (deleted tags included). */
	tags = new Map<string, Map<string, TagRecord>>();

	/** Open-task indexes per user, built on first use. */
	private openTasks = new Map<string, OpenTaskIndex>();

	/** Highest task position handed out so far: new tasks go after every existing one. */
	positionSeq = 0;

	readonly dataFile: string | undefined;

	private readonly journalFile: string;

	/** Records changed since the last commit, by collection, user and id. */
	private readonly uncommitted = new Map<string, [Collection, string, string]>();

	/** A change not named record by record (a reset): the next commit writes a snapshot. */
	private wholeStateChanged = false;

	/** The last journal entry written (or included in the snapshot that was loaded). */
	private journalSeq = 0;

	private journalFd: number | undefined;

	private journalBytes = 0;

	private snapshotBytes = 0;

	constructor(options: { dataFile?: string } = {}) {
		this.dataFile = options.dataFile;
		this.journalFile = this.dataFile === undefined ? '' : `${this.dataFile}.journal`;
		if (!this.dataFile) {
			this.loadFixtures();
			return;
		}
		if (existsSync(this.dataFile)) {
			this.restore(JSON.parse(readFileSync(this.dataFile, 'utf8')) as unknown, this.dataFile);
			this.replayJournal();
		} else {
			// A journal without its data file belongs to a state someone deleted: it is not replayed.
			this.loadFixtures();
		}
		// From here on the journal holds only entries written by this process, and no cut-off line.
		this.writeSnapshot();
	}

	/** Back to the fixtures: no tasks, no events, the fixture tags. */
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
		this.tags = new Map(Object.entries(f.tags).map(([userId, tags]) => [userId, new Map(tags.map((t) => [t.id, t]))]));
		this.openTasks = new Map();
		this.positionSeq = 0;
	}

	userByApiKey(key: string): User | undefined {
		const record = this.apiKeys.get(key);
		return record && this.users.get(record.userId);
	}

	/** The tasks of a user (created empty on first use). */
	tasksOf(userId: string): Map<string, TaskRecord> {
		return ofUser(this.tasks, userId);
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
		this.changed('tasks', userId, task.id);
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
		this.changed('tasks', userId, task.id);
	}

	/** The events of a user (created empty on first use). */
	eventsOf(userId: string): Map<string, EventRecord> {
		return ofUser(this.events, userId);
	}

	/** The tags of a user, deleted ones included (created empty on first use). */
	tagsOf(userId: string): Map<string, TagRecord> {
		return ofUser(this.tags, userId);
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

	/**
	 * Call after every change of state, naming the record that changed (its collection, user and
	 * id), so the next {@link commit} saves it; with no record named, the next commit saves the
	 * whole state.
	 */
	changed(): void;
	changed(collection: Collection, userId: string, id: string): void;
	changed(collection?: Collection, userId?: string, id?: string): void {
		if (!this.dataFile) return;
		if (collection === undefined) this.wholeStateChanged = true;
		else this.uncommitted.set(`${collection}\n${userId}\n${id}`, [collection, userId!, id!]);
	}

	/**
	 * Saves the changes since the last commit: appends one journal line holding the changed
	 * records, in one write(2) that has returned when this returns. The server answers a request
	 * only after this, so an answered write survives the process being killed (kill -9, a crash):
	 * what write(2) wrote is in the operating system's page cache, which outlives the process.
	 * No fsync: only an operating system crash or power loss could lose the last writes, which the
	 * sandbox accepts to keep a write as fast as without a data file (an fsync costs milliseconds).
	 * Throws when the line could not be written (the request is then answered 500).
	 */
	commit(): void {
		if (!this.dataFile) return;
		if (this.wholeStateChanged) {
			this.writeSnapshot();
			return;
		}
		if (this.uncommitted.size === 0) return;
		const entry: JournalEntry = { seq: this.journalSeq + 1, positionSeq: this.positionSeq, records: [] };
		for (const [collection, userId, id] of this.uncommitted.values()) {
			const record = this.collection(collection).get(userId)?.get(id) as JournalEntry['records'][number][3] | undefined;
			entry.records.push([collection, userId, id, record ?? null]);
		}
		const line = `${JSON.stringify(entry)}\n`;
		this.journalFd ??= openSync(this.journalFile, 'a');
		try {
			appendFileSync(this.journalFd, line);
		} catch (error) {
			// Cut off what part of the line was written, so the next line starts on a line of its own.
			ftruncateSync(this.journalFd, this.journalBytes);
			throw error;
		}
		this.journalSeq = entry.seq;
		this.journalBytes += Buffer.byteLength(line);
		this.uncommitted.clear();
		if (this.journalBytes > Math.max(MIN_COMPACTED_JOURNAL_BYTES, this.snapshotBytes)) {
			// The write is saved already: a compaction that fails is only retried with the next commit.
			try {
				this.writeSnapshot();
			} catch (error) {
				console.error(`sandbox: could not write a snapshot to ${this.dataFile}: ${(error as Error).message}`);
			}
		}
	}

	/** Commits, writes a snapshot that includes the journal, and removes the journal. */
	close(): void {
		if (!this.dataFile) return;
		this.commit();
		if (this.journalBytes > 0) this.writeSnapshot();
		if (this.journalFd !== undefined) closeSync(this.journalFd);
		this.journalFd = undefined;
		rmSync(this.journalFile, { force: true });
	}

	/** Writes the whole state as the new snapshot and empties the journal, which it includes. */
	private writeSnapshot(): void {
		const dataFile = this.dataFile!;
		const text = JSON.stringify(this.snapshot());
		const temp = `${dataFile}.${process.pid}.tmp`;
		writeFileSync(temp, text);
		renameSync(temp, dataFile);
		// A kill between the rename and this leaves entries the snapshot includes: replay skips them by seq.
		if (this.journalFd !== undefined) ftruncateSync(this.journalFd, 0);
		else rmSync(this.journalFile, { force: true });
		this.journalBytes = 0;
		this.snapshotBytes = text.length;
		this.uncommitted.clear();
		this.wholeStateChanged = false;
	}

	/**
	 * Applies the journal entries the loaded snapshot does not include. A last line cut short (the
	 * process was killed while writing it) belonged to a request that was never answered: skipped.
	 */
	private replayJournal(): void {
		if (!existsSync(this.journalFile)) return;
		const lines = readFileSync(this.journalFile, 'utf8').split('\n');
		lines.forEach((line, index) => {
			if (line === '') return;
			let entry: JournalEntry;
			try {
				entry = JSON.parse(line) as JournalEntry;
			} catch (error) {
				if (index === lines.length - 1) return;
				throw new Error(`${this.journalFile}: line ${index + 1} is not a journal entry (${(error as Error).message})`);
			}
			if (entry.seq <= this.journalSeq) return;
			for (const [collection, userId, id, record] of entry.records) {
				const items = ofUser(this.collection(collection), userId);
				if (record === null) items.delete(id);
				else items.set(id, record);
			}
			this.positionSeq = entry.positionSeq;
			this.journalSeq = entry.seq;
		});
		this.openTasks = new Map();
	}

	private collection(name: Collection): Map<string, Map<string, unknown>> {
		return this[name] as Map<string, Map<string, unknown>>;
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
			tags: perUser(this.tags),
			journalSeq: this.journalSeq,
		};
	}

	private restore(value: unknown, source: string): void {
		const state = value as Partial<PersistedState> | null;
		if (!state || state.format !== FORMAT || (state.version !== FORMAT_VERSION && state.version !== 1)) {
			throw new Error(`${source} is not a sandbox state file (format ${FORMAT} version ${FORMAT_VERSION})`);
		}
		const perUser = <T>(record: Record<string, [string, T][]> | undefined): Map<string, Map<string, T>> =>
			new Map(Object.entries(record ?? {}).map(([userId, entries]) => [userId, new Map(entries)]));
		if (state.version === 1) {
			// Version 1 held no tags, and its users, keys, accounts and calendars could only be the
			// fixtures of the time (no endpoint changes them): take today's fixtures for all of those.
			this.loadFixtures();
		} else {
			this.users = new Map((state.users ?? []).map((u) => [u.id, u]));
			this.apiKeys = new Map((state.apiKeys ?? []).map((k) => [k.key, k]));
			this.accounts = new Map((state.accounts ?? []).map((a) => [a.id, a]));
			this.calendars = new Map((state.calendars ?? []).map((c) => [c.id, c]));
			this.tags = perUser(state.tags);
		}
		this.tasks = perUser(state.tasks);
		this.events = perUser(state.events);
		this.openTasks = new Map();
		this.positionSeq = typeof state.positionSeq === 'number' ? state.positionSeq : 0;
		this.journalSeq = typeof state.journalSeq === 'number' ? state.journalSeq : 0;
	}
}
