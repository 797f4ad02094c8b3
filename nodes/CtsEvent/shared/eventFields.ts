import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { invalidField } from '../../shared/transport/errors';
import { descriptionFormatField, listOrIdField, locatorValue, sendConverted, sendUnlessEmpty } from '../../shared/fields/fields';
import { EVENT_LIST_DAYS } from '../../shared/calendar/eventListing';
import { sendCalendarTarget } from '../../shared/calendar/calendarTarget';
import { toAlerts, toAttendees, toLocations } from './eventBody';
import { recurrenceFieldOptions } from './recurrenceFields';
import { showFor } from '../../shared/fields/displayOptions';

export const EVENT_RESOURCE = 'event';
export type ApiVersion = 'v3' | 'v1';

/** What a model reads for Attendees (the editor's description encodes the angle brackets as HTML). */
export const ATTENDEES_TOOL_TEXT =
	'People to invite, separated by commas, each an e-mail address or Name <address>, with roles in parentheses after it if they are not just attendee: attendee, chair, contact, informational, optional, owner. E.g. Ann <ann@example.com> (chair), Bob <bob@example.com> (attendee, optional), cid@example.com. On update, the people listed are added or changed; others stay.';


const EVENT_ID_DESCRIPTION =
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
			hint: `"From List" shows the chosen Calendar's events of the next ${EVENT_LIST_DAYS} days.`,
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
	const v3 = showFor(EVENT_RESOURCE, [operation], { apiVersion: ['v3'] });
	const fields: INodeProperties[] = [
		listOrIdField(
			{
				displayName: 'Calendar',
				name: 'calendarId',
				required: true,
				description,
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
			displayOptions: showFor(EVENT_RESOURCE, [operation], { apiVersion: ['v1'] }),
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
			placeholder: 'e.g. Ann <ann@example.com> (chair), bob@example.com',
			// The model reads ATTENDEES_TOOL_TEXT: the same with plain angle brackets.
			description:
				'People to invite, separated by commas (or a list from an expression), each an e-mail address or Name &lt;address&gt;, with roles in parentheses after it if they are not just attendee: attendee, chair, contact, informational, optional, owner. E.g. Ann &lt;ann@example.com&gt; (chair), Bob &lt;bob@example.com&gt; (attendee, optional), cid@example.com. On update, the people listed are added or changed; others stay.',
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
		...recurrenceFieldOptions(collection),
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
