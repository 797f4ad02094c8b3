import type { IDataObject, IExecuteFunctions, IExecuteSingleFunctions, NodeApiError } from 'n8n-workflow';

import { credentialUserKey } from '../../shared/transport/credentialUser';
import { serviceStatus, toNodeError } from '../../shared/transport/errors';
import { inTurn, type OperationItem } from '../../shared/transport/itemOperation';
import { isOpenTask, readSyncMarker } from '../../shared/tasks/syncMarker';
import { COST_TABLE } from '../../shared/pacing/costModel';
import { readTaskById, TASK_PAGE_SIZE, type TaskCursor } from '../../shared/tasks/taskPaging';
import { olderFirst } from '../../shared/copies/sameMoment';
import { accountTag, FULL_READ_NOTICES, LEFT_BY_SYNC, loadMemory, storeMemory, today, type KeyMemory, type MemoryPlace, type SourceMemory } from './syncMemory';
import {
	carryOut,
	decide,
	decideForDuplicate,
	decideForMissing,
	openTasksByKey,
	readOpenTasksSince,
	tagIdsByName,
	type Decision,
	type SyncKnowledge,
	type Wanted,
} from './taskSync';

/**
 * One run of a sync (all items of Sync Tasks, or one item of Create or Update), the same way for
 * both:
 *
 * 1. Read the source's open tasks changed since the last run (the memory's cursor; every open task
 *    on a first or manual run). A key found on two open tasks keeps the oldest; the others are
 *    removed ({@link decideForDuplicate}).
 * 2. Decide each item ({@link decide}): a task read in step 1 is compared field by field; a
 *    remembered one is read by ID only when its item changed.
 * 3. Write, one request per change, paced by the point budget.
 * 4. After creating, read what changed since step 1: a task another run created for the same key
 *    at the same moment (another process; runs in one process take turns) is found, and both runs
 *    keep the same, oldest one. So a key ends with one open task however runs overlap.
 * 5. Remember each key's task and where the reads ended (published workflows keep it).
 */

export type MissingMode = 'keep' | 'complete' | 'delete';

export interface SyncRunOptions {
	/** The first input item: the run's context, and the item a problem of the whole run belongs to. */
	first: OperationItem;
	source: string;
	wanted: Wanted[];
	/** The tasks of remembered keys no item has: Sync Tasks' choice (Create or Update: none). */
	missing?: MissingMode;
	preview: boolean;
	/** Throw at the first failed write (no Continue On Fail), after remembering what was written. */
	stopAtItemErrors: boolean;
	/**
	 * When the run reads the changes since the last run: always (Sync Tasks: a run also finds a
	 * second task of any key, left by an older version or a copied workflow), or only for an item
	 * whose key the memory does not know, once per execution (Create or Update: an unchanged item
	 * then costs nothing, a changed one its read by ID and the write).
	 */
	read: 'always' | 'forNewKeys';
}

export interface SyncOutcome {
	decision: Decision;
	taskId?: string;
	error?: Error;
}

export interface SyncRunResult {
	outcomes: SyncOutcome[];
	/** What the whole run should tell (a full read, a check that could not be made): for its first output item. */
	notices: string[];
}

type RunContext = IExecuteFunctions | IExecuteSingleFunctions;

const FROM_THE_START: TaskCursor = { idsAtUpdated: [] };

/** Runs a sync: after the runs of the same account and source before it in this process (see {@link inTurn}), except manual ones. */
export async function runSync(options: SyncRunOptions): Promise<SyncRunResult> {
	const context = options.first.context as RunContext;
	const account = accountTag(await credentialUserKey(context, 'ctsApi'));
	const manual = context.getMode() === 'manual';
	const place: MemoryPlace = {
		staticData: context.getWorkflowStaticData('node'),
		source: options.source,
		account,
		owner: `${context.getWorkflow().id ?? ''}|${context.getNode().name}`,
		manual,
		executionId: context.getExecutionId(),
	};
	// A manual run does not wait behind a published one (no run from the editor waits unseen):
	// what both create at once is found by the check after creating.
	if (manual) return await new SyncRound(context, options, place).run();
	return await inTurn(`sync|${account}|${options.source}`, async () => await new SyncRound(context, options, place).run());
}

/**
 * The memory of a key whose task a read found closed. Closed by a sync because the key had left
 * the input (its key line says so): completed, it is reopened when the key comes back; deleted, the
 * key is forgotten (it comes back as a new item), as the run that deleted it left it. Completed or
 * deleted in the app: it stays so while its item is unchanged.
 */
function closedEntry(entry: KeyMemory, task: IDataObject): KeyMemory | undefined {
	const leftBySync = readSyncMarker(task)?.sourceFingerprint === LEFT_BY_SYNC;
	if (leftBySync && task.deleted === true) return undefined;
	return [entry[0], leftBySync ? LEFT_BY_SYNC : entry[1], 0, entry[3]];
}

class SyncRound {
	private readonly memory: SourceMemory;
	private fullReadBecause;
	private readonly knowledge: SyncKnowledge;
	private readonly itemIndex: number;
	private readonly notices: string[] = [];
	private readonly decisions: Decision[] = [];
	private readonly outcomes: SyncOutcome[] = [];
	private readonly readById = new Map<string, Promise<IDataObject | null>>();

	constructor(
		private readonly context: RunContext,
		private readonly options: SyncRunOptions,
		private readonly place: MemoryPlace,
	) {
		({ memory: this.memory, fullReadBecause: this.fullReadBecause } = loadMemory(place));
		this.itemIndex = options.first.itemIndex;
		const knowledge: SyncKnowledge = {
			source: options.source,
			open: new Map(),
			memory: this.memory,
			loadTags: async () => {
				knowledge.tagIdsByName ??= await tagIdsByName(context);
			},
			readTask: async (id, key) => await this.readOwnTask(id, key),
		};
		this.knowledge = knowledge;
	}

	async run(): Promise<SyncRunResult> {
		const { options, memory } = this;
		if (this.mustRead()) {
			if (!this.fullReadBecause && this.readsById() > this.fullReadCalls() * COST_TABLE.list) this.fullReadBecause = 'many';
			const start = await readOpenTasksSince(this.context, this.fullReadBecause ? FROM_THE_START : memory.cursor, this.itemIndex);
			if (this.fullReadBecause) {
				this.notices.push(`${FULL_READ_NOTICES[this.fullReadBecause]} (${start.listCalls} list ${start.listCalls === 1 ? 'call' : 'calls'})`);
				memory.accountOpenTasks = start.tasks.length;
			}
			memory.cursor = start.cursor;
			this.decisions.push(...(await this.learn(start.tasks, this.fullReadBecause !== undefined)));
		}
		for (const wanted of options.wanted) this.decisions.push(await decide(wanted, this.knowledge));
		if (options.missing && options.missing !== 'keep') this.decisions.push(...(await this.decideMissing(options.missing)));

		for (const decision of this.decisions) this.outcomes.push(await this.carryOut(decision));
		if (!options.preview) {
			await this.checkAfterCreating();
			storeMemory(this.place, memory);
		}
		return { outcomes: this.outcomes, notices: this.notices };
	}

	/**
	 * At most how many remembered tasks the run would read by ID (1 point each): those of changed
	 * items, and those of keys no longer in the input that it would complete or delete. When that is
	 * more than reading every open task costs, the run reads every open task instead.
	 */
	private readsById(): number {
		const { options, memory } = this;
		let reads = options.wanted.filter((wanted) => {
			const remembered = memory.keys[wanted.key];
			return remembered !== undefined && remembered[1] !== wanted.sourceFingerprint;
		}).length;
		if (options.missing === 'complete' || options.missing === 'delete') {
			const inInput = new Set(options.wanted.map((wanted) => wanted.key));
			reads += Object.entries(memory.keys).filter(([key, entry]) => entry[2] === 1 && !inInput.has(key)).length;
		}
		return reads;
	}

	/** The list calls a read of every open task takes, by what the last one found (and the open tasks the memory knows). */
	private fullReadCalls(): number {
		const open = Math.max(this.memory.accountOpenTasks ?? 0, Object.values(this.memory.keys).filter((entry) => entry[2] === 1).length);
		return Math.floor(open / TASK_PAGE_SIZE) + 1;
	}

	/** Whether the run starts with a read of the open tasks (see {@link SyncRunOptions.read}). */
	private mustRead(): boolean {
		if (this.options.read === 'always') return true;
		const newKey = this.options.wanted.some((wanted) => !this.memory.keys[wanted.key]);
		return newKey && (this.fullReadBecause !== undefined || this.memory.execution !== this.place.executionId);
	}

	/**
	 * Takes in the source's open tasks a read found: each key's task is remembered, and a key with
	 * two or more keeps the oldest, the others to be removed. After a full read, a remembered task
	 * not found is known to be closed. After a read of changes, a remembered open task not among
	 * them may still be open beside a new one: it is read by ID (1 point) to tell.
	 */
	private async learn(tasks: IDataObject[], full: boolean): Promise<Decision[]> {
		const { memory, knowledge } = this;
		const found = openTasksByKey(tasks, this.options.source);
		if (full) for (const [key, entry] of Object.entries(memory.keys)) if (!found.has(key)) entry[2] = 0;
		const duplicates: Decision[] = [];
		for (const [key, list] of found) {
			const remembered = memory.keys[key];
			if (!full && remembered?.[2] === 1 && !list.some((task) => String(task.id) === remembered[0])) {
				const earlier = await this.readOwnTask(remembered[0], key);
				if (earlier && isOpenTask(earlier)) list.push(earlier);
			}
			const [kept, ...others] = list.sort(olderFirst);
			knowledge.open.set(key, [kept]);
			memory.keys[key] = [String(kept.id), readSyncMarker(kept)!.sourceFingerprint, 1, remembered?.[3] ?? today()];
			for (const other of others) duplicates.push(decideForDuplicate(other, kept));
		}
		return duplicates;
	}

	/** The remembered open tasks whose key no item has, to complete or delete (each read first, unless this run read it). */
	private async decideMissing(mode: 'complete' | 'delete'): Promise<Decision[]> {
		const inInput = new Set(this.options.wanted.map((wanted) => wanted.key));
		const decisions: Decision[] = [];
		for (const [key, entry] of Object.entries(this.memory.keys)) {
			if (inInput.has(key) || entry[2] === 0) continue;
			const task = this.knowledge.open.get(key)?.[0] ?? (await this.readOwnTask(entry[0], key));
			const closed = task && !isOpenTask(task) ? closedEntry(entry, task) : undefined;
			if (task && isOpenTask(task)) decisions.push(decideForMissing(task, mode));
			else if (closed) this.memory.keys[key] = closed;
			else delete this.memory.keys[key];
		}
		return decisions;
	}

	/** A task by ID, read once per run: the task while it carries this source's key, else null. */
	private async readOwnTask(id: string, key: string): Promise<IDataObject | null> {
		let read = this.readById.get(id);
		if (!read) this.readById.set(id, (read = readTaskById(this.context, id, this.itemIndex)));
		const task = await read;
		const marker = task ? readSyncMarker(task) : undefined;
		return task && marker?.source === this.options.source && marker.key === key ? task : null;
	}

	/** Carries a decision out (none in Preview) and remembers what it left; a failed write fails its item. */
	private async carryOut(decision: Decision): Promise<SyncOutcome> {
		const { options } = this;
		try {
			const taskId = options.preview ? decision.taskId : await this.write(decision);
			this.remember(decision, taskId);
			return { decision, taskId };
		} catch (error) {
			const nodeError = toNodeError(this.context.getNode(), error, decision.itemIndex ?? this.itemIndex);
			if (options.stopAtItemErrors) {
				if (!options.preview) storeMemory(this.place, this.memory);
				throw nodeError;
			}
			return { decision, error: nodeError };
		}
	}

	/**
	 * The write of a decision. A task no longer in the input, or a second task of a key, that another
	 * run completed or removed a moment before is not an error: the update of a deleted task answers
	 * 400, and a read then shows it closed.
	 */
	private async write(decision: Decision): Promise<string | undefined> {
		const itemIndex = decision.itemIndex ?? this.itemIndex;
		try {
			return await carryOut(this.context, decision, this.knowledge, itemIndex);
		} catch (error) {
			if (decision.itemIndex !== undefined || serviceStatus(error) !== 400) throw error as NodeApiError;
			const now = await readTaskById(this.context, String(decision.taskId), itemIndex);
			if (now && isOpenTask(now)) throw error as NodeApiError;
			decision.reason = `${decision.reason ?? ''}; another run had done so already`;
			return decision.taskId;
		}
	}

	/** What the memory keeps of a key after its decision. */
	private remember(decision: Decision, taskId: string | undefined): void {
		const { keys } = this.memory;
		if (decision.duplicateOf || this.options.preview) return;
		const known = keys[decision.key];
		if (decision.action === 'delete') {
			delete keys[decision.key];
			return;
		}
		if (!taskId || decision.remember === undefined) {
			// Nothing to remember of it (a done item whose task is gone): forgotten, so its return is a new item.
			if (decision.itemIndex !== undefined && known) delete keys[decision.key];
			return;
		}
		const open = decision.after ? !decision.after.done && !decision.after.deleted : (decision.openTask ?? known?.[2] === 1);
		// The day a key was last in the input: a task completed because its key left keeps the day it left.
		const day = decision.itemIndex === undefined ? (known?.[3] ?? today()) : today();
		keys[decision.key] = [taskId, decision.remember, open ? 1 : 0, day];
	}

	/**
	 * After creating: reads what changed since the first read. A key this run created a task for
	 * and that another run created one for at the same moment then has two; both runs keep the
	 * oldest and remove the other. An item whose new task was the one removed reports the kept one.
	 * If the read fails (the budget), the cursor stays before the new tasks: the next run's read
	 * finds them and does the same.
	 */
	private async checkAfterCreating(): Promise<void> {
		const created = this.outcomes.filter((outcome) => outcome.decision.action === 'create' && outcome.taskId && !outcome.error);
		if (created.length === 0) return;
		const cursor = this.memory.cursor;
		let duplicates: Decision[];
		try {
			const check = await readOpenTasksSince(this.context, cursor, this.itemIndex);
			this.memory.cursor = check.cursor;
			duplicates = await this.learn(check.tasks, false);
		} catch (error) {
			this.memory.cursor = cursor;
			const reason = (error as Error).message;
			this.notices.push(`Could not check for tasks another run created at the same moment (${reason}): the next run checks`);
			return;
		}
		const ownTasks = new Set(created.map((outcome) => outcome.taskId));
		for (const duplicate of duplicates) {
			const removed = await this.carryOut(duplicate);
			if (!ownTasks.has(duplicate.taskId) || removed.error) this.outcomes.push(removed);
		}
		// An item whose new task lost to an older one (removed by this run or another) reports the task kept.
		for (const outcome of created) {
			const kept = this.knowledge.open.get(outcome.decision.key)?.[0];
			if (!kept || String(kept.id) === outcome.taskId) continue;
			outcome.decision = {
				...outcome.decision,
				action: 'unchanged',
				changes: {},
				reason: `Another run created a task for this key at the same moment: the older one, ${String(kept.id)}, is kept and the one this run created (${String(outcome.taskId)}) was deleted`,
			};
			outcome.taskId = String(kept.id);
		}
	}
}
