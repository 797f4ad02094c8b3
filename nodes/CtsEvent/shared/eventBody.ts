import type { IDataObject } from 'n8n-workflow';

import { alertId, alertOffset, locationKey, participantKey } from '../../shared/encoding';
import { quoted } from '../../shared/errors';

/**
 * The event fields' values as the interface's body wants them: participants, attendees, alerts
 * and locations, each keyed the way the interface keys them. Each converter throws a message
 * naming what is wrong; the field's preSend puts the field's name in front of it.
 */

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The entries of a fixed collection (`{ participant: [...] }`), whatever an expression put there. */
export function listOf<T>(value: unknown, key: string): T[] {
	const entries = value && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
	if (entries === undefined || entries === null) return [];
	return (Array.isArray(entries) ? entries : [entries]).filter((entry) => entry && typeof entry === 'object') as T[];
}

interface ParticipantInput {
	email?: string;
	name?: string;
	roles?: string[];
}

/** Participants keyed by the base64 of their e-mail address, as the interface asks. */
export function toParticipants(value: unknown): IDataObject {
	const participants: IDataObject = {};
	for (const { email, name, roles } of listOf<ParticipantInput>(value, 'participant')) {
		const address = String(email ?? '').trim();
		if (!EMAIL.test(address)) throw new Error(`${quoted(email ?? '')} is not an e-mail address`);
		participants[participantKey(address)] = {
			'@type': 'Participant',
			email: address,
			...(name ? { name: String(name) } : {}),
			roles: Object.fromEntries((Array.isArray(roles) ? roles : ['attendee']).map((role) => [String(role), true])),
		};
	}
	return participants;
}

/**
 * People written as people write them: separated by commas, semicolons or lines (or a list),
 * each an address or `Name <address>` (the name may be quoted and contain a comma).
 */
export function toPeople(value: unknown): Array<{ email: string; name?: string }> {
	const entries = Array.isArray(value) ? value.map(String) : splitOutsideQuotes(String(value ?? ''));
	return entries
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '')
		.map((entry) => {
			const named = /^(.*?)\s*<([^<>]+)>$/.exec(entry);
			if (!named) return { email: entry };
			const name = named[1].trim().replace(/^"(.*)"$/, '$1').trim();
			return { email: named[2].trim(), ...(name ? { name } : {}) };
		});
}

/** Splits at `,`, `;` and line breaks that are not inside double quotes or angle brackets. */
function splitOutsideQuotes(text: string): string[] {
	const parts: string[] = [];
	let current = '';
	let inQuotes = false;
	let inBrackets = false;
	for (const char of text) {
		if (char === '"') inQuotes = !inQuotes;
		else if (char === '<' && !inQuotes) inBrackets = true;
		else if (char === '>' && !inQuotes) inBrackets = false;
		else if (/[,;\n]/.test(char) && !inQuotes && !inBrackets) {
			parts.push(current);
			current = '';
			continue;
		}
		current += char;
	}
	return [...parts, current];
}

/**
 * The Attendees field: people invited as attendees (see {@link toPeople}). One text field, unlike
 * Participants, so an expression or an AI agent can fill it: n8n drops an expression given for a
 * whole fixed collection.
 */
export function toAttendees(value: unknown): IDataObject {
	return toParticipants({ participant: toPeople(value) });
}

/** Participants to remove: null under the e-mail address, as the interface's update rule says. */
export function toRemovedParticipants(value: unknown): IDataObject {
	const removed: IDataObject = {};
	for (const { email } of toPeople(value)) {
		if (!EMAIL.test(email)) throw new Error(`${quoted(email)} is not an e-mail address`);
		removed[email] = null;
	}
	return removed;
}

interface AlertInput {
	minutesBefore?: number;
	action?: string;
}

/** The alerts of an Alerts (or Alerts to Remove) field: action, offset and computed ID. */
export function alertsOf(value: unknown): Array<{ id: string; offset: string; action: string }> {
	return listOf<AlertInput>(value, 'alert').map(({ minutesBefore = 15, action = 'display' }) => {
		if (!Number.isInteger(minutesBefore) || minutesBefore < 0) {
			throw new Error(`${quoted(minutesBefore)} is not a whole number of minutes of 0 or more`);
		}
		const offset = alertOffset(minutesBefore);
		return { id: alertId(String(action), offset), offset, action: String(action) };
	});
}

/** Alerts keyed by their computed ID (base64 of `{"a":action,"to":offset}`). */
export function toAlerts(value: unknown): IDataObject {
	return Object.fromEntries(
		alertsOf(value).map(({ id, offset, action }) => [
			id,
			{ '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset, relativeTo: 'start' }, action },
		]),
	);
}

/** Locations keyed by their name's {@link locationKey}, so adding one never replaces another. */
export function toLocations(value: unknown): IDataObject {
	const names = listOf<{ name?: unknown }>(value, 'location').map(({ name }) => String(name ?? '').trim());
	return Object.fromEntries(names.filter((name) => name !== '').map((name) => [locationKey(name), { '@type': 'Location', name }]));
}
