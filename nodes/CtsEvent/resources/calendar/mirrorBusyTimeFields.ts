import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { DATE_TIME_HINT } from '../../../shared/time/dates';
import { listOrIdField, optionsCollection, timeZoneField } from '../../../shared/fields/fields';
import { maxWaitOption } from '../../../shared/transport/transport';
import { MAX_RANGE_MONTHS } from '../../../shared/calendar/busyTime';
import { allDayEventsOption, readableCalendarsField, unreadableCalendarsOption } from '../../../shared/calendar/busyTimeFields';

export const MIRROR_BUSY_TIME = 'mirrorBusyTime';

/** How many days after today the default range reaches. */
export const DEFAULT_MIRROR_DAYS = 14;

const operationShown = { show: { apiVersion: ['v3'], resource: ['calendar'], operation: [MIRROR_BUSY_TIME] } };

const previewDescription = 'Whether to output the plan (create, move, update, remove, unchanged) without writing anything';

const fields: INodeProperties[] = [
	readableCalendarsField(
		'sourceCalendars',
		'Source Calendar Names or IDs',
		'Calendars whose busy events are copied, from any of the accounts. Copies made by this operation are never copied again.',
		{ required: true },
	),
	listOrIdField(
		{
			displayName: 'Target Calendar',
			name: 'calendarId',
			required: true,
			description: 'Calendar the busy copies are written to: one the user may write to, not one of the sources',
		},
		{ searchListMethod: 'searchCalendars', placeholder: 'Select a calendar...' },
		'e.g. cal-primary',
	),
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		required: true,
		default: '={{ $today }}',
		description: `Beginning of the time kept in step, e.g. 2026-12-01T00:00:00. A time without offset is read in the Time Zone below. ${DATE_TIME_HINT}`,
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		required: true,
		default: `={{ $today.plus(${DEFAULT_MIRROR_DAYS + 1}, 'days') }}`,
		description: `End of the time kept in step (at most ${MAX_RANGE_MONTHS} months after Start). The default: today and the next ${DEFAULT_MIRROR_DAYS} days.`,
	},
	timeZoneField({
		description:
			'Zone of all-day events\' dates, of Start and End without offset, and of the output\'s times. Empty: the workflow\'s time zone. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
	{
		displayName: 'Title',
		name: 'copyTitle',
		type: 'options',
		options: [
			{ name: 'Fixed Title', value: 'fixed', description: 'Every copy has the title below: nothing of the source event is shown' },
			{ name: "Source Event's Title", value: 'source', description: 'Each copy has the title of its source event' },
		],
		default: 'fixed',
	},
	{
		displayName: 'Copy Title',
		name: 'title',
		type: 'string',
		default: 'Busy',
		description: 'Title of every copy',
		displayOptions: { show: { copyTitle: ['fixed'] } },
	},
	{ displayName: 'Preview', name: 'preview', type: 'boolean', default: false, description: previewDescription, displayOptions: { show: { '@tool': [false] } } },
	{ displayName: 'Preview', name: 'preview', type: 'boolean', default: true, description: previewDescription, displayOptions: { show: { '@tool': [true] } } },
	optionsCollection([
		{
			...allDayEventsOption,
			options: [
				{ name: 'Copy as All-Day', value: 'block', description: 'A busy all-day event is copied as an all-day event on the same dates' },
				{ name: 'Ignore', value: 'ignore', description: 'All-day events are not copied (copies made earlier are removed)' },
			],
		},
		unreadableCalendarsOption,
		maxWaitOption,
	]),
];

export const mirrorBusyTimeDescription: INodeProperties[] = updateDisplayOptions(operationShown, fields);
