import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { calendarName, type CalendarInfo } from '../../../shared/calendar/calendarLists';
import { isIanaZone, parseDateInput, zonedIso } from '../../../shared/time/dates';
import { eventInterval, type Interval } from '../../../shared/calendar/freeTime';
import { blockTaskId } from '../../../shared/calendar/taskBlocks';

/**
 * The entries of an agenda, from listed events and open tasks: pure, no requests. An event that
 * holds time for a task (a time block) is one entry with its task; that task is not listed again
 * at its due time.
 */

type EntryKind = 'event' | 'timeBlock' | 'task';

export interface AgendaEntry {
	kind: EntryKind;
	title: string;
	/** Instants (ms); a task's entry starts and ends at its due time. */
	start: number;
	end: number;
	allDay: boolean;
	overdue: boolean;
	free: boolean;
	declined: boolean;
	calendarName?: string;
	json: IDataObject;
}

interface AgendaRules {
	range: Interval;
	zone: string;
	includeDeclined: boolean;
	includeOverdue: boolean;
	/** Whether the open tasks were read (else blocks show no task fields). */
	tasksRead: boolean;
	now: number;
}

function isDeclined(event: IDataObject): boolean {
	const participants = Object.values((event.participants as IDataObject | undefined) ?? {}) as IDataObject[];
	return participants.some((participant) => participant?.accountOwner === true && participant.participationStatus === 'declined');
}

/** The instant a task is due: its due time in its own zone (else the agenda's). */
function dueInstant(task: IDataObject, zone: string): number | undefined {
	if (typeof task.due !== 'string' || task.due === '') return undefined;
	return parseDateInput(task.due, isIanaZone(task.timeZone) ? task.timeZone : zone)?.toMillis();
}

/** The fields of a task that matter in an agenda. */
function taskFields(task: IDataObject, zone: string): IDataObject {
	const due = dueInstant(task, zone);
	const fields: IDataObject = { taskId: task.id, due: due === undefined ? null : zonedIso(due, zone), priority: task.priority ?? 0, progress: task.progress };
	if (task.estimatedDuration) fields.estimatedDuration = task.estimatedDuration;
	if (task.taskListId) fields.taskListId = task.taskListId;
	return fields;
}

/** Whether an interval lies in the range; an instant (start = end) when it is inside. */
function inRange(interval: Interval, range: Interval): boolean {
	if (interval.end === interval.start) return interval.start >= range.start && interval.start < range.end;
	return interval.start < range.end && interval.end > range.start;
}

/**
 * The same event listed once per connected account (a shared calendar) is shown once: the same
 * `uid` and the same occurrence.
 */
function sameEventKey(event: IDataObject, interval: Interval): string {
	return typeof event.uid === 'string' && event.uid !== '' ? `${event.uid}|${String(event.recurrenceId ?? '')}|${interval.start}` : `id|${String(event.id)}`;
}

function eventEntry(event: IDataObject, interval: Interval, names: Map<string, string>, tasks: Map<string, IDataObject>, rules: AgendaRules): AgendaEntry {
	const { zone } = rules;
	const taskId = blockTaskId(event);
	const task = taskId === undefined ? undefined : tasks.get(taskId);
	const allDay = event.showWithoutTime === true;
	const free = event.freeBusyStatus === 'free';
	const declined = isDeclined(event);
	const name = names.get(`${String(event.accountId)}/${String(event.calendarId)}`);
	const title = String(task?.title ?? event.title ?? '');
	const json: IDataObject = {
		kind: taskId === undefined ? 'event' : 'timeBlock',
		title,
		start: zonedIso(interval.start, zone),
		end: zonedIso(interval.end, zone),
		allDay,
		timeZone: zone,
		...(free ? { free: true } : {}),
		...(declined ? { declined: true } : {}),
		calendarId: event.calendarId,
		calendarName: name,
		accountId: event.accountId,
		eventId: event.id,
		...(event.masterEventId ? { masterEventId: event.masterEventId } : {}),
	};
	if (taskId !== undefined) Object.assign(json, task ? taskFields(task, zone) : { taskId, ...(rules.tasksRead ? { taskOpen: false } : {}) });
	return { kind: json.kind as EntryKind, title, start: interval.start, end: interval.end, allDay, overdue: false, free, declined, calendarName: name, json };
}

function taskEntry(task: IDataObject, due: number, overdue: boolean, zone: string): AgendaEntry {
	const title = String(task.title ?? '');
	const json: IDataObject = { kind: 'task', title, start: zonedIso(due, zone), allDay: false, timeZone: zone, ...(overdue ? { overdue: true } : {}), ...taskFields(task, zone) };
	return { kind: 'task', title, start: due, end: due, allDay: false, overdue, free: false, declined: false, json };
}

/** The local date an entry is shown under: its start's, or the range's first day for one that began before. */
function shownDate(entry: AgendaEntry, rules: AgendaRules): string {
	return DateTime.fromMillis(Math.max(entry.start, rules.range.start), { zone: rules.zone }).toISODate() ?? '';
}

/** Overdue tasks first; then day by day: all-day events, then the rest by start, end and title. */
function sortEntries(entries: AgendaEntry[], rules: AgendaRules): AgendaEntry[] {
	const group = (entry: AgendaEntry) => (entry.overdue ? 0 : entry.allDay ? 1 : 2);
	const keyed = entries.map((entry) => ({ entry, date: entry.overdue ? '' : shownDate(entry, rules) }));
	keyed.sort(
		(a, b) =>
			a.date.localeCompare(b.date) ||
			group(a.entry) - group(b.entry) ||
			a.entry.start - b.entry.start ||
			a.entry.end - b.entry.end ||
			a.entry.title.localeCompare(b.entry.title),
	);
	return keyed.map(({ entry }) => entry);
}

/** The agenda's entries, sorted (see {@link sortEntries}). */
export function agendaEntries(events: IDataObject[], openTasks: IDataObject[], calendars: CalendarInfo[], rules: AgendaRules): AgendaEntry[] {
	const names = new Map(calendars.map((calendar) => [`${calendar.accountId}/${calendar.id}`, calendarName(calendar)]));
	const tasks = new Map(openTasks.filter((task) => task.deleted !== true).map((task) => [String(task.id), task]));
	const entries: AgendaEntry[] = [];
	const seen = new Set<string>();
	const blocked = new Set<string>();
	for (const event of events) {
		if (event.status === 'cancelled' || event.cancelled === true) continue;
		if (isDeclined(event) && !rules.includeDeclined) continue;
		const interval = eventInterval(event, rules.zone);
		if (!interval || !inRange(interval, rules.range)) continue;
		const key = sameEventKey(event, interval);
		if (seen.has(key)) continue;
		seen.add(key);
		const entry = eventEntry(event, interval, names, tasks, rules);
		if (entry.kind === 'timeBlock') blocked.add(String(entry.json.taskId));
		entries.push(entry);
	}
	for (const task of tasks.values()) {
		if (blocked.has(String(task.id)) || task.progress === 'completed' || task.progress === 'cancelled') continue;
		const due = dueInstant(task, rules.zone);
		if (due === undefined) continue;
		if (due >= rules.range.start && due < rules.range.end) entries.push(taskEntry(task, due, false, rules.zone));
		else if (rules.includeOverdue && due < rules.range.start && due < rules.now) entries.push(taskEntry(task, due, true, rules.zone));
	}
	return sortEntries(entries, rules);
}
