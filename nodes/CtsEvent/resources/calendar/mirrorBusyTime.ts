import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { NO_ALERTS, remindsOfItself, withoutAlerts } from '../../../shared/calendar/alerts';
import { MAX_RANGE_MONTHS, readCalendarEvents } from '../../../shared/calendar/busyTime';
import { writableCalendar } from '../../../shared/calendar/calendarTarget';
import { calendarName, parseCalendarRef, type CalendarInfo } from '../../../shared/calendar/calendarLists';
import { noteWritten } from '../../../shared/calendar/executionEventLists';
import { busyEvents, eventInterval, notBusyReason, type BusyEvent, type Interval } from '../../../shared/calendar/freeTime';
import { fingerprint, markerLine, readMarker } from '../../../shared/copies/marker';
import { actionWord, byMarkerKey, planCopies, type CopyComparison, type CopyStep } from '../../../shared/copies/plan';
import { toStringList } from '../../../shared/fields/fields';
import { isIanaZone, notIanaZoneProblem, zonedIso } from '../../../shared/time/dates';
import { readStartEnd } from '../../../shared/time/rangeFields';
import { invalidField, quoted } from '../../../shared/transport/errors';
import type { OperationItem } from '../../../shared/transport/itemOperation';
import { ctsRequest } from '../../../shared/transport/transport';

/**
 * Calendar → Mirror Busy Time: each busy event of the source calendars is copied into the target
 * calendar as a busy block with the same times and a title of the user's choice, and nothing else
 * of the source. A copy never reminds (no alerts, not the target's default alerts either): the
 * source reminds from its own calendar. A copy's description is one marker line,
 * `Busy copy of: <account> | <calendar> | <event ID> | <fingerprint of its times>`, by which the
 * next run finds it: unchanged copies are not written, moved ones are moved, and copies whose
 * source is no longer busy (cancelled, declined, deleted, marked free) are removed. A series is
 * copied as its occurrences, each by its occurrence's ID. An event with a copy marker is never a
 * source, so calendars mirrored into each other do not multiply.
 */

export const COPY_LABEL = 'Busy copy of';

interface Source {
	accountId: string;
	calendarId: string;
	eventId: string;
}

/** The source a copy stands for and the fingerprint of the times it was written with, or undefined for any other event. */
export function readCopyMarker(event: IDataObject): (Source & { timing: string }) | undefined {
	const parts = readMarker(event.description, COPY_LABEL);
	if (!parts || parts.length !== 4 || parts.some((part) => part === '')) return undefined;
	const [accountId, calendarId, eventId, timing] = parts;
	return { accountId, calendarId, eventId, timing };
}

const sourceKey = (source: Source) => JSON.stringify([source.accountId, source.calendarId, source.eventId]);
const calendarKey = (calendar: CalendarInfo) => `${calendar.accountId}/${calendar.id}`;
const eventCalendarKey = (event: IDataObject) => `${String(event.accountId)}/${String(event.calendarId)}`;

interface MirrorQuery {
	sourceValues: string[];
	range: Interval;
	zone: string;
	title?: string;
	preview: boolean;
	ignoreAllDay: boolean;
	skipUnreadable: boolean;
}

/** What a copy is written with: its times as the source has them, and its title. */
interface CopyFields {
	title: string;
	start: string;
	duration: string;
	timeZone: string | null;
	showWithoutTime: boolean;
}

interface WantedCopy {
	source: Source;
	busy: BusyEvent;
	fields: CopyFields;
	/** The fingerprint of the source's times (its instants, and whether all-day): the marker's last part. */
	timing: string;
}

interface Copy {
	event: IDataObject;
	marker: Source & { timing: string };
	interval: Interval;
}

/** Reads and checks the parameters, before any request. */
function readQuery(item: OperationItem): MirrorQuery {
	const { context, itemIndex, parameter } = item;
	const node = context.getNode();
	const zone = String(parameter('timeZone', '') || context.getTimezone());
	if (!isIanaZone(zone)) throw invalidField(node, 'Time Zone', notIanaZoneProblem(zone), itemIndex);
	const { start, end } = readStartEnd(item, zone);
	if (end > start.setZone(zone).plus({ months: MAX_RANGE_MONTHS })) {
		throw invalidField(node, 'End', `must be at most ${MAX_RANGE_MONTHS} months after Start`, itemIndex, 'Mirror a longer time with several nodes, one per 6 months.');
	}
	const sourceValues = toStringList(parameter('sourceCalendars', [])).filter((value) => value.trim() !== '');
	if (sourceValues.length === 0) throw invalidField(node, 'Source Calendars', 'choose at least one calendar to copy busy time from', itemIndex);
	let title: string | undefined;
	if (parameter('copyTitle', 'fixed') !== 'source') {
		title = String(parameter('title', 'Busy') ?? '').trim();
		if (title === '') throw invalidField(node, 'Copy Title', 'must not be empty: give the title every copy shows, e.g. Busy', itemIndex);
	}
	const preview = parameter('preview', false);
	if (typeof preview !== 'boolean') throw invalidField(node, 'Preview', `${quoted(preview)} is not true or false`, itemIndex);
	const options = parameter('options', {}) as IDataObject;
	return {
		sourceValues,
		range: { start: start.toMillis(), end: end.toMillis() },
		zone,
		title,
		preview,
		ignoreAllDay: options.allDayEvents === 'ignore',
		skipUnreadable: options.unreadableCalendars === 'skip',
	};
}

/** Whether two intervals overlap (half-open). */
const overlaps = (a: Interval, b: Interval) => a.start < b.end && a.end > b.start;

/** The copy of a busy source event: its times as the source has them (a floating time in the Time Zone), and the title. */
function wantedCopy(busy: BusyEvent, query: MirrorQuery): WantedCopy {
	const { event } = busy;
	const allDay = event.showWithoutTime === true;
	const title = query.title ?? (String(event.title ?? '').trim() || 'Busy');
	const fields: CopyFields = allDay
		? { title, start: `${String(event.start).slice(0, 10)}T00:00:00`, duration: String(event.duration ?? 'P1D'), timeZone: null, showWithoutTime: true }
		: {
				title,
				start: String(event.start),
				duration: String(event.duration ?? 'PT0S'),
				timeZone: typeof event.timeZone === 'string' && event.timeZone !== '' ? event.timeZone : query.zone,
				showWithoutTime: false,
			};
	const source = { accountId: String(event.accountId), calendarId: String(event.calendarId), eventId: String(event.id) };
	const timing = fingerprint(allDay ? ['all-day', fields.start.slice(0, 10), fields.duration] : [busy.start, busy.end]);
	return { source, busy, fields, timing };
}

/** How a copy differs from what its source asks for: its times or its marker (move), its title, free/busy or alerts (update). */
function compare(wanted: WantedCopy, copy: Copy): CopyComparison {
	const allDay = copy.event.showWithoutTime === true;
	const sameTimes = allDay === wanted.fields.showWithoutTime && copy.interval.start === wanted.busy.start && copy.interval.end === wanted.busy.end;
	if (!sameTimes || copy.marker.timing !== wanted.timing) return 'move';
	if (String(copy.event.title ?? '') !== wanted.fields.title || notBusyReason(copy.event) !== undefined || remindsOfItself(copy.event)) return 'update';
	return 'same';
}

const REMOVE_REASON = 'Its source event is no longer busy in the range: cancelled, declined, deleted, marked free or moved out';

/** The copy's description: only its marker line. */
function copyDescription(wanted: WantedCopy): string {
	const { source } = wanted;
	return markerLine(COPY_LABEL, [source.accountId, source.calendarId, source.eventId, wanted.timing]);
}

/** Carries one step out: 1 point per create, move, update or removal. Answers the copy's event ID. */
async function write(item: OperationItem, target: CalendarInfo, step: CopyStep<WantedCopy, Copy>): Promise<string | undefined> {
	const { context, itemIndex } = item;
	const where = { accountId: target.accountId, calendarId: target.id };
	const copyId = step.copy ? String(step.copy.event.id) : undefined;
	if (step.action === 'unchanged') return copyId;
	if (step.action === 'remove') {
		await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/events/delete', body: { id: copyId, ...where } }, itemIndex);
		await noteWritten(context, target, { removedId: copyId });
		return copyId;
	}
	const wanted = step.wanted!;
	const body: IDataObject = { ...where, ...wanted.fields, description: copyDescription(wanted), freeBusyStatus: 'busy' };
	if (step.action === 'create') {
		const created = await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/events/create', body: { ...body, ...NO_ALERTS } }, itemIndex);
		const event = ((created.data as IDataObject | undefined)?.event as IDataObject | undefined) ?? (created.data as IDataObject | undefined) ?? created;
		await noteWritten(context, target, { written: event });
		return String(event.id ?? '');
	}
	// Update answers the event itself (no `data` envelope).
	// A move or update also takes off any alert the copy has (copies written before copies carried none, or added by hand).
	const updated = await ctsRequest.call(context, 'ctsApi', { method: 'POST', url: '/v3/events/update', body: { id: copyId, ...body, ...withoutAlerts(step.copy!.event) } }, itemIndex);
	await noteWritten(context, target, { written: { ...updated, id: updated.id ?? copyId } });
	return copyId;
}

/** The times of an output item: with the offset of the Time Zone; all-day copies as dates too. */
function times(interval: Interval, allDay: boolean, zone: string): IDataObject {
	return {
		start: zonedIso(interval.start, zone),
		end: zonedIso(interval.end, zone),
		allDay,
		...(allDay ? { startDate: DateTime.fromMillis(interval.start, { zone }).toISODate(), endDate: DateTime.fromMillis(interval.end, { zone }).toISODate() } : {}),
	};
}

/**
 * Mirror Busy Time for one item: one list per account of the sources and the target per started
 * 2 months (see `readCalendarEvents`), the plan, then one write per change (none in Preview).
 * Output: one item per source event or copy, with its action, in time order.
 */
export async function mirrorBusyTime(item: OperationItem): Promise<IDataObject[]> {
	const { context, itemIndex } = item;
	const node = context.getNode();
	const query = readQuery(item);
	const target = await writableCalendar(item, 'Target Calendar');
	for (const value of query.sourceValues) {
		const ref = parseCalendarRef(value);
		if ((ref && ref.accountId === target.accountId && ref.calendarId === target.id) || value === target.id) {
			throw invalidField(node, 'Source Calendars', `${quoted(calendarName(target))} is the Target Calendar too`, itemIndex, 'Leave the target out of the sources: a calendar cannot be mirrored into itself.');
		}
	}
	const { chosen, events, notices, leftOut } = await readCalendarEvents(context, itemIndex, {
		values: query.sourceValues,
		field: 'Source Calendars',
		unreadable: query.skipUnreadable ? 'skip' : 'fail',
		own: target,
		ownProblem: 'so its copies cannot be found',
		range: query.range,
		zone: query.zone,
		// A two-way mirror's second node reads the same calendars: once per execution.
		oncePerExecution: true,
	});
	const read = new Set(chosen.filter((calendar) => !leftOut.some((entry) => calendarKey(entry.calendar) === calendarKey(calendar))).map(calendarKey));
	const targetKey = calendarKey(target);

	// Sources: busy events of the calendars read, in the range, never a copy (of this or another mirror).
	const wanted = new Map<string, WantedCopy>();
	const sourceEvents = events.filter((event) => eventCalendarKey(event) !== targetKey && read.has(eventCalendarKey(event)) && readCopyMarker(event) === undefined);
	for (const busy of busyEvents(sourceEvents, { zone: query.zone, ignoreAllDay: query.ignoreAllDay })) {
		if (!overlaps(busy, query.range)) continue;
		const copy = wantedCopy(busy, query);
		wanted.set(sourceKey(copy.source), copy);
	}
	// Copies: events of the target with a copy marker of a source calendar read, in the range. Every other event is left alone.
	const copies: Copy[] = [];
	for (const event of events) {
		if (eventCalendarKey(event) !== targetKey || notBusyReason(event) === 'cancelled') continue;
		const marker = readCopyMarker(event);
		if (!marker || !read.has(`${marker.accountId}/${marker.calendarId}`)) continue;
		const interval = eventInterval(event, query.zone);
		if (interval && overlaps(interval, query.range)) copies.push({ event, marker, interval });
	}
	const steps = planCopies(
		wanted,
		byMarkerKey(copies, (copy) => sourceKey(copy.marker)),
		compare,
		() => REMOVE_REASON,
	);
	steps.sort((a, b) => (a.wanted?.busy.start ?? a.copy!.interval.start) - (b.wanted?.busy.start ?? b.copy!.interval.start));

	const names = new Map(chosen.map((calendar) => [calendarKey(calendar), calendarName(calendar)]));
	const output: IDataObject[] = [];
	for (const step of steps) {
		const copyId = query.preview ? (step.copy ? String(step.copy.event.id) : undefined) : await write(item, target, step);
		const source = step.wanted?.source ?? step.copy!.marker;
		const shown = step.wanted ? times(step.wanted.busy, step.wanted.fields.showWithoutTime, query.zone) : times(step.copy!.interval, step.copy!.event.showWithoutTime === true, query.zone);
		const moved = step.action === 'move' && step.copy ? { previousStart: zonedIso(step.copy.interval.start, query.zone) } : {};
		output.push({
			action: actionWord(step.action, query.preview),
			title: step.wanted?.fields.title ?? step.copy!.event.title ?? null,
			...shown,
			...moved,
			copyId: copyId ?? null,
			sourceEventId: source.eventId,
			sourceCalendarId: source.calendarId,
			sourceAccountId: source.accountId,
			sourceCalendarName: names.get(`${source.accountId}/${source.calendarId}`) ?? null,
			...(step.wanted?.busy.event.masterEventId ? { sourceSeriesId: step.wanted.busy.event.masterEventId } : {}),
			targetCalendarId: target.id,
			targetAccountId: target.accountId,
			...(step.reason ? { reason: step.reason } : {}),
			preview: query.preview,
		});
	}
	if (output.length === 0) output.push({ action: null, preview: query.preview, notices: [`No busy event in the source calendars between ${zonedIso(query.range.start, query.zone)} and ${zonedIso(query.range.end, query.zone)}, and no copy to remove`] });
	if (notices.length > 0) output[0] = { ...output[0], notices: [...notices, ...((output[0].notices as string[] | undefined) ?? [])] };
	return output;
}
