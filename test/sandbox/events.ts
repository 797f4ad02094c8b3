/**
 * v3 events: list, get, create, update, delete (`Authorization: ApiKey`), and the control
 * endpoint that links an event to a task.
 *
 * Order of checks on every call: query and body schemas (400) → the account named in the request
 * is the caller's (400) → its calendar connection (expired 401, revoked 403) → the calendar belongs
 * to the account (400) → a write may go to the calendar (`myRights`, 403) → the event (404) → the
 * series mode (400) → the change. get has no account in the request: the event's own account is
 * checked (401/403) before a 404.
 */
import { z } from 'zod';

import { writableCalendar } from './calendars';
import { ApiError, validate } from './errors';
import { newEventId, newUid } from './eventIds';
import { fieldsFromCreate, type Environment } from './eventBuild';
import {
	EVENT_MESSAGES,
	calendarOfAccount,
	callerAccount,
	checkConnection,
	eventNotFound,
	eventsOf,
	type StoredEvent,
} from './eventModel';
import { listJson, presentTarget } from './eventPresentation';
import {
	calendarIdsSchema,
	createEventV3Schema,
	noQuery,
	parseInstant,
	patchOf,
	refineWindow,
	seriesModeV3Query,
	stringField,
	updateEventV3Schema,
	windowShape,
	type CreateInput,
} from './eventSchemas';
import {
	deleteTarget,
	listWindow,
	liveInstance,
	recurrenceIdInZone,
	resolveId,
	targetEvent,
	targetId,
	updateTarget,
	type Target,
} from './eventSeries';
import { LIST_POINTS } from './limits';
import { RawJson, type Reply, type RequestContext, type Route } from './router';
import type { Account, Store, User } from './store';

// ---------------------------------------------------------------------------------------------
// Schemas

export const listEventsV3Query = z
	.object({
		accountId: stringField(EVENT_MESSAGES.accountId),
		calendarIds: calendarIdsSchema,
		...windowShape,
	})
	.strict()
	.superRefine(refineWindow);

export const getEventQuery = z.object({ id: stringField(EVENT_MESSAGES.id) }).strict();

export const deleteEventV3Schema = z
	.object(
		{
			id: stringField(EVENT_MESSAGES.id),
			accountId: stringField(EVENT_MESSAGES.accountId),
			calendarId: stringField(EVENT_MESSAGES.calendarId),
			seriesUpdateMode: z.undefined({ errorMap: () => ({ message: EVENT_MESSAGES.seriesModeInBody }) }).optional(),
		},
		{ invalid_type_error: EVENT_MESSAGES.body, required_error: EVENT_MESSAGES.body },
	)
	.strict();

// ---------------------------------------------------------------------------------------------
// Shared with v1

export function environmentOf(account: Account): Environment {
	return { integrationId: account.integrationId, ownerEmail: account.ownerEmail };
}

/** Stores a new event (a series when it has recurrence rules) in a calendar of the account. */
export function createEvent(store: Store, user: User, account: Account, calendarId: string, input: CreateInput, now: string): StoredEvent {
	const fields = fieldsFromCreate(input, environmentOf(account));
	const event: StoredEvent = {
		'@type': 'Event',
		id: newEventId(),
		uid: newUid(),
		accountId: account.id,
		calendarId,
		integrationId: account.integrationId,
		created: now,
		updated: now,
		...fields,
	};
	if (input.recurrenceRules != null) event.recurrenceRules = input.recurrenceRules;
	eventsOf(store, user.id).set(event.id, event);
	store.changed('events', user.id, event.id);
	return event;
}

/**
 * Names the stored events a write changed for the store to save: the one the target belongs to
 * (under its id: a "this and following" update stores a changed copy there) and the one the
 * update answered with (the new series after a split; otherwise the same event).
 */
export function changedEvents(ctx: RequestContext, target: Target, result: Target = target): void {
	ctx.store.changed('events', ctx.user.id, targetEvent(target).id);
	ctx.store.changed('events', ctx.user.id, targetEvent(result).id);
}

/** The account of a stored event, with its connection checked (401/403). */
export function checkedAccountOf(store: Store, event: StoredEvent): Account {
	const account = store.accounts.get(event.accountId)!;
	checkConnection(account);
	return account;
}

// ---------------------------------------------------------------------------------------------
// Handlers

function listEvents(ctx: RequestContext): Reply {
	const query = validate(listEventsV3Query, ctx.query);
	const account = callerAccount(ctx.store, ctx.user.id, query.accountId);
	checkConnection(account);
	for (const calendarId of query.calendarIds) calendarOfAccount(ctx.store, account, calendarId);
	const entries = listWindow(
		eventsOf(ctx.store, ctx.user.id),
		new Set(query.calendarIds),
		parseInstant(query.start)!,
		parseInstant(query.end)!,
	);
	return { status: 200, body: new RawJson(listJson(ctx.store, ctx.user.id, entries, 'v3')) };
}

function getEvent(ctx: RequestContext): Reply {
	const { id } = validate(getEventQuery, ctx.query);
	const { record, target } = resolveId(eventsOf(ctx.store, ctx.user.id), id);
	if (!record) throw eventNotFound();
	const account = checkedAccountOf(ctx.store, record);
	if (!target) throw eventNotFound(account.integrationId);
	return { status: 200, body: { data: { event: presentTarget(ctx.store, ctx.user.id, target, 'v3') } } };
}

function createEventV3(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const input = validate(createEventV3Schema, ctx.body);
	const account = callerAccount(ctx.store, ctx.user.id, input.accountId);
	checkConnection(account);
	calendarOfAccount(ctx.store, account, input.calendarId);
	writableCalendar(ctx.store, input.calendarId);
	const event = createEvent(ctx.store, ctx.user, account, input.calendarId, input, ctx.clock.nowIso());
	const body = { data: { event: presentTarget(ctx.store, ctx.user.id, { kind: 'event', event }, 'v3') } };
	return { status: 200, body };
}

/** Account, connection and (writable) calendar of an update or delete body, then the event they name (404). */
function locate(
	ctx: RequestContext,
	body: { accountId: string; calendarId: string },
	find: (events: Map<string, StoredEvent>) => Target | undefined,
): { account: Account; target: Target } {
	const account = callerAccount(ctx.store, ctx.user.id, body.accountId);
	checkConnection(account);
	calendarOfAccount(ctx.store, account, body.calendarId);
	writableCalendar(ctx.store, body.calendarId);
	const target = find(eventsOf(ctx.store, ctx.user.id));
	if (!target) throw eventNotFound(account.integrationId);
	const event = targetEvent(target);
	if (event.accountId !== account.id || event.calendarId !== body.calendarId) throw eventNotFound(account.integrationId);
	return { account, target };
}

function updateEventV3(ctx: RequestContext): Reply {
	const { seriesUpdateMode = 'single' } = validate(seriesModeV3Query, ctx.query);
	const body = validate(updateEventV3Schema, ctx.body);
	const { account, target } = locate(ctx, body, (events) => {
		const byId = body.id === undefined ? undefined : resolveId(events, body.id).target;
		if (body.masterEventId === undefined || body.recurrenceId === undefined) return byId;
		const master = events.get(body.masterEventId);
		const byInstance =
			master === undefined
				? undefined
				: liveInstance(master, recurrenceIdInZone(body.recurrenceId, body.recurrenceIdTimeZone, master.timeZone));
		if (body.id === undefined) return byInstance;
		if (byId && (!byInstance || targetId(byInstance) !== targetId(byId))) throw new ApiError(400, EVENT_MESSAGES.idMismatch);
		return byId;
	});
	const result = updateTarget(
		eventsOf(ctx.store, ctx.user.id),
		target,
		seriesUpdateMode,
		patchOf(body),
		environmentOf(account),
		ctx.clock.nowIso(),
	);
	changedEvents(ctx, target, result);
	return { status: 200, body: presentTarget(ctx.store, ctx.user.id, result, 'v3') };
}

function deleteEventV3(ctx: RequestContext): Reply {
	const { seriesUpdateMode = 'single' } = validate(seriesModeV3Query, ctx.query);
	const body = validate(deleteEventV3Schema, ctx.body);
	const { target } = locate(ctx, body, (events) => resolveId(events, body.id).target);
	deleteTarget(target, seriesUpdateMode, ctx.clock.nowIso());
	changedEvents(ctx, target);
	return { status: 204 };
}

// ---------------------------------------------------------------------------------------------
// Control: link an event to a task (the service sets service.example:metadata itself; there is
// no public way to do it)

const linkTaskSchema = z
	.object({
		user: z.string({ required_error: 'user must be a string', invalid_type_error: 'user must be a string' }),
		eventId: z.string({ required_error: 'eventId must be a string', invalid_type_error: 'eventId must be a string' }),
		taskId: z.string({ invalid_type_error: 'taskId must be a string or null', required_error: 'taskId must be a string or null' }).nullable(),
	})
	.strict();

function linkTask(ctx: RequestContext): Reply {
	const input = validate(linkTaskSchema, ctx.body);
	if (!ctx.store.users.has(input.user)) throw new ApiError(400, 'Unknown user');
	const event = eventsOf(ctx.store, input.user).get(input.eventId);
	if (!event || event.deleted) throw new ApiError(404, 'No event (single event or series master) with this id');
	if (input.taskId === null) delete event['service.example:metadata'];
	else {
		if (!ctx.store.tasks.get(input.user)?.get(input.taskId)) throw new ApiError(400, 'Invalid task id');
		event['service.example:metadata'] = { taskId: input.taskId };
	}
	ctx.store.changed('events', input.user, event.id);
	return { status: 200, body: { event: presentTarget(ctx.store, input.user, { kind: 'event', event }, 'v3') } };
}

export const eventRoutes: Route[] = [
	{ method: 'GET', path: '/v3/events/list', auth: 'apiKey', points: LIST_POINTS, handler: listEvents },
	{ method: 'GET', path: '/v3/events', auth: 'apiKey', handler: getEvent },
	{ method: 'POST', path: '/v3/events/create', auth: 'apiKey', handler: createEventV3 },
	{ method: 'POST', path: '/v3/events/update', auth: 'apiKey', handler: updateEventV3 },
	{ method: 'POST', path: '/v3/events/delete', auth: 'apiKey', handler: deleteEventV3 },
	{ method: 'POST', path: '/_sandbox/events/link-task', auth: 'none', handler: linkTask },
];
