import type { IDataObject } from 'n8n-workflow';

import { alertEntry, alertId, alertOffset } from '../../shared/calendar/alerts';
import { locationKey, participantKey } from './encoding';
import { quoted } from '../../shared/transport/errors';

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

/** The roles a participant can have (JSCalendar's, as the interface lists them). */
const PARTICIPANT_ROLES = ['attendee', 'chair', 'contact', 'informational', 'optional', 'owner'];

interface Person {
	email: string;
	name?: string;
	roles?: string[];
}

/**
 * People written as people write them: separated by commas, semicolons or lines (or a list),
 * each an address or `Name <address>` (the name may be quoted and contain a comma), optionally
 * followed by roles in parentheses: `Ann <ann@example.com> (chair, optional)`.
 */
function toPeople(value: unknown): Person[] {
	const entries = Array.isArray(value) ? value.map(String) : splitOutsideQuotes(String(value ?? ''));
	return entries
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '')
		.map((entry) => {
			const withRoles = /^(.*?)\s*\(([^()]*)\)$/.exec(entry);
			const person = withRoles ? withRoles[1] : entry;
			const roles = withRoles ? withRoles[2].split(',').map((role) => role.trim().toLowerCase()).filter((role) => role !== '') : undefined;
			const named = /^(.*?)\s*<([^<>]+)>$/.exec(person);
			const name = named?.[1].trim().replace(/^"(.*)"$/, '$1').trim();
			return { email: (named ? named[2] : person).trim(), ...(name ? { name } : {}), ...(roles ? { roles } : {}) };
		});
}

/** Splits at `,`, `;` and line breaks that are not inside double quotes, angle brackets or parentheses. */
function splitOutsideQuotes(text: string): string[] {
	const parts: string[] = [];
	let current = '';
	let inQuotes = false;
	let inBrackets = false;
	let inParentheses = false;
	for (const char of text) {
		if (char === '"') inQuotes = !inQuotes;
		else if (char === '<' && !inQuotes) inBrackets = true;
		else if (char === '>' && !inQuotes) inBrackets = false;
		else if (char === '(' && !inQuotes) inParentheses = true;
		else if (char === ')' && !inQuotes) inParentheses = false;
		else if (/[,;\n]/.test(char) && !inQuotes && !inBrackets && !inParentheses) {
			parts.push(current);
			current = '';
			continue;
		}
		current += char;
	}
	return [...parts, current];
}

/**
 * The Attendees field: the people to invite (see {@link toPeople}), as the interface's
 * participants, keyed by the base64 of their e-mail address; without roles, an attendee. One
 * text field, so an expression or an AI agent can fill it: n8n drops an expression given for a
 * whole fixed collection.
 */
export function toAttendees(value: unknown): IDataObject {
	const participants: IDataObject = {};
	for (const { email, name, roles = ['attendee'] } of toPeople(value)) {
		if (!EMAIL.test(email)) throw new Error(`${quoted(email)} is not an e-mail address`);
		if (roles.length === 0) throw new Error(`no role in the parentheses after ${quoted(email)} (leave them out for an attendee)`);
		const unknown = roles.find((role) => !PARTICIPANT_ROLES.includes(role));
		if (unknown !== undefined) {
			throw new Error(`${quoted(unknown)} after ${quoted(email)} is not a role: use ${PARTICIPANT_ROLES.join(', ')}`);
		}
		participants[participantKey(email)] = {
			'@type': 'Participant',
			email,
			...(name ? { name } : {}),
			roles: Object.fromEntries(roles.map((role) => [role, true])),
		};
	}
	return participants;
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
	return Object.fromEntries(alertsOf(value).map(({ offset, action }) => alertEntry(action, offset)));
}

/** Locations keyed by their name's {@link locationKey}, so adding one never replaces another. */
export function toLocations(value: unknown): IDataObject {
	const names = listOf<{ name?: unknown }>(value, 'location').map(({ name }) => String(name ?? '').trim());
	return Object.fromEntries(names.filter((name) => name !== '').map((name) => [locationKey(name), { '@type': 'Location', name }]));
}
