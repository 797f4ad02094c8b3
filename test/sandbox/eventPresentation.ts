/**
 * The event (single, master or occurrence) as the interface shows it, in v3 or v1, and a list of
 * them as JSON.
 */
import { randomUUID } from 'node:crypto';

import { ROOM_URL, describeWithRoom } from './eventBuild';
import { instanceIdOf } from './eventIds';
import { type StoredEvent } from './eventModel';
import { type ListEntry, type Target, targetEvent, targetFields } from './eventSeries';
import { type Store } from './store';

// ---------------------------------------------------------------------------------------------
// Presentation

export type Version = 'v3' | 'v1';

/** Fields the v1 interface does not show. */
const HIDDEN_IN_V1 = new Set(['uid', 'masterEventId', 'recurrenceId', 'recurrenceIdTimeZone', 'useDefaultAlerts', 'service.example:metadata']);

/** The event (single, master or occurrence) as the interface shows it. */
export function presentTarget(store: Store, userId: string, target: Target, version: Version): Record<string, unknown> {
	const event = targetEvent(target);
	const fields = targetFields(target);
	// An occurrence shows its series' ids and its own recurrence id between the ids and the times.
	const occurrence = target.kind === 'event' ? undefined : target.recurrenceId;
	const out: Record<string, unknown> = {
		'@type': 'Event',
		id: occurrence === undefined ? event.id : instanceIdOf(event.id, occurrence),
		uid: event.uid,
		calendarId: event.calendarId,
		accountId: event.accountId,
		integrationId: event.integrationId,
		baseEventId: event.id,
	};
	if (occurrence !== undefined) {
		out.masterEventId = event.id;
		out.masterBaseEventId = event.id;
		out.recurrenceId = occurrence;
		if (event.timeZone !== null) out.recurrenceIdTimeZone = event.timeZone;
	}
	const override = occurrence === undefined ? undefined : event.overrides?.[occurrence];
	out.created = event.created;
	out.updated = override && override.updated > event.updated ? override.updated : event.updated;
	out.title = fields.title;
	const description = describeWithRoom(fields.description, fields.descriptionContentType, fields.virtualRoom);
	if (description !== undefined) out.description = description;
	out.descriptionContentType = fields.descriptionContentType;
	out.start = fields.start;
	out.timeZone = fields.timeZone;
	out.duration = fields.duration;
	out.showWithoutTime = fields.showWithoutTime;
	if (fields.status !== undefined) out.status = fields.status;
	out.privacy = fields.privacy;
	out.freeBusyStatus = fields.freeBusyStatus;
	if (fields.locations !== undefined) out.locations = fields.locations;
	if (fields.participants !== undefined) out.participants = fields.participants;
	if (fields.alerts !== undefined) out.alerts = fields.alerts;
	out.useDefaultAlerts = fields.useDefaultAlerts;
	if (target.kind === 'event' && event.recurrenceRules !== undefined) out.recurrenceRules = event.recurrenceRules;
	if (fields.color !== undefined) out.color = fields.color;
	if (fields.keywords !== undefined) out.keywords = fields.keywords;
	if (fields.categories !== undefined) out.categories = fields.categories;
	if (fields.locale !== undefined) out.locale = fields.locale;
	if (fields.priority !== undefined) out.priority = fields.priority;
	if (event.integrationId === 'providerA') {
		if (fields.colorId !== undefined) out['provider.example:colorId'] = fields.colorId;
		if (fields.virtualRoom?.kind === 'providerAMeetingRoom') out['provider.example:hangoutLink'] = fields.virtualRoom.url;
	}
	const link = description === undefined ? null : ROOM_URL.exec(description);
	if (link) out['service.example:derived'] = { virtualRoom: { url: link[0] } };
	const taskId = event['service.example:metadata']?.taskId;
	if (taskId !== undefined) out['service.example:metadata'] = presentMetadata(store, userId, taskId);
	if (version === 'v1') for (const key of HIDDEN_IN_V1) delete out[key];
	return out;
}

function presentMetadata(store: Store, userId: string, taskId: string): Record<string, unknown> {
	const task = store.tasks.get(userId)?.get(taskId);
	if (!task) return { taskId };
	return { updated: task.updated, progress: task.progress === 'completed' ? 'completed' : 'needs-action', taskId };
}

/**
 * The events of a list as JSON text, `{"data":{"events":[…]}}`. Occurrences that have no changes
 * of their own differ only in id, recurrenceId and start from the other occurrences of their
 * series, so each series is serialised once as a template with holes for those three values:
 * the same text as serialising every event, in a fraction of the time.
 */
export function listJson(store: Store, userId: string, entries: readonly ListEntry[], version: Version): string {
	const marker = randomUUID();
	const holes = { id: `${marker}i`, recurrenceId: `${marker}r`, start: `${marker}s` };
	const split = new RegExp(`"(${holes.id}|${holes.recurrenceId}|${holes.start})"`);
	const templates = new Map<StoredEvent, string[]>();
	let out = '{"data":{"events":[';
	for (let n = 0; n < entries.length; n++) {
		if (n > 0) out += ',';
		const entry = entries[n];
		const target = entry.target;
		if (target.kind === 'event' || target.master.overrides?.[target.recurrenceId]) {
			out += JSON.stringify(presentTarget(store, userId, target, version));
			continue;
		}
		let template = templates.get(target.master);
		if (!template) {
			const sample = presentTarget(store, userId, target, version);
			sample.id = holes.id;
			if ('recurrenceId' in sample) sample.recurrenceId = holes.recurrenceId;
			sample.start = holes.start;
			template = JSON.stringify(sample).split(split);
			templates.set(target.master, template);
		}
		// Ids are base64 and the two values LocalDateTimes: none needs escaping in JSON.
		out += template[0];
		for (let i = 1; i < template.length; i += 2) {
			const hole = template[i];
			out += `"${hole === holes.id ? entry.id : hole === holes.start ? target.start : target.recurrenceId}"${template[i + 1]}`;
		}
	}
	return `${out}]}}`;
}
