/**
 * The event model shared by the v3 and v1 events endpoints: messages, the stored shape of events
 * and series, and the account and calendar checks every event call makes. Request schemas are in
 * `eventSchemas.ts`, building and patching fields in `eventBuild.ts`, series and lists in
 * `eventSeries.ts`, and the event as the interface shows it in `eventPresentation.ts`.
 *
 * Storage (`store.events`, per user, keyed by event id; JSON-serialisable):
 * - a single event: the event's fields;
 * - a series: the master's fields with `recurrenceRules`, plus `excluded` (recurrence ids of
 *   deleted occurrences) and `overrides` (recurrence id → the fields changed on that occurrence
 *   alone). Occurrences are not stored: lists expand the series in the window.
 * - a deleted event or series keeps its record with `deleted: true` (so a repeated delete finds
 *   it and answers 404, and it no longer schedules a task).
 */
import { ApiError } from './errors';
import { type RecurrenceRule } from './recurrence';
import { type Account, type IntegrationId, type Store } from './store';

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

export const EVENT_FIELD_KEYS = [
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

export type FieldKey = (typeof EVENT_FIELD_KEYS)[number];

export const TIMING_KEYS = ['start', 'duration', 'timeZone', 'showWithoutTime'] as const;

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

export function pickFields(event: EventFields): EventFields {
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
// Participant keys

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

export function sameEmail(a: string | undefined, b: string | undefined): boolean {
	return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
}
