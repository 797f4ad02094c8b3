import { Duration } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { compact, pick } from '../../shared/output';
import { eventEnd } from './timing';

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

const values = (map: unknown): IDataObject[] =>
	map && typeof map === 'object' ? (Object.values(map as IDataObject).filter((entry) => entry && typeof entry === 'object') as IDataObject[]) : [];

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

/**
 * An event as people read it: participants and alerts as arrays, `end` next to `start`, the
 * meeting link as `meetingUrl`, no `@type` and no service or provider prefixes. Keys the service
 * derives (base64 of e-mail addresses and alert contents) are left out: they are the service's
 * business, and the node computes them itself when writing.
 */
export function simplifyEvent(event: IDataObject): IDataObject {
	const derived = (event['service.example:derived'] ?? {}) as IDataObject;
	const metadata = (event['service.example:metadata'] ?? {}) as IDataObject;
	const participants = values(event.participants).map((participant) =>
		compact({
			...pick(participant, ['email', 'name']),
			status: participant.participationStatus,
			roles: Object.entries((participant.roles ?? {}) as IDataObject)
				.filter(([, on]) => on === true)
				.map(([role]) => role),
			accountOwner: participant.accountOwner,
		}),
	);
	const alerts = values(event.alerts).map((alert) => {
		const offset = String(((alert.trigger ?? {}) as IDataObject).offset ?? '');
		const minutes = Duration.fromISO(offset).isValid ? -Duration.fromISO(offset).as('minutes') : undefined;
		return compact({ action: alert.action, offset, minutesBefore: minutes });
	});
	const locations = values(event.locations).map((location) => String(location.name ?? ''));
	const rules = Array.isArray(event.recurrenceRules) ? (event.recurrenceRules as IDataObject[]).map(withoutType) : undefined;
	return compact({
		...pick(event, ['id', 'title', 'start']),
		end: eventEnd(event),
		...pick(event, ['timeZone']),
		allDay: event.showWithoutTime,
		...pick(event, ['duration', 'description']),
		locations: locations.length > 0 ? locations : undefined,
		participants: participants.length > 0 ? participants : undefined,
		alerts: alerts.length > 0 ? alerts : undefined,
		...pick(event, ['useDefaultAlerts']),
		recurrenceRules: rules,
		...pick(event, ['recurrenceId', 'masterEventId']),
		meetingUrl: (derived.virtualRoom as IDataObject | undefined)?.url ?? event['provider.example:hangoutLink'],
		...pick(event, ['privacy', 'freeBusyStatus']),
		colorId: event['provider.example:colorId'],
		taskId: metadata.taskId,
		...pick(event, ['calendarId', 'accountId', 'integrationId', 'created', 'updated', 'notices']),
	});
}
