/**
 * v3 tasks: list, get, create, update, move, delete, close, reopen.
 *
 * Each user sees only their own tasks; an id of another user's task behaves exactly like an
 * unknown id. Request bodies and queries are validated by the schemas below, whose messages are
 * the interface's texts where it gives them; unknown properties are refused
 * (`property X should not exist`).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

import { ApiError, validate } from './errors';
import { isDateTime, isIanaZone, isInstant, isIsoDuration, isLocalDateTime, parseDateTime, toTimestamp } from './formats';
import { LIST_POINTS } from './limits';
import type { Reply, RequestContext, Route } from './router';
import { isOpenTask, type Progress, type Relation, type Store, type TaskRecord } from './store';

// ---------------------------------------------------------------------------------------------
// Messages

export const MESSAGES = {
	title: 'title must be longer than or equal to 1 characters',
	titleType: 'title must be a string',
	due: 'due must be a valid ISO 8601 date string',
	priorityMax: 'priority must not be greater than 9',
	priorityMin: 'priority must not be less than 0',
	priorityInt: 'priority must be an integer number',
	invalidTaskId: 'Invalid task id',
	invalidParentId: 'Invalid parent task id',
	invalidPreviousId: 'Invalid previous task id',
	id: 'id must be a string',
	timeZone: 'timeZone must be a valid IANA time zone',
	estimatedDuration: 'estimatedDuration must be a valid ISO 8601 duration',
	description: 'description must be a string',
	descriptionContentType: 'descriptionContentType must be one of the following values: text/plain, text/html',
	taskListId: 'taskListId must be longer than or equal to 1 characters',
	taskListIdType: 'taskListId must be a string',
	createProgress: 'progress must be one of the following values: needs-action, completed',
	updateProgress:
		'progress must be one of the following values: needs-action, in-process, completed, failed, cancelled',
	tags: 'tags must be an array',
	tagsEach: 'each value in tags must be a string',
	relatedTo: 'relatedTo must map the parent task id to a Relation whose relation.parent is true',
	relatedToOne: 'relatedTo must name at most one parent task',
	previousId: 'previousId must be a string or null',
	parentId: 'parentId must be a string or null',
	occurrenceStart: 'occurrenceStart must be a valid ISO 8601 date string',
	limit: 'limit must be an integer number',
	limitMin: 'limit must not be less than 1',
	updatedAfter: 'updatedAfter must be a valid ISO 8601 date string',
	body: 'request body must be a JSON object',
} as const;

// ---------------------------------------------------------------------------------------------
// Schemas (compiled once)

const objectParams = { invalid_type_error: MESSAGES.body, required_error: MESSAGES.body };

const message = (text: string) => () => ({ message: text });

const idSchema = z.string({ required_error: MESSAGES.id, invalid_type_error: MESSAGES.id });

/** Title: a missing or null title is "empty". */
const titleSchema = z
	.string({
		errorMap: (_issue, ctx) => ({
			message: ctx.data === undefined || ctx.data === null ? MESSAGES.title : MESSAGES.titleType,
		}),
	})
	.min(1, MESSAGES.title);

const descriptionSchema = z.string({ invalid_type_error: MESSAGES.description });
const contentTypeSchema = z.enum(['text/plain', 'text/html'], { errorMap: message(MESSAGES.descriptionContentType) });
const dueSchema = z.custom<string>((value) => isLocalDateTime(value), MESSAGES.due);
const timeZoneSchema = z.custom<string>((value) => isIanaZone(value), MESSAGES.timeZone);
const durationSchema = z.custom<string>((value) => isIsoDuration(value), MESSAGES.estimatedDuration);
const prioritySchema = z
	.number({ required_error: MESSAGES.priorityInt, invalid_type_error: MESSAGES.priorityInt })
	.int(MESSAGES.priorityInt)
	.min(0, MESSAGES.priorityMin)
	.max(9, MESSAGES.priorityMax);
const taskListIdSchema = z
	.string({ invalid_type_error: MESSAGES.taskListIdType })
	.min(1, MESSAGES.taskListId);
const createProgressSchema = z.enum(['needs-action', 'completed'], { errorMap: message(MESSAGES.createProgress) });
const updateProgressSchema = z.enum(['needs-action', 'in-process', 'completed', 'failed', 'cancelled'], {
	errorMap: message(MESSAGES.updateProgress),
});
const tagsSchema = z.array(z.string({ invalid_type_error: MESSAGES.tagsEach }), {
	invalid_type_error: MESSAGES.tags,
});
const relationSchema = z
	.object(
		{
			'@type': z.literal('Relation', { errorMap: message(MESSAGES.relatedTo) }).optional(),
			relation: z
				.object({ parent: z.literal(true, { errorMap: message(MESSAGES.relatedTo) }) }, {
					errorMap: message(MESSAGES.relatedTo),
				})
				.strict(),
		},
		{ errorMap: message(MESSAGES.relatedTo) },
	)
	.strict();
const relatedToSchema = z
	.record(
		z.string().refine((key) => key !== '__proto__', MESSAGES.relatedTo),
		relationSchema,
		{ invalid_type_error: MESSAGES.relatedTo },
	)
	.refine((value) => Object.keys(value).length <= 1, MESSAGES.relatedToOne);

export const createTaskSchema = z
	.object(
		{
			title: titleSchema,
			description: descriptionSchema.nullish(),
			descriptionContentType: contentTypeSchema.nullish(),
			due: dueSchema.nullish(),
			timeZone: timeZoneSchema.nullish(),
			estimatedDuration: durationSchema.nullish(),
			taskListId: taskListIdSchema.nullish(),
			priority: prioritySchema.nullish(),
			progress: createProgressSchema.nullish(),
			relatedTo: relatedToSchema.nullish(),
			tags: tagsSchema.nullish(),
		},
		objectParams,
	)
	.strict();

/** Patch: only supplied fields change; `null` clears `description`, `due`, `timeZone` and `tags`. */
export const updateTaskSchema = z
	.object(
		{
			id: idSchema,
			title: titleSchema.optional(),
			description: descriptionSchema.nullable().optional(),
			due: dueSchema.nullable().optional(),
			timeZone: timeZoneSchema.nullable().optional(),
			taskListId: taskListIdSchema.optional(),
			priority: prioritySchema.optional(),
			progress: updateProgressSchema.optional(),
			tags: tagsSchema.nullable().optional(),
		},
		objectParams,
	)
	.strict();

export const moveTaskSchema = z
	.object(
		{
			id: idSchema,
			previousId: z.string({ invalid_type_error: MESSAGES.previousId }).nullable().optional(),
			parentId: z.string({ invalid_type_error: MESSAGES.parentId }).nullable().optional(),
		},
		objectParams,
	)
	.strict();

export const deleteTaskSchema = z.object({ id: idSchema }, objectParams).strict();

export const closeTaskSchema = z
	.object(
		{
			id: idSchema,
			occurrenceStart: z.custom<string>((value) => isDateTime(value), MESSAGES.occurrenceStart).nullish(),
		},
		objectParams,
	)
	.strict();

export const getTaskQuery = z.object({ id: idSchema }).strict();

/** The `limit` query parameter of a list: an integer from 1 to `max` (decimal digits, optional sign). */
export const limitParam = (max: number) =>
	z
		.string({ invalid_type_error: MESSAGES.limit })
		.regex(/^[+-]?\d{1,20}$/, MESSAGES.limit)
		.transform(Number)
		.pipe(z.number().min(1, MESSAGES.limitMin).max(max, `limit must not be greater than ${max}`));

/** The `updatedAfter` query parameter of a list: an instant (`Z` or an offset). */
export const updatedAfterParam = z.custom<string>((value) => isInstant(value), MESSAGES.updatedAfter);

export const listTasksQuery = z
	.object({ limit: limitParam(100).optional(), updatedAfter: updatedAfterParam.optional() })
	.strict();

/** POST task endpoints take no query parameters. */
const noQuery = z.object({}).strict();


// ---------------------------------------------------------------------------------------------
// Presentation

const FIELD_ORDER = [
	'@type',
	'id',
	'accountId',
	'integrationId',
	'taskListId',
	'title',
	'description',
	'descriptionContentType',
	'due',
	'timeZone',
	'estimatedDuration',
	'priority',
	'progress',
	'position',
	'relatedTo',
	'tags',
	'created',
	'updated',
	'links',
] as const satisfies readonly (keyof TaskRecord)[];

/** The task as the interface shows it: stored fields, derived fields, and `deleted` when deleted. */
export function presentTask(store: Store, userId: string, task: TaskRecord): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const field of FIELD_ORDER) {
		const value = task[field];
		if (value !== undefined) out[field] = value;
	}
	out['service.example:derived'] = { scheduled: store.isTaskScheduled(userId, task.id) };
	if (task.deleted) out.deleted = true;
	return out;
}

/** Open tasks are listed: not deleted, and progress `needs-action` or `in-process`. */
export const isOpen = isOpenTask;

// ---------------------------------------------------------------------------------------------
// Helpers

const PARENT_RELATION = (): Relation => ({ '@type': 'Relation', relation: { parent: true } });

/** The parent id of a task (the key of its parent relation), if it is a subtask. */
export function parentOf(task: TaskRecord): string | undefined {
	if (!task.relatedTo) return undefined;
	for (const [id, relation] of Object.entries(task.relatedTo)) if (relation.relation.parent) return id;
	return undefined;
}

/** A task of the caller that exists and is not deleted, or 400 `Invalid task id`. */
function liveTask(tasks: Map<string, TaskRecord>, id: string, error: string = MESSAGES.invalidTaskId): TaskRecord {
	const task = tasks.get(id);
	if (!task || task.deleted) throw new ApiError(400, error);
	return task;
}

const noContent = (): Reply => ({ status: 204 });

/** Whether `candidate` is `task` or one of its descendants. */
function isSelfOrDescendant(tasks: Map<string, TaskRecord>, task: TaskRecord, candidate: TaskRecord): boolean {
	let current: TaskRecord | undefined = candidate;
	for (let hops = 0; current && hops <= tasks.size; hops++) {
		if (current.id === task.id) return true;
		const parentId = parentOf(current);
		current = parentId === undefined ? undefined : tasks.get(parentId);
	}
	return false;
}

function tasksInList(tasks: Map<string, TaskRecord>, listId: string, except: TaskRecord): TaskRecord[] {
	const out: TaskRecord[] = [];
	for (const task of tasks.values()) if (task !== except && task.taskListId === listId) out.push(task);
	return out;
}

/** Renumbers a list 1, 2, 3, … in its current order (when positions get too close to split). */
function renumber(store: Store, userId: string, list: TaskRecord[], now: string): void {
	list.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	list.forEach((task, index) => {
		if (task.position !== index + 1) {
			store.updateTask(userId, task, (t) => {
				t.position = index + 1;
				t.updated = now;
			});
		}
	});
	store.notePosition(list.length);
}

/** A position directly after `previous` in its list (other than `moving`). */
function positionAfter(
	store: Store,
	userId: string,
	previous: TaskRecord,
	moving: TaskRecord,
	now: string,
): number {
	const tasks = store.tasksOf(userId);
	for (let attempt = 0; attempt < 2; attempt++) {
		const list = tasksInList(tasks, previous.taskListId, moving);
		let next: number | undefined;
		for (const task of list) {
			if (task.position > previous.position && (next === undefined || task.position < next)) next = task.position;
		}
		if (next === undefined) return previous.position + 1;
		const middle = (previous.position + next) / 2;
		if (middle > previous.position && middle < next) return middle;
		renumber(store, userId, list, now);
	}
	return previous.position + 1;
}

// ---------------------------------------------------------------------------------------------
// Handlers

function listTasks(ctx: RequestContext): Reply {
	const { limit, updatedAfter } = validate(listTasksQuery, ctx.query);
	const after = updatedAfter === undefined ? undefined : toTimestamp(parseDateTime(updatedAfter, true)!);
	// Timestamps share one format, so comparing the text compares the instants.
	const page = ctx.store
		.openTasksOf(ctx.user.id)
		.page(after, limit ?? 1)
		.map((task) => presentTask(ctx.store, ctx.user.id, task));
	return { status: 200, body: { data: { tasks: page, labelDefs: [], spaces: [] } } };
}

function getTask(ctx: RequestContext): Reply {
	const { id } = validate(getTaskQuery, ctx.query);
	const task = ctx.store.tasks.get(ctx.user.id)?.get(id);
	return {
		status: 200,
		body: { data: { task: task ? presentTask(ctx.store, ctx.user.id, task) : null, labelDefs: [] } },
	};
}

function createTask(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const input = validate(createTaskSchema, ctx.body);
	const { store, user } = ctx;
	const tasks = store.tasksOf(user.id);
	const parentId = input.relatedTo ? Object.keys(input.relatedTo)[0] : undefined;
	const parent = parentId === undefined ? undefined : liveTask(tasks, parentId, MESSAGES.invalidParentId);

	const now = ctx.clock.nowIso();
	const task: TaskRecord = {
		'@type': 'Task',
		id: randomUUID(),
		accountId: user.taskAccountId,
		integrationId: 'service',
		taskListId: input.taskListId ?? parent?.taskListId ?? 'default',
		title: input.title,
		descriptionContentType: input.descriptionContentType ?? 'text/plain',
		priority: input.priority ?? 0,
		progress: input.progress ?? 'needs-action',
		position: store.nextPosition(),
		created: now,
		updated: now,
	};
	if (input.description != null) task.description = input.description;
	if (input.due != null) task.due = input.due;
	if (input.timeZone != null) task.timeZone = input.timeZone;
	if (input.estimatedDuration != null) task.estimatedDuration = input.estimatedDuration;
	if (parentId !== undefined) task.relatedTo = { [parentId]: PARENT_RELATION() };
	if (input.tags != null) task.tags = input.tags;
	store.addTask(user.id, task);
	return { status: 200, body: { data: { id: task.id } } };
}

function updateTask(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const input = validate(updateTaskSchema, ctx.body);
	const tasks = ctx.store.tasksOf(ctx.user.id);
	const task = liveTask(tasks, input.id);
	const now = ctx.clock.nowIso();
	ctx.store.updateTask(ctx.user.id, task, (t) => {
		if (input.title !== undefined) t.title = input.title;
		if (input.description === null) delete t.description;
		else if (input.description !== undefined) t.description = input.description;
		if (input.due === null) delete t.due;
		else if (input.due !== undefined) t.due = input.due;
		if (input.timeZone === null) delete t.timeZone;
		else if (input.timeZone !== undefined) t.timeZone = input.timeZone;
		if (input.taskListId !== undefined && input.taskListId !== t.taskListId) {
			t.taskListId = input.taskListId;
			t.position = ctx.store.nextPosition();
		}
		if (input.priority !== undefined) t.priority = input.priority;
		if (input.progress !== undefined) t.progress = input.progress as Progress;
		if (input.tags === null) delete t.tags;
		else if (input.tags !== undefined) t.tags = input.tags;
		t.updated = now;
	});
	return noContent();
}

function moveTask(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const { id, previousId, parentId } = validate(moveTaskSchema, ctx.body);
	const { store } = ctx;
	const tasks = store.tasksOf(ctx.user.id);
	const task = liveTask(tasks, id);
	// Resolve everything before changing anything: a refused move changes nothing.
	let parent: TaskRecord | undefined;
	if (typeof parentId === 'string') {
		parent = liveTask(tasks, parentId, MESSAGES.invalidParentId);
		if (isSelfOrDescendant(tasks, task, parent)) throw new ApiError(400, MESSAGES.invalidParentId);
	}
	let previous: TaskRecord | undefined;
	if (typeof previousId === 'string') {
		previous = liveTask(tasks, previousId, MESSAGES.invalidPreviousId);
		if (previous === task) throw new ApiError(400, MESSAGES.invalidPreviousId);
	}

	const now = ctx.clock.nowIso();
	// Placing after `previous` may renumber the list first (which changes other tasks).
	const position =
		previousId === null
			? firstPosition(tasks, task)
			: previous
				? positionAfter(store, ctx.user.id, previous, task, now)
				: task.position;
	store.updateTask(ctx.user.id, task, (t) => {
		if (parentId === null) delete t.relatedTo;
		else if (parent) t.relatedTo = { [parent.id]: PARENT_RELATION() };
		if (previous) t.taskListId = previous.taskListId;
		t.position = position;
		t.updated = now;
	});
	store.notePosition(position);
	return noContent();
}

/** A position lower than every other task of the task's list. */
function firstPosition(tasks: Map<string, TaskRecord>, task: TaskRecord): number {
	const others = tasksInList(tasks, task.taskListId, task);
	if (others.length === 0) return task.position;
	let first = others[0].position;
	for (const other of others) if (other.position < first) first = other.position;
	return first - 1;
}

function deleteTask(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const { id } = validate(deleteTaskSchema, ctx.body);
	const tasks = ctx.store.tasksOf(ctx.user.id);
	const task = tasks.get(id);
	if (!task) throw new ApiError(400, MESSAGES.invalidTaskId);
	if (task.deleted) return noContent();

	const children = new Map<string, TaskRecord[]>();
	for (const candidate of tasks.values()) {
		const parentId = parentOf(candidate);
		if (parentId === undefined) continue;
		const siblings = children.get(parentId);
		if (siblings) siblings.push(candidate);
		else children.set(parentId, [candidate]);
	}
	const now = ctx.clock.nowIso();
	const queue = [task];
	const seen = new Set<string>();
	while (queue.length > 0) {
		const current = queue.pop()!;
		if (seen.has(current.id)) continue;
		seen.add(current.id);
		if (!current.deleted) {
			ctx.store.updateTask(ctx.user.id, current, (t) => {
				t.deleted = true;
				t.updated = now;
			});
		}
		for (const child of children.get(current.id) ?? []) queue.push(child);
	}
	return noContent();
}

function setProgress(progress: Progress) {
	return (ctx: RequestContext): Reply => {
		validate(noQuery, ctx.query);
		// occurrenceStart is validated; tasks here are never recurring, so it changes nothing.
		const { id } = validate(closeTaskSchema, ctx.body);
		const task = liveTask(ctx.store.tasksOf(ctx.user.id), id);
		const now = ctx.clock.nowIso();
		ctx.store.updateTask(ctx.user.id, task, (t) => {
			t.progress = progress;
			t.updated = now;
		});
		return noContent();
	};
}

export const taskRoutes: Route[] = [
	{ method: 'GET', path: '/v3/tasks/list', auth: 'apiKey', points: LIST_POINTS, handler: listTasks },
	{ method: 'GET', path: '/v3/tasks', auth: 'apiKey', handler: getTask },
	{ method: 'POST', path: '/v3/tasks/create', auth: 'apiKey', handler: createTask },
	{ method: 'POST', path: '/v3/tasks/update', auth: 'apiKey', handler: updateTask },
	{ method: 'POST', path: '/v3/tasks/move', auth: 'apiKey', handler: moveTask },
	{ method: 'POST', path: '/v3/tasks/delete', auth: 'apiKey', handler: deleteTask },
	{ method: 'POST', path: '/v3/tasks/close', auth: 'apiKey', handler: setProgress('completed') },
	{ method: 'POST', path: '/v3/tasks/reopen', auth: 'apiKey', handler: setProgress('needs-action') },
];
