import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { readCalendarEvents } from '../../../shared/calendar/busyTime';
import { calendarName } from '../../../shared/calendar/calendarLists';
import { isIanaZone, notIanaZoneProblem, parseDateInput } from '../../../shared/time/dates';
import { invalidField, quoted } from '../../../shared/transport/errors';
import { toStringList } from '../../../shared/fields/fields';
import { busyEvents, freeSlots, mergeBusy, type Interval, type WorkingHours } from '../../../shared/calendar/freeTime';
import type { OperationItem } from '../../../shared/transport/itemOperation';
import { listTaskPage, walkTasks } from '../../../shared/tasks/taskPaging';
import { readWorkingHours } from '../../../shared/calendar/busyTimeFields';
import { agendaEntries } from './agendaEntries';
import { digest } from './agendaDigest';
import { MAX_AGENDA_DAYS } from './getAgendaFields';
import { readStartEnd } from '../../../shared/time/rangeFields';

interface AgendaQuery {
	calendarValues: string[];
	range: Interval;
	oneDay: boolean;
	zone: string;
	output: 'entries' | 'digest';
	includeTasks: boolean;
	includeDeclined: boolean;
	includeOverdue: boolean;
	workingHours?: WorkingHours;
	ignoreAllDay: boolean;
	skipUnreadable: boolean;
}

/** The day of Period Day: a date, or a date and time standing for its date in the zone; empty: today. */
function readDay({ context, itemIndex, parameter }: OperationItem, zone: string): Interval {
	const value = parameter('day', '');
	const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
	const date = empty ? DateTime.now().setZone(zone) : parseDateInput(value, zone)?.setZone(zone);
	if (!date) throw invalidField(context.getNode(), 'Day', `${quoted(value)} is not a date`, itemIndex, 'Use a date such as 2026-12-01, or leave Day empty for today.');
	const start = date.startOf('day');
	return { start: start.toMillis(), end: start.plus({ days: 1 }).startOf('day').toMillis() };
}

/** Start and End of Period Range, checked. */
function readRange(item: OperationItem, zone: string): Interval {
	const { context, itemIndex } = item;
	const node = context.getNode();
	const { start, end } = readStartEnd(item, zone);
	if (end > start.setZone(zone).plus({ days: MAX_AGENDA_DAYS })) {
		throw invalidField(node, 'End', `must be at most ${MAX_AGENDA_DAYS} days after Start`, itemIndex, 'Show a longer time in several runs.');
	}
	return { start: start.toMillis(), end: end.toMillis() };
}

/** Reads and checks the parameters of one item, before any request. */
function readQuery(item: OperationItem): AgendaQuery {
	const { context, itemIndex, parameter } = item;
	const zone = String(parameter('timeZone', '') || context.getTimezone());
	if (!isIanaZone(zone)) throw invalidField(context.getNode(), 'Time Zone', notIanaZoneProblem(zone), itemIndex);
	const oneDay = parameter('agendaPeriod', 'day') !== 'range';
	const output = parameter('agendaOutput', 'entries') === 'digest' ? 'digest' : 'entries';
	const includeTasks = parameter('includeTasks', true) !== false;
	const options = parameter('options', {}) as IDataObject;
	return {
		calendarValues: toStringList(parameter('calendars', [])),
		range: oneDay ? readDay(item, zone) : readRange(item, zone),
		oneDay,
		zone,
		output,
		includeTasks,
		includeDeclined: options.includeDeclined === true,
		includeOverdue: includeTasks && options.includeOverdue === true,
		workingHours: output === 'digest' ? readWorkingHours(context.getNode(), parameter, itemIndex) : undefined,
		ignoreAllDay: options.allDayEvents === 'ignore',
		skipUnreadable: (options.unreadableCalendars ?? 'skip') === 'skip',
	};
}

/** Every open task (10 points per 100). */
async function openTasks({ context, itemIndex }: OperationItem): Promise<IDataObject[]> {
	const walk = await walkTasks((updatedAfter, limit) => listTaskPage(context, updatedAfter, limit, itemIndex), { idsAtUpdated: [] });
	return walk.tasks;
}

/** The free time left in the range (from now on) within working hours: slots of at least a minute. */
function freeTimeLeft(events: IDataObject[], query: AgendaQuery, now: number): Interval[] {
	const from = Math.max(query.range.start, Math.ceil(now / 60_000) * 60_000);
	if (from >= query.range.end) return [];
	const blocks = mergeBusy(busyEvents(events, { zone: query.zone, ignoreAllDay: query.ignoreAllDay }));
	return freeSlots({ start: from, end: query.range.end }, blocks, { zone: query.zone, workingHours: query.workingHours, minimumMs: 60_000 });
}

/**
 * Get Agenda: the events of the chosen calendars (series as occurrences) and, with tasks, the open
 * tasks due in the period and the tasks behind time blocks; as entries in time order or as one
 * Digest item.
 */
export async function getAgenda(item: OperationItem): Promise<IDataObject[]> {
	const { context, itemIndex } = item;
	const query = readQuery(item);
	const { chosen: calendars, events, notices, leftOut } = await readCalendarEvents(context, itemIndex, {
		values: query.calendarValues,
		field: 'Calendars',
		unreadable: query.skipUnreadable ? 'skip' : 'fail',
		range: query.range,
		zone: query.zone,
	});
	const tasks = query.includeTasks ? await openTasks(item) : [];
	const now = Date.now();
	const rules = { range: query.range, zone: query.zone, includeDeclined: query.includeDeclined, includeOverdue: query.includeOverdue, tasksRead: query.includeTasks, now };
	const entries = agendaEntries(events, tasks, calendars, rules);
	const withNotices = (output: IDataObject) => (notices.length > 0 ? { ...output, notices } : output);
	if (query.output === 'digest') {
		const hours = query.workingHours;
		const workingHoursText = hours ? `in working hours (${hours.from}–${hours.to})` : 'in the period';
		// A day (or period) without working hours, e.g. a Saturday: said so, not "0 min left".
		const noWorkingHours = hours !== undefined && freeSlots(query.range, [], { zone: query.zone, workingHours: hours, minimumMs: 60_000 }).length === 0;
		const skipped = leftOut.map(({ calendar }) => calendarName(calendar));
		return [withNotices(digest({ range: query.range, zone: query.zone, oneDay: query.oneDay, entries, free: freeTimeLeft(events, query, now), workingHoursText, noWorkingHours, skipped }))];
	}
	if (entries.length === 0) {
		const local = (ms: number) => DateTime.fromMillis(ms, { zone: query.zone }).toFormat('yyyy-MM-dd HH:mm');
		return [{ notices: [...notices, `Nothing on the agenda between ${local(query.range.start)} and ${local(query.range.end)} (${query.zone})`] }];
	}
	// The calendars left out concern the whole agenda: said once, on the first entry.
	return entries.map((entry, index) => (index === 0 ? withNotices(entry.json) : entry.json));
}
