import { Duration } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { dateOf, localEnd, withOffset } from '../time/dates';

/** Fields of a simplified event, in output order. */
export const SIMPLIFIED_EVENT_FIELDS = [
	'id',
	'title',
	'start',
	'end',
	'timeZone',
	'allDay',
	'duration',
	'description',
	'locations',
	'participants',
	'alerts',
	'useDefaultAlerts',
	'recurrenceRules',
	'recurrenceId',
	'masterEventId',
	'meetingUrl',
	'privacy',
	'freeBusyStatus',
	'colorId',
	'taskId',
	'calendarId',
	'accountId',
	'integrationId',
	'created',
	'updated',
	'notices',
];

/** The object entries of a map (`participants`, `alerts`, `locations` are maps by ID). */
function values(map: unknown): IDataObject[] {
	const entries: IDataObject[] = [];
	if (!map || typeof map !== 'object') return entries;
	for (const key in map as IDataObject) {
		const entry = (map as IDataObject)[key];
		if (entry && typeof entry === 'object') entries.push(entry as IDataObject);
	}
	return entries;
}

/** An object without `@type`, at any depth (recurrence rules carry it on each weekday, `NDay`). */
const withoutType = (object: IDataObject): IDataObject =>
	Object.fromEntries(
		Object.entries(object)
			.filter(([key]) => key !== '@type')
			.map(([key, value]) => [
				key,
				Array.isArray(value)
					? value.map((entry) => (entry && typeof entry === 'object' && !Array.isArray(entry) ? withoutType(entry as IDataObject) : entry))
					: value && typeof value === 'object'
						? withoutType(value as IDataObject)
						: value,
			]),
	);

/** Sets `key` unless the value is undefined (the service omits fields that have no value). */
function put(target: IDataObject, key: string, value: unknown): void {
	if (value !== undefined) target[key] = value as IDataObject[string];
}

function simplifyParticipant(participant: IDataObject): IDataObject {
	const simplified: IDataObject = {};
	put(simplified, 'email', participant.email);
	put(simplified, 'name', participant.name);
	put(simplified, 'status', participant.participationStatus);
	const roles: string[] = [];
	const given = participant.roles as IDataObject | undefined;
	if (given && typeof given === 'object') for (const role in given) if (given[role] === true) roles.push(role);
	simplified.roles = roles;
	put(simplified, 'accountOwner', participant.accountOwner);
	return simplified;
}

/** ISO 8601 offsets of alerts (`-PT15M`) as minutes before; a list's alerts share a handful. */
const minutesBefore = new Map<string, number | undefined>();

function simplifyAlert(alert: IDataObject): IDataObject {
	const offset = String(((alert.trigger ?? {}) as IDataObject).offset ?? '');
	if (!minutesBefore.has(offset)) {
		if (minutesBefore.size >= 1000) minutesBefore.clear();
		const duration = Duration.fromISO(offset);
		minutesBefore.set(offset, duration.isValid ? -duration.as('minutes') : undefined);
	}
	const simplified: IDataObject = {};
	put(simplified, 'action', alert.action);
	simplified.offset = offset;
	put(simplified, 'minutesBefore', minutesBefore.get(offset));
	return simplified;
}

/**
 * An event as people read it: `start`, `end`, `recurrenceId` and a rule's `until` as instants with
 * their offset (`2026-11-28T09:00:00+01:00`; the zone stays beside them in `timeZone`), or as dates
 * for an all-day event (`2026-11-28`, `end` the day after the last); participants and alerts as arrays, `end` next to `start`, the
 * meeting link as `meetingUrl`, no `@type` and no service or provider prefixes. Keys the service
 * derives (base64 of e-mail addresses and alert contents) are left out: they are the service's
 * business, and the node computes them itself when writing. Built field by field, without
 * intermediate objects: Get Many simplifies tens of thousands of events at a time.
 */
export function simplifyEvent(event: IDataObject): IDataObject {
	const derived = event['service.example:derived'] as IDataObject | undefined;
	const metadata = event['service.example:metadata'] as IDataObject | undefined;
	const participants = values(event.participants).map(simplifyParticipant);
	const alerts = values(event.alerts).map(simplifyAlert);
	const locations = values(event.locations).map((location) => String(location.name ?? ''));
	const simplified: IDataObject = {};
	put(simplified, 'id', event.id);
	put(simplified, 'title', event.title);
	// Timed: the instant with its offset; all-day: the dates (its days are the same wherever it is read).
	const allDay = event.showWithoutTime === true;
	const dated = (local: unknown, zone: unknown) => (allDay ? dateOf(local) : withOffset(local, zone));
	put(simplified, 'start', dated(event.start, event.timeZone));
	put(simplified, 'end', dated(eventEnd(event), event.timeZone));
	put(simplified, 'timeZone', event.timeZone);
	put(simplified, 'allDay', event.showWithoutTime);
	put(simplified, 'duration', event.duration);
	put(simplified, 'description', event.description);
	if (locations.length > 0) simplified.locations = locations;
	if (participants.length > 0) simplified.participants = participants;
	if (alerts.length > 0) simplified.alerts = alerts;
	put(simplified, 'useDefaultAlerts', event.useDefaultAlerts);
	if (Array.isArray(event.recurrenceRules)) {
		simplified.recurrenceRules = (event.recurrenceRules as IDataObject[]).map((rule) => {
			const simplifiedRule = withoutType(rule);
			if (simplifiedRule.until !== undefined) simplifiedRule.until = dated(simplifiedRule.until, event.timeZone) as string;
			return simplifiedRule;
		});
	}
	put(simplified, 'recurrenceId', dated(event.recurrenceId, event.recurrenceIdTimeZone ?? event.timeZone));
	put(simplified, 'masterEventId', event.masterEventId);
	put(simplified, 'meetingUrl', (derived?.virtualRoom as IDataObject | undefined)?.url ?? event['provider.example:hangoutLink']);
	put(simplified, 'privacy', event.privacy);
	put(simplified, 'freeBusyStatus', event.freeBusyStatus);
	put(simplified, 'colorId', event['provider.example:colorId']);
	put(simplified, 'taskId', metadata?.taskId);
	for (const key of TRAILING_FIELDS) put(simplified, key, event[key]);
	return simplified;
}

const TRAILING_FIELDS = ['calendarId', 'accountId', 'integrationId', 'created', 'updated', 'notices'];

/** The end of an event as LocalDateTime in its zone: start plus duration (all-day: the day after the last). */
export function eventEnd(event: { start?: unknown; duration?: unknown; timeZone?: unknown }): string | undefined {
	return localEnd(event.start, event.duration, event.timeZone);
}

/** The event plus a computed `end` (LocalDateTime in the event's zone; for all-day events the day after the last day). */
export function withEnd(event: IDataObject): IDataObject {
	const end = eventEnd(event);
	return end === undefined ? event : { ...event, end };
}
