import type { INodeProperties } from 'n8n-workflow';

import { sendRecurrence } from './recurrenceBody';

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

/** The Recurrence and Repeat (RRULE) options of the event fields (see `eventFieldOptions`); both send `recurrenceRules`. */
export function recurrenceFieldOptions(collection: string): INodeProperties[] {
	return [
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
						displayName: 'Series Length',
						name: 'count',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 10,
						description: 'Number of occurrences: how many times the event happens in all, the first one included',
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
	];
}
