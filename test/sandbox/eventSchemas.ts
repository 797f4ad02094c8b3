/**
 * Request schemas of the events endpoints (v3 and v1): event fields of create and update bodies,
 * series-mode queries and the list window. Compiled once; each message is the service's.
 */
import { DateTime } from 'luxon';
import { z } from 'zod';

import { EVENT_MESSAGES, emailFromKey, sameEmail, type EventFields, TIMING_KEYS } from './eventModel';
import { isEventTimeZone, isIsoDuration } from './formats';
import {
	isLocalDateTime,
	recurrenceRuleSchema,
	validateRecurrenceRules,
	type RecurrenceRule,
} from './recurrence';

// ---------------------------------------------------------------------------------------------
// Field schemas (compiled once)

export const message = (text: string) => () => ({ message: text });
const typed = <T extends z.ZodTypeAny>(text: string, make: (params: z.RawCreateParams) => T): T =>
	make({ errorMap: message(text) });

export const stringField = (text: string) => z.string({ required_error: text, invalid_type_error: text });
const booleanField = (text: string) => z.boolean({ required_error: text, invalid_type_error: text });

export const mapKey = z
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

export type ParticipantInput = z.output<typeof participantSchema>;
export type AlertInput = z.output<typeof alertSchema>;
export type LocationInput = z.output<typeof locationSchema>;

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

export const readOnly = (name: string) => z.undefined({ errorMap: message(EVENT_MESSAGES.readOnly(name)) }).optional();
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
