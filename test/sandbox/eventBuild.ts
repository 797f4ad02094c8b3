/**
 * Building and patching an event's stored fields from a validated body: participants (keyed by
 * the base64 of their address), alerts, virtual rooms, and the provider's handling of floating
 * times.
 */
import { ApiError } from './errors';
import {
	type Alert,
	type DescriptionContentType,
	EVENT_MESSAGES,
	type EventFields,
	type FieldKey,
	emailFromKey,
	participantKey,
	sameEmail,
	type Location,
	type Participant,
	type RoomKind,
	TIMING_KEYS,
	type VirtualRoom,
} from './eventModel';
import {
	type AlertInput,
	type CreateInput,
	type LocationInput,
	type ParticipantInput,
	type PatchInput,
} from './eventSchemas';
import { type IntegrationId } from './store';

// ---------------------------------------------------------------------------------------------
// Participants, alerts, rooms

function toParticipant(input: ParticipantInput, ownerEmail: string): Participant {
	const out: Participant = {
		'@type': 'Participant',
		email: input.email,
		roles: input.roles ?? { attendee: true },
		accountOwner: input.accountOwner ?? sameEmail(input.email, ownerEmail),
		participationStatus: input.participationStatus ?? 'needs-action',
	};
	if (input.name !== undefined) out.name = input.name;
	if (input.expectReply !== undefined) out.expectReply = input.expectReply;
	if (input.kind !== undefined) out.kind = input.kind;
	return reorder(out, ['@type', 'name', 'email', 'roles', 'accountOwner', 'participationStatus', 'expectReply', 'kind']);
}

function toLocation(input: LocationInput): Location {
	const out: Location = { '@type': 'Location' };
	if (input.name !== undefined) out.name = input.name;
	if (input.description !== undefined) out.description = input.description;
	return out;
}

function toAlert(input: AlertInput): Alert {
	return {
		'@type': 'Alert',
		trigger: { '@type': 'OffsetTrigger', offset: input.trigger.offset, relativeTo: 'start' },
		action: input.action ?? 'display',
	};
}

/** Alert id: base64 of the compact JSON `{"a":<action>,"to":<offset>}` (keys sorted), offset as given. */
export function alertId(alert: Pick<Alert, 'action'> & { trigger: { offset: string } }): string {
	return Buffer.from(JSON.stringify({ a: alert.action, to: alert.trigger.offset }), 'utf8').toString('base64');
}

function reorder<T extends object>(value: T, order: readonly string[]): T {
	const out: Record<string, unknown> = {};
	for (const key of order) if ((value as Record<string, unknown>)[key] !== undefined) out[key] = (value as Record<string, unknown>)[key];
	return out as T;
}

export const ROOM_URL = /https:\/\/(?:meet\.provider-a\.example\/[a-z]{3}-[a-z]{4}-[a-z]{3}|meetings\.provider-b\.example\/join\/[0-9a-f]{24})/;

function randomLetters(count: number): string {
	let out = '';
	for (let i = 0; i < count; i++) out += String.fromCharCode(97 + Math.floor(Math.random() * 26));
	return out;
}

function newRoom(kind: RoomKind): VirtualRoom {
	if (kind === 'providerAMeetingRoom') {
		return { kind, url: `https://meet.provider-a.example/${randomLetters(3)}-${randomLetters(4)}-${randomLetters(3)}` };
	}
	let token = '';
	for (let i = 0; i < 24; i++) token += Math.floor(Math.random() * 16).toString(16);
	return { kind, url: `https://meetings.provider-b.example/join/${token}` };
}

/** The room kind a request names on a calendar of this integration, or 400. */
function roomKind(request: string, integrationId: IntegrationId): RoomKind {
	if (integrationId === 'caldav') throw new ApiError(400, EVENT_MESSAGES.roomCaldav);
	const own: RoomKind = integrationId === 'providerA' ? 'providerAMeetingRoom' : 'providerBMeetingRoom';
	if (request !== 'default' && request !== own) throw new ApiError(400, EVENT_MESSAGES.roomOtherProvider(request, integrationId));
	return own;
}

/** The description with the room's join link in it (added when it is not there). */
export function describeWithRoom(description: string | undefined, type: DescriptionContentType, room: VirtualRoom | undefined) {
	if (!room || description?.includes(room.url)) return description;
	const block =
		type === 'text/html'
			? `<p>Join the meeting: <a href="${room.url}">${room.url}</a></p>`
			: `Join the meeting: ${room.url}`;
	if (description === undefined || description === '') return block;
	return type === 'text/html' ? `${description}${block}` : `${description}\n\n${block}`;
}

// ---------------------------------------------------------------------------------------------
// Building and patching fields

export interface Environment {
	integrationId: IntegrationId;
	ownerEmail: string;
}

/** The fields of a new event from a create body. */
export function fieldsFromCreate(input: CreateInput, env: Environment): EventFields {
	const base: EventFields = {
		title: input.title,
		descriptionContentType: 'text/plain',
		start: input.start,
		duration: input.duration,
		timeZone: input.timeZone,
		showWithoutTime: input.showWithoutTime,
		privacy: 'public',
		freeBusyStatus: 'busy',
		useDefaultAlerts: input.useDefaultAlerts ?? !(input.alerts != null),
	};
	const patch: PatchInput = {};
	for (const [key, value] of Object.entries(input)) {
		if (value !== undefined && (value !== null || key === 'timeZone')) (patch as Record<string, unknown>)[key] = value;
	}
	delete patch.useDefaultAlerts;
	return applyPatch(base, patch, env).fields;
}

/** Floating timed events: kept on provider A, given the zone UTC on provider B, refused on CalDAV. */
function normaliseFloating(fields: EventFields, env: Environment): void {
	if (fields.timeZone !== null || fields.showWithoutTime) return;
	if (env.integrationId === 'caldav') throw new ApiError(400, EVENT_MESSAGES.floatingCaldav);
	if (env.integrationId === 'providerB') fields.timeZone = 'UTC';
}

/**
 * Applies a patch (only supplied fields change) to a copy of the fields. Maps (`locations`,
 * `participants`, `alerts`) are patched entry by entry: a supplied entry is added or replaces
 * the entry of the same id, null removes it, entries not mentioned remain; null for the whole
 * map removes every entry. Returns the new fields and the names of the fields that changed.
 */
export function applyPatch(
	current: EventFields,
	patch: PatchInput,
	env: Environment,
): { fields: EventFields; touched: Set<FieldKey> } {
	const fields: EventFields = { ...current };
	const touched = new Set<FieldKey>();
	const set = <K extends FieldKey>(key: K, value: EventFields[K] | null | undefined) => {
		if (value === undefined) return;
		if (value === null) delete fields[key];
		else fields[key] = value;
		touched.add(key);
	};

	set('title', patch.title);
	set('descriptionContentType', patch.descriptionContentType);
	set('description', patch.description);
	if (patch.start !== undefined) {
		fields.start = patch.start;
		fields.duration = patch.duration!;
		fields.timeZone = patch.timeZone!;
		fields.showWithoutTime = patch.showWithoutTime!;
		normaliseFloating(fields, env);
		for (const key of TIMING_KEYS) touched.add(key);
	}
	set('status', patch.status);
	set('privacy', patch.privacy);
	set('freeBusyStatus', patch.freeBusyStatus);
	set('color', patch.color);
	set('keywords', patch.keywords);
	set('categories', patch.categories);
	set('locale', patch.locale);
	set('priority', patch.priority);
	if (env.integrationId === 'providerA') set('colorId', patch['provider.example:colorId']);

	if (patch.locations !== undefined) {
		touched.add('locations');
		if (patch.locations === null) delete fields.locations;
		else {
			const next: Record<string, Location> = { ...fields.locations };
			for (const [key, location] of Object.entries(patch.locations)) {
				if (location === null) delete next[key];
				else next[key] = toLocation(location);
			}
			fields.locations = next;
		}
	}

	if (patch.participants !== undefined) {
		touched.add('participants');
		if (patch.participants === null) delete fields.participants;
		else {
			const next: Record<string, Participant> = { ...fields.participants };
			for (const [key, participant] of Object.entries(patch.participants)) {
				const email = participant ? participant.email : emailFromKey(key);
				delete next[key];
				for (const [existingKey, existing] of Object.entries(next)) {
					if (sameEmail(existing.email, email)) delete next[existingKey];
				}
				if (participant) next[participantKey(participant.email)] = toParticipant(participant, env.ownerEmail);
			}
			fields.participants = next;
		}
	}

	let alertsAdded = false;
	if (patch.alerts !== undefined) {
		touched.add('alerts');
		if (patch.alerts === null) fields.alerts = {};
		else {
			const next: Record<string, Alert> = { ...fields.alerts };
			for (const [key, input] of Object.entries(patch.alerts)) {
				if (input === null) delete next[key];
				else {
					const alert = toAlert(input);
					next[alertId(alert)] = alert;
					alertsAdded = true;
				}
			}
			fields.alerts = next;
		}
	}
	if (patch.useDefaultAlerts !== undefined) {
		touched.add('useDefaultAlerts');
		fields.useDefaultAlerts = patch.useDefaultAlerts;
		if (patch.useDefaultAlerts) {
			delete fields.alerts;
			touched.add('alerts');
		}
	}
	if (alertsAdded && fields.useDefaultAlerts) throw new ApiError(400, JSON.stringify([EVENT_MESSAGES.alertsWithDefault]));

	const request = patch['service.example:requestVirtualRoom'];
	if (request !== undefined && request !== null) {
		const kind = roomKind(request, env.integrationId);
		if (!fields.virtualRoom) {
			fields.virtualRoom = newRoom(kind);
			touched.add('virtualRoom');
		}
	}
	return { fields, touched };
}
