import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { hasExplicitOffset, LOCAL_DATE_TIME_FORMAT, parseDateInput, toLocalDateTime } from '../../shared/dates';
import { alertId, alertOffset, locationKey, participantKey } from '../../shared/encoding';
import { invalidField, quoted } from '../../shared/errors';
import { descriptionFormatField, isEmptyValue, listOrIdField, locatorValue, sendConverted, sendUnlessEmpty, toStringList } from '../../shared/fields';
import { CALENDAR_LIST_HINT } from '../../shared/calendarLists';
import { asRuleCollection, parseRrule, type RuleInput } from './rrule';
import { EVENT_LIST_DAYS } from '../listSearch/searchEvents';
import { sendCalendarTarget } from './calendarTarget';
import { canReadCurrentEvent, currentEvent } from './currentEvent';

export const EVENT_RESOURCE = 'event';
export type ApiVersion = 'v3' | 'v1';

/** displayOptions for fields of one event operation in the given interface versions. */
export function showFor(operations: string[], versions: ApiVersion[] = ['v3', 'v1']): INodeProperties['displayOptions'] {
	return { show: { apiVersion: versions, resource: [EVENT_RESOURCE], operation: operations } };
}

export const EVENT_ID_DESCRIPTION =
	'Event ID exactly as the service gave it (IDs contain characters such as + / = and are case-sensitive; pass them unchanged)';

/** The Event ID field: sent as `id` in the body, or in the query for Get. */
export function eventIdField(displayOptions: INodeProperties['displayOptions'], send: 'body' | 'query' = 'body', extra = ''): INodeProperties {
	return {
		displayName: 'Event ID',
		name: 'eventId',
		type: 'string',
		required: true,
		default: '',
		description: `${EVENT_ID_DESCRIPTION}${extra}`,
		displayOptions,
		routing: { send: { type: send, property: 'id', preSend: [requireEventId] } },
	};
}

/**
 * An Event ID an expression left empty is refused before any request: a delete of "" would be
 * answered 404, which "already deleted counts as success" would report as done.
 */
async function requireEventId(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (locatorValue(this.getNodeParameter('eventId', '')).trim() === '') {
		throw invalidField(this.getNode(), 'Event ID', 'enter the ID of the event (it is empty)', this.getItemIndex());
	}
	return requestOptions;
}

/**
 * The Event field of v3 writes, which name the calendar: "By ID" (the default: workflows usually
 * get the ID from an earlier node), or "From List", the events of the chosen Calendar in the
 * coming weeks.
 */
export function eventLocator(displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return listOrIdField(
		{
			...eventIdField(displayOptions),
			displayName: 'Event',
			hint: `"From List" shows the events of the chosen Calendar in the next ${EVENT_LIST_DAYS} days (10 points; reopened within a minute, it costs nothing).`,
		},
		{ searchListMethod: 'searchEvents', placeholder: 'Select an event...' },
		'e.g. ZXZ0LTE2OTk=',
		'id',
	);
}

/**
 * The calendar of an event write. v3: one Calendar field, "From List" (the calendars the user may
 * write to, stored with their account) or "By ID" with an Account ID field beside it (see
 * {@link sendCalendarTarget}). v1 (create only) names no account: a Calendar ID.
 */
export function calendarFields(operation: string, versions: ApiVersion[], description: string): INodeProperties[] {
	const v3 = showFor([operation], ['v3']);
	const fields: INodeProperties[] = [
		listOrIdField(
			{
				displayName: 'Calendar',
				name: 'calendarId',
				required: true,
				description,
				hint: CALENDAR_LIST_HINT,
				displayOptions: v3,
				routing: { send: { preSend: [sendCalendarTarget] } },
			},
			{ searchListMethod: 'searchCalendars', placeholder: 'Select a calendar...' },
			'e.g. cal-primary',
		),
		{
			displayName: 'Account ID',
			name: 'accountId',
			type: 'string',
			default: '',
			description:
				'Account of the calendar (event IDs are only meaningful within their account). Leave empty to look it up in the calendar list (10 points, reused for a minute).',
			// Shown with "By ID" (and for a Calendar value saved before the list existed); "From List" carries the
			// account. A root path ("/"): n8n 1.x orders parameters by their dependencies and accepts only those.
			displayOptions: { show: v3?.show, hide: { '/calendarId.mode': ['list'] } },
		},
	];
	if (versions.includes('v1')) {
		fields.push({
			displayName: 'Calendar ID',
			name: 'calendarId',
			type: 'string',
			required: true,
			default: '',
			description,
			displayOptions: showFor([operation], ['v1']),
			routing: { send: { type: 'body', property: 'calendarId' } },
		});
	}
	return fields;
}

/** Action and offset of an alert, as the editor asks for them (add and remove alike). */
export const alertValues: INodeProperties[] = [
	{
		displayName: 'Action',
		name: 'action',
		type: 'options',
		options: [
			{ name: 'Display', value: 'display' },
			{ name: 'Email', value: 'email' },
		],
		default: 'display',
	},
	{
		displayName: 'Minutes Before Start',
		name: 'minutesBefore',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 15,
	},
];

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The entries of a fixed collection (`{ participant: [...] }`), whatever an expression put there. */
function listOf<T>(value: unknown, key: string): T[] {
	const entries = value && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
	if (entries === undefined || entries === null) return [];
	return (Array.isArray(entries) ? entries : [entries]).filter((entry) => entry && typeof entry === 'object') as T[];
}

interface ParticipantInput {
	email?: string;
	name?: string;
	roles?: string[];
}

/** Participants keyed by the base64 of their e-mail address, as the interface asks. */
export function toParticipants(value: unknown): IDataObject {
	const participants: IDataObject = {};
	for (const { email, name, roles } of listOf<ParticipantInput>(value, 'participant')) {
		const address = String(email ?? '').trim();
		if (!EMAIL.test(address)) throw new Error(`${quoted(email ?? '')} is not an e-mail address`);
		participants[participantKey(address)] = {
			'@type': 'Participant',
			email: address,
			...(name ? { name: String(name) } : {}),
			roles: Object.fromEntries((Array.isArray(roles) ? roles : ['attendee']).map((role) => [String(role), true])),
		};
	}
	return participants;
}

/**
 * People written as people write them: separated by commas, semicolons or lines (or a list),
 * each an address or `Name <address>` (the name may be quoted and contain a comma).
 */
export function toPeople(value: unknown): Array<{ email: string; name?: string }> {
	const entries = Array.isArray(value) ? value.map(String) : splitOutsideQuotes(String(value ?? ''));
	return entries
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '')
		.map((entry) => {
			const named = /^(.*?)\s*<([^<>]+)>$/.exec(entry);
			if (!named) return { email: entry };
			const name = named[1].trim().replace(/^"(.*)"$/, '$1').trim();
			return { email: named[2].trim(), ...(name ? { name } : {}) };
		});
}

/** Splits at `,`, `;` and line breaks that are not inside double quotes or angle brackets. */
function splitOutsideQuotes(text: string): string[] {
	const parts: string[] = [];
	let current = '';
	let inQuotes = false;
	let inBrackets = false;
	for (const char of text) {
		if (char === '"') inQuotes = !inQuotes;
		else if (char === '<' && !inQuotes) inBrackets = true;
		else if (char === '>' && !inQuotes) inBrackets = false;
		else if (/[,;\n]/.test(char) && !inQuotes && !inBrackets) {
			parts.push(current);
			current = '';
			continue;
		}
		current += char;
	}
	return [...parts, current];
}

/**
 * The Attendees field: people invited as attendees (see {@link toPeople}). One text field, unlike
 * Participants, so an expression or an AI agent can fill it: n8n drops an expression given for a
 * whole fixed collection.
 */
export function toAttendees(value: unknown): IDataObject {
	return toParticipants({ participant: toPeople(value) });
}

/** Participants to remove: null under the e-mail address, as the interface's update rule says. */
export function toRemovedParticipants(value: unknown): IDataObject {
	const removed: IDataObject = {};
	for (const { email } of toPeople(value)) {
		if (!EMAIL.test(email)) throw new Error(`${quoted(email)} is not an e-mail address`);
		removed[email] = null;
	}
	return removed;
}

interface AlertInput {
	minutesBefore?: number;
	action?: string;
}

/** The alerts of an Alerts (or Alerts to Remove) field: action, offset and computed ID. */
export function alertsOf(value: unknown): Array<{ id: string; offset: string; action: string }> {
	return listOf<AlertInput>(value, 'alert').map(({ minutesBefore = 15, action = 'display' }) => {
		if (!Number.isInteger(minutesBefore) || minutesBefore < 0) {
			throw new Error(`${quoted(minutesBefore)} is not a whole number of minutes of 0 or more`);
		}
		const offset = alertOffset(minutesBefore);
		return { id: alertId(String(action), offset), offset, action: String(action) };
	});
}

/** Alerts keyed by their computed ID (base64 of `{"a":action,"to":offset}`). */
export function toAlerts(value: unknown): IDataObject {
	return Object.fromEntries(
		alertsOf(value).map(({ id, offset, action }) => [
			id,
			{ '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset, relativeTo: 'start' }, action },
		]),
	);
}

/** Locations keyed by their name's {@link locationKey}, so adding one never replaces another. */
export function toLocations(value: unknown): IDataObject {
	const names = listOf<{ name?: unknown }>(value, 'location').map(({ name }) => String(name ?? '').trim());
	return Object.fromEntries(names.filter((name) => name !== '').map((name) => [locationKey(name), { '@type': 'Location', name }]));
}

/**
 * One JSCalendar RecurrenceRule from the editor's recurrence fields. `until` is a LocalDateTime
 * in the event's zone: a value with an offset is converted into `zone` (null for all-day events,
 * whose until keeps the date and time as written); a value without one is that zone's wall clock.
 */
export function toRecurrenceRules(value: unknown, zone: string | null): IDataObject[] {
	const rule = listOf<RuleInput>(value, 'rule')[0] ?? {};
	const { frequency = 'weekly', interval = 1, nthOfPeriod = 0, ends = 'count' } = rule;
	const byDay = Array.isArray(rule.byDay) ? rule.byDay.map(String) : [];
	const byMonth = Array.isArray(rule.byMonth) ? rule.byMonth : [];
	if (!Number.isInteger(interval) || interval < 1) throw new Error('interval must be a whole number of 1 or more');
	if (!Number.isInteger(nthOfPeriod)) throw new Error('nth weekday must be a whole number');
	const result: IDataObject = { '@type': 'RecurrenceRule', frequency, interval };
	if (byDay.length > 0) {
		result.byDay = byDay.map((day) => ({ '@type': 'NDay', day, ...(nthOfPeriod ? { nthOfPeriod } : {}) }));
	}
	const monthDays = toStringList(rule.byMonthDay ?? '').map(Number);
	if (monthDays.some((day) => !Number.isInteger(day) || day === 0 || day < -31 || day > 31)) {
		throw new Error(`month days must be whole numbers from 1 to 31 or -31 to -1, got ${quoted(rule.byMonthDay)}`);
	}
	if (monthDays.length > 0) result.byMonthDay = monthDays;
	if (byMonth.length > 0) result.byMonth = byMonth.map(String);
	if (ends === 'count') {
		const count = rule.count ?? 10;
		if (!Number.isInteger(count) || count < 1) throw new Error('count must be a whole number of 1 or more');
		result.count = count;
	}
	if (ends === 'until') {
		const until = parseDateInput(rule.until, zone ?? 'UTC');
		if (!until) throw new Error(`${quoted(rule.until)} is not a date and time for "until"`);
		result.until = zone === null ? until.toFormat(LOCAL_DATE_TIME_FORMAT) : toLocalDateTime(until, zone);
	}
	return [result];
}

/**
 * The zone a recurrence's `until` is converted into: on create the event's Time Zone (null when
 * all-day); on update the new Time Zone or all-day setting, else the event's zone as it is, read
 * once (v3, by Event ID). Undefined when the zone cannot be known.
 */
async function recurrenceZone(context: IExecuteSingleFunctions, collection: string): Promise<string | null | undefined> {
	if (collection === 'additionalFields') {
		if (context.getNodeParameter('allDay', false) === true) return null;
		const zone = context.getNodeParameter('timeZone', '');
		return isEmptyValue(zone) ? undefined : String(zone);
	}
	const fields = context.getNodeParameter(collection, {}) as IDataObject;
	if (fields.allDay === true) return null;
	if (!isEmptyValue(fields.timeZone)) return String(fields.timeZone);
	if (!canReadCurrentEvent(context)) return undefined;
	const event = await currentEvent(context);
	return typeof event.timeZone === 'string' && event.timeZone !== '' ? event.timeZone : null;
}

/** The Recurrence field as `recurrenceRules`, with `until` in the event's zone (see {@link toRecurrenceRules}). */
export function sendRecurrence(collection: string) {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		let value: unknown = this.getNodeParameter(`${collection}.recurrence`, null);
		const rrule = this.getNodeParameter(`${collection}.rrule`, '');
		if (typeof rrule === 'string' && rrule.trim() !== '') {
			if (listOf<RuleInput>(value, 'rule').length > 0) {
				throw invalidField(this.getNode(), 'Repeat (RRULE)', 'give the series either here or in Recurrence, not both', this.getItemIndex());
			}
			try {
				value = asRuleCollection(parseRrule(rrule));
			} catch (error) {
				throw invalidField(this.getNode(), 'Repeat (RRULE)', (error as Error).message, this.getItemIndex(), 'For example FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10 or FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20271231.');
			}
		}
		// Added but no rule filled in yet: no recurrence (never a silent weekly series).
		if (listOf<RuleInput>(value, 'rule').length === 0) return requestOptions;
		const until = listOf<RuleInput>(value, 'rule')[0]?.until;
		let zone: string | null | undefined = null;
		if (hasExplicitOffset(until)) {
			zone = await recurrenceZone(this, collection);
			if (zone === undefined) {
				throw invalidField(
					this.getNode(),
					'Recurrence',
					`Until ${quoted(until)} has an offset, but the event's time zone is not known to convert it into`,
					this.getItemIndex(),
					"Also set the Time Zone, or give Until without offset as the event's local date and time.",
				);
			}
		}
		let rules: IDataObject[];
		try {
			rules = toRecurrenceRules(value, zone);
		} catch (error) {
			throw invalidField(this.getNode(), 'Recurrence', (error as Error).message, this.getItemIndex());
		}
		requestOptions.body = { ...((requestOptions.body as IDataObject) ?? {}), recurrenceRules: rules };
		return requestOptions;
	};
}

const weekdays = [
	{ name: 'Monday', value: 'mo' },
	{ name: 'Tuesday', value: 'tu' },
	{ name: 'Wednesday', value: 'we' },
	{ name: 'Thursday', value: 'th' },
	{ name: 'Friday', value: 'fr' },
	{ name: 'Saturday', value: 'sa' },
	{ name: 'Sunday', value: 'su' },
];

const months = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
].map((name, index) => ({ name, value: String(index + 1) }));

/** Where the writable event fields sit: `collection` is "additionalFields" or "updateFields". */
export function eventFieldOptions(collection: string): INodeProperties[] {
	return [
		{
			displayName: 'Alerts',
			name: 'alerts',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Alert',
			default: {},
			description: 'Reminders before the start. Cannot be combined with Use Default Alerts.',
			options: [{ displayName: 'Alert', name: 'alert', values: alertValues }],
			routing: { send: { preSend: [sendConverted(`${collection}.alerts`, 'Alerts', 'alerts', toAlerts, { merge: true })] } },
		},
		{
			displayName: 'Attendees',
			name: 'attendees',
			type: 'string',
			default: '',
			placeholder: 'e.g. ann@example.com, bob@example.com',
			description:
				'E-mail addresses of people to invite as attendees, separated by commas (or a list from an expression). For names or other roles, use Participants.',
			routing: {
				send: { preSend: [sendConverted(`${collection}.attendees`, 'Attendees', 'participants', toAttendees, { merge: true })] },
			},
		},
		{
			displayName: 'Color',
			name: 'colorId',
			type: 'options',
			options: Array.from({ length: 11 }, (_, index) => ({ name: `Color ${index + 1}`, value: String(index + 1) })),
			default: '1',
			description: 'Event color 1 to 11. Only calendars of provider A (integration "providerA") have colors; other providers ignore it.',
			routing: { send: { type: 'body', property: 'provider.example:colorId', propertyInDotNotation: false } },
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			routing: sendUnlessEmpty('description'),
		},
		descriptionFormatField,
		{
			displayName: 'Free/Busy',
			name: 'freeBusyStatus',
			type: 'options',
			options: [
				{ name: 'Busy', value: 'busy' },
				{ name: 'Free', value: 'free' },
			],
			default: 'busy',
			description: 'Whether the time shows as busy in free/busy lookups',
			routing: { send: { type: 'body', property: 'freeBusyStatus' } },
		},
		{
			displayName: 'Locations',
			name: 'locations',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Location',
			default: {},
			options: [{ displayName: 'Location', name: 'location', values: [{ displayName: 'Name', name: 'name', type: 'string', default: '' }] }],
			routing: { send: { preSend: [sendConverted(`${collection}.locations`, 'Locations', 'locations', toLocations, { merge: true })] } },
		},
		{
			displayName: 'Participants',
			name: 'participants',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Participant',
			default: {},
			description: 'People to invite, or (on update) to add or change; others stay as they are',
			options: [
				{
					displayName: 'Participant',
					name: 'participant',
					values: [
						{ displayName: 'Email', name: 'email', type: 'string', placeholder: 'e.g. name@email.com', default: '' },
						{ displayName: 'Name', name: 'name', type: 'string', default: '' },
						{
							displayName: 'Roles',
							name: 'roles',
							type: 'multiOptions',
							options: [
								{ name: 'Attendee', value: 'attendee' },
								{ name: 'Chair', value: 'chair' },
								{ name: 'Informational', value: 'informational' },
								{ name: 'Optional', value: 'optional' },
								{ name: 'Owner', value: 'owner' },
							],
							default: ['attendee'],
						},
					],
				},
			],
			routing: {
				send: { preSend: [sendConverted(`${collection}.participants`, 'Participants', 'participants', toParticipants, { merge: true })] },
			},
		},
		{
			displayName: 'Privacy',
			name: 'privacy',
			type: 'options',
			options: [
				{ name: 'Private', value: 'private' },
				{ name: 'Public', value: 'public' },
				{ name: 'Secret', value: 'secret' },
			],
			default: 'public',
			routing: { send: { type: 'body', property: 'privacy' } },
		},
		{
			displayName: 'Recurrence',
			name: 'recurrence',
			type: 'fixedCollection',
			// Explicitly single: n8n keeps an added but unfilled single fixed collection inside a collection.
			typeOptions: { multipleValues: false },
			placeholder: 'Add Recurrence',
			default: {},
			description: 'Repeat the event. Each occurrence is listed with its own ID.',
			options: [
				{
					displayName: 'Rule',
					name: 'rule',
					// In the order people decide (how often, every how many, on which days, until when), which the
					// labels keep in the alphabetical order n8n's lint rules ask of a fixed collection.
					values: [
						{
							displayName: 'Frequency',
							name: 'frequency',
							type: 'options',
							options: [
								{ name: 'Daily', value: 'daily' },
								{ name: 'Weekly', value: 'weekly' },
								{ name: 'Monthly', value: 'monthly' },
								{ name: 'Yearly', value: 'yearly' },
							],
							default: 'weekly',
						},
						{
							displayName: 'Interval',
							name: 'interval',
							type: 'number',
							typeOptions: { minValue: 1 },
							default: 1,
							description: 'Every how many days, weeks, months or years, e.g. 2 for every other week',
						},
						{
							displayName: 'On Days of the Month',
							name: 'byMonthDay',
							type: 'string',
							default: '',
							placeholder: 'e.g. 1, 15, -1',
							description: 'Days of the month, separated by commas; -1 is the last day. Empty: the start\'s day.',
							displayOptions: { show: { frequency: ['monthly', 'yearly'] } },
						},
						{
							displayName: 'On Months',
							name: 'byMonth',
							type: 'multiOptions',
							options: months,
							default: [],
							description: "Months it happens in. Empty: the start's month.",
							displayOptions: { show: { frequency: ['yearly'] } },
						},
						{
							displayName: 'On Weekdays',
							name: 'byDay',
							type: 'multiOptions',
							options: weekdays,
							default: [],
							description: "Days of the week it happens on. Empty: the start's weekday.",
							displayOptions: { show: { frequency: ['weekly', 'monthly', 'yearly'] } },
						},
						{
							displayName: 'On Which Weekday of the Month',
							name: 'nthOfPeriod',
							type: 'number',
							default: 0,
							description:
								'With On Weekdays: 1 = first, 2 = second, -1 = last (of the month, or of the year for yearly rules). 0 = every such weekday.',
							displayOptions: { show: { frequency: ['monthly', 'yearly'] } },
						},
						{
							displayName: 'Series Ends',
							name: 'ends',
							type: 'options',
							options: [
								{ name: 'After a Number of Occurrences', value: 'count' },
								{ name: 'On a Date', value: 'until' },
								{ name: 'Never', value: 'never', description: 'The series repeats without end' },
							],
							default: 'count',
						},
						{
							displayName: 'Series Length (Occurrences)',
							name: 'count',
							type: 'number',
							typeOptions: { minValue: 1 },
							default: 10,
							description: 'How many times the event happens in all, the first one included',
							displayOptions: { show: { ends: ['count'] } },
						},
						{
							displayName: 'Series Until',
							name: 'until',
							type: 'dateTime',
							default: '',
							description: "Last possible start, e.g. 2027-06-30T23:59:00, in the event's time zone (inclusive)",
							displayOptions: { show: { ends: ['until'] } },
						},
					],
				},
			],
			routing: { send: { preSend: [sendRecurrence(collection)] } },
		},
		{
			displayName: 'Repeat (RRULE)',
			name: 'rrule',
			type: 'string',
			default: '',
			placeholder: 'e.g. FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10',
			description:
				'The series as one iCalendar RRULE text (Recurrence above gives the same as fields): FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, BYDAY (MO, 1MO, -1FR), BYMONTHDAY, BYMONTH, and COUNT or UNTIL (20271231). Without COUNT or UNTIL the series does not end.',
			routing: { send: { preSend: [sendRecurrence(collection)] } },
		},
		{
			displayName: 'Request Virtual Room',
			name: 'requestVirtualRoom',
			type: 'options',
			options: [
				{ name: 'Default Room of the Calendar\'s Provider', value: 'default' },
				{ name: 'Provider A Meeting Room', value: 'providerAMeetingRoom' },
				{ name: 'Provider B Meeting Room', value: 'providerBMeetingRoom' },
			],
			default: 'default',
			description:
				'Attach a video meeting room; its link is written into the description. A room of one provider cannot be used in the other provider\'s calendar. Once attached, a room stays.',
			displayOptions: { show: { '/apiVersion': ['v3'] } },
			routing: { send: { type: 'body', property: 'service.example:requestVirtualRoom', propertyInDotNotation: false } },
		},
		{
			// v1 documents only the default room kind.
			displayName: 'Request Virtual Room',
			name: 'requestDefaultVirtualRoom',
			type: 'boolean',
			default: true,
			description:
				"Whether to attach a video meeting room of the calendar's provider; its link is written into the description. Once attached, a room stays.",
			displayOptions: { show: { '/apiVersion': ['v1'] } },
			routing: {
				send: { type: 'body', property: 'service.example:requestVirtualRoom', propertyInDotNotation: false, value: '={{ $value ? "default" : undefined }}' },
			},
		},
		{
			displayName: 'Use Default Alerts',
			name: 'useDefaultAlerts',
			type: 'boolean',
			default: true,
			description: 'Whether the calendar\'s default alerts apply instead of the Alerts field (cannot be combined with alerts)',
			displayOptions: { show: { '/apiVersion': ['v3'] } },
			routing: { send: { type: 'body', property: 'useDefaultAlerts' } },
		},
	];
}
