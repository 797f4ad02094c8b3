import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { DATE_TIME_HINT } from '../../../shared/time/dates';
import { optionsCollection, timeZoneField } from '../../../shared/fields/fields';
import { maxWaitOption } from '../../../shared/transport/transport';
import { MAX_RANGE_MONTHS } from '../../../shared/calendar/busyTime';
import { allDayEventsOption, readableCalendarsField, unreadableCalendarsOption, workingHoursFields } from '../../../shared/calendar/busyTimeFields';

export const FIND_FREE_TIME = 'findFreeTime';

const operationShown = { show: { apiVersion: ['v3'], resource: ['calendar'], operation: [FIND_FREE_TIME] } };
const slotsOnly = { freeTimeOutput: ['slots'] };

const fields: INodeProperties[] = [
	readableCalendarsField('calendars', 'Calendar Names or IDs', 'Calendars whose events make time busy, from any of the accounts. Leave empty for every calendar the user may read (one whose connection is broken is then left out, with a notice).', { hint: 'Empty: all readable calendars.' }),
	{
		displayName: 'Output',
		name: 'freeTimeOutput',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Free Slots', value: 'slots', description: 'One item per free slot: start, end and length' },
			{ name: 'Busy Blocks', value: 'busy', description: 'One item per stretch of busy time (overlapping events merged), with the events behind it' },
			{ name: 'Is Free', value: 'isFree', description: 'One item: whether the whole range is free of busy events (working hours do not apply), and the events in the way' },
		],
		default: 'slots',
	},
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		required: true,
		default: '={{ $now }}',
		description: `Beginning of the range to search, e.g. 2026-12-01T08:00:00. A time without offset is read in the Time Zone below. ${DATE_TIME_HINT}`,
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		required: true,
		default: "={{ $now.plus(7, 'days') }}",
		description: `End of the range (at most ${MAX_RANGE_MONTHS} months after Start), e.g. 2026-12-08T18:00:00`,
	},
	timeZoneField({
		description:
			'Zone of the working hours, of all-day events\' dates, of Start and End without offset, and of the output\'s local times. Empty: the workflow\'s time zone. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
	{
		displayName: 'Minimum Length (Minutes)',
		name: 'minimumMinutes',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 30,
		description: 'Shortest free slot to output',
		displayOptions: { show: slotsOnly },
	},
	...workingHoursFields(slotsOnly),
	optionsCollection([
		allDayEventsOption,
		{
			displayName: 'Buffer After (Minutes)',
			name: 'bufferAfter',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1440 },
			default: 0,
			description: 'Time kept free after each busy event (it counts as busy)',
		},
		{
			displayName: 'Buffer Before (Minutes)',
			name: 'bufferBefore',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1440 },
			default: 0,
			description: 'Time kept free before each busy event (it counts as busy)',
		},
		{
			displayName: 'Slots Start Every (Minutes)',
			name: 'slotStep',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1440 },
			default: 0,
			description:
				'Start slots on round times: 15 gives starts at :00, :15, :30 and :45 in the Time Zone. 0: a slot starts as soon as the time is free (on the whole minute).',
			displayOptions: { show: { '/freeTimeOutput': ['slots'] } },
		},
		unreadableCalendarsOption,
		maxWaitOption,
	]),
];

export const findFreeTimeDescription: INodeProperties[] = updateDisplayOptions(operationShown, fields);
