import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { refuseBlankTitle, timeZoneField } from '../../../shared/fields/fields';
import { calendarFields, EVENT_RESOURCE, eventFieldOptions } from '../../shared/eventFields';
import { checkAlertsCombination, writeTiming } from '../../shared/eventOutput';
import { guardFields } from './timeGuard';
import { showFor } from '../../../shared/fields/displayOptions';

const displayOptions = showFor(EVENT_RESOURCE, ['create'], { apiVersion: ['v3', 'v1'] });

/** Start, end or duration, all-day and time zone become the service's four timing fields. */
export async function sendCreateTiming(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	checkAlertsCombination(this, requestOptions, 'additionalFields');
	const allDay = this.getNodeParameter('allDay', false) as boolean;
	const byDuration = this.getNodeParameter('endMode', 'end') === 'duration';
	return writeTiming(this, requestOptions, {
		allDay,
		start: this.getNodeParameter('start', ''),
		end: byDuration ? undefined : this.getNodeParameter('end', ''),
		duration: byDuration ? this.getNodeParameter('duration', '') : undefined,
		// Empty: the workflow's time zone, as the field's first choice says.
		timeZone: allDay ? undefined : String(this.getNodeParameter('timeZone', '') ?? '').trim() || this.getTimezone(),
	});
}

export const eventCreateDescription: INodeProperties[] = [
	...calendarFields('create', ['v3', 'v1'], 'Calendar to create the event in'),
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Team meeting',
		description: 'Title of the event as calendars show it',
		displayOptions,
		routing: { send: { type: 'body', property: 'title', preSend: [refuseBlankTitle] } },
	},
	{
		displayName: 'All Day',
		name: 'allDay',
		type: 'boolean',
		default: false,
		description: 'Whether the event takes whole days (no time, no time zone)',
		displayOptions,
	},
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		required: true,
		default: '={{ $now }}',
		description:
			'When the event starts, e.g. 2026-12-01T09:00:00. A time without offset is read in the Time Zone; a time with an offset is converted into it. For all-day events, the first day.',
		displayOptions,
	},
	{
		displayName: 'Set End By',
		name: 'endMode',
		type: 'options',
		options: [
			{ name: 'End Time', value: 'end', description: 'When the event ends; the node computes the duration' },
			{ name: 'Duration', value: 'duration', description: 'How long the event lasts, as an ISO 8601 duration such as PT45M' },
		],
		default: 'end',
		displayOptions,
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		required: true,
		default: "={{ $now.plus(1, 'hour') }}",
		description: 'When the event ends, e.g. 2026-12-01T10:00:00 (read like Start). For all-day events, the last day of the event (inclusive).',
		displayOptions: { show: { ...displayOptions?.show, endMode: ['end'] } },
	},
	{
		displayName: 'Duration',
		name: 'duration',
		type: 'string',
		required: true,
		default: 'PT1H',
		placeholder: 'e.g. PT30M, PT1H30M, P1D',
		description: 'ISO 8601 duration of the event',
		displayOptions: { show: { ...displayOptions?.show, endMode: ['duration'] } },
	},
	timeZoneField({
		description:
			'IANA time zone the event happens in, e.g. Europe/Berlin. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		hint: "Empty: the workflow's time zone (its settings, else the n8n instance's).",
		displayOptions: { show: { ...displayOptions?.show, allDay: [false] } },
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		options: eventFieldOptions('additionalFields'),
	},
	...guardFields('create'),
];
