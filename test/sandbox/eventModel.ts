/**
 * The event model shared by the v3 and v1 events endpoints: request schemas for event fields,
 * the stored shape of events and series, instances of a series, presentation of an event as the
 * interface shows it, and patch application.
 *
 * Storage (`store.events`, per user, keyed by event id; JSON-serialisable):
 * - a single event: the event's fields;
 * - a series: the master's fields with `recurrenceRules`, plus `excluded` (recurrence ids of
 *   deleted occurrences) and `overrides` (recurrence id → the fields changed on that occurrence
 *   alone). Occurrences are not stored: lists expand the series in the window.
 * - a deleted event or series keeps its record with `deleted: true` (so a repeated delete finds
 *   it and answers 404, and it no longer schedules a task).
 */
import { randomUUID } from 'node:crypto';

import { DateTime } from 'luxon';
import { z } from 'zod';

import { ApiError } from './errors';
import { instanceIdOf, instanceIdsOf, newEventId, newUid, parseInstanceId } from './eventIds';
import { isEventTimeZone, isIsoDuration } from './formats';
import {
	expandOccurrences,
	findOccurrence,
	formatLocalDateTime,
	isLocalDateTime,
	parseLocalDateTime,
	recurrenceRuleSchema,
	splitSeries,
	validateRecurrenceRules,
	type RecurrenceRule,
} from './recurrence';
import type { Account, IntegrationId, Store } from './store';

// ---------------------------------------------------------------------------------------------
// Messages

export const EVENT_MESSAGES = {
	timing: 'start, duration, timeZone and showWithoutTime must be provided together (timeZone may be null)',
	timeZone: 'Event timeZone should be a valid IANA time zone',
	timeZoneRequired: 'timeZone is required: an IANA time zone, or null for all-day events',
	duration: 'Event duration should be a valid ISO8601 duration',
	identify: 'Event must have either id or both masterEventId and recurrenceId',
	seriesMode: (mode: string) => `Cannot apply '${mode}' series update mode to non-recurring events`,
	seriesModeValues: 'seriesUpdateMode must be one of the following values: single, future, all',
	seriesModeV1: "seriesUpdateMode must be 'single': only single is supported in version 1",
	seriesModeInBody: 'seriesUpdateMode must be given in the query string, not in the body',
	start: 'start must be a valid LocalDateTime (YYYY-MM-DDTHH:mm:ss)',
	showWithoutTime: 'showWithoutTime must be a boolean value',
	allDayZone: 'timeZone must be null when showWithoutTime is true (all-day events have no time zone)',
	allDayStart: 'start of an all-day event must be at midnight (T00:00:00)',
	allDayDuration: 'duration of an all-day event must be a whole number of days or weeks (e.g. P1D)',
	title: 'title must be longer than or equal to 1 characters',
	titleType: 'title must be a string',
	description: 'description must be a string',
	descriptionContentType: 'descriptionContentType must be one of the following values: text/plain, text/html',
	privacy: 'privacy must be one of the following values: public, private, secret',
	freeBusyStatus: 'freeBusyStatus must be one of the following values: free, busy',
	status: 'status must be one of the following values: confirmed, tentative (delete an event to cancel it)',
	useDefaultAlerts: 'useDefaultAlerts must be a boolean value',
	alertsWithDefault: 'alerts cannot be combined with useDefaultAlerts true',
	locations: 'locations must be an object mapping location ids to Location objects',
	location: 'each value in locations must be a Location object (name and description are strings)',
	participants: 'participants must be an object mapping participant ids to Participant objects',
	participant: 'each value in participants must be a Participant object',
	participantEmail: 'each participant must have an email address',
	participantName: 'participant name must be a string',
	participantKey: 'participants must be keyed by the base64-encoded e-mail address of the participant',
	participantRoles: 'participant roles must map owner, attendee, optional, informational, chair or contact to a boolean',
	participationStatus:
		'participationStatus must be one of the following values: needs-action, accepted, declined, tentative, delegated',
	participantBoolean: 'participant accountOwner and expectReply must be boolean values',
	participantKind: 'participant kind must be one of the following values: individual, group, resource, location',
	alerts: 'alerts must be an object mapping alert ids to Alert objects',
	alert: 'each value in alerts must be an Alert object with a trigger',
	alertOffset: 'alert trigger offset must be an ISO 8601 duration (negative = before the start, e.g. -PT15M)',
	alertRelativeTo: 'alert trigger relativeTo must be start: only alerts relative to the start are supported',
	alertAction: 'alert action must be one of the following values: display, email',
	mapKey: 'ids in locations, participants and alerts must be non-empty strings',
	recurrenceRulesMax: 'recurrenceRules must contain at most 10 rules',
	colorId: 'provider.example:colorId must be one of the following values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11',
	color: 'color must be a string',
	locale: 'locale must be a string',
	priority: 'priority must be an integer from 0 to 9',
	keywords: 'keywords must map strings to true',
	categories: 'categories must map strings to true',
	type: '@type must be Event',
	requestVirtualRoom:
		'service.example:requestVirtualRoom must be one of the following values: default, providerAMeetingRoom, providerBMeetingRoom',
	requestVirtualRoomV1: "service.example:requestVirtualRoom must be 'default' in version 1",
	virtualRoomRemove: 'A virtual room cannot be removed from an event',
	accountId: 'accountId must be a string',
	calendarId: 'calendarId must be a string',
	calendarIds: 'calendarIds must be a comma-separated list of calendar ids',
	id: 'id must be a string',
	masterEventId: 'masterEventId must be a string',
	recurrenceId: 'recurrenceId must be a valid LocalDateTime (YYYY-MM-DDTHH:mm:ss)',
	recurrenceIdTimeZone: 'recurrenceIdTimeZone should be a valid IANA time zone',
	windowStart: 'start must be a valid ISO 8601 date-time with Z or an offset',
	windowEnd: 'end must be a valid ISO 8601 date-time with Z or an offset',
	windowOrder: 'end must be greater than start',
	windowLength: 'The window from start to end must not be longer than 6 months',
	comment: 'comment must be a string',
	notifyOrganizer: 'notifyOrganizer must be a boolean value',
	body: 'request body must be a JSON object',
	readOnly: (name: string) => `${name} is read-only`,
	rulesOnSingle: 'recurrenceRules can only be changed on the whole series (seriesUpdateMode all or future)',
	unknownAccount: 'accountId does not name a calendar account of this user',
	calendarOfAccount: (calendarId: string, accountId: string) =>
		`calendar ${short(calendarId)} is not a calendar of account ${short(accountId)}`,
	unknownCalendar: (calendarId: string) => `calendar ${short(calendarId)} is not a calendar of this user`,
	calendarsOneAccount: 'calendarIds must all belong to one account',
	expired: (accountId: string) =>
		`The calendar connection of account ${short(accountId)} has expired: reconnect the account`,
	revoked: (accountId: string) =>
		`The calendar connection of account ${short(accountId)} was revoked: reconnect the account`,
	floatingCaldav:
		'Floating timed events (timeZone null with showWithoutTime false) are not supported by CalDAV calendars: give an explicit timeZone',
	roomOtherProvider: (kind: string, integration: string) => `${kind} rooms cannot be used on ${integration} calendars`,
	roomCaldav: 'Virtual rooms are not available on caldav calendars',
	ownerNotParticipant: (email: string) => `The account owner (${email}) is not a participant of this event`,
	idMismatch: 'id and masterEventId/recurrenceId name different events',
	notFound: 'Event not found',
} as const;

/** Ids echoed in messages are cut, so an error body stays small whatever the request. */
function short(text: string): string {
	return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/** 404 for an event that cannot be retrieved; the message varies by provider, as the service's does. */
export function eventNotFound(integrationId?: IntegrationId): ApiError {
	const message =
		integrationId === 'providerA'
			? 'Not Found'
			: integrationId === 'providerB'
				? 'The specified object was not found in the store.'
				: EVENT_MESSAGES.notFound;
	return new ApiError(404, message);
}

// ---------------------------------------------------------------------------------------------
// Stored shapes

export type DescriptionContentType = 'text/plain' | 'text/html';
export type Privacy = 'public' | 'private' | 'secret';
export type FreeBusyStatus = 'free' | 'busy';
export type ParticipationStatus = 'needs-action' | 'accepted' | 'declined' | 'tentative' | 'delegated';
export type RoomKind = 'providerAMeetingRoom' | 'providerBMeetingRoom';
export type SeriesUpdateMode = 'single' | 'future' | 'all';

export interface Location {
	'@type': 'Location';
	name?: string;
	description?: string;
}

export interface Participant {
	'@type': 'Participant';
	name?: string;
	email: string;
	roles: Record<string, boolean>;
	accountOwner: boolean;
	participationStatus: ParticipationStatus;
	expectReply?: boolean;
	kind?: 'individual' | 'group' | 'resource' | 'location';
}

export interface Alert {
	'@type': 'Alert';
	trigger: { '@type': 'OffsetTrigger'; offset: string; relativeTo: 'start' };
	action: 'display' | 'email';
}

export interface VirtualRoom {
	kind: RoomKind;
	url: string;
}

/** The fields of an event a client can set (directly or, for the room, by request). */
export interface EventFields {
	title: string;
	description?: string;
	descriptionContentType: DescriptionContentType;
	start: string;
	duration: string;
	timeZone: string | null;
	showWithoutTime: boolean;
	status?: 'confirmed' | 'tentative';
	privacy: Privacy;
	freeBusyStatus: FreeBusyStatus;
	locations?: Record<string, Location>;
	participants?: Record<string, Participant>;
	alerts?: Record<string, Alert>;
	useDefaultAlerts: boolean;
	color?: string;
	keywords?: Record<string, true>;
	categories?: Record<string, true>;
	locale?: string;
	priority?: number;
	/** `provider.example:colorId` (provider A calendars only). */
	colorId?: string;
	virtualRoom?: VirtualRoom;
}

const EVENT_FIELD_KEYS = [
	'title',
	'description',
	'descriptionContentType',
	'start',
	'duration',
	'timeZone',
	'showWithoutTime',
	'status',
	'privacy',
	'freeBusyStatus',
	'locations',
	'participants',
	'alerts',
	'useDefaultAlerts',
	'color',
	'keywords',
	'categories',
	'locale',
	'priority',
	'colorId',
	'virtualRoom',
] as const satisfies readonly (keyof EventFields)[];

type FieldKey = (typeof EVENT_FIELD_KEYS)[number];

const TIMING_KEYS = ['start', 'duration', 'timeZone', 'showWithoutTime'] as const;

/**
 * Fields changed on one occurrence of a series. A null value (other than `timeZone`, where null
 * is a value) means the field was cleared on that occurrence.
 */
export interface InstanceOverride {
	updated: string;
	fields: { [K in FieldKey]?: EventFields[K] | null };
}

export interface StoredEvent extends EventFields {
	'@type': 'Event';
	id: string;
	uid: string;
	accountId: string;
	calendarId: string;
	integrationId: IntegrationId;
	created: string;
	updated: string;
	recurrenceRules?: RecurrenceRule[];
	/** Recurrence ids of deleted occurrences. */
	excluded?: string[];
	/** Recurrence id → fields changed on that occurrence only. */
	overrides?: Record<string, InstanceOverride>;
	/** Links the event to a task (read-only; see `POST /_sandbox/events/link-task`). */
	'service.example:metadata'?: { taskId: string };
	deleted?: true;
}

/** The user's events, typed. */
export function eventsOf(store: Store, userId: string): Map<string, StoredEvent> {
	return store.eventsOf(userId) as unknown as Map<string, StoredEvent>;
}

export function isRecurring(event: StoredEvent): boolean {
	return event.recurrenceRules !== undefined && event.recurrenceRules.length > 0;
}

function pickFields(event: EventFields): EventFields {
	const out: Record<string, unknown> = {};
	for (const key of EVENT_FIELD_KEYS) if (event[key] !== undefined) out[key] = event[key];
	return out as unknown as EventFields;
}

// ---------------------------------------------------------------------------------------------
// Accounts, calendars, connections

/** The caller's account with that id, or 400. */
export function callerAccount(store: Store, userId: string, accountId: string): Account {
	const account = store.accounts.get(accountId);
	if (!account || account.userId !== userId) throw new ApiError(400, EVENT_MESSAGES.unknownAccount);
	return account;
}

/** 401 when the account's calendar connection has expired, 403 when it was revoked. */
export function checkConnection(account: Account): void {
	if (account.connection === 'expired') {
		throw new ApiError(401, EVENT_MESSAGES.expired(account.id), {
			context: { accountId: account.id, connection: 'expired' },
		});
	}
	if (account.connection === 'revoked') {
		throw new ApiError(403, EVENT_MESSAGES.revoked(account.id), {
			context: { accountId: account.id, connection: 'revoked' },
		});
	}
}

/** The calendar, which must belong to the account, or 400. */
export function calendarOfAccount(store: Store, account: Account, calendarId: string): void {
	const calendar = store.calendars.get(calendarId);
	if (!calendar || calendar.accountId !== account.id) {
		throw new ApiError(400, EVENT_MESSAGES.calendarOfAccount(calendarId, account.id), {
			context: { calendarId: short(calendarId), accountId: account.id },
		});
	}
}

// ---------------------------------------------------------------------------------------------
// Field schemas (compiled once)

const message = (text: string) => () => ({ message: text });
const typed = <T extends z.ZodTypeAny>(text: string, make: (params: z.RawCreateParams) => T): T =>
	make({ errorMap: message(text) });

export const stringField = (text: string) => z.string({ required_error: text, invalid_type_error: text });
const booleanField = (text: string) => z.boolean({ required_error: text, invalid_type_error: text });

const mapKey = z
	.string()
	.min(1, EVENT_MESSAGES.mapKey)
	.max(1024, EVENT_MESSAGES.mapKey)
	.refine((key) => key !== '__proto__', EVENT_MESSAGES.mapKey);

export const titleSchema = z
	.string({
		errorMap: (_issue, ctx) => ({
			message: ctx.data === undefined || ctx.data === null ? EVENT_MESSAGES.title : EVENT_MESSAGES.titleType,
		}),
	})
	.min(1, EVENT_MESSAGES.title);
const descriptionSchema = stringField(EVENT_MESSAGES.description);
const contentTypeSchema = typed(EVENT_MESSAGES.descriptionContentType, (p) => z.enum(['text/plain', 'text/html'], p));
/** LocalDateTime of year 1 to 9999. */
const startSchema = z.custom<string>((value) => isLocalDateTime(value), EVENT_MESSAGES.start);
const durationSchema = z.custom<string>((value) => isIsoDuration(value), EVENT_MESSAGES.duration);
export const zoneSchema = z.custom<string>((value) => isEventTimeZone(value), EVENT_MESSAGES.timeZone);
const timeZoneSchema = z.custom<string | null>(
	(value) => value === null || isEventTimeZone(value),
	(value) => ({ message: value === undefined ? EVENT_MESSAGES.timeZoneRequired : EVENT_MESSAGES.timeZone }),
);
const showWithoutTimeSchema = booleanField(EVENT_MESSAGES.showWithoutTime);
const privacySchema = typed(EVENT_MESSAGES.privacy, (p) => z.enum(['public', 'private', 'secret'], p));
const freeBusySchema = typed(EVENT_MESSAGES.freeBusyStatus, (p) => z.enum(['free', 'busy'], p));
const statusSchema = typed(EVENT_MESSAGES.status, (p) => z.enum(['confirmed', 'tentative'], p));
const useDefaultAlertsSchema = booleanField(EVENT_MESSAGES.useDefaultAlerts);
const colorIdSchema = typed(EVENT_MESSAGES.colorId, (p) =>
	z.enum(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'], p),
);
const requestRoomSchema = typed(EVENT_MESSAGES.requestVirtualRoom, (p) =>
	z.enum(['default', 'providerAMeetingRoom', 'providerBMeetingRoom'], p),
);
const requestRoomV1Schema = typed(EVENT_MESSAGES.requestVirtualRoomV1, (p) => z.literal('default', p));
const flagMap = (text: string) =>
	z.record(mapKey, typed(text, (p) => z.literal(true, p)), { invalid_type_error: text });
const prioritySchema = z
	.number({ invalid_type_error: EVENT_MESSAGES.priority })
	.int(EVENT_MESSAGES.priority)
	.min(0, EVENT_MESSAGES.priority)
	.max(9, EVENT_MESSAGES.priority);

const locationSchema = z
	.object(
		{
			'@type': typed(EVENT_MESSAGES.location, (p) => z.literal('Location', p)).optional(),
			name: stringField(EVENT_MESSAGES.location).optional(),
			description: stringField(EVENT_MESSAGES.location).optional(),
		},
		{ errorMap: message(EVENT_MESSAGES.location) },
	)
	.strict();

const EMAIL = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;
const ROLES = ['owner', 'attendee', 'optional', 'informational', 'chair', 'contact'] as const;
const PARTICIPATION = ['needs-action', 'accepted', 'declined', 'tentative', 'delegated'] as const;

const participantSchema = z
	.object(
		{
			'@type': typed(EVENT_MESSAGES.participant, (p) => z.literal('Participant', p)).optional(),
			name: stringField(EVENT_MESSAGES.participantName).optional(),
			email: stringField(EVENT_MESSAGES.participantEmail)
				.max(254, EVENT_MESSAGES.participantEmail)
				.regex(EMAIL, EVENT_MESSAGES.participantEmail),
			roles: z
				.record(
					typed(EVENT_MESSAGES.participantRoles, (p) => z.enum(ROLES, p)),
					booleanField(EVENT_MESSAGES.participantRoles),
					{ invalid_type_error: EVENT_MESSAGES.participantRoles },
				)
				.optional(),
			accountOwner: booleanField(EVENT_MESSAGES.participantBoolean).optional(),
			participationStatus: typed(EVENT_MESSAGES.participationStatus, (p) => z.enum(PARTICIPATION, p)).optional(),
			expectReply: booleanField(EVENT_MESSAGES.participantBoolean).optional(),
			kind: typed(EVENT_MESSAGES.participantKind, (p) =>
				z.enum(['individual', 'group', 'resource', 'location'], p),
			).optional(),
		},
		{ errorMap: message(EVENT_MESSAGES.participant) },
	)
	.strict();

const alertSchema = z
	.object(
		{
			'@type': typed(EVENT_MESSAGES.alert, (p) => z.literal('Alert', p)).optional(),
			trigger: z
				.object(
					{
						'@type': typed(EVENT_MESSAGES.alert, (p) => z.literal('OffsetTrigger', p)).optional(),
						offset: z.custom<string>((value) => isIsoDuration(value, true), EVENT_MESSAGES.alertOffset),
						relativeTo: typed(EVENT_MESSAGES.alertRelativeTo, (p) => z.literal('start', p)).optional(),
					},
					{ errorMap: message(EVENT_MESSAGES.alert) },
				)
				.strict(),
			action: typed(EVENT_MESSAGES.alertAction, (p) => z.enum(['display', 'email'], p)).optional(),
		},
		{ errorMap: message(EVENT_MESSAGES.alert) },
	)
	.strict();

type ParticipantInput = z.output<typeof participantSchema>;
type AlertInput = z.output<typeof alertSchema>;
type LocationInput = z.output<typeof locationSchema>;

/** Maps: values as given (create), or values or null (update: null removes the entry). */
function mapOf<T extends z.ZodTypeAny>(value: T, text: string) {
	return z.record(mapKey, value, { invalid_type_error: text });
}

const participantsCreate = mapOf(participantSchema, EVENT_MESSAGES.participants).superRefine(checkParticipantKeys);
const participantsPatch = mapOf(participantSchema.nullable(), EVENT_MESSAGES.participants).superRefine(
	checkParticipantKeys,
);

function checkParticipantKeys(map: Record<string, ParticipantInput | null>, ctx: z.RefinementCtx): void {
	for (const [key, participant] of Object.entries(map)) {
		if (participant && !sameEmail(emailFromKey(key), participant.email)) {
			ctx.addIssue({ code: 'custom', path: [key], message: EVENT_MESSAGES.participantKey });
		}
	}
}

const recurrenceRulesSchema = z
	.unknown()
	.superRefine((value, ctx) => {
		const messages = validateRecurrenceRules(value);
		if (messages.length === 0 && Array.isArray(value) && value.length > 10) messages.push(EVENT_MESSAGES.recurrenceRulesMax);
		for (const text of messages) ctx.addIssue({ code: 'custom', message: text });
	})
	.transform((value) => (value as unknown[]).map((rule) => recurrenceRuleSchema.parse(rule) as RecurrenceRule));

/** Properties of an event that clients never write. */
const READ_ONLY = [
	'uid',
	'baseEventId',
	'created',
	'updated',
	'integrationId',
	'masterBaseEventId',
	'service.example:derived',
	'service.example:metadata',
	'provider.example:hangoutLink',
	'sequence',
] as const;

const readOnly = (name: string) => z.undefined({ errorMap: message(EVENT_MESSAGES.readOnly(name)) }).optional();
const readOnlyShape = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, readOnly(name)]));

/** Fields of create (v3 and v1): required timing and title, optional everything else (null = omitted). */
const createFieldShape = {
	'@type': typed(EVENT_MESSAGES.type, (p) => z.literal('Event', p)).optional(),
	title: titleSchema,
	description: descriptionSchema.nullish(),
	descriptionContentType: contentTypeSchema.nullish(),
	start: startSchema,
	duration: durationSchema,
	timeZone: timeZoneSchema,
	showWithoutTime: showWithoutTimeSchema,
	status: statusSchema.nullish(),
	privacy: privacySchema.nullish(),
	freeBusyStatus: freeBusySchema.nullish(),
	locations: mapOf(locationSchema, EVENT_MESSAGES.locations).nullish(),
	participants: participantsCreate.nullish(),
	alerts: mapOf(alertSchema, EVENT_MESSAGES.alerts).nullish(),
	useDefaultAlerts: useDefaultAlertsSchema.nullish(),
	recurrenceRules: recurrenceRulesSchema.nullish(),
	color: stringField(EVENT_MESSAGES.color).nullish(),
	keywords: flagMap(EVENT_MESSAGES.keywords).nullish(),
	categories: flagMap(EVENT_MESSAGES.categories).nullish(),
	locale: stringField(EVENT_MESSAGES.locale).nullish(),
	priority: prioritySchema.nullish(),
	'provider.example:colorId': colorIdSchema.nullish(),
	...readOnlyShape([...READ_ONLY, 'id', 'masterEventId', 'recurrenceId', 'recurrenceIdTimeZone']),
};

/** Patch fields of update (v3 and v1): all optional; null clears where a field may be absent. */
const patchFieldShape = {
	'@type': typed(EVENT_MESSAGES.type, (p) => z.literal('Event', p)).optional(),
	title: titleSchema.optional(),
	description: descriptionSchema.nullable().optional(),
	descriptionContentType: contentTypeSchema.optional(),
	start: startSchema.optional(),
	duration: durationSchema.optional(),
	timeZone: z
		.custom<string | null>((value) => value === null || isEventTimeZone(value), EVENT_MESSAGES.timeZone)
		.optional(),
	showWithoutTime: showWithoutTimeSchema.optional(),
	status: statusSchema.nullable().optional(),
	privacy: privacySchema.optional(),
	freeBusyStatus: freeBusySchema.optional(),
	locations: mapOf(locationSchema.nullable(), EVENT_MESSAGES.locations).nullable().optional(),
	participants: participantsPatch.nullable().optional(),
	alerts: mapOf(alertSchema.nullable(), EVENT_MESSAGES.alerts).nullable().optional(),
	useDefaultAlerts: useDefaultAlertsSchema.optional(),
	recurrenceRules: recurrenceRulesSchema.nullable().optional(),
	color: stringField(EVENT_MESSAGES.color).nullable().optional(),
	keywords: flagMap(EVENT_MESSAGES.keywords).nullable().optional(),
	categories: flagMap(EVENT_MESSAGES.categories).nullable().optional(),
	locale: stringField(EVENT_MESSAGES.locale).nullable().optional(),
	priority: prioritySchema.nullable().optional(),
	'provider.example:colorId': colorIdSchema.nullable().optional(),
	seriesUpdateMode: z.undefined({ errorMap: message(EVENT_MESSAGES.seriesModeInBody) }).optional(),
	...readOnlyShape(READ_ONLY),
};

const objectParams = { invalid_type_error: EVENT_MESSAGES.body, required_error: EVENT_MESSAGES.body };

type CreateFields = z.output<z.ZodObject<typeof createFieldShape>>;
export type CreateInput = CreateFields & { 'service.example:requestVirtualRoom'?: string | null };
type PatchFields = z.output<z.ZodObject<typeof patchFieldShape>>;
export type PatchInput = PatchFields & { 'service.example:requestVirtualRoom'?: string | null };

/** Checks of a create body across fields (all-day timing, alerts with default alerts). */
function refineCreate(body: CreateFields, ctx: z.RefinementCtx): void {
	refineTiming(body, ctx);
	if (body.useDefaultAlerts === true && body.alerts && Object.keys(body.alerts).length > 0) {
		ctx.addIssue({ code: 'custom', path: ['alerts'], message: EVENT_MESSAGES.alertsWithDefault });
	}
}

/** Checks of a patch across fields: timing all or none, all-day timing, alerts with default alerts. */
function refinePatch(body: PatchFields, ctx: z.RefinementCtx): void {
	const given = TIMING_KEYS.filter((key) => body[key] !== undefined);
	if (given.length > 0 && given.length < TIMING_KEYS.length) {
		ctx.addIssue({ code: 'custom', path: [], message: EVENT_MESSAGES.timing });
	} else if (given.length === TIMING_KEYS.length) {
		refineTiming(body as Pick<EventFields, 'start' | 'duration' | 'timeZone' | 'showWithoutTime'>, ctx);
	}
	if (body.useDefaultAlerts === true && body.alerts && Object.values(body.alerts).some((alert) => alert !== null)) {
		ctx.addIssue({ code: 'custom', path: ['alerts'], message: EVENT_MESSAGES.alertsWithDefault });
	}
}

const ALL_DAY_DURATION = /^P(?=\d)(?:\d+W)?(?:\d+D)?$/;

function refineTiming(
	body: Pick<EventFields, 'start' | 'duration' | 'timeZone' | 'showWithoutTime'>,
	ctx: z.RefinementCtx,
): void {
	if (body.showWithoutTime !== true) return;
	if (body.timeZone !== null && isEventTimeZone(body.timeZone)) ctx.addIssue({ code: 'custom', path: ['timeZone'], message: EVENT_MESSAGES.allDayZone });
	if (typeof body.start === 'string' && !body.start.endsWith('T00:00:00')) {
		ctx.addIssue({ code: 'custom', path: ['start'], message: EVENT_MESSAGES.allDayStart });
	}
	if (typeof body.duration === 'string' && (!ALL_DAY_DURATION.test(body.duration) || /^P(0+W)?(0+D)?$/.test(body.duration))) {
		ctx.addIssue({ code: 'custom', path: ['duration'], message: EVENT_MESSAGES.allDayDuration });
	}
}

/** v3 create body. */
export const createEventV3Schema = z
	.object(
		{
			accountId: stringField(EVENT_MESSAGES.accountId),
			calendarId: stringField(EVENT_MESSAGES.calendarId),
			...createFieldShape,
			'service.example:requestVirtualRoom': requestRoomSchema.nullish(),
		},
		objectParams,
	)
	.strict()
	.superRefine(refineCreate);

/** v1 create body: no accountId; the room may only be `default`. */
export const createEventV1Schema = z
	.object(
		{
			calendarId: stringField(EVENT_MESSAGES.calendarId),
			...createFieldShape,
			'service.example:requestVirtualRoom': requestRoomV1Schema.nullish(),
		},
		objectParams,
	)
	.strict()
	.superRefine(refineCreate);

/** v3 update body: identification by id, or by masterEventId and recurrenceId. */
export const updateEventV3Schema = z
	.object(
		{
			id: stringField(EVENT_MESSAGES.id).optional(),
			accountId: stringField(EVENT_MESSAGES.accountId),
			calendarId: stringField(EVENT_MESSAGES.calendarId),
			masterEventId: stringField(EVENT_MESSAGES.masterEventId).optional(),
			recurrenceId: z.custom<string>((value) => isLocalDateTime(value), EVENT_MESSAGES.recurrenceId).optional(),
			recurrenceIdTimeZone: z
				.custom<string>((value) => isEventTimeZone(value), EVENT_MESSAGES.recurrenceIdTimeZone)
				.optional(),
			...patchFieldShape,
			'service.example:requestVirtualRoom': z
				.custom<string>((value) => value !== null, EVENT_MESSAGES.virtualRoomRemove)
				.pipe(requestRoomSchema)
				.optional(),
		},
		objectParams,
	)
	.strict()
	.superRefine((body, ctx) => {
		if (body.id === undefined && (body.masterEventId === undefined || body.recurrenceId === undefined)) {
			ctx.addIssue({ code: 'custom', path: [], message: EVENT_MESSAGES.identify });
		}
		refinePatch(body, ctx);
	});

/** v1 update body: `id` and patch fields (no accountId, calendarId or instance addressing). */
export const updateEventV1Schema = z
	.object(
		{
			id: stringField(EVENT_MESSAGES.id),
			...patchFieldShape,
			'service.example:requestVirtualRoom': z
				.custom<string>((value) => value !== null, EVENT_MESSAGES.virtualRoomRemove)
				.pipe(requestRoomV1Schema)
				.optional(),
		},
		objectParams,
	)
	.strict()
	.superRefine(refinePatch);

export type UpdateV3Input = z.output<typeof updateEventV3Schema>;
export type UpdateV1Input = z.output<typeof updateEventV1Schema>;

/** Only the patch fields of an update body (identification removed). */
export function patchOf(body: Record<string, unknown>): PatchInput {
	const patch: Record<string, unknown> = { ...body };
	for (const key of ['id', 'accountId', 'calendarId', 'masterEventId', 'recurrenceId', 'recurrenceIdTimeZone', '@type']) {
		delete patch[key];
	}
	return patch as PatchInput;
}

export const seriesModeV3Query = z
	.object({
		seriesUpdateMode: typed(EVENT_MESSAGES.seriesModeValues, (p) => z.enum(['single', 'future', 'all'], p)).optional(),
	})
	.strict();

export const seriesModeV1Query = z
	.object({ seriesUpdateMode: typed(EVENT_MESSAGES.seriesModeV1, (p) => z.literal('single', p)).optional() })
	.strict();

export const noQuery = z.object({}).strict();

// ---------------------------------------------------------------------------------------------
// The list window

const SIX_MONTHS = { months: 6 } as const;

/**
 * `start` and `end`: ISO 8601 date-times with `Z` or an offset; `end > start`; and `end` at most
 * 6 calendar months after `start`, counted in UTC (luxon's `plus({ months: 6 })`: 31 August + 6
 * months is the last day of February, at the same time of day).
 */
export const windowShape = {
	start: z.custom<string>((value) => parseInstant(value) !== undefined, EVENT_MESSAGES.windowStart),
	end: z.custom<string>((value) => parseInstant(value) !== undefined, EVENT_MESSAGES.windowEnd),
};

export function refineWindow(query: { start: string; end: string }, ctx: z.RefinementCtx): void {
	const start = parseInstant(query.start);
	const end = parseInstant(query.end);
	if (start === undefined || end === undefined) return;
	if (!(end > start)) ctx.addIssue({ code: 'custom', path: ['end'], message: EVENT_MESSAGES.windowOrder });
	else if (end > windowLimit(start)) ctx.addIssue({ code: 'custom', path: ['end'], message: EVENT_MESSAGES.windowLength });
}

/** The latest end of a window that starts at `startMs`. */
export function windowLimit(startMs: number): number {
	return DateTime.fromMillis(startMs, { zone: 'utc' }).plus(SIX_MONTHS).toMillis();
}

const INSTANT =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

/** Epoch ms of an ISO 8601 date-time with `Z` or an offset (years 1 to 9999), else undefined. */
export function parseInstant(value: unknown): number | undefined {
	if (typeof value !== 'string' || value.length > 40 || !INSTANT.test(value)) return undefined;
	const parsed = DateTime.fromISO(value, { setZone: true });
	if (!parsed.isValid || parsed.year < 1) return undefined;
	return parsed.toMillis();
}

/** `calendarIds`: comma-separated, no empty item. */
export const calendarIdsSchema = z
	.string({ required_error: EVENT_MESSAGES.calendarIds, invalid_type_error: EVENT_MESSAGES.calendarIds })
	.refine((value) => value.split(',').every((id) => id.length > 0), EVENT_MESSAGES.calendarIds)
	.transform((value) => [...new Set(value.split(','))]);

// ---------------------------------------------------------------------------------------------
// Participants, alerts, rooms

/** Standard base64 of the e-mail address: the participant's key. */
export function participantKey(email: string): string {
	return Buffer.from(email, 'utf8').toString('base64');
}

/** The e-mail address a participant key names: the key itself when it is an address, or its base64 decoding. */
export function emailFromKey(key: string): string | undefined {
	if (key.includes('@')) return key;
	const bare = key.replace(/=+$/, '');
	for (const encoding of ['base64', 'base64url'] as const) {
		const bytes = Buffer.from(key, encoding);
		if (bytes.toString(encoding).replace(/=+$/, '') !== bare) continue;
		const text = bytes.toString('utf8');
		if (text.includes('@') && Buffer.from(text, 'utf8').equals(bytes)) return text;
	}
	return undefined;
}

function sameEmail(a: string | undefined, b: string | undefined): boolean {
	return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
}

function toParticipant(input: ParticipantInput, ownerEmail: string): Participant {
	const out: Participant = {
		'@type': 'Participant',
		email: input.email,
		roles: input.roles ?? { attendee: true },
		accountOwner: input.accountOwner ?? sameEmail(input.email, ownerEmail),
		participationStatus: input.participationStatus ?? 'needs-action',
	};
	if (input.name !== undefined) out.name = input.name;
	if (input.expectReply !== undefined) out.expectReply = input.expectReply;
	if (input.kind !== undefined) out.kind = input.kind;
	return reorder(out, ['@type', 'name', 'email', 'roles', 'accountOwner', 'participationStatus', 'expectReply', 'kind']);
}

function toLocation(input: LocationInput): Location {
	const out: Location = { '@type': 'Location' };
	if (input.name !== undefined) out.name = input.name;
	if (input.description !== undefined) out.description = input.description;
	return out;
}

function toAlert(input: AlertInput): Alert {
	return {
		'@type': 'Alert',
		trigger: { '@type': 'OffsetTrigger', offset: input.trigger.offset, relativeTo: 'start' },
		action: input.action ?? 'display',
	};
}

/** Alert id: base64 of the compact JSON `{"a":<action>,"to":<offset>}` (keys sorted), offset as given. */
export function alertId(alert: Pick<Alert, 'action'> & { trigger: { offset: string } }): string {
	return Buffer.from(JSON.stringify({ a: alert.action, to: alert.trigger.offset }), 'utf8').toString('base64');
}

function reorder<T extends object>(value: T, order: readonly string[]): T {
	const out: Record<string, unknown> = {};
	for (const key of order) if ((value as Record<string, unknown>)[key] !== undefined) out[key] = (value as Record<string, unknown>)[key];
	return out as T;
}

const ROOM_URL = /https:\/\/(?:meet\.provider-a\.example\/[a-z]{3}-[a-z]{4}-[a-z]{3}|meetings\.provider-b\.example\/join\/[0-9a-f]{24})/;

function randomLetters(count: number): string {
	let out = '';
	for (let i = 0; i < count; i++) out += String.fromCharCode(97 + Math.floor(Math.random() * 26));
	return out;
}

function newRoom(kind: RoomKind): VirtualRoom {
	if (kind === 'providerAMeetingRoom') {
		return { kind, url: `https://meet.provider-a.example/${randomLetters(3)}-${randomLetters(4)}-${randomLetters(3)}` };
	}
	let token = '';
	for (let i = 0; i < 24; i++) token += Math.floor(Math.random() * 16).toString(16);
	return { kind, url: `https://meetings.provider-b.example/join/${token}` };
}

/** The room kind a request names on a calendar of this integration, or 400. */
function roomKind(request: string, integrationId: IntegrationId): RoomKind {
	if (integrationId === 'caldav') throw new ApiError(400, EVENT_MESSAGES.roomCaldav);
	const own: RoomKind = integrationId === 'providerA' ? 'providerAMeetingRoom' : 'providerBMeetingRoom';
	if (request !== 'default' && request !== own) throw new ApiError(400, EVENT_MESSAGES.roomOtherProvider(request, integrationId));
	return own;
}

/** The description with the room's join link in it (added when it is not there). */
function describeWithRoom(description: string | undefined, type: DescriptionContentType, room: VirtualRoom | undefined) {
	if (!room || description?.includes(room.url)) return description;
	const block =
		type === 'text/html'
			? `<p>Join the meeting: <a href="${room.url}">${room.url}</a></p>`
			: `Join the meeting: ${room.url}`;
	if (description === undefined || description === '') return block;
	return type === 'text/html' ? `${description}${block}` : `${description}\n\n${block}`;
}

// ---------------------------------------------------------------------------------------------
// Building and patching fields

export interface Environment {
	integrationId: IntegrationId;
	ownerEmail: string;
}

/** The fields of a new event from a create body. */
export function fieldsFromCreate(input: CreateInput, env: Environment): EventFields {
	const base: EventFields = {
		title: input.title,
		descriptionContentType: 'text/plain',
		start: input.start,
		duration: input.duration,
		timeZone: input.timeZone,
		showWithoutTime: input.showWithoutTime,
		privacy: 'public',
		freeBusyStatus: 'busy',
		useDefaultAlerts: input.useDefaultAlerts ?? !(input.alerts != null),
	};
	const patch: PatchInput = {};
	for (const [key, value] of Object.entries(input)) {
		if (value !== undefined && (value !== null || key === 'timeZone')) (patch as Record<string, unknown>)[key] = value;
	}
	delete patch.useDefaultAlerts;
	return applyPatch(base, patch, env).fields;
}

/** Floating timed events: kept on provider A, given the zone UTC on provider B, refused on CalDAV. */
function normaliseFloating(fields: EventFields, env: Environment): void {
	if (fields.timeZone !== null || fields.showWithoutTime) return;
	if (env.integrationId === 'caldav') throw new ApiError(400, EVENT_MESSAGES.floatingCaldav);
	if (env.integrationId === 'providerB') fields.timeZone = 'UTC';
}

/**
 * Applies a patch (only supplied fields change) to a copy of the fields. Maps (`locations`,
 * `participants`, `alerts`) are patched entry by entry: a supplied entry is added or replaces
 * the entry of the same id, null removes it, entries not mentioned remain; null for the whole
 * map removes every entry. Returns the new fields and the names of the fields that changed.
 */
export function applyPatch(
	current: EventFields,
	patch: PatchInput,
	env: Environment,
): { fields: EventFields; touched: Set<FieldKey> } {
	const fields: EventFields = { ...current };
	const touched = new Set<FieldKey>();
	const set = <K extends FieldKey>(key: K, value: EventFields[K] | null | undefined) => {
		if (value === undefined) return;
		if (value === null) delete fields[key];
		else fields[key] = value;
		touched.add(key);
	};

	set('title', patch.title);
	set('descriptionContentType', patch.descriptionContentType);
	set('description', patch.description);
	if (patch.start !== undefined) {
		fields.start = patch.start;
		fields.duration = patch.duration!;
		fields.timeZone = patch.timeZone!;
		fields.showWithoutTime = patch.showWithoutTime!;
		normaliseFloating(fields, env);
		for (const key of TIMING_KEYS) touched.add(key);
	}
	set('status', patch.status);
	set('privacy', patch.privacy);
	set('freeBusyStatus', patch.freeBusyStatus);
	set('color', patch.color);
	set('keywords', patch.keywords);
	set('categories', patch.categories);
	set('locale', patch.locale);
	set('priority', patch.priority);
	if (env.integrationId === 'providerA') set('colorId', patch['provider.example:colorId']);

	if (patch.locations !== undefined) {
		touched.add('locations');
		if (patch.locations === null) delete fields.locations;
		else {
			const next: Record<string, Location> = { ...fields.locations };
			for (const [key, location] of Object.entries(patch.locations)) {
				if (location === null) delete next[key];
				else next[key] = toLocation(location);
			}
			fields.locations = next;
		}
	}

	if (patch.participants !== undefined) {
		touched.add('participants');
		if (patch.participants === null) delete fields.participants;
		else {
			const next: Record<string, Participant> = { ...fields.participants };
			for (const [key, participant] of Object.entries(patch.participants)) {
				const email = participant ? participant.email : emailFromKey(key);
				delete next[key];
				for (const [existingKey, existing] of Object.entries(next)) {
					if (sameEmail(existing.email, email)) delete next[existingKey];
				}
				if (participant) next[participantKey(participant.email)] = toParticipant(participant, env.ownerEmail);
			}
			fields.participants = next;
		}
	}

	let alertsAdded = false;
	if (patch.alerts !== undefined) {
		touched.add('alerts');
		if (patch.alerts === null) fields.alerts = {};
		else {
			const next: Record<string, Alert> = { ...fields.alerts };
			for (const [key, input] of Object.entries(patch.alerts)) {
				if (input === null) delete next[key];
				else {
					const alert = toAlert(input);
					next[alertId(alert)] = alert;
					alertsAdded = true;
				}
			}
			fields.alerts = next;
		}
	}
	if (patch.useDefaultAlerts !== undefined) {
		touched.add('useDefaultAlerts');
		fields.useDefaultAlerts = patch.useDefaultAlerts;
		if (patch.useDefaultAlerts) {
			delete fields.alerts;
			touched.add('alerts');
		}
	}
	if (alertsAdded && fields.useDefaultAlerts) throw new ApiError(400, JSON.stringify([EVENT_MESSAGES.alertsWithDefault]));

	const request = patch['service.example:requestVirtualRoom'];
	if (request !== undefined && request !== null) {
		const kind = roomKind(request, env.integrationId);
		if (!fields.virtualRoom) {
			fields.virtualRoom = newRoom(kind);
			touched.add('virtualRoom');
		}
	}
	return { fields, touched };
}

// ---------------------------------------------------------------------------------------------
// Series: occurrences, instances, exceptions

function seriesInput(master: StoredEvent) {
	return {
		start: master.start,
		timeZone: master.timeZone,
		duration: master.duration,
		rules: master.recurrenceRules ?? [],
		excluded: master.excluded,
	};
}

/** The occurrence of the series with this recurrence id (not deleted), or null. */
export function occurrenceOf(master: StoredEvent, recurrenceId: string): { recurrenceId: string; start: string } | null {
	if (!isRecurring(master)) return null;
	return findOccurrence({ ...seriesInput(master), recurrenceId });
}

/** Start and end instants (epoch ms) of an event's timing; all-day and floating times read as UTC. */
export function spanOf(fields: Pick<EventFields, 'start' | 'duration' | 'timeZone'>): { startMs: number; endMs: number } {
	const occurrence = findOccurrence({
		start: fields.start,
		timeZone: fields.timeZone,
		duration: fields.duration,
		rules: [],
		recurrenceId: fields.start,
	})!;
	return { startMs: occurrence.startUtc.getTime(), endMs: occurrence.endUtc.getTime() };
}

/** The fields of one occurrence: the master's, its generated start, and the occurrence's own changes. */
export function instanceFields(master: StoredEvent, recurrenceId: string, start: string): EventFields {
	const fields: Record<string, unknown> = { ...pickFields(master), start };
	const override = master.overrides?.[recurrenceId];
	if (override) {
		for (const [key, value] of Object.entries(override.fields)) {
			if (value === null && key !== 'timeZone') delete fields[key];
			else fields[key] = value;
		}
	}
	return fields as unknown as EventFields;
}

/** What an id (or master id and recurrence id) designates. */
export type Target =
	| { kind: 'event'; event: StoredEvent }
	| { kind: 'instance'; master: StoredEvent; recurrenceId: string; start: string };

export function targetEvent(target: Target): StoredEvent {
	return target.kind === 'event' ? target.event : target.master;
}

/**
 * Resolves an id among the user's events: a single event, a series master, or an occurrence
 * (instance id). `record` is the stored record the id belongs to even when it is deleted (so the
 * account's connection can be checked first); `target` is set only for a live event.
 */
export function resolveId(events: Map<string, StoredEvent>, id: string): { record?: StoredEvent; target?: Target } {
	const event = events.get(id);
	if (event) return event.deleted ? { record: event } : { record: event, target: { kind: 'event', event } };
	const instance = parseInstanceId(id);
	if (!instance) return {};
	const master = events.get(instance.masterId);
	if (!master) return {};
	return { record: master, target: liveInstance(master, instance.recurrenceId) };
}

/** The instance of a live series, or undefined when the series or the occurrence does not exist. */
export function liveInstance(master: StoredEvent, recurrenceId: string): Target | undefined {
	if (master.deleted || !isRecurring(master)) return undefined;
	const occurrence = occurrenceOf(master, recurrenceId);
	return occurrence ? { kind: 'instance', master, recurrenceId, start: occurrence.start } : undefined;
}

/** A recurrence id given in another zone, read in the series' zone. */
export function recurrenceIdInZone(recurrenceId: string, from: string | undefined, seriesZone: string | null): string {
	if (from === undefined || seriesZone === null || from === seriesZone) return recurrenceId;
	const local = DateTime.fromISO(recurrenceId, { zone: from }).setZone(seriesZone);
	return local.isValid ? local.toFormat("yyyy-MM-dd'T'HH:mm:ss") : recurrenceId;
}

/** The id of a target as the interface shows it. */
export function targetId(target: Target): string {
	return target.kind === 'event' ? target.event.id : instanceIdOf(target.master.id, target.recurrenceId);
}

/** The fields of a target (an instance's include its own changes). */
export function targetFields(target: Target): EventFields {
	return target.kind === 'event' ? pickFields(target.event) : instanceFields(target.master, target.recurrenceId, target.start);
}

/** Whether the series generates this recurrence id (exclusions ignored). */
function generates(master: StoredEvent, recurrenceId: string): boolean {
	return findOccurrence({ ...seriesInput(master), excluded: [], recurrenceId }) !== null;
}

const localOf = (text: string): number => parseLocalDateTime(text)!;

/**
 * Sets a series' (or a single event's) fields, keeping its exceptions consistent: the fields the
 * patch set replace the same fields changed on single occurrences (the series-wide change wins);
 * when the start moves, the recurrence ids of deleted and changed occurrences move with it and
 * changed occurrences lose their own timing; exceptions the series no longer generates are dropped.
 * Rules set to null (removed) or [] (kept as given) make the series a single event.
 */
function setSeriesFields(
	event: StoredEvent,
	fields: EventFields,
	touched: ReadonlySet<FieldKey>,
	rules: RecurrenceRule[] | null | undefined,
	now: string,
): void {
	const oldStart = event.start;
	const timingChanged = TIMING_KEYS.some((key) => event[key] !== fields[key]);
	for (const key of EVENT_FIELD_KEYS) {
		const value = fields[key];
		if (value === undefined) delete (event as Partial<EventFields>)[key];
		else (event as unknown as Record<string, unknown>)[key] = value;
	}
	if (rules === null) delete event.recurrenceRules;
	else if (rules !== undefined) event.recurrenceRules = rules;
	event.updated = now;
	if (!isRecurring(event)) {
		delete event.excluded;
		delete event.overrides;
		return;
	}
	const delta = localOf(event.start) - localOf(oldStart);
	const shift = (id: string) => (delta === 0 ? id : formatLocalDateTime(localOf(id) + delta));
	if (event.excluded) {
		const excluded = event.excluded.map(shift).filter((id) => generates(event, id));
		if (excluded.length > 0) event.excluded = excluded;
		else delete event.excluded;
	}
	if (event.overrides) {
		const overrides: Record<string, InstanceOverride> = {};
		for (const [id, override] of Object.entries(event.overrides)) {
			const moved = shift(id);
			if (!generates(event, moved)) continue;
			if (timingChanged) for (const key of TIMING_KEYS) delete override.fields[key];
			for (const key of touched) delete override.fields[key];
			if (Object.keys(override.fields).length > 0) overrides[moved] = override;
		}
		if (Object.keys(overrides).length > 0) event.overrides = overrides;
		else delete event.overrides;
	}
}

/** The patch as it applies to a whole series when it was sent for one occurrence: its start moves the series' start by the same amount. */
function patchForSeries(patch: PatchInput, series: StoredEvent, occurrenceStart: string | undefined): PatchInput {
	if (patch.start === undefined || occurrenceStart === undefined) return patch;
	const delta = localOf(patch.start) - localOf(occurrenceStart);
	const start = formatLocalDateTime(localOf(series.start) + delta);
	if (parseLocalDateTime(start) === null) throw new ApiError(400, JSON.stringify([EVENT_MESSAGES.start]));
	return { ...patch, start };
}

/** Applies a patch to a whole series or a single event. */
function updateWhole(event: StoredEvent, patch: PatchInput, env: Environment, now: string, occurrenceStart?: string): void {
	const seriesPatch = patchForSeries(patch, event, occurrenceStart);
	const { fields, touched } = applyPatch(pickFields(event), seriesPatch, env);
	setSeriesFields(event, fields, touched, patch.recurrenceRules, now);
}

/** Applies a patch to one occurrence: stored as that occurrence's changes. */
function updateOccurrence(master: StoredEvent, recurrenceId: string, start: string, patch: PatchInput, env: Environment, now: string): void {
	const current = instanceFields(master, recurrenceId, start);
	const { fields, touched } = applyPatch(current, patch, env);
	const overrides = (master.overrides ??= {});
	const override = (overrides[recurrenceId] ??= { updated: now, fields: {} });
	for (const key of touched) {
		const value = fields[key];
		(override.fields as Record<string, unknown>)[key] = value === undefined ? null : value;
	}
	override.updated = now;
}

/**
 * Splits a series at an occurrence ("this and following"): `master` ends before it, and the new
 * series returned (new id and uid) starts at it, with the exceptions from it on.
 */
function splitAt(master: StoredEvent, recurrenceId: string, now: string): StoredEvent {
	const split = splitSeries({ start: master.start, rules: master.recurrenceRules!, excluded: master.excluded, at: recurrenceId });
	const next = JSON.parse(JSON.stringify(master)) as StoredEvent;
	next.id = newEventId();
	next.uid = newUid();
	next.created = now;
	next.updated = now;
	next.start = split.after.start;
	next.recurrenceRules = split.after.rules;
	delete next['service.example:metadata'];
	if (split.after.excluded.length > 0) next.excluded = split.after.excluded;
	else delete next.excluded;
	const later: Record<string, InstanceOverride> = {};
	const earlier: Record<string, InstanceOverride> = {};
	for (const [id, override] of Object.entries(master.overrides ?? {})) {
		if (id >= recurrenceId) later[id] = override;
		else earlier[id] = override;
	}
	if (Object.keys(later).length > 0) next.overrides = later;
	else delete next.overrides;

	master.recurrenceRules = split.before!.rules;
	if (split.before!.excluded.length > 0) master.excluded = split.before!.excluded;
	else delete master.excluded;
	if (Object.keys(earlier).length > 0) master.overrides = earlier;
	else delete master.overrides;
	master.updated = now;
	return next;
}

/**
 * Applies an update to a target in a series mode and answers the event the interface returns:
 * - a single event: only `single` (omitted) is allowed; the event;
 * - a master: every mode edits the whole series; the master;
 * - an occurrence, `single`: that occurrence alone; the occurrence (same id);
 * - an occurrence, `all`: the whole series (the occurrence's start change moves every occurrence
 *   by the same amount); the master;
 * - an occurrence, `future`: the series is split at the occurrence ("this and following"): the
 *   original ends before it, a new series (new id) starts at it with the changes; the new master.
 *   At the series' first occurrence it is `all`.
 */
export function updateTarget(
	events: Map<string, StoredEvent>,
	target: Target,
	mode: SeriesUpdateMode,
	patch: PatchInput,
	env: Environment,
	now: string,
): Target {
	if (target.kind === 'event') {
		const event = target.event;
		if (!isRecurring(event) && mode !== 'single') throw new ApiError(400, EVENT_MESSAGES.seriesMode(mode));
		updateWhole(event, patch, env, now);
		return { kind: 'event', event };
	}
	const { master, recurrenceId, start } = target;
	if (mode === 'single') {
		if (patch.recurrenceRules !== undefined) throw new ApiError(400, EVENT_MESSAGES.rulesOnSingle);
		updateOccurrence(master, recurrenceId, start, patch, env, now);
		const occurrence = occurrenceOf(master, recurrenceId)!;
		return { kind: 'instance', master, recurrenceId, start: occurrence.start };
	}
	if (mode === 'future' && recurrenceId !== master.start) {
		// Split and update copies, stored only when everything succeeded: a refused update changes nothing.
		const before = JSON.parse(JSON.stringify(master)) as StoredEvent;
		const next = splitAt(before, recurrenceId, now);
		updateWhole(next, patch, env, now, instanceFields(next, recurrenceId, start).start);
		events.set(before.id, before);
		events.set(next.id, next);
		return { kind: 'event', event: next };
	}
	updateWhole(master, patch, env, now, instanceFields(master, recurrenceId, start).start);
	return { kind: 'event', event: master };
}

/**
 * Deletes a target in a series mode:
 * - a single event: only `single` (omitted); the event is deleted;
 * - a master: the series is deleted, whatever the mode;
 * - an occurrence: `single` removes that occurrence, `future` ends the series before it (the
 *   whole series when it is the first), `all` deletes the series.
 */
export function deleteTarget(target: Target, mode: SeriesUpdateMode, now: string): void {
	if (target.kind === 'event') {
		const event = target.event;
		if (!isRecurring(event) && mode !== 'single') throw new ApiError(400, EVENT_MESSAGES.seriesMode(mode));
		event.deleted = true;
		event.updated = now;
		return;
	}
	const { master, recurrenceId } = target;
	master.updated = now;
	if (mode === 'all' || (mode === 'future' && recurrenceId === master.start)) {
		master.deleted = true;
		return;
	}
	if (mode === 'single') {
		master.excluded = [...(master.excluded ?? []), recurrenceId].sort();
		if (master.overrides) {
			delete master.overrides[recurrenceId];
			if (Object.keys(master.overrides).length === 0) delete master.overrides;
		}
		return;
	}
	const split = splitSeries({ start: master.start, rules: master.recurrenceRules!, excluded: master.excluded, at: recurrenceId });
	master.recurrenceRules = split.before!.rules;
	if (split.before!.excluded.length > 0) master.excluded = split.before!.excluded;
	else delete master.excluded;
	if (master.overrides) {
		for (const id of Object.keys(master.overrides)) if (id >= recurrenceId) delete master.overrides[id];
		if (Object.keys(master.overrides).length === 0) delete master.overrides;
	}
}

/** Sets the account owner's participation status on a target (an occurrence: on that occurrence only). */
export function respond(target: Target, status: ParticipationStatus, ownerEmail: string, now: string): void {
	const fields = targetFields(target);
	const participants = fields.participants ?? {};
	const entry = Object.entries(participants).find(
		([, participant]) => participant.accountOwner || sameEmail(participant.email, ownerEmail),
	);
	if (!entry) throw new ApiError(400, EVENT_MESSAGES.ownerNotParticipant(ownerEmail));
	const next = { ...participants, [entry[0]]: { ...entry[1], participationStatus: status } };
	if (target.kind === 'event') {
		target.event.participants = next;
		target.event.updated = now;
		return;
	}
	const overrides = (target.master.overrides ??= {});
	const override = (overrides[target.recurrenceId] ??= { updated: now, fields: {} });
	override.fields.participants = next;
	override.updated = now;
}

// ---------------------------------------------------------------------------------------------
// Lists

export interface ListEntry {
	startMs: number;
	id: string;
	target: Target;
}

/**
 * The live events and occurrences of the calendars that overlap the window
 * (`eventStart < end && eventEnd > start`; all-day and floating times read as UTC), ascending by
 * start instant, then by id. Series masters are not listed, their occurrences are.
 */
export function listWindow(
	events: Map<string, StoredEvent>,
	calendarIds: ReadonlySet<string>,
	windowStart: number,
	windowEnd: number,
): ListEntry[] {
	const entries: ListEntry[] = [];
	const from = new Date(windowStart);
	const to = new Date(windowEnd);
	for (const event of events.values()) {
		if (event.deleted || !calendarIds.has(event.calendarId)) continue;
		if (!isRecurring(event)) {
			const span = spanOf(event);
			if (span.startMs < windowEnd && span.endMs > windowStart) {
				entries.push({ startMs: span.startMs, id: event.id, target: { kind: 'event', event } });
			}
			continue;
		}
		const overrides = event.overrides ?? {};
		const overridden = Object.keys(overrides);
		const occurrences = expandOccurrences({
			start: event.start,
			timeZone: event.timeZone,
			duration: event.duration,
			rules: event.recurrenceRules!,
			excluded: overridden.length > 0 ? [...(event.excluded ?? []), ...overridden] : event.excluded,
			windowStart: from,
			windowEnd: to,
		});
		const ids = instanceIdsOf(event.id);
		for (const occurrence of occurrences) {
			entries.push({
				startMs: occurrence.startUtc.getTime(),
				id: ids.of(occurrence.recurrenceId),
				target: { kind: 'instance', master: event, recurrenceId: occurrence.recurrenceId, start: occurrence.start },
			});
		}
		for (const recurrenceId of overridden) {
			const occurrence = occurrenceOf(event, recurrenceId);
			if (!occurrence) continue;
			const fields = instanceFields(event, recurrenceId, occurrence.start);
			const span = spanOf(fields);
			if (span.startMs < windowEnd && span.endMs > windowStart) {
				entries.push({
					startMs: span.startMs,
					id: instanceIdOf(event.id, recurrenceId),
					target: { kind: 'instance', master: event, recurrenceId, start: occurrence.start },
				});
			}
		}
	}
	entries.sort((a, b) => a.startMs - b.startMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	return entries;
}

// ---------------------------------------------------------------------------------------------
// Presentation

export type Version = 'v3' | 'v1';

/** Fields the v1 interface does not show. */
const HIDDEN_IN_V1 = new Set(['uid', 'masterEventId', 'recurrenceId', 'recurrenceIdTimeZone', 'useDefaultAlerts', 'service.example:metadata']);

/** The event (single, master or occurrence) as the interface shows it. */
export function presentTarget(store: Store, userId: string, target: Target, version: Version): Record<string, unknown> {
	const event = targetEvent(target);
	const fields = targetFields(target);
	const out: Record<string, unknown> = { '@type': 'Event' };
	if (target.kind === 'event') {
		out.id = event.id;
		out.uid = event.uid;
		out.calendarId = event.calendarId;
		out.accountId = event.accountId;
		out.integrationId = event.integrationId;
		out.baseEventId = event.id;
		out.created = event.created;
		out.updated = event.updated;
	} else {
		const override = event.overrides?.[target.recurrenceId];
		out.id = instanceIdOf(event.id, target.recurrenceId);
		out.uid = event.uid;
		out.calendarId = event.calendarId;
		out.accountId = event.accountId;
		out.integrationId = event.integrationId;
		out.baseEventId = event.id;
		out.masterEventId = event.id;
		out.masterBaseEventId = event.id;
		out.recurrenceId = target.recurrenceId;
		if (event.timeZone !== null) out.recurrenceIdTimeZone = event.timeZone;
		out.created = event.created;
		out.updated = override && override.updated > event.updated ? override.updated : event.updated;
	}
	out.title = fields.title;
	const description = describeWithRoom(fields.description, fields.descriptionContentType, fields.virtualRoom);
	if (description !== undefined) out.description = description;
	out.descriptionContentType = fields.descriptionContentType;
	out.start = fields.start;
	out.timeZone = fields.timeZone;
	out.duration = fields.duration;
	out.showWithoutTime = fields.showWithoutTime;
	if (fields.status !== undefined) out.status = fields.status;
	out.privacy = fields.privacy;
	out.freeBusyStatus = fields.freeBusyStatus;
	if (fields.locations !== undefined) out.locations = fields.locations;
	if (fields.participants !== undefined) out.participants = fields.participants;
	if (fields.alerts !== undefined) out.alerts = fields.alerts;
	out.useDefaultAlerts = fields.useDefaultAlerts;
	if (target.kind === 'event' && event.recurrenceRules !== undefined) out.recurrenceRules = event.recurrenceRules;
	if (fields.color !== undefined) out.color = fields.color;
	if (fields.keywords !== undefined) out.keywords = fields.keywords;
	if (fields.categories !== undefined) out.categories = fields.categories;
	if (fields.locale !== undefined) out.locale = fields.locale;
	if (fields.priority !== undefined) out.priority = fields.priority;
	if (event.integrationId === 'providerA') {
		if (fields.colorId !== undefined) out['provider.example:colorId'] = fields.colorId;
		if (fields.virtualRoom?.kind === 'providerAMeetingRoom') out['provider.example:hangoutLink'] = fields.virtualRoom.url;
	}
	const link = description === undefined ? null : ROOM_URL.exec(description);
	if (link) out['service.example:derived'] = { virtualRoom: { url: link[0] } };
	const taskId = event['service.example:metadata']?.taskId;
	if (taskId !== undefined) out['service.example:metadata'] = presentMetadata(store, userId, taskId);
	if (version === 'v1') for (const key of HIDDEN_IN_V1) delete out[key];
	return out;
}

function presentMetadata(store: Store, userId: string, taskId: string): Record<string, unknown> {
	const task = store.tasks.get(userId)?.get(taskId);
	if (!task) return { taskId };
	return { updated: task.updated, progress: task.progress === 'completed' ? 'completed' : 'needs-action', taskId };
}

/**
 * The events of a list as JSON text, `{"data":{"events":[…]}}`. Occurrences that have no changes
 * of their own differ only in id, recurrenceId and start from the other occurrences of their
 * series, so each series is serialised once as a template with holes for those three values:
 * the same text as serialising every event, in a fraction of the time.
 */
export function listJson(store: Store, userId: string, entries: readonly ListEntry[], version: Version): string {
	const marker = randomUUID();
	const holes = { id: `${marker}i`, recurrenceId: `${marker}r`, start: `${marker}s` };
	const split = new RegExp(`"(${holes.id}|${holes.recurrenceId}|${holes.start})"`);
	const templates = new Map<StoredEvent, string[]>();
	let out = '{"data":{"events":[';
	for (let n = 0; n < entries.length; n++) {
		if (n > 0) out += ',';
		const entry = entries[n];
		const target = entry.target;
		if (target.kind === 'event' || target.master.overrides?.[target.recurrenceId]) {
			out += JSON.stringify(presentTarget(store, userId, target, version));
			continue;
		}
		let template = templates.get(target.master);
		if (!template) {
			const sample = presentTarget(store, userId, target, version);
			sample.id = holes.id;
			if ('recurrenceId' in sample) sample.recurrenceId = holes.recurrenceId;
			sample.start = holes.start;
			template = JSON.stringify(sample).split(split);
			templates.set(target.master, template);
		}
		// Ids are base64 and the two values LocalDateTimes: none needs escaping in JSON.
		out += template[0];
		for (let i = 1; i < template.length; i += 2) {
			const hole = template[i];
			out += `"${hole === holes.id ? entry.id : hole === holes.start ? target.start : target.recurrenceId}"${template[i + 1]}`;
		}
	}
	return `${out}]}}`;
}
