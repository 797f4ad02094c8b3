import { Duration } from 'luxon';
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { alertId } from '../../../shared/calendar/alerts';
import { locationKey } from '../../shared/encoding';
import { invalidField, quoted } from '../../../shared/transport/errors';
import { isEmptyValue, sendConverted, sendUnlessEmpty, timeZoneField, toStringList } from '../../../shared/fields/fields';
import { itemState } from '../../../shared/transport/itemState';
import { canReadCurrentEvent, currentEvent } from '../../shared/currentEvent';
import { alertsOf, toRemovedParticipants } from '../../shared/eventBody';
import { alertValues, calendarFields, EVENT_RESOURCE, eventFieldOptions, eventIdField, eventLocator } from '../../shared/eventFields';
import { checkAlertsCombination, eventOfAnswer, writeTiming } from '../../shared/eventOutput';
import { seriesModeField } from './delete';
import { guardFields } from './timeGuard';
import { showFor } from '../../../shared/fields/displayOptions';

const displayOptions = showFor(EVENT_RESOURCE, ['update'], { apiVersion: ['v3', 'v1'] });
const TIMING_FIELDS = ['allDay', 'start', 'end', 'duration', 'timeZone'];
const TOGETHER_MESSAGE = 'start, duration, timeZone and showWithoutTime must be provided together (timeZone may be null)';

/**
 * Everything of an Update that depends on the event as it is: the timing fields the service
 * wants together, alerts and locations to remove, and removing the recurrence. The event is read
 * at most once (v3, by Event ID, 1 point), and only when something needs it.
 */
export async function prepareUpdate(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	checkAlertsCombination(this, requestOptions, 'updateFields');
	const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
	await sendUpdateTiming(this, requestOptions, fields);
	await sendRemovals(this, requestOptions, fields);
	if (fields.removeRecurrence === true) {
		if (fields.recurrence !== undefined) {
			throw invalidField(this.getNode(), 'Remove Recurrence', 'cannot be combined with Recurrence: remove one of the two fields', this.getItemIndex());
		}
		requestOptions.body = { ...(requestOptions.body as IDataObject), recurrenceRules: null };
	}
	return requestOptions;
}

/**
 * The service takes start, duration, timeZone and showWithoutTime together or not at all.
 * When some timing fields are set, the rest are taken from the event as it is. That needs the
 * event's ID; an occurrence named by master and recurrence ID, and v1 (which has no read), must
 * give all of them.
 */
async function sendUpdateTiming(context: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions, fields: IDataObject) {
	const given = TIMING_FIELDS.filter((name) => !isEmptyValue(fields[name]));
	if (given.length === 0) return;

	let current: IDataObject = {};
	const complete =
		given.includes('start') &&
		(given.includes('end') || given.includes('duration')) &&
		(fields.allDay === true || (fields.allDay === false && given.includes('timeZone')));
	if (!complete) {
		if (!canReadCurrentEvent(context)) {
			throw invalidField(context.getNode(), 'Update Fields', TOGETHER_MESSAGE, context.getItemIndex(),
				'Set All Day, Start, End or Duration, and Time Zone (for timed events) together. The node fills in missing ones from the event only when it is identified by its Event ID in the v3 interface.');
		}
		current = await currentEvent(context);
	}
	const givenValue = (name: string) => (isEmptyValue(fields[name]) ? undefined : fields[name]);

	const allDay = (fields.allDay ?? current.showWithoutTime) === true;
	const switching = fields.allDay !== undefined && fields.allDay !== current.showWithoutTime && !complete;
	if (switching && !allDay && givenValue('start') === undefined) {
		throw invalidField(context.getNode(), 'Start', 'give the start time when an all-day event becomes a timed one', context.getItemIndex());
	}
	let duration = givenValue('duration') as string | undefined;
	if (givenValue('end') === undefined && duration === undefined) {
		// Switching between all-day and timed changes the unit: start from one day, or one hour.
		duration = switching || current.duration === undefined ? (allDay ? 'P1D' : 'PT1H') : String(current.duration);
	}
	writeTiming(context, requestOptions, {
		allDay,
		start: givenValue('start') ?? current.start,
		end: givenValue('end'),
		duration,
		timeZone: allDay ? undefined : (givenValue('timeZone') ?? current.timeZone),
	});
}

const sameOffset = (a: unknown, b: string) =>
	typeof a === 'string' && Duration.fromISO(a).isValid && Duration.fromISO(a).as('milliseconds') === Duration.fromISO(b).as('milliseconds');

/**
 * Alerts and locations to remove. With the event read first, the keys it really uses are set to
 * null: every alert with the same action whose offset is the same length (`-PT60M` and `-PT1H`
 * alike), every location of that name; naming one the event does not have is an error. Without a
 * read (v1, or an occurrence named by series), the node's own keys are sent and the answer is
 * checked afterwards (see {@link verifyRemovals}).
 */
async function sendRemovals(context: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions, fields: IDataObject) {
	let alerts: Array<{ action: string; offset: string }>;
	try {
		alerts = alertsOf(fields.alertsToRemove);
	} catch (error) {
		throw invalidField(context.getNode(), 'Alerts to Remove', (error as Error).message, context.getItemIndex());
	}
	const locations = toStringList(fields.locationsToRemove);
	if (alerts.length === 0 && locations.length === 0) return;

	const body = { ...(requestOptions.body as IDataObject) };
	const removed = (key: 'alerts' | 'locations', ids: string[]) => {
		body[key] = { ...((body[key] as IDataObject) ?? {}), ...Object.fromEntries(ids.map((id) => [id, null])) };
	};
	if (canReadCurrentEvent(context)) {
		const event = await currentEvent(context);
		const eventAlerts = Object.entries((event.alerts as Record<string, IDataObject> | undefined) ?? {});
		for (const { action, offset } of alerts) {
			const ids = eventAlerts
				.filter(([, alert]) => alert?.action === action && sameOffset((alert?.trigger as IDataObject | undefined)?.offset, offset))
				.map(([id]) => id);
			if (ids.length === 0) {
				throw invalidField(context.getNode(), 'Alerts to Remove', `the event has no ${quoted(action)} alert ${describeOffset(offset)}`, context.getItemIndex());
			}
			removed('alerts', ids);
		}
		const eventLocations = Object.entries((event.locations as Record<string, IDataObject> | undefined) ?? {});
		for (const name of locations) {
			const ids = eventLocations.filter(([, location]) => location?.name === name).map(([id]) => id);
			if (ids.length === 0) throw invalidField(context.getNode(), 'Locations to Remove', `the event has no location named ${quoted(name)}`, context.getItemIndex());
			removed('locations', ids);
		}
	} else {
		removed('alerts', alerts.map(({ action, offset }) => alertId(action, offset)));
		removed('locations', locations.map(locationKey));
		itemState(context).unverifiedRemovals = { alerts, locations };
	}
	requestOptions.body = body;
}

function describeOffset(offset: string): string {
	const minutes = -Duration.fromISO(offset).as('minutes');
	return minutes === 0 ? 'at the start' : `${minutes} minutes before the start`;
}

/**
 * After an update whose removals could not be resolved first: an alert or location still on the
 * event was not removed (it was added elsewhere under another key). The change was made, so the
 * error says what remains instead of reporting success.
 */
export async function verifyRemovals(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const pending = itemState(this).unverifiedRemovals;
	if (!pending) return items;
	const event = eventOfAnswer(response);
	const remaining = [
		...pending.alerts
			.filter(({ action, offset }) =>
				Object.values((event.alerts as Record<string, IDataObject> | undefined) ?? {}).some(
					(alert) => alert?.action === action && sameOffset((alert?.trigger as IDataObject | undefined)?.offset, offset),
				),
			)
			.map(({ action, offset }) => `the ${quoted(action)} alert ${describeOffset(offset)}`),
		...pending.locations
			.filter((name) => Object.values((event.locations as Record<string, IDataObject> | undefined) ?? {}).some((location) => location?.name === name))
			.map((name) => `the location ${quoted(name)}`),
	];
	if (remaining.length > 0) {
		throw new NodeOperationError(this.getNode(), `The event was updated, but ${remaining.join(' and ')} could not be removed`, {
			itemIndex: this.getItemIndex(),
			description:
				'It was added elsewhere under another key. Identify the event by its Event ID in the v3 interface, so the node can read it and remove exactly what it has.',
		});
	}
	return items;
}

function updateFieldOptions(): INodeProperties[] {
	const collection = 'updateFields';
	const options: INodeProperties[] = [
		...eventFieldOptions(collection),
		{
			displayName: 'All Day',
			name: 'allDay',
			type: 'boolean',
			default: false,
			description: 'Whether the event takes whole days. Switching keeps the date; missing timing fields are taken from the event.',
		},
		{
			displayName: 'Alerts to Remove',
			name: 'alertsToRemove',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Alert to Remove',
			default: {},
			description: 'Alerts to remove by action and time before the start; other alerts stay. In v3 by Event ID, the node reads the event (1 point) and removes exactly the alerts it has at that time.',
			options: [{ displayName: 'Alert', name: 'alert', values: alertValues }],
		},
		{
			displayName: 'Duration',
			name: 'duration',
			type: 'string',
			default: '',
			placeholder: 'e.g. PT30M, PT1H30M, P1D',
			description: 'New ISO 8601 duration (instead of End)',
		},
		{
			displayName: 'End',
			name: 'end',
			type: 'dateTime',
			default: '',
			description: 'New end (instead of Duration). For all-day events, the last day (inclusive).',
		},
		{
			displayName: 'Locations to Remove',
			name: 'locationsToRemove',
			type: 'string',
			default: '',
			placeholder: 'e.g. Room 1, Lobby',
			description: 'Names of locations to remove, separated by commas; other locations stay',
		},
		{
			displayName: 'Attendees to Remove',
			name: 'participantsToRemove',
			type: 'string',
			default: '',
			placeholder: 'e.g. ann@example.com, bob@example.com',
			description: 'E-mail addresses of attendees to remove from the event, separated by commas; other attendees stay',
			routing: {
				send: { preSend: [sendConverted(`${collection}.participantsToRemove`, 'Attendees to Remove', 'participants', toRemovedParticipants, { merge: true })] },
			},
		},
		{
			displayName: 'Start',
			name: 'start',
			type: 'dateTime',
			default: '',
			description: 'New start, read in the Time Zone (or the event\'s zone)',
		},
		{
			displayName: 'Remove Recurrence',
			name: 'removeRecurrence',
			type: 'boolean',
			default: true,
			description: 'Whether to make a recurring series a single event (with Series Mode All Occurrences or This and Following)',
			// V1 changes one event or occurrence only: a series cannot lose its recurrence there.
			displayOptions: { show: { '/apiVersion': ['v3'] } },
		},
		timeZoneField({
			typeOptions: { loadOptionsMethod: 'getTimeZonesOrKeep' },
			description: 'New IANA time zone of the event, e.g. Europe/Berlin. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		}),
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			routing: sendUnlessEmpty('title'),
		},
	];
	return options.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

export const eventUpdateDescription: INodeProperties[] = [
	// The calendar first: the Event field's list shows its events.
	...calendarFields('update', ['v3'], 'Calendar of the event'),
	{
		displayName: 'Identify Event By',
		name: 'identifyBy',
		type: 'options',
		options: [
			{ name: 'Event ID', value: 'id', description: 'The ID of a single event, a series master or an occurrence' },
			{ name: 'Series and Occurrence Time', value: 'occurrence', description: 'The master event ID and the original start of the occurrence' },
		],
		default: 'id',
		displayOptions: showFor(EVENT_RESOURCE, ['update'], { apiVersion: ['v3'] }),
	},
	eventLocator({ show: { ...showFor(EVENT_RESOURCE, ['update'], { apiVersion: ['v3'] })?.show, identifyBy: ['id'] } }),
	eventIdField(showFor(EVENT_RESOURCE, ['update'], { apiVersion: ['v1'] })),
	{
		displayName: 'Master Event ID',
		name: 'masterEventId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID of the recurring series (the ID returned when it was created, or masterEventId of an occurrence)',
		displayOptions: { show: { ...showFor(EVENT_RESOURCE, ['update'], { apiVersion: ['v3'] })?.show, identifyBy: ['occurrence'] } },
		routing: { send: { type: 'body', property: 'masterEventId' } },
	},
	{
		displayName: 'Recurrence ID',
		name: 'recurrenceId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2026-12-07T09:00:00',
		description: 'Original start of the occurrence as a local date-time (recurrenceId of the listed occurrence)',
		displayOptions: { show: { ...showFor(EVENT_RESOURCE, ['update'], { apiVersion: ['v3'] })?.show, identifyBy: ['occurrence'] } },
		routing: { send: { type: 'body', property: 'recurrenceId' } },
	},
	timeZoneField({
		displayName: 'Recurrence ID Time Zone Name or ID',
		name: 'recurrenceIdTimeZone',
		typeOptions: { loadOptionsMethod: 'getTimeZonesOrKeep' },
		description:
			'Time zone of the Recurrence ID (not needed for all-day events). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { ...showFor(EVENT_RESOURCE, ['update'], { apiVersion: ['v3'] })?.show, identifyBy: ['occurrence'] } },
		routing: { send: { type: 'body', property: 'recurrenceIdTimeZone', value: '={{ $value || undefined }}' } },
	}),
	seriesModeField('update'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here change. Attendees and alerts added here are added or changed; others stay.',
		displayOptions,
		options: updateFieldOptions(),
	},
	...guardFields('update'),
];
