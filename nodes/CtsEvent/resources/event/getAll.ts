import { DateTime } from 'luxon';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { accountAndCalendarsFields } from '../../../shared/calendar/calendarLists';
import { isIanaZone, notIanaZoneProblem } from '../../../shared/time/dates';
import { invalidField, quoted } from '../../../shared/transport/errors';
import { optionsCollection, resultLimit, returnAllAndLimitFields, timeZoneField, toStringList } from '../../../shared/fields/fields';
import { listEventsOverWindows } from '../../../shared/calendar/eventListing';
import { watchedCalendars } from '../../../shared/calendar/watchedCalendars';
import type { OperationItem } from '../../../shared/transport/itemOperation';
import { ctsRequest, maxWaitOption } from '../../../shared/transport/transport';
import { MAX_WINDOW_MONTHS, RECOMMENDED_WINDOW_MONTHS, splitWindow } from '../../../shared/time/windows';
import { EVENT_RESOURCE, type ApiVersion } from '../../shared/eventFields';
import { outputShaper } from '../../../shared/output/outputShape';
import { simplifyEvent } from '../../../shared/output/simplifyEvent';
import { showFor } from '../../../shared/fields/displayOptions';
import { readStartEnd } from '../../../shared/time/rangeFields';

const displayOptions = showFor(EVENT_RESOURCE, ['getAll'], { apiVersion: ['v3', 'v1'] });

export const eventGetManyDescription: INodeProperties[] = [
	...accountAndCalendarsFields(showFor(EVENT_RESOURCE, ['getAll'], { apiVersion: ['v3'] }), 'to read from'),
	{
		displayName: 'Calendar IDs',
		name: 'calendarIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. cal-primary, cal-team',
		description: 'One or more calendars of one account, separated by commas (or a list from an expression)',
		displayOptions: showFor(EVENT_RESOURCE, ['getAll'], { apiVersion: ['v1'] }),
	},
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		required: true,
		default: '={{ $now }}',
		description: 'Events that end after this moment are included, e.g. 2026-12-01T00:00:00. A time without offset is read in the workflow\'s time zone, or the Time Zone option.',
		displayOptions,
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		required: true,
		default: "={{ $now.plus(1, 'week') }}",
		description:
			'Events that start before this moment are included, e.g. 2026-12-08T00:00:00. Ranges longer than one list call allows are split and merged automatically.',
		displayOptions,
	},
	...returnAllAndLimitFields(displayOptions),
	optionsCollection([
		{
			displayName: 'Recurring Events',
			name: 'recurringEvents',
			type: 'options',
			options: [
				{ name: 'Each Occurrence', value: 'occurrences', description: 'One item per occurrence, as the service lists them' },
				{
					name: 'One Item per Series',
					value: 'series',
					description: 'The series master instead of its occurrences (one more call, 1 point, per series)',
				},
			],
			default: 'occurrences',
			displayOptions: { show: { '/apiVersion': ['v3'] } },
		},
		{
			displayName: 'Window Size (Months)',
			name: 'windowMonths',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_WINDOW_MONTHS },
			default: RECOMMENDED_WINDOW_MONTHS,
			description: `Longest range one list call covers (10 points each). The service allows up to ${MAX_WINDOW_MONTHS} months and recommends at most ${RECOMMENDED_WINDOW_MONTHS}.`,
		},
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. budget review',
			description: 'Only events whose title, description or location contains this text (any case)',
		},
		{
			displayName: 'Order',
			name: 'orderBy',
			type: 'options',
			options: [
				{ name: 'Start, Earliest First', value: 'start' },
				{ name: 'Start, Latest First', value: 'startDescending', description: 'Reads the whole range before the Limit applies' },
				{ name: 'Last Updated, Newest First', value: 'updated', description: 'Reads the whole range before the Limit applies' },
			],
			default: 'start',
			description: 'Order of the output items',
		},
		timeZoneField({
			description:
				"The time zone a Start or End without offset is read in (empty: the workflow's). E.g. Europe/Berlin: 2026-12-07T00:00:00 is midnight in Berlin. Choose from the list, or specify an ID using an expression.",
		}),
		maxWaitOption,
	], displayOptions),
];

/** Reads the parameters of one item, refusing bad input before any request. */
function readQuery(item: OperationItem, version: ApiVersion) {
	const { context, itemIndex, parameter } = item;
	const node = context.getNode();
	const options = parameter('options', {}) as IDataObject;
	const zone = String(options.timeZone ?? '').trim() || context.getTimezone();
	if (!isIanaZone(zone)) throw invalidField(node, 'Time Zone', notIanaZoneProblem(zone), itemIndex);
	const calendarIds = toStringList(parameter('calendarIds', ''));
	// v3: empty means every readable calendar (resolved in listEvents); v1 has no calendar list.
	if (version === 'v1' && calendarIds.length === 0) throw invalidField(node, 'Calendar IDs', 'enter at least one calendar', itemIndex);
	const accountId = version === 'v3' ? String(parameter('accountId', '')).trim() : undefined;
	const { start, end } = readStartEnd(item, zone);
	const windowMonths = Number(options.windowMonths ?? RECOMMENDED_WINDOW_MONTHS);
	if (!Number.isInteger(windowMonths) || windowMonths < 1 || windowMonths > MAX_WINDOW_MONTHS) {
		throw invalidField(node, 'Window Size (Months)', `must be a whole number from 1 to ${MAX_WINDOW_MONTHS}`, itemIndex);
	}
	const limit = resultLimit(item);
	const orderBy = String(options.orderBy ?? 'start') as EventOrder;
	if (!(orderBy in EVENT_ORDERS)) throw invalidField(node, 'Order', `${quoted(orderBy)} is not one of start, startDescending, updated`, itemIndex);
	return {
		accountId,
		calendarIds,
		// In UTC: a window may reach the service's 6-month limit, which it counts in UTC.
		windows: splitWindow(start.toMillis(), end.toMillis(), windowMonths, 'utc'),
		limit,
		series: version === 'v3' && options.recurringEvents === 'series',
		search: String(options.search ?? '').trim().toLowerCase(),
		orderBy,
	};
}

/** Instants compare as text only in one zone: `start` is a wall-clock time in the event's zone. */
const startOf = (event: IDataObject) => DateTime.fromISO(String(event.start ?? ''), { zone: typeof event.timeZone === 'string' ? event.timeZone : 'UTC' }).toMillis() || 0;

type EventOrder = 'start' | 'startDescending' | 'updated';
const EVENT_ORDERS: Record<EventOrder, (a: IDataObject, b: IDataObject) => number> = {
	start: (a, b) => startOf(a) - startOf(b),
	startDescending: (a, b) => startOf(b) - startOf(a),
	updated: (a, b) => String(b.updated ?? '').localeCompare(String(a.updated ?? '')),
};

/** Whether an event's title, description or a location's name contains the (lower-case) text. */
function matches(event: IDataObject, text: string): boolean {
	const locations = Object.values((event.locations as IDataObject | undefined) ?? {}).map((location) => String((location as IDataObject)?.name ?? ''));
	return [event.title, event.description, ...locations].some((value) => String(value ?? '').toLowerCase().includes(text));
}

/**
 * Get Many for one item: one list call per window of at most `windowMonths` months, merged
 * without duplicates (an event that overlaps two windows is listed by both).
 */
export async function listEvents(item: OperationItem): Promise<IDataObject[]> {
	const { context, itemIndex, parameter } = item;
	const version = parameter('apiVersion', 'v3') as ApiVersion;
	const { accountId, calendarIds, windows, limit, series, search, orderBy } = readQuery(item, version);
	const groups = version === 'v3' ? await watchedCalendars(context, itemIndex, accountId ?? '', calendarIds) : [{ accountId: undefined, calendarIds }];
	const events: IDataObject[] = [];
	const seen = new Set<string>();
	const key = (event: IDataObject) => (series && event.masterEventId ? `series:${String(event.masterEventId)}` : String(event.id));
	// One listing per account: the service lists one account's calendars per call.
	for (const group of groups) {
		const listed = await listEventsOverWindows(context, itemIndex, {
			version,
			accountId: group.accountId,
			calendarIds: group.calendarIds,
			windows,
			// Windows come in time order: the earliest events are all read once Limit is reached. Other orders need the whole range.
			stopAfter: orderBy === 'start' ? limit : undefined,
			key,
			keep: search ? (event) => matches(event, search) : undefined,
		});
		for (const event of listed) {
			if (seen.has(key(event))) continue;
			seen.add(key(event));
			events.push(event);
		}
	}
	events.sort(EVENT_ORDERS[orderBy]);
	const shape = outputShaper(parameter, simplifyEvent);
	const output: IDataObject[] = [];
	for (const event of events.slice(0, limit)) {
		let result = event;
		if (series && event.masterEventId) {
			const master = await ctsRequest.call(context, 'ctsApi', { method: 'GET', url: '/v3/events', qs: { id: String(event.masterEventId) } }, itemIndex);
			result = ((master.data as IDataObject).event as IDataObject) ?? event;
		}
		output.push(shape(result));
	}
	return output;
}
