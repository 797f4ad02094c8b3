import type { IDisplayOptions, INode, INodeProperties } from 'n8n-workflow';

import { invalidField, quoted } from '../transport/errors';
import { toStringList } from '../fields/fields';
import { clockMinutes, type WorkingHours } from './freeTime';

/**
 * The fields of the operations that read busy time (Find Free Time, Get Agenda, Schedule in
 * Calendar, Plan Tasks, and Create and Update with If the Time Is Taken): working days and hours
 * and how a run reads them, the calendars whose events count, how all-day events count, and what
 * an unreadable calendar does.
 */

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The four fields, shown where `show` holds (plus Search In = Working Hours for the last three). */
export function workingHoursFields(show: NonNullable<IDisplayOptions['show']>): INodeProperties[] {
	const withHours = { show: { ...show, workingHours: ['hours'] } };
	return [
		{
			displayName: 'Search In',
			name: 'workingHours',
			type: 'options',
			options: [
				{ name: 'Working Hours', value: 'hours', description: 'Only the days and hours below, in the Time Zone above' },
				{ name: 'Any Time', value: 'any', description: 'Any time of any day' },
			],
			default: 'hours',
			displayOptions: { show },
		},
		{
			displayName: 'Working Days',
			name: 'workingDays',
			type: 'multiOptions',
			options: WEEKDAYS.map((name, index) => ({ name, value: index + 1 })),
			default: [1, 2, 3, 4, 5],
			displayOptions: withHours,
		},
		{
			displayName: 'From',
			name: 'workFrom',
			type: 'string',
			default: '09:00',
			placeholder: 'e.g. 09:00',
			description: 'Start of the working hours of each working day, as HH:mm (24-hour clock)',
			displayOptions: withHours,
		},
		{
			displayName: 'To',
			name: 'workTo',
			type: 'string',
			default: '17:00',
			placeholder: 'e.g. 17:00',
			description: 'End of the working hours, as HH:mm, after From on the same day (24:00 for midnight)',
			displayOptions: withHours,
		},
	];
}

/** The working hours of an item's fields, checked; undefined for Any Time. */
export function readWorkingHours(node: INode, parameter: (name: string, fallback: unknown) => unknown, itemIndex: number): WorkingHours | undefined {
	if (parameter('workingHours', 'hours') !== 'hours') return undefined;
	const days = toStringList(parameter('workingDays', [1, 2, 3, 4, 5])).map(Number);
	if (days.length === 0 || days.some((day) => !Number.isInteger(day) || day < 1 || day > 7)) {
		throw invalidField(node, 'Working Days', 'choose at least one day of the week', itemIndex);
	}
	const from = String(parameter('workFrom', '09:00')).trim();
	const to = String(parameter('workTo', '17:00')).trim();
	const fromMinutes = clockMinutes(from);
	if (fromMinutes === undefined || fromMinutes >= 24 * 60) throw invalidField(node, 'From', `${quoted(from)} is not a time of day: use HH:mm, e.g. 09:00`, itemIndex);
	const toMinutes = clockMinutes(to);
	if (toMinutes === undefined) throw invalidField(node, 'To', `${quoted(to)} is not a time of day: use HH:mm, e.g. 17:00 (24:00 for midnight)`, itemIndex);
	if (toMinutes <= fromMinutes) {
		throw invalidField(node, 'To', `${to} is not after From (${from}): working hours must end after they start on the same day`, itemIndex, 'Hours across midnight are not supported: use To 24:00 and From 00:00 on the next day.');
	}
	return { days, from, to };
}

/** A multi-select of the calendars the user may read, across accounts (stored with their account). */
export function readableCalendarsField(name: string, displayName: string, description: string, overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getReadableCalendars' },
		default: [],
		description: `${description} Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>`,
		...overrides,
	};
}

/** The option whether busy all-day events block their days (the default) or are ignored. */
export const allDayEventsOption: INodeProperties = {
	displayName: 'All-Day Events',
	name: 'allDayEvents',
	type: 'options',
	options: [
		{ name: 'Block Their Days', value: 'block', description: 'A busy all-day event makes its whole days busy, midnight to midnight in the Time Zone' },
		{ name: 'Ignore', value: 'ignore', description: 'All-day events never make time busy' },
	],
	default: 'block',
};

/** The option what to do with a calendar that cannot be read: fail (the default) or skip it with a notice. */
export const unreadableCalendarsOption: INodeProperties = {
	displayName: 'Unreadable Calendars',
	name: 'unreadableCalendars',
	type: 'options',
	options: [
		{ name: 'Fail', value: 'fail', description: 'Stop with an error naming the calendar' },
		{
			name: 'Skip With a Notice',
			value: 'skip',
			description: "Leave the calendar out and say so in the first output item's notices. Its events are unknown: the result may show time as free that is not.",
		},
	],
	default: 'fail',
	description:
		'What to do with a chosen calendar that cannot be read: its connection expired or was revoked, or the user may not read it. With no calendars chosen, such calendars are always left out with a notice, and one whose account needs reconnecting is not read at all.',
};
