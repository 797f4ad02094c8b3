import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { DATE_TIME_HINT } from '../../../shared/time/dates';
import { listOrIdField, optionsCollection, timeZoneField } from '../../../shared/fields/fields';
import { maxWaitOption } from '../../../shared/transport/transport';
import { allDayEventsOption, readableCalendarsField, unreadableCalendarsOption, workingHoursFields } from '../../../shared/calendar/busyTimeFields';
import { taskLocator, TASK_RESOURCE } from '../../shared/taskFields';

export const SCHEDULE = 'schedule';

/** How far ahead a task without due date (and without Not After) is scheduled. */
export const DEFAULT_HORIZON_DAYS = 14;

const operationShown = { show: { resource: [TASK_RESOURCE], operation: [SCHEDULE] } };

/** The option on which round times a time block starts (Schedule in Calendar, Plan Tasks). */
export function blockStartsOption(blocks: string): INodeProperties {
	return {
		displayName: 'Block Starts Every (Minutes)',
		name: 'slotStep',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1440 },
		default: 15,
		description: `Start ${blocks} on round times: 15 gives starts at :00, :15, :30 and :45 in the Time Zone (15 when not set)`,
	};
}

/** The option of whether and when a block the node creates reminds (Schedule in Calendar, Plan Tasks); see `BlockReminder` in `shared/calendar/taskBlocks.ts`. */
export const blockReminderOption: INodeProperties = {
	displayName: 'Reminder',
	name: 'reminder',
	type: 'options',
	options: [
		{ name: 'At the Start of the Block', value: 'atStart', description: 'One alert as the block begins: time to start the task' },
		{ name: "Calendar's Default Alerts", value: 'calendarDefault', description: 'The alerts the calendar gives its events, e.g. 10 minutes before' },
		{ name: 'None', value: 'none', description: 'No alert: the block only holds the time' },
	],
	default: 'atStart',
	description: 'Whether and when a block the node creates reminds. A block it keeps or moves keeps the alerts it has, so changes made in the calendar stay.',
};

const fields: INodeProperties[] = [
	taskLocator('Task', 'taskId', 'The task to find time for. Its title names the block; its estimated duration and due date set the length and the latest end unless given below.'),
	listOrIdField(
		{
			displayName: 'Calendar',
			name: 'calendarId',
			required: true,
			description: 'Calendar to put the block in: one the user may write to',
		},
		{ searchListMethod: 'searchCalendars', placeholder: 'Select a calendar...' },
		'e.g. cal-primary',
	),
	readableCalendarsField(
		'checkCalendars',
		'Check Calendar Names or IDs',
		"Calendars whose busy events the block must avoid, from any of the accounts; the block's own calendar always counts. Leave empty for every calendar the user may read (one whose connection is broken is then left out, with a notice).",
		{ hint: 'Empty: all readable calendars.' },
	),
	{
		displayName: 'Length',
		name: 'lengthFrom',
		type: 'options',
		options: [
			{ name: "Task's Estimated Duration", value: 'task', description: 'The estimated duration of the task (a task without one fails)' },
			{ name: 'Minutes Given Below', value: 'minutes' },
		],
		default: 'task',
	},
	{
		displayName: 'Length (Minutes)',
		name: 'lengthMinutes',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 60,
		displayOptions: { show: { lengthFrom: ['minutes'] } },
	},
	{
		displayName: 'Not Before',
		name: 'notBefore',
		type: 'dateTime',
		default: '={{ $now }}',
		description: `The block starts at this time or later, e.g. 2026-12-01T08:00:00. A time without offset is read in the Time Zone. ${DATE_TIME_HINT}`,
	},
	{
		displayName: 'Not After',
		name: 'notAfter',
		type: 'dateTime',
		default: '',
		description: `The block ends at this time or earlier (at most 6 months after Not Before). Empty: the task's due date, or ${DEFAULT_HORIZON_DAYS} days after Not Before for a task without one.`,
	},
	timeZoneField({
		description:
			'Zone of the working hours, of the block, of all-day events\' dates, and of Not Before and Not After without offset. Empty: the workflow\'s time zone. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
	...workingHoursFields({}),
	optionsCollection([
		allDayEventsOption,
		blockStartsOption('the block'),
		blockReminderOption,
		unreadableCalendarsOption,
		maxWaitOption,
	]),
];

export const taskScheduleDescription: INodeProperties[] = updateDisplayOptions(operationShown, fields);
