import type { IDataObject } from 'n8n-workflow';

import type { TaskCursor } from '../../shared/tasks/taskPaging';

/**
 * What a sync (Sync Tasks, Create or Update) remembers between the runs of a published workflow,
 * per source, in the node's static data: each key's task, and where its last read of the open tasks
 * ended. With it a run reads only the tasks changed since (10 points per 100, usually one list
 * call) instead of every open task, and tells a task completed or deleted in the app (which the
 * list no longer shows) from an item never synced.
 */

/**
 * One key: [task ID, the source fingerprint its task was last written or seen with
 * ({@link LEFT_BY_SYNC}: completed by the sync because the key had left the input), 1 while the
 * task is open as far as the sync knows, 0 once it is known completed or deleted, the day (days
 * since 1970, UTC) the key was last in the input]. About 70 bytes of JSON per key.
 */
export type KeyMemory = [taskId: string, sourceFingerprint: string, open: 0 | 1, day: number];

export interface SourceMemory {
	format: typeof FORMAT;
	/** Whose tasks these are: the start of the credential's user key (a hash, never the secret). */
	account: string;
	/** Where the last read of the open tasks ended: the next run reads only what changed after it. */
	cursor: TaskCursor;
	/** How many open tasks the account had at the last read of every open task: what another such read would cost. */
	accountOpenTasks?: number;
	/** When it was stored (ms since 1970), to tell the newer of two memories apart. */
	storedAt: number;
	/** The execution that stored it: the items of one manual run share the run's one full read. */
	execution?: string;
	keys: Record<string, KeyMemory>;
}

const FORMAT = 2;

/** A source fingerprint no item has: a key remembered with it counts as changed when its item comes back. */
export const LEFT_BY_SYNC = '-';

/**
 * Keys whose task is known completed or deleted are forgotten this many days after they were last
 * in the input; keys of open tasks are kept while the task is open, so that no second task is
 * ever made for them.
 */
export const FORGET_CLOSED_AFTER_DAYS = 180;

const DAY_MS = 24 * 3600_000;

export function today(now = Date.now()): number {
	return Math.floor(now / DAY_MS);
}

/** Why a run reads every open task rather than what changed since the last run. */
export type FullReadReason = 'first' | 'manual' | 'account' | 'older' | 'many';

export const FULL_READ_NOTICES: Record<FullReadReason, string> = {
	first: 'First run for this source: every open task was read once; later runs of the published workflow read only what changed',
	manual: "A manual run reads every open task: n8n keeps nothing a manual run remembers; the published workflow's runs read only what changed",
	account: 'The memory was of another account: every open task was read once',
	older: 'The memory was kept by an older version of the node: every open task was read once',
	many: 'So many items changed that reading every open task once cost less than reading each of their tasks',
};

/** The account part of a credential's user key that the memory keeps. */
export function accountTag(userKey: string): string {
	return userKey.slice(0, 16);
}

function emptyMemory(account: string): SourceMemory {
	return { format: FORMAT, account, cursor: { idsAtUpdated: [] }, storedAt: 0, keys: {} };
}

function copyOf(memory: SourceMemory): SourceMemory {
	return JSON.parse(JSON.stringify(memory)) as SourceMemory;
}

/**
 * The newest memory a published run of this node stored in this n8n process, by workflow, node
 * and source. Two runs that overlap each start from the static data saved before them; a run that
 * waited for the other's turn (see {@link inSyncTurn}) starts from what that one left instead, so
 * it does not read again what the other just wrote.
 */
const handedOver = new Map<string, SourceMemory>();

/** Forgets the memories handed over in this process, as a restart of n8n does. */
export function forgetHandedOver(): void {
	handedOver.clear();
}

export interface MemoryPlace {
	staticData: IDataObject;
	source: string;
	account: string;
	/** `<workflow ID>|<node name>`: whose memory a run in this process may take over. */
	owner: string;
	manual: boolean;
	executionId?: string;
}

/** The memory a run starts from, and why it must read every open task when it must. */
export function loadMemory(place: MemoryPlace): { memory: SourceMemory; fullReadBecause?: FullReadReason } {
	const { staticData, source, account, manual, executionId } = place;
	let stored = (staticData.syncedTasks as Record<string, unknown> | undefined)?.[source] as Partial<SourceMemory> | Record<string, [string, string]> | undefined;
	const newer = manual ? undefined : handedOver.get(`${place.owner}|${source}`);
	if (newer && (stored?.format !== FORMAT || newer.storedAt > (stored as SourceMemory).storedAt)) stored = newer;
	if (!stored) return { memory: emptyMemory(account), fullReadBecause: manual ? 'manual' : 'first' };
	if ((stored as Partial<SourceMemory>).format !== FORMAT) {
		// key → [task ID, source fingerprint] of the keys of the last run: their tasks' state is learnt by the full read.
		const memory = emptyMemory(account);
		for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
			if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') memory.keys[key] = [value[0], value[1], 1, today()];
		}
		return { memory, fullReadBecause: manual ? 'manual' : 'older' };
	}
	const memory = copyOf(stored as SourceMemory);
	if (memory.account !== account) return { memory: emptyMemory(account), fullReadBecause: manual ? 'manual' : 'account' };
	// The items of one manual run share its first full read (n8n keeps the memory during the run).
	if (manual && (!executionId || memory.execution !== executionId)) return { memory, fullReadBecause: 'manual' };
	return { memory };
}

/**
 * Stores the memory, without the keys of closed tasks last in the input longer ago than
 * {@link FORGET_CLOSED_AFTER_DAYS}. Assigned anew, never changed in place: n8n saves static data
 * only when a property of it was set (a nested object changed during the run is not watched).
 */
export function storeMemory(place: MemoryPlace, memory: SourceMemory): void {
	const oldest = today() - FORGET_CLOSED_AFTER_DAYS;
	const keys: Record<string, KeyMemory> = {};
	for (const [key, entry] of Object.entries(memory.keys)) if (entry[2] === 1 || entry[3] >= oldest) keys[key] = entry;
	const stored: SourceMemory = { ...memory, keys, storedAt: Math.max(Date.now(), memory.storedAt + 1), execution: place.executionId };
	const { staticData, source } = place;
	staticData.syncedTasks = { ...((staticData.syncedTasks as IDataObject | undefined) ?? {}), [source]: stored as unknown as IDataObject };
	if (!place.manual) handedOver.set(`${place.owner}|${source}`, copyOf(stored));
}
