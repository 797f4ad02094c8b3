import { Duration } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { compact } from '../../shared/output';
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

const withoutType = (object: IDataObject): IDataObject => Object.fromEntries(Object.entries(object).filter(([key]) => key !== '@type'));

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
			email: participant.email as string | undefined,
			name: participant.name as string | undefined,
			status: participant.participationStatus as string | undefined,
			roles: Object.entries((participant.roles ?? {}) as IDataObject)
				.filter(([, on]) => on === true)
				.map(([role]) => role),
			accountOwner: participant.accountOwner as boolean | undefined,
		}),
	);
	const alerts = values(event.alerts).map((alert) => {
		const offset = String(((alert.trigger ?? {}) as IDataObject).offset ?? '');
		const minutes = Duration.fromISO(offset).isValid ? -Duration.fromISO(offset).as('minutes') : undefined;
		return compact({ action: alert.action as string | undefined, offset, minutesBefore: minutes });
	});
	const locations = values(event.locations).map((location) => String(location.name ?? ''));
	const rules = Array.isArray(event.recurrenceRules) ? (event.recurrenceRules as IDataObject[]).map(withoutType) : undefined;
	return compact({
		id: event.id as string | undefined,
		title: event.title as string | undefined,
		start: event.start as string | undefined,
		end: eventEnd(event),
		timeZone: event.timeZone as string | undefined,
		allDay: event.showWithoutTime as boolean | undefined,
		duration: event.duration as string | undefined,
		description: event.description as string | undefined,
		locations: locations.length > 0 ? locations : undefined,
		participants: participants.length > 0 ? participants : undefined,
		alerts: alerts.length > 0 ? alerts : undefined,
		useDefaultAlerts: event.useDefaultAlerts as boolean | undefined,
		recurrenceRules: rules,
		recurrenceId: event.recurrenceId as string | undefined,
		masterEventId: event.masterEventId as string | undefined,
		meetingUrl: ((derived.virtualRoom as IDataObject | undefined)?.url ?? event['provider.example:hangoutLink']) as string | undefined,
		privacy: event.privacy as string | undefined,
		freeBusyStatus: event.freeBusyStatus as string | undefined,
		colorId: event['provider.example:colorId'] as string | undefined,
		taskId: metadata.taskId as string | undefined,
		calendarId: event.calendarId as string | undefined,
		accountId: event.accountId as string | undefined,
		integrationId: event.integrationId as string | undefined,
		created: event.created as string | undefined,
		updated: event.updated as string | undefined,
		notices: event.notices as string[] | undefined,
	});
}
