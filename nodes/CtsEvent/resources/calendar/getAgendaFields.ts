import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { DATE_TIME_HINT } from '../../../shared/time/dates';
import { optionsCollection, timeZoneField } from '../../../shared/fields/fields';
import { fromAI } from '../../../shared/fields/toolInputs';
import { maxWaitOption } from '../../../shared/transport/transport';
import { allDayEventsOption, readableCalendarsField, unreadableCalendarsOption, workingHoursFields } from '../../../shared/calendar/busyTimeFields';

export const GET_AGENDA = 'getAgenda';

/** The longest range Get Agenda reads. */
export const MAX_AGENDA_DAYS = 31;

const operationShown = { show: { apiVersion: ['v3'], resource: ['calendar'], operation: [GET_AGENDA] } };

/**
 * A field as it is in workflows and, for the node as an AI tool, with the model giving its value
 * (`toolValue`, a described `$fromAI` with an empty default): an agent asks for the agenda of a
 * day in a zone.
 */
function forWorkflowAndTool(field: INodeProperties, toolValue: string): INodeProperties[] {
	const show = field.displayOptions?.show ?? {};
	return [
		{ ...field, displayOptions: { show: { ...show, '@tool': [false] } } },
		{ ...field, type: 'string', typeOptions: undefined, default: toolValue, displayOptions: { show: { ...show, '@tool': [true] } } },
	];
}

const fields: INodeProperties[] = [
	readableCalendarsField('calendars', 'Calendar Names or IDs', 'Calendars whose events the agenda shows, from any of the accounts. Leave empty for every calendar the user may read.', { hint: 'Empty: all readable calendars.' }),
	{
		displayName: 'Period',
		name: 'agendaPeriod',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Day', value: 'day', description: 'One day, midnight to midnight in the Time Zone' },
			{ name: 'Range', value: 'range', description: 'From Start to End' },
		],
		default: 'day',
	},
	...forWorkflowAndTool(
		{
			displayName: 'Day',
			name: 'day',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2026-12-01',
			description: 'The day to show, e.g. 2026-12-01 (a date and time stands for its date in the Time Zone). Empty: today in the Time Zone.',
			displayOptions: { show: { agendaPeriod: ['day'] } },
		},
		fromAI('Day', "The day to show, e.g. 2026-12-01, read in the time zone given as Time_Zone (a date and time such as 2026-12-01T09:00:00+01:00 stands for its date there). Empty string: today.", 'string', ''),
	),
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		required: true,
		default: '={{ $today }}',
		description: `Beginning of the range, e.g. 2026-12-01T00:00:00. A time without offset is read in the Time Zone. ${DATE_TIME_HINT}`,
		displayOptions: { show: { agendaPeriod: ['range'] } },
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		required: true,
		default: "={{ $today.plus(7, 'days') }}",
		description: `End of the range (at most ${MAX_AGENDA_DAYS} days after Start), e.g. 2026-12-08T00:00:00`,
		displayOptions: { show: { agendaPeriod: ['range'] } },
	},
	...forWorkflowAndTool(
		timeZoneField({
			description:
				'Zone of the day, of Start and End without offset, of all-day events\' dates and of the output\'s times. Empty: the workflow\'s time zone. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		}),
		fromAI('Time_Zone', "IANA time zone of the day and of the output's times, e.g. Europe/Berlin. Empty string: the workflow's time zone.", 'string', ''),
	),
	{
		displayName: 'Output',
		name: 'agendaOutput',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Entries', value: 'entries', description: 'One item per event, task or time block, in time order (all-day first)' },
			{
				name: 'Digest',
				value: 'digest',
				description: 'One item ready to send: Markdown text for chat apps, an HTML table for e-mail, counts and the free time left in working hours',
			},
		],
		default: 'entries',
	},
	{
		displayName: 'Include Tasks',
		name: 'includeTasks',
		type: 'boolean',
		default: true,
		description: 'Whether to show the open tasks due in the period and the tasks behind time blocks (reads the open tasks)',
	},
	...workingHoursFields({ agendaOutput: ['digest'] }),
	optionsCollection([
		{
			...allDayEventsOption,
			description: 'Whether busy all-day events take the free time of their days in the Digest (they are shown either way)',
			displayOptions: { show: { '/agendaOutput': ['digest'] } },
		},
		{
			displayName: 'Declined Invitations',
			name: 'includeDeclined',
			type: 'boolean',
			default: false,
			description: 'Whether to show invitations the user declined (marked "declined": true); they never take free time',
		},
		{
			displayName: 'Overdue Tasks',
			name: 'includeOverdue',
			type: 'boolean',
			default: false,
			description: 'Whether to show open tasks that were due before the period (and before now) too, first',
			displayOptions: { show: { '/includeTasks': [true] } },
		},
		{ ...unreadableCalendarsOption, default: 'skip', description: 'What to do with a calendar that cannot be read (its connection expired or was revoked, or the user may not read it): its events are missing from the agenda' },
		maxWaitOption,
	]),
];

export const getAgendaDescription: INodeProperties[] = updateDisplayOptions(operationShown, fields);
