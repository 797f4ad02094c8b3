import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { invalidField } from '../../../shared/errors';
import { sendConverted, timeZoneField } from '../../../shared/fields';
import { ctsRequest } from '../../../shared/transport';
import {
	accountAndCalendarFields,
	alertValues,
	eventFieldOptions,
	eventIdField,
	showFor,
	toRemovedAlerts,
	toRemovedParticipants,
} from '../../shared/eventFields';
import { checkAlertsCombination, writeTiming } from '../../shared/eventOutput';
import { seriesModeField } from './delete';

const displayOptions = showFor(['update']);
const TIMING_FIELDS = ['allDay', 'start', 'end', 'duration', 'timeZone'];
const TOGETHER_MESSAGE = 'start, duration, timeZone and showWithoutTime must be provided together (timeZone may be null)';

/**
 * The service takes start, duration, timeZone and showWithoutTime together or not at all.
 * When some timing fields are set, the rest are taken from the event as it is (one read, 1
 * point). That needs the event's ID; an occurrence named by master and recurrence ID, and v1
 * (which has no read), must give all of them.
 */
export async function sendUpdateTiming(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	checkAlertsCombination(this, requestOptions, 'updateFields');
	const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
	const given = TIMING_FIELDS.filter((name) => fields[name] !== undefined && fields[name] !== '');
	if (given.length === 0) return requestOptions;

	let current: IDataObject = {};
	const complete =
		given.includes('start') &&
		(given.includes('end') || given.includes('duration')) &&
		(fields.allDay === true || (fields.allDay === false && given.includes('timeZone')));
	if (!complete) {
		const version = this.getNodeParameter('authentication', 'v3');
		const byId = version === 'v3' && this.getNodeParameter('identifyBy', 'id') === 'id';
		const id = byId ? String(this.getNodeParameter('eventId', '')) : '';
		if (!id) {
			throw invalidField(this.getNode(), 'Update Fields', TOGETHER_MESSAGE, this.getItemIndex(),
				'Set All Day, Start, End or Duration, and Time Zone (for timed events) together. The node fills in missing ones from the event only when it is identified by its Event ID in the v3 interface.');
		}
		const response = await ctsRequest.call(this, 'ctsApi', { method: 'GET', url: '/v3/events', qs: { id } });
		current = ((response.data as IDataObject | undefined)?.event as IDataObject | undefined) ?? {};
	}

	const allDay = (fields.allDay ?? current.showWithoutTime) === true;
	const switching = fields.allDay !== undefined && fields.allDay !== current.showWithoutTime && !complete;
	if (switching && !allDay && fields.start === undefined) {
		throw invalidField(this.getNode(), 'Start', 'give the start time when an all-day event becomes a timed one', this.getItemIndex());
	}
	let duration = fields.duration as string | undefined;
	if (fields.end === undefined && duration === undefined) {
		// Switching between all-day and timed changes the unit: start from one day, or one hour.
		duration = switching || current.duration === undefined ? (allDay ? 'P1D' : 'PT1H') : String(current.duration);
	}
	return writeTiming(this, requestOptions, {
		allDay,
		start: fields.start ?? current.start,
		end: fields.end,
		duration,
		timeZone: allDay ? undefined : (fields.timeZone ?? current.timeZone),
	});
}

function updateFieldOptions(): INodeProperties[] {
	const collection = 'updateFields';
	const options: INodeProperties[] = [
		...eventFieldOptions(collection),
		{
			displayName: 'All Day',
			name: 'allDay',
			type: 'boolean',
			default: false,
			description: 'Whether the event takes whole days. Switching keeps the date; missing timing fields are taken from the event.',
		},
		{
			displayName: 'Alerts to Remove',
			name: 'alertsToRemove',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Alert to Remove',
			default: {},
			options: [{ displayName: 'Alert', name: 'alert', values: alertValues }],
			routing: { send: { preSend: [sendConverted(`${collection}.alertsToRemove`, 'Alerts to Remove', 'alerts', toRemovedAlerts, { merge: true })] } },
		},
		{
			displayName: 'Duration',
			name: 'duration',
			type: 'string',
			default: '',
			placeholder: 'e.g. PT30M, PT1H30M, P1D',
			description: 'New ISO 8601 duration (instead of End)',
		},
		{
			displayName: 'End',
			name: 'end',
			type: 'dateTime',
			default: '',
			description: 'New end (instead of Duration). For all-day events, the last day (inclusive).',
		},
		{
			displayName: 'Participants to Remove',
			name: 'participantsToRemove',
			type: 'string',
			default: '',
			placeholder: 'e.g. ann@example.com, bob@example.com',
			description: 'E-mail addresses to remove from the event, separated by commas; other participants stay',
			routing: {
				send: { preSend: [sendConverted(`${collection}.participantsToRemove`, 'Participants to Remove', 'participants', toRemovedParticipants, { merge: true })] },
			},
		},
		{
			displayName: 'Start',
			name: 'start',
			type: 'dateTime',
			default: '',
			description: 'New start, read in the Time Zone (or the event\'s zone)',
		},
		timeZoneField({ description: 'New IANA time zone of the event, e.g. Europe/Berlin. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.' }),
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			routing: { send: { type: 'body', property: 'title' } },
		},
	];
	return options.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

export const eventUpdateDescription: INodeProperties[] = [
	{
		displayName: 'Identify Event By',
		name: 'identifyBy',
		type: 'options',
		options: [
			{ name: 'Event ID', value: 'id', description: 'The ID of a single event, a series master or an occurrence' },
			{ name: 'Series and Occurrence Time', value: 'occurrence', description: 'The master event ID and the original start of the occurrence' },
		],
		default: 'id',
		displayOptions: showFor(['update'], ['v3']),
	},
	eventIdField({ show: { ...showFor(['update'], ['v3'])?.show, identifyBy: ['id'] } }),
	eventIdField(showFor(['update'], ['v1'])),
	{
		displayName: 'Master Event ID',
		name: 'masterEventId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID of the recurring series (the ID returned when it was created, or masterEventId of an occurrence)',
		displayOptions: { show: { ...showFor(['update'], ['v3'])?.show, identifyBy: ['occurrence'] } },
		routing: { send: { type: 'body', property: 'masterEventId' } },
	},
	{
		displayName: 'Recurrence ID',
		name: 'recurrenceId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2026-12-07T09:00:00',
		description: 'Original start of the occurrence as a local date-time (recurrenceId of the listed occurrence)',
		displayOptions: { show: { ...showFor(['update'], ['v3'])?.show, identifyBy: ['occurrence'] } },
		routing: { send: { type: 'body', property: 'recurrenceId' } },
	},
	timeZoneField({
		displayName: 'Recurrence ID Time Zone Name or ID',
		name: 'recurrenceIdTimeZone',
		description:
			'Time zone of the Recurrence ID (not needed for all-day events). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { ...showFor(['update'], ['v3'])?.show, identifyBy: ['occurrence'] } },
		routing: { send: { type: 'body', property: 'recurrenceIdTimeZone', value: '={{ $value || undefined }}' } },
	}),
	...accountAndCalendarFields('update', ['v3']),
	seriesModeField('update'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here change. Participants and alerts added here are added or changed; others stay.',
		displayOptions,
		options: updateFieldOptions(),
	},
];
