import type { IDataObject } from 'n8n-workflow';

import { fingerprint } from '../../shared/copies/marker';
import { actionWord, byMarkerKey } from '../../shared/copies/plan';
import { olderFirst } from '../../shared/copies/sameMoment';
import { toStringList } from '../../shared/fields/fields';
import { listTags } from '../../shared/tasks/tagLists';
import { listTaskPage, walkTasks, type TaskCursor } from '../../shared/tasks/taskPaging';
import { describedWithMarker, isOpenTask, isSyncEcho, readSyncMarker, stateFingerprint, taskState, type SyncMarker, type TaskState } from '../../shared/tasks/syncMarker';
import { isIanaZone, isIsoDuration, notIanaZoneProblem, parseDateInput, toLocalDateTime, withOffset, DATE_TIME_HINT } from '../../shared/time/dates';
import { invalidField, quoted } from '../../shared/transport/errors';
import type { OperationItem } from '../../shared/transport/itemOperation';
import type { ServiceContext } from '../../shared/transport/credentialUser';
import { ctsRequest } from '../../shared/transport/transport';
import { forgetList } from '../../shared/transport/listCache';
import { LEFT_BY_SYNC, type SourceMemory } from './syncMemory';

/**
 * Keeping tasks in step with the items of another tool (Sync Tasks, and Create or Update for one
 * item): the rules both operations follow, in one place. An item is found again by its source and
 * key, written into the task's description as its sync marker (see nodes/shared/tasks/syncMarker).
 */

export type SyncAction = 'create' | 'update' | 'complete' | 'reopen' | 'delete' | 'unchanged';

/** The fields a sync may map, in the editor's words. */
const FIELD_LABELS: Record<keyof Omit<TaskState, 'deleted'>, string> = {
	title: 'Title',
	description: 'Description',
	due: 'Due',
	timeZone: 'Time Zone',
	priority: 'Priority',
	estimatedDuration: 'Estimated Duration',
	tags: 'Tag Names',
	taskListId: 'Task List ID',
	done: 'Done',
};

type MappedField = keyof typeof FIELD_LABELS;

/** One source item: its key and the values of the fields it maps (a field left out is never touched). */
export interface Wanted {
	itemIndex: number;
	key: string;
	values: Partial<Omit<TaskState, 'tags' | 'deleted'>>;
	tagNames?: string[];
	sourceFingerprint: string;
	notices: string[];
}

const PRIORITY_WORDS: Record<string, number> = { none: 0, highest: 1, urgent: 1, high: 3, medium: 5, normal: 5, low: 7, lowest: 9 };

/** A priority as a number 0–9, a numeric text, or a word (None, Highest, High, Medium, Low, Lowest; "1 (Highest)" too). */
export function readPriority(value: unknown): number | undefined {
	if (value === '' || value === null || value === undefined) return 0;
	const text = String(value).trim().toLowerCase();
	const number = /^\d+/.exec(text) ? Number.parseInt(text, 10) : PRIORITY_WORDS[text];
	return number !== undefined && Number.isInteger(number) && number >= 0 && number <= 9 ? number : undefined;
}

function readDone(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	const text = String(value ?? '').trim().toLowerCase();
	if (['true', 'yes', '1'].includes(text)) return true;
	if (['false', 'no', '0', ''].includes(text)) return false;
	return undefined;
}

/** The source and key of an item, checked before any request. */
export function readSourceAndKey({ context, itemIndex, parameter }: OperationItem): { source: string; key: string } {
	const source = String(parameter('source', '') ?? '').trim();
	if (source === '') throw invalidField(context.getNode(), 'Source', 'must not be empty: name the tool the items come from, e.g. github-issues', itemIndex);
	const key = String(parameter('sourceKey', '') ?? '').trim();
	if (key === '') throw invalidField(context.getNode(), 'Source Key', 'must not be empty: give what identifies the item in its tool, e.g. {{ $json.id }} or an issue URL', itemIndex);
	return { source, key };
}

/**
 * The mapped values of one item, each checked and written as the service takes it; a value the
 * service would refuse fails the item, naming the field, before any request.
 */
export function readWanted(item: OperationItem): Wanted {
	const { context, itemIndex, parameter } = item;
	const node = context.getNode();
	const { key } = readSourceAndKey(item);
	const title = String(parameter('title', '') ?? '').trim();
	if (title === '') throw invalidField(node, 'Title', 'must not be empty: map the item\'s title, e.g. {{ $json.title }}', itemIndex);
	const fields = (parameter('syncFields', {}) ?? {}) as IDataObject;
	const values: Wanted['values'] = { title };
	const notices: string[] = [];
	if ('description' in fields) values.description = String(fields.description ?? '');
	if ('timeZone' in fields && String(fields.timeZone ?? '') !== '') {
		if (!isIanaZone(fields.timeZone)) throw invalidField(node, 'Time Zone', notIanaZoneProblem(fields.timeZone), itemIndex);
		values.timeZone = fields.timeZone;
	}
	if ('due' in fields) {
		const empty = fields.due === null || fields.due === undefined || String(fields.due).trim() === '';
		if (empty) {
			values.due = null;
			values.timeZone = values.timeZone ?? null;
		} else {
			const zone = values.timeZone ?? context.getTimezone();
			const due = parseDateInput(fields.due, zone);
			if (!due) throw invalidField(node, 'Due', `${quoted(fields.due)} is not a date and time`, itemIndex, DATE_TIME_HINT);
			values.due = toLocalDateTime(due, zone);
			values.timeZone = zone;
		}
	}
	if ('priority' in fields) {
		const priority = readPriority(fields.priority);
		if (priority === undefined) throw invalidField(node, 'Priority', `${quoted(fields.priority)} is not a priority: use 0 to 9, or None, Highest, High, Medium, Low or Lowest`, itemIndex);
		values.priority = priority;
	}
	if ('estimatedDuration' in fields) {
		const duration = String(fields.estimatedDuration ?? '').trim();
		if (duration !== '' && !isIsoDuration(duration)) throw invalidField(node, 'Estimated Duration', `${quoted(fields.estimatedDuration)} is not an ISO 8601 duration: write it like PT30M, PT1H30M or P1D`, itemIndex);
		values.estimatedDuration = duration === '' ? null : duration;
	}
	if ('taskListId' in fields) values.taskListId = String(fields.taskListId ?? '').trim() || 'default';
	if ('done' in fields) {
		const done = readDone(fields.done);
		if (done === undefined) throw invalidField(node, 'Done', `${quoted(fields.done)} is not true or false`, itemIndex, 'Give a test of the item, e.g. {{ $json.state === "closed" }}.');
		values.done = done;
	}
	let tagNames: string[] | undefined;
	if ('tags' in fields) tagNames = [...new Set(toStringList(fields.tags ?? []).map((name) => name.trim()).filter(Boolean))].sort();
	// The source's fingerprint covers the mapped fields only: mapping another field later is a change of every item.
	const sourceFingerprint = fingerprint([Object.entries(values).sort(([a], [b]) => a.localeCompare(b)), tagNames ?? null]);
	return { itemIndex, key, values, tagNames, sourceFingerprint, notices };
}

/** What a sync does with one task: its action, the write, and what to output. */
export interface Decision {
	action: SyncAction;
	key: string;
	itemIndex?: number;
	taskId?: string;
	title: string;
	/** Each changed field: what the task has and what the source gives. */
	changes: Record<string, { from: unknown; to: unknown }>;
	/** The state the write leaves (none for unchanged). */
	after?: TaskState;
	/** Tag names to create before the write (names the account has no tag for). */
	newTags: string[];
	sourceFingerprint: string;
	reason?: string;
	notices: string[];
	/** The marker's source fingerprint the memory keeps for this key. */
	remember?: string;
	/** Whether the task is open after the decision, when the decision knows (an unchanged task it has at hand). */
	openTask?: boolean;
	/** A second open task of a key: the ID of the task kept for it. */
	duplicateOf?: string;
}

/** What the sync knows when it decides: the open tasks of the source it read, by key, its memory, the account's tags. */
export interface SyncKnowledge {
	source: string;
	/** The source's open tasks this run read, by key: one each (a second one is a duplicate, see {@link decideForDuplicate}). */
	open: Map<string, IDataObject[]>;
	memory: SourceMemory;
	/** The account's tag IDs by name, once {@link SyncKnowledge.loadTags} has read them. */
	tagIdsByName?: Map<string, string>;
	/** Reads the tags (one list call) the first time an item with Tag Names needs them. */
	loadTags: () => Promise<void>;
	/** Reads a task by ID (1 point; once per run): the task of this source and key, or null when it is gone or no longer carries the key. */
	readTask: (id: string, key: string) => Promise<IDataObject | null>;
}

/** The open tasks that carry a marker of `source`, by key, oldest first (the oldest of a key is the one kept). */
export function openTasksByKey(tasks: IDataObject[], source: string): Map<string, IDataObject[]> {
	return byMarkerKey([...tasks].sort(olderFirst), (task) => {
		const marker = readSyncMarker(task);
		return marker && marker.source === source && isOpenTask(task) ? marker.key : undefined;
	});
}

/** The account's tags by name (one list call, 10 points, reused for a minute). */
export async function tagIdsByName(context: ServiceContext): Promise<Map<string, string>> {
	const byName = new Map<string, string>();
	for (const tag of await listTags(context)) if (typeof tag.name === 'string' && !byName.has(tag.name)) byName.set(tag.name, tag.id);
	return byName;
}

const NEW_TAG = 'new tag: ';

/** The colour of a tag a sync creates (the service requires one): the Tag Create field's default. */
const NEW_TAG_COLOR = '#4285f4';

/** The state the source asks for, from the task's current state (or a new task's). */
function wantedState(current: TaskState, wanted: Wanted, knowledge: SyncKnowledge): { state: TaskState; newTags: string[] } {
	const state: TaskState = { ...current, ...wanted.values, deleted: false };
	const newTags: string[] = [];
	if (wanted.tagNames) {
		state.tags = wanted.tagNames
			.map((name) => {
				const id = knowledge.tagIdsByName?.get(name);
				if (id) return id;
				newTags.push(name);
				return `${NEW_TAG}${name}`;
			})
			.sort();
	}
	return { state, newTags };
}

/** The fields that differ, as the output gives them: a due date with the offset of its zone. */
function changesBetween(current: TaskState, state: TaskState): Decision['changes'] {
	const changes: Decision['changes'] = {};
	for (const field of Object.keys(FIELD_LABELS) as MappedField[]) {
		if (JSON.stringify(current[field]) === JSON.stringify(state[field])) continue;
		changes[field] = field === 'due' ? { from: withOffset(current.due, current.timeZone), to: withOffset(state.due, state.timeZone) } : { from: current[field], to: state[field] };
	}
	return changes;
}

const NEW_TASK: TaskState = taskState({});

/** The decision for an item whose task is at hand (open, or read by ID). */
function decideForTask(wanted: Wanted, task: IDataObject, knowledge: SyncKnowledge, notices: string[], reopen: boolean): Decision {
	const current = taskState(task);
	const { state, newTags } = wantedState(current, wanted, knowledge);
	if (reopen && wanted.values.done !== true) state.done = false;
	const base = { key: wanted.key, itemIndex: wanted.itemIndex, taskId: String(task.id), title: state.title, sourceFingerprint: wanted.sourceFingerprint, notices };
	if (state.estimatedDuration !== current.estimatedDuration) {
		// The interface's update takes no estimated duration: it is written when the task is created.
		notices.push(`Estimated Duration stays ${current.estimatedDuration ?? 'empty'}: the service sets it only when a task is created`);
		state.estimatedDuration = current.estimatedDuration;
	}
	const changes = changesBetween(current, state);
	const marker = readSyncMarker(task);
	const editedInService = marker === undefined || marker.taskFingerprint !== stateFingerprint(current);
	const sourceChanged = marker === undefined || marker.sourceFingerprint !== wanted.sourceFingerprint;
	if (Object.keys(changes).length === 0) {
		if (!sourceChanged) return { ...base, action: 'unchanged', changes, newTags: [], remember: wanted.sourceFingerprint, openTask: !current.done };
		// Both sides agree, but the item is not as the key line recorded it (it took over an edit made
		// in the app, or a field was newly mapped): the line is brought up to date, so that the item
		// changed back later is not taken for an unchanged one.
		const reason = 'Already as the item says: only its key line is brought up to date';
		return { ...base, action: 'update', changes, after: state, newTags: [], remember: wanted.sourceFingerprint, reason };
	}
	const labels = Object.keys(changes).map((field) => FIELD_LABELS[field as MappedField]).join(', ');
	if (!sourceChanged && editedInService) {
		return {
			...base,
			action: 'unchanged',
			changes: {},
			newTags: [],
			remember: marker.sourceFingerprint,
			openTask: !current.done,
			reason: `Changed in the service since the last sync (${labels}) and not at the source: the service's values are kept`,
		};
	}
	if (editedInService && marker && !current.done) notices.push(`Also changed in the service since the last sync: the source's values replace it (${labels})`);
	const action: SyncAction = state.done && !current.done ? 'complete' : !state.done && current.done ? 'reopen' : 'update';
	return { ...base, action, changes, after: state, newTags, remember: wanted.sourceFingerprint };
}

/** The knowledge with the account's tags, when the item names tags (read once, only for an item that needs a decision). */
async function withTags(wanted: Wanted, knowledge: SyncKnowledge): Promise<SyncKnowledge> {
	if (wanted.tagNames) await knowledge.loadTags();
	return knowledge;
}

/**
 * What to do for one source item: find its task (open and read this run, else remembered), then
 * create, update, complete, reopen, or leave it. A remembered task is read by ID only when its
 * item changed: an unchanged item costs nothing, whatever its task's state.
 */
export async function decide(wanted: Wanted, knowledge: SyncKnowledge): Promise<Decision> {
	const notices = [...wanted.notices];
	const task = knowledge.open.get(wanted.key)?.[0];
	if (task) return decideForTask(wanted, task, await withTags(wanted, knowledge), notices, false);
	const remembered = knowledge.memory.keys[wanted.key];
	const title = String(wanted.values.title);
	const base = { key: wanted.key, itemIndex: wanted.itemIndex, title, changes: {}, newTags: [], notices };
	if (remembered) {
		const [taskId, sourceFingerprint, open] = remembered;
		if (sourceFingerprint === wanted.sourceFingerprint) {
			const reason = open === 1 ? undefined : 'The task is completed or deleted in the service and the source item has not changed since: it stays so';
			return { ...base, action: 'unchanged', taskId, sourceFingerprint, reason, remember: sourceFingerprint, openTask: open === 1 };
		}
		const earlier = await knowledge.readTask(taskId, wanted.key);
		if (earlier && earlier.deleted !== true) {
			if (!isOpenTask(earlier) && wanted.values.done !== true) {
				notices.push(
					sourceFingerprint === LEFT_BY_SYNC
						? 'Back in the input: its task, completed when the key left the input, is reopened'
						: 'The task was completed in the service; the source item changed since, so it is reopened',
				);
			}
			return decideForTask(wanted, earlier, await withTags(wanted, knowledge), notices, true);
		}
		if (wanted.values.done === true) {
			// Remembered as it is now, so that the item changed back later is still a change.
			const reason = `The source item is done and its task was ${earlier ? 'deleted in the service' : 'removed'}: nothing to create`;
			return { ...base, action: 'unchanged', taskId: earlier ? taskId : undefined, sourceFingerprint: wanted.sourceFingerprint, reason, remember: earlier ? wanted.sourceFingerprint : undefined, openTask: false };
		}
		notices.push(
			earlier
				? 'The task was deleted in the service; the source item changed since, so it is created again'
				: 'The task made for this key no longer exists or no longer carries its key line: it is created again',
		);
	}
	if (wanted.values.done === true) {
		return { ...base, action: 'unchanged', sourceFingerprint: wanted.sourceFingerprint, reason: 'The source item is done and has no open task: nothing to create' };
	}
	const { state, newTags } = wantedState(NEW_TASK, wanted, await withTags(wanted, knowledge));
	return { ...base, action: 'create', changes: changesBetween(NEW_TASK, state), after: state, newTags, sourceFingerprint: wanted.sourceFingerprint, remember: wanted.sourceFingerprint };
}

/** What to do with an open task of the source whose key is no longer in the input (Complete or Delete). */
export function decideForMissing(task: IDataObject, mode: 'complete' | 'delete'): Decision {
	const marker = readSyncMarker(task)!;
	const current = taskState(task);
	const base = { key: marker.key, taskId: String(task.id), title: current.title, newTags: [], notices: [], sourceFingerprint: LEFT_BY_SYNC, reason: 'No longer in the input' };
	if (mode === 'complete') return { ...base, action: 'complete', changes: { done: { from: false, to: true } }, after: { ...current, done: true }, remember: LEFT_BY_SYNC };
	return { ...base, action: 'delete', changes: {}, after: { ...current, deleted: true } };
}

/**
 * What to do with a second open task of a key, the oldest (see {@link olderFirst}) being kept:
 * deleted when it is as a sync left it, completed when it was changed in the app since, so that
 * nothing the user wrote is lost. The order is fixed, so two runs that find the same pair at once
 * keep the same task.
 */
export function decideForDuplicate(task: IDataObject, kept: IDataObject): Decision {
	const marker = readSyncMarker(task)!;
	const current = taskState(task);
	const edited = !isSyncEcho(task);
	const reason = `A second open task for this key: the oldest, ${String(kept.id)}, is kept${edited ? '; this one was changed in the app, so it is completed rather than deleted' : ''}`;
	const base = { key: marker.key, taskId: String(task.id), title: current.title, newTags: [], notices: [], sourceFingerprint: marker.sourceFingerprint, reason, duplicateOf: String(kept.id) };
	if (edited) return { ...base, action: 'complete', changes: { done: { from: false, to: true } }, after: { ...current, done: true } };
	return { ...base, action: 'delete', changes: {}, after: { ...current, deleted: true } };
}

/** The tag IDs of a state, once its new tags exist. */
async function createTags(context: ServiceContext, decision: Decision, knowledge: SyncKnowledge, itemIndex: number): Promise<void> {
	for (const name of decision.newTags) {
		if (!knowledge.tagIdsByName?.has(name)) {
			const created = (await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/tags/create', body: { name, color: NEW_TAG_COLOR } }, itemIndex)) as IDataObject;
			knowledge.tagIdsByName?.set(name, String(created.id));
			// The tag list read for this run (reused for a minute) lacks the new tag: the next run reads it again.
			await forgetList(context, 'ctsApi', 'tags');
		}
		const id = knowledge.tagIdsByName!.get(name)!;
		decision.after!.tags = decision.after!.tags.map((tag) => (tag === `${NEW_TAG}${name}` ? id : tag)).sort();
	}
}

/**
 * Carries a decision out: 1 point per create, update, complete or reopen (one update writes the
 * fields, the progress and the marker together), 2 for a delete (the marker records it first, so
 * the Task Trigger knows the deletion as the sync's), 1 per new tag. Answers the task's ID.
 */
export async function carryOut(context: ServiceContext, decision: Decision, knowledge: SyncKnowledge, itemIndex: number): Promise<string | undefined> {
	const { after } = decision;
	if (!after || decision.action === 'unchanged') return decision.taskId;
	await createTags(context, decision, knowledge, itemIndex);
	const marker: SyncMarker = { source: knowledge.source, key: decision.key, sourceFingerprint: decision.sourceFingerprint, taskFingerprint: stateFingerprint(after) };
	const description = describedWithMarker(after.description, marker);
	if (decision.action === 'create') {
		const body: IDataObject = { title: after.title, description };
		if (after.due !== null) body.due = after.due;
		if (after.timeZone !== null) body.timeZone = after.timeZone;
		if (after.priority !== 0) body.priority = after.priority;
		if (after.estimatedDuration !== null) body.estimatedDuration = after.estimatedDuration;
		if (after.tags.length > 0) body.tags = after.tags;
		if (after.taskListId !== 'default') body.taskListId = after.taskListId;
		const created = await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/tasks/create', body }, itemIndex);
		return String((created.data as IDataObject | undefined)?.id ?? '');
	}
	const body: IDataObject = { id: decision.taskId, description };
	for (const field of Object.keys(decision.changes) as MappedField[]) {
		if (field === 'done' || field === 'description' || field === 'estimatedDuration') continue;
		body[field] = after[field];
	}
	if ('done' in decision.changes || decision.action === 'reopen') body.progress = after.done ? 'completed' : 'needs-action';
	await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/tasks/update', body }, itemIndex);
	if (decision.action === 'delete') await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/tasks/delete', body: { id: decision.taskId } }, itemIndex);
	return decision.taskId;
}

/** A decision as an output item: the action, the task, and each field that changes (or would). */
export function decisionOutput(decision: Decision, source: string, preview: boolean, taskId = decision.taskId): IDataObject {
	const changes: IDataObject = {};
	for (const [field, change] of Object.entries(decision.changes)) changes[field] = { from: change.from, to: change.to };
	return {
		action: actionWord(decision.action, preview),
		taskId: taskId ?? null,
		source,
		key: decision.key,
		title: decision.title,
		changes,
		...(decision.newTags.length > 0 ? { newTags: decision.newTags } : {}),
		...(decision.reason ? { reason: decision.reason } : {}),
		preview,
		...(decision.notices.length > 0 ? { notices: decision.notices } : {}),
	};
}

/** The open tasks changed after `cursor` (every open task from the start), page by page: 10 points per 100. */
export async function readOpenTasksSince(context: ServiceContext, cursor: TaskCursor, itemIndex: number) {
	return await walkTasks(async (after, limit) => await listTaskPage(context, after, limit, itemIndex), cursor);
}

