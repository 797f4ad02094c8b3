import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { DATE_TIME_HINT } from '../../../shared/time/dates';
import { listOrIdField, optionsCollection, timeZoneField } from '../../../shared/fields/fields';
import { maxWaitOption } from '../../../shared/transport/transport';
import { allDayEventsOption, readableCalendarsField, unreadableCalendarsOption, workingHoursFields } from '../../../shared/calendar/busyTimeFields';
import { TASK_RESOURCE } from '../../shared/taskFields';
import { taskFilterOptions } from '../../../shared/tasks/taskFilter';
import { blockReminderOption, blockStartsOption, DEFAULT_HORIZON_DAYS } from './scheduleFields';

export const PLAN = 'plan';

/** Below this many task IDs, the tasks are read one by one (1 point each) instead of listed (10 per 100 open tasks). */
export const READ_ONE_BY_ONE_BELOW = 10;

const operationShown = { show: { resource: [TASK_RESOURCE], operation: [PLAN] } };

const previewDescription = 'Whether to output the plan without creating or moving any block';

const tasksFrom: INodeProperties = {
	displayName: 'Tasks',
	name: 'tasksFrom',
	type: 'options',
	options: [
		{ name: 'Task IDs of the Input Items', value: 'input', description: 'Each input item names one task (or several, separated by commas)' },
		{ name: 'Open Tasks Matching Filters', value: 'filters', description: 'Every open task that matches the filters below, planned once for the whole run' },
	],
	default: 'input',
	description:
		'Which tasks to plan. A run reads the tasks and the calendars once for all input items, then writes one event per block created or moved (none in Preview). What it costs: <a href="https://github.com/calendar-task-service/n8n-nodes-calendar-task-service#the-point-budget-rate-limits-and-retries">the point budget</a>.',
};

const fields: INodeProperties[] = [
	// The default stays the input items' IDs: saved workflows leave a default out, so another default would
	// change what they plan. A first run without IDs says how to plan the open tasks instead.
	tasksFrom,
	{
		displayName: 'Task IDs',
		name: 'taskIds',
		type: 'string',
		required: true,
		default: '={{ $json.id }}',
		placeholder: 'e.g. 7f3c2a9e-…, 0b41d7c2-…',
		description:
			"IDs of the tasks to plan, as Task Create or Get Many output them; several are separated by commas. The default reads each input item's ID, so that Get Many before this node plans every task it lists.",
		displayOptions: { show: { tasksFrom: ['input'] } },
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { tasksFrom: ['filters'] } },
		options: taskFilterOptions(),
	},
	listOrIdField(
		{
			displayName: 'Calendar',
			name: 'calendarId',
			required: true,
			description: 'Calendar to put the blocks in: one the user may write to',
			hint: `Pick it first: the tasks are planned into free working hours of the next ${DEFAULT_HORIZON_DAYS} days.`,
		},
		{ searchListMethod: 'searchCalendars', placeholder: 'Select a calendar...' },
		'e.g. cal-primary',
	),
	readableCalendarsField(
		'checkCalendars',
		'Check Calendar Names or IDs',
		"Calendars whose busy events the blocks must avoid, from any of the accounts; the blocks' own calendar always counts. Leave empty for every calendar the user may read (one whose connection is broken is then left out, with a notice).",
		{ hint: 'Empty: all readable calendars.' },
	),
	{
		displayName: 'Default Length (Minutes)',
		name: 'defaultLengthMinutes',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1440 },
		default: 60,
		description: 'Length of the block of a task without estimated duration; 0 leaves such tasks unplanned (they are output with the reason)',
	},
	{
		displayName: 'Not Before',
		name: 'notBefore',
		type: 'dateTime',
		default: '={{ $now }}',
		description: `No block starts before this time, e.g. 2026-12-01T08:00:00. A time without offset is read in the Time Zone. ${DATE_TIME_HINT}`,
	},
	{
		displayName: 'Not After',
		name: 'notAfter',
		type: 'dateTime',
		default: '',
		description: `No block ends after this time (at most 6 months after Not Before); a task with an earlier due date ends before its due. Empty: ${DEFAULT_HORIZON_DAYS} days after Not Before.`,
	},
	timeZoneField({
		description:
			'Zone of the working hours, of the blocks, of all-day events\' dates, and of Not Before and Not After without offset. Empty: the workflow\'s time zone. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
	...workingHoursFields({}),
	// Preview is on by default for the tool variant: an agent shows the plan before it writes it.
	{ displayName: 'Preview', name: 'preview', type: 'boolean', default: false, description: previewDescription, displayOptions: { show: { '@tool': [false] } } },
	{ displayName: 'Preview', name: 'preview', type: 'boolean', default: true, description: previewDescription, displayOptions: { show: { '@tool': [true] } } },
	optionsCollection([
		allDayEventsOption,
		blockStartsOption('the blocks'),
		blockReminderOption,
		unreadableCalendarsOption,
		maxWaitOption,
	]),
];

export const taskPlanDescription: INodeProperties[] = updateDisplayOptions(operationShown, fields);
