import type { INodeProperties } from 'n8n-workflow';

/**
 * How operations that read busy time read calendars: which calendars count (across accounts),
 * whether all-day events block their days, and what an unreadable calendar does.
 */

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
		{ name: 'Fail', value: 'fail', description: 'Stop with an error naming the calendar (its busy time is unknown)' },
		{
			name: 'Skip With a Notice',
			value: 'skip',
			description: "Leave the calendar out and say so in the first output item's notices. Its busy time is unknown: the result may show time as free that is not.",
		},
	],
	default: 'fail',
	description:
		'What to do with a chosen calendar that cannot be read: its connection expired or was revoked, or the user may not read it. With no calendars chosen, such calendars are always left out with a notice.',
};
