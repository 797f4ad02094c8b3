/**
 * v1 events (`Authorization: Bearer <JWT>`, same origin): list, create, update, delete and the
 * RSVP actions accept / decline / tentativelyAccept. The same events and ids as v3; no accountId
 * anywhere (the account is the calendar's or the event's). Only series update mode `single`.
 *
 * Events are shown without `uid`, `masterEventId`, `recurrenceId`, `recurrenceIdTimeZone`,
 * `useDefaultAlerts` and `service.example:metadata`, as the v1 list sample shows them; create
 * answers 200 `{ data: { event } }`, update 200 with the event as the top-level body, delete and
 * RSVP 204 with an empty body.
 */
import { z } from 'zod';

import { writableCalendar } from './calendars';
import { ApiError, validate } from './errors';
import {
	EVENT_MESSAGES,
	checkConnection,
	eventNotFound,
	eventsOf,
	type ParticipationStatus,
} from './eventModel';
import { listJson, presentTarget } from './eventPresentation';
import {
	calendarIdsSchema,
	createEventV1Schema,
	noQuery,
	parseInstant,
	patchOf,
	refineWindow,
	seriesModeV1Query,
	stringField,
	updateEventV1Schema,
	windowShape,
} from './eventSchemas';
import {
	deleteTarget,
	listWindow,
	resolveId,
	respond,
	targetEvent,
	updateTarget,
	type Target,
} from './eventSeries';
import { changedEvents, checkedAccountOf, createEvent, environmentOf } from './events';
import { LIST_POINTS } from './limits';
import { RawJson, type Reply, type RequestContext, type Route } from './router';
import type { Account, Store } from './store';

const bodyParams = { invalid_type_error: EVENT_MESSAGES.body, required_error: EVENT_MESSAGES.body };

export const listEventsV1Query = z
	.object({ calendarIds: calendarIdsSchema, ...windowShape })
	.strict()
	.superRefine(refineWindow);

export const deleteEventV1Schema = z
	.object(
		{
			id: stringField(EVENT_MESSAGES.id),
			seriesUpdateMode: z.undefined({ errorMap: () => ({ message: EVENT_MESSAGES.seriesModeInBody }) }).optional(),
		},
		bodyParams,
	)
	.strict();

export const rsvpSchema = z
	.object(
		{
			id: stringField(EVENT_MESSAGES.id),
			comment: stringField(EVENT_MESSAGES.comment).optional(),
			notifyOrganizer: z
				.boolean({ invalid_type_error: EVENT_MESSAGES.notifyOrganizer })
				.optional(),
			seriesUpdateMode: z.undefined({ errorMap: () => ({ message: EVENT_MESSAGES.seriesModeInBody }) }).optional(),
		},
		bodyParams,
	)
	.strict();

/** A calendar of the caller (any of their accounts), or 400. */
function callerCalendar(store: Store, userId: string, calendarId: string): Account {
	const calendar = store.calendars.get(calendarId);
	if (!calendar || calendar.userId !== userId) {
		throw new ApiError(400, EVENT_MESSAGES.unknownCalendar(calendarId));
	}
	return store.accounts.get(calendar.accountId)!;
}

/**
 * The live event an id names, to be changed (`write`) or answered (`rsvp`): its account's
 * connection first (401/403), then 404, then whether its calendar allows that (403).
 */
function locate(ctx: RequestContext, id: string, action: 'write' | 'rsvp' = 'write'): { account: Account; target: Target } {
	const { record, target } = resolveId(eventsOf(ctx.store, ctx.user.id), id);
	if (!record) throw eventNotFound();
	const account = checkedAccountOf(ctx.store, record);
	if (!target) throw eventNotFound(account.integrationId);
	writableCalendar(ctx.store, targetEvent(target).calendarId, action);
	return { account, target };
}

function listEvents(ctx: RequestContext): Reply {
	const query = validate(listEventsV1Query, ctx.query);
	const accounts = new Set(query.calendarIds.map((id) => callerCalendar(ctx.store, ctx.user.id, id)));
	if (accounts.size !== 1) throw new ApiError(400, EVENT_MESSAGES.calendarsOneAccount);
	checkConnection([...accounts][0]);
	const entries = listWindow(
		eventsOf(ctx.store, ctx.user.id),
		new Set(query.calendarIds),
		parseInstant(query.start)!,
		parseInstant(query.end)!,
	);
	return { status: 200, body: new RawJson(listJson(ctx.store, ctx.user.id, entries, 'v1')) };
}

function createEventV1(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const input = validate(createEventV1Schema, ctx.body);
	const account = callerCalendar(ctx.store, ctx.user.id, input.calendarId);
	checkConnection(account);
	writableCalendar(ctx.store, input.calendarId);
	const event = createEvent(ctx.store, ctx.user, account, input.calendarId, input, ctx.clock.nowIso());
	return { status: 200, body: { data: { event: presentTarget(ctx.store, ctx.user.id, { kind: 'event', event }, 'v1') } } };
}

function updateEventV1(ctx: RequestContext): Reply {
	validate(seriesModeV1Query, ctx.query);
	const body = validate(updateEventV1Schema, ctx.body);
	const { account, target } = locate(ctx, body.id);
	const events = eventsOf(ctx.store, ctx.user.id);
	const result = updateTarget(events, target, 'single', patchOf(body), environmentOf(account), ctx.clock.nowIso());
	changedEvents(ctx, target, result);
	return { status: 200, body: presentTarget(ctx.store, ctx.user.id, result, 'v1') };
}

function deleteEventV1(ctx: RequestContext): Reply {
	validate(seriesModeV1Query, ctx.query);
	const { id } = validate(deleteEventV1Schema, ctx.body);
	const { target } = locate(ctx, id);
	deleteTarget(target, 'single', ctx.clock.nowIso());
	changedEvents(ctx, target);
	return { status: 204 };
}

/**
 * RSVP: sets the account owner's participant (`accountOwner: true`, or the owner's e-mail) to the
 * status; 400 when the owner is not a participant. `comment` and `notifyOrganizer` (default true)
 * are accepted; the sandbox sends no notifications.
 */
function rsvp(status: ParticipationStatus) {
	return (ctx: RequestContext): Reply => {
		validate(seriesModeV1Query, ctx.query);
		const { id } = validate(rsvpSchema, ctx.body);
		const { account, target } = locate(ctx, id, 'rsvp');
		respond(target, status, account.ownerEmail, ctx.clock.nowIso());
		changedEvents(ctx, target);
		return { status: 204 };
	};
}

export const eventV1Routes: Route[] = [
	{ method: 'GET', path: '/v1/events/list', auth: 'bearer', points: LIST_POINTS, handler: listEvents },
	{ method: 'POST', path: '/v1/events/create', auth: 'bearer', handler: createEventV1 },
	{ method: 'POST', path: '/v1/events/update', auth: 'bearer', handler: updateEventV1 },
	{ method: 'POST', path: '/v1/events/delete', auth: 'bearer', handler: deleteEventV1 },
	{ method: 'POST', path: '/v1/events/accept', auth: 'bearer', handler: rsvp('accepted') },
	{ method: 'POST', path: '/v1/events/decline', auth: 'bearer', handler: rsvp('declined') },
	{ method: 'POST', path: '/v1/events/tentativelyAccept', auth: 'bearer', handler: rsvp('tentative') },
];
