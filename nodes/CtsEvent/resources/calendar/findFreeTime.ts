import { DateTime } from 'luxon';
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type NodeApiError } from 'n8n-workflow';

import { calendarName, listCalendars, parseCalendarRef, type CalendarInfo } from '../../../shared/calendarLists';
import { DATE_TIME_HINT, isIanaZone, notIanaZoneProblem, parseDateInput } from '../../../shared/dates';
import { invalidField, serviceStatus } from '../../../shared/errors';
import { listEventsOverWindows } from '../../../shared/eventListing';
import { toStringList } from '../../../shared/fields';
import {
	busyEvents,
	clipBlocks,
	clockMinutes,
	freeSlots,
	mergeBusy,
	type BusyBlock,
	type BusyEvent,
	type Interval,
	type WorkingHours,
} from '../../../shared/freeTime';
import { forEachItem } from '../../../shared/transport';
import { RECOMMENDED_WINDOW_MONTHS, type TimeWindow } from '../../../shared/windows';
import { isReadable } from '../../listSearch/readableCalendars';
import { MAX_RANGE_MONTHS } from './findFreeTimeFields';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface FreeTimeQuery {
	calendarValues: string[];
	output: 'slots' | 'busy' | 'isFree';
	range: Interval;
	zone: string;
	workingHours?: WorkingHours;
	minimumMs: number;
	stepMinutes: number;
	bufferBeforeMs: number;
	bufferAfterMs: number;
	ignoreAllDay: boolean;
	skipUnreadable: boolean;
}

/** Reads and checks the parameters of one item, before any request. */
function readQuery(context: IExecuteFunctions, itemIndex: number): FreeTimeQuery {
	const node = context.getNode();
	const parameter = (name: string, fallback: unknown) => context.getNodeParameter(name, itemIndex, fallback);
	const zone = String(parameter('timeZone', '') || context.getTimezone());
	if (!isIanaZone(zone)) throw invalidField(node, 'Time Zone', notIanaZoneProblem(zone), itemIndex);
	const startValue = parameter('start', '');
	const start = parseDateInput(startValue, zone);
	if (!start) throw invalidField(node, 'Start', `"${String(startValue)}" is not a date and time`, itemIndex, DATE_TIME_HINT);
	const endValue = parameter('end', '');
	const end = parseDateInput(endValue, zone);
	if (!end) throw invalidField(node, 'End', `"${String(endValue)}" is not a date and time`, itemIndex, DATE_TIME_HINT);
	if (end <= start) throw invalidField(node, 'End', 'must be after Start', itemIndex);
	if (end > start.setZone(zone).plus({ months: MAX_RANGE_MONTHS })) {
		throw invalidField(node, 'End', `must be at most ${MAX_RANGE_MONTHS} months after Start`, itemIndex, 'Search a longer time in several runs, one per 6 months.');
	}
	const output = parameter('freeTimeOutput', 'slots') as FreeTimeQuery['output'];
	const options = parameter('options', {}) as IDataObject;
	const minutes = (label: string, value: unknown, min: number, max: number) => {
		const number = Number(value);
		if (!Number.isInteger(number) || number < min || number > max) throw invalidField(node, label, `must be a whole number of minutes from ${min} to ${max}`, itemIndex);
		return number;
	};
	let workingHours: WorkingHours | undefined;
	if (output === 'slots' && parameter('workingHours', 'hours') === 'hours') {
		const days = toStringList(parameter('workingDays', [1, 2, 3, 4, 5])).map(Number);
		if (days.length === 0 || days.some((day) => !Number.isInteger(day) || day < 1 || day > 7)) {
			throw invalidField(node, 'Working Days', 'choose at least one day of the week', itemIndex);
		}
		const from = String(parameter('workFrom', '09:00')).trim();
		const to = String(parameter('workTo', '17:00')).trim();
		const fromMinutes = clockMinutes(from);
		if (fromMinutes === undefined || fromMinutes >= 24 * 60) throw invalidField(node, 'From', `"${from}" is not a time of day: use HH:mm, e.g. 09:00`, itemIndex);
		const toMinutes = clockMinutes(to);
		if (toMinutes === undefined) throw invalidField(node, 'To', `"${to}" is not a time of day: use HH:mm, e.g. 17:00 (24:00 for midnight)`, itemIndex);
		if (toMinutes <= fromMinutes) {
			throw invalidField(node, 'To', `${to} is not after From (${from}): working hours must end after they start on the same day`, itemIndex, 'Hours across midnight are not supported: use To 24:00 and From 00:00 on the next day.');
		}
		workingHours = { days, from, to };
	}
	return {
		calendarValues: toStringList(parameter('calendars', [])),
		output,
		range: { start: start.toMillis(), end: end.toMillis() },
		zone,
		workingHours,
		minimumMs: output === 'slots' ? minutes('Minimum Length (Minutes)', parameter('minimumMinutes', 30), 1, 6 * 31 * 24 * 60) * MINUTE : 0,
		stepMinutes: output === 'slots' ? minutes('Slots Start Every (Minutes)', options.slotStep ?? 0, 0, 1440) : 0,
		bufferBeforeMs: minutes('Buffer Before (Minutes)', options.bufferBefore ?? 0, 0, 1440) * MINUTE,
		bufferAfterMs: minutes('Buffer After (Minutes)', options.bufferAfter ?? 0, 0, 1440) * MINUTE,
		ignoreAllDay: options.allDayEvents === 'ignore',
		skipUnreadable: options.unreadableCalendars === 'skip',
	};
}

/** The calendars named by the Calendars field (every readable one when empty), from the calendar list. */
async function chosenCalendars(context: IExecuteFunctions, itemIndex: number, values: string[]): Promise<CalendarInfo[]> {
	const all = await listCalendars(context);
	if (values.length === 0) {
		const readable = all.filter(isReadable);
		if (readable.length === 0) throw invalidField(context.getNode(), 'Calendars', 'the accounts of this credential have no calendar the user may read', itemIndex);
		return readable;
	}
	const chosen = new Map<string, CalendarInfo>();
	for (const value of values) {
		const ref = parseCalendarRef(value);
		const found =
			all.find((calendar) => ref && calendar.accountId === ref.accountId && calendar.id === ref.calendarId) ??
			all.find((calendar) => calendar.id === value) ??
			(ref ? { id: ref.calendarId, accountId: ref.accountId } : undefined);
		if (!found) {
			throw invalidField(context.getNode(), 'Calendars', `no calendar with ID "${value}" in the accounts of this credential`, itemIndex, 'Choose the calendars from the list, or check the IDs.');
		}
		chosen.set(`${found.accountId}/${found.id}`, found);
	}
	return [...chosen.values()];
}

/**
 * The list windows: the range in windows of at most 2 months, the first and last widened by a
 * day and the buffers, so that events the service places by their UTC reading (all-day and
 * floating ones) and events whose buffers reach into the range are listed too.
 */
function listingWindows(query: FreeTimeQuery): TimeWindow[] {
	const pad = DAY + Math.max(query.bufferBeforeMs, query.bufferAfterMs);
	const iso = (ms: number) => DateTime.fromMillis(ms, { zone: 'utc' }).toISO({ suppressMilliseconds: true }) ?? '';
	// Months counted in the zone, so that a range of 6 months there takes 3 windows.
	const windows: TimeWindow[] = [];
	for (let from = DateTime.fromMillis(query.range.start, { zone: query.zone }); from.toMillis() < query.range.end; ) {
		const to = Math.min(from.plus({ months: RECOMMENDED_WINDOW_MONTHS }).toMillis(), query.range.end);
		windows.push({ start: iso(windows.length === 0 ? from.toMillis() - pad : from.toMillis()), end: iso(to) });
		from = DateTime.fromMillis(to, { zone: query.zone });
	}
	windows[windows.length - 1].end = iso(query.range.end + pad);
	return windows;
}

interface Unreadable {
	calendar: CalendarInfo;
	reason: string;
}

const label = (calendar: CalendarInfo) => `"${calendarName(calendar)}" (${calendar.id})`;

/** Lists the events of the chosen calendars, one account at a time; unreadable calendars are collected, not counted as free. */
async function listChosen(context: IExecuteFunctions, itemIndex: number, query: FreeTimeQuery, calendars: CalendarInfo[]) {
	const unreadable: Unreadable[] = calendars.filter((calendar) => !isReadable(calendar)).map((calendar) => ({ calendar, reason: 'the user has no right to read it' }));
	const byAccount = new Map<string, CalendarInfo[]>();
	for (const calendar of calendars.filter(isReadable)) byAccount.set(calendar.accountId, [...(byAccount.get(calendar.accountId) ?? []), calendar]);
	const windows = listingWindows(query);
	const events: IDataObject[] = [];
	for (const [accountId, accountCalendars] of byAccount) {
		if (unreadable.length > 0 && !query.skipUnreadable) break;
		try {
			events.push(...(await listEventsOverWindows(context, itemIndex, { version: 'v3', accountId, calendarIds: accountCalendars.map((calendar) => calendar.id), windows })));
		} catch (error) {
			const reason = calendarRefusal(error);
			if (reason === undefined) throw error as NodeApiError;
			unreadable.push(...accountCalendars.map((calendar) => ({ calendar, reason })));
		}
	}
	if (unreadable.length > 0 && !query.skipUnreadable) {
		const names = unreadable.map(({ calendar, reason }) => `${label(calendar)}: ${reason}`).join('; ');
		throw new NodeOperationError(context.getNode(), `Calendars: cannot read ${names}`, {
			itemIndex,
			description:
				'The busy time of a calendar that cannot be read is unknown, so it is never counted as free. Reconnect the account in the service, leave the calendar out of Calendars, or set Options > Unreadable Calendars to Skip With a Notice.',
		});
	}
	const notices = unreadable.map(({ calendar, reason }) => `Skipped ${label(calendar)}: it cannot be read (${reason}); its busy time is unknown and not included`);
	return { events, notices };
}

/**
 * A 401 or 403 about the calendars of one account (a connection that expired or was revoked, or
 * no right to read): the service names the account or calendar. A refused credential is not one.
 */
function calendarRefusal(error: unknown): string | undefined {
	const status = serviceStatus(error);
	if (status !== 401 && status !== 403) return undefined;
	const context = ((error as NodeApiError).context?.serviceContext ?? {}) as IDataObject;
	const message = (error as Error).message.replace(/^[^:]+: /, '').replace(/\.$/, '');
	if (context.connection === undefined && context.accountId === undefined && context.calendarId === undefined && !/calendar/i.test(message)) return undefined;
	return message || (status === 401 ? 'the calendar connection has expired' : 'access was refused');
}

function times(interval: Interval, zone: string): IDataObject {
	const utc = (ms: number) => DateTime.fromMillis(ms, { zone: 'utc' }).toISO({ suppressMilliseconds: true });
	const local = (ms: number) => DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true });
	return {
		start: utc(interval.start),
		end: utc(interval.end),
		startInZone: local(interval.start),
		endInZone: local(interval.end),
		timeZone: zone,
		durationMinutes: Math.round((interval.end - interval.start) / MINUTE),
	};
}

function eventSummary(busy: BusyEvent, names: Map<string, string>): IDataObject {
	const { event } = busy;
	const utc = (ms: number) => DateTime.fromMillis(ms, { zone: 'utc' }).toISO({ suppressMilliseconds: true });
	return {
		id: event.id,
		title: event.title,
		start: utc(busy.start),
		end: utc(busy.end),
		allDay: event.showWithoutTime === true,
		calendarId: event.calendarId,
		calendarName: names.get(`${String(event.accountId)}/${String(event.calendarId)}`),
		accountId: event.accountId,
		...(event.masterEventId ? { masterEventId: event.masterEventId } : {}),
	};
}

function rangeText(query: FreeTimeQuery): string {
	const local = (ms: number) => DateTime.fromMillis(ms, { zone: query.zone }).toFormat("yyyy-MM-dd HH:mm");
	return `between ${local(query.range.start)} and ${local(query.range.end)} (${query.zone})`;
}

function shapeOutput(query: FreeTimeQuery, blocks: BusyBlock[], names: Map<string, string>): IDataObject[] {
	const inRange = clipBlocks(blocks, query.range);
	if (query.output === 'isFree') {
		const conflicts = inRange.flatMap((block) => block.events).filter((busy) => busy.start - query.bufferBeforeMs < query.range.end && busy.end + query.bufferAfterMs > query.range.start);
		return [{ free: conflicts.length === 0, ...times(query.range, query.zone), conflicts: conflicts.map((busy) => eventSummary(busy, names)) }];
	}
	if (query.output === 'busy') {
		if (inRange.length === 0) return [{ notices: [`No busy time ${rangeText(query)}`] }];
		return inRange.map((block) => ({ ...times(block, query.zone), events: block.events.map((busy) => eventSummary(busy, names)) }));
	}
	const slots = freeSlots(query.range, blocks, {
		zone: query.zone,
		workingHours: query.workingHours,
		minimumMs: query.minimumMs,
		stepMinutes: query.stepMinutes,
	});
	if (slots.length === 0) {
		const hours = query.workingHours ? ` within the working hours ${query.workingHours.from}–${query.workingHours.to}` : '';
		return [{ notices: [`No free slot of at least ${query.minimumMs / MINUTE} minutes ${rangeText(query)}${hours}`] }];
	}
	return slots.map((slot) => times(slot, query.zone));
}

/**
 * Find Free Time: lists the events of the chosen calendars (see {@link listingWindows}), keeps
 * those that make time busy and computes free slots, busy blocks or whether the range is free.
 */
export async function findFreeTime(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await forEachItem(this, async (itemIndex) => {
		const query = readQuery(this, itemIndex);
		const calendars = await chosenCalendars(this, itemIndex, query.calendarValues);
		const { events, notices } = await listChosen(this, itemIndex, query, calendars);
		const names = new Map(calendars.map((calendar) => [`${calendar.accountId}/${calendar.id}`, calendarName(calendar)]));
		const busy = busyEvents(events, { zone: query.zone, ignoreAllDay: query.ignoreAllDay });
		const blocks = mergeBusy(busy, query.bufferBeforeMs, query.bufferAfterMs);
		return shapeOutput(query, blocks, names).map((item) => {
			const all = [...notices, ...((item.notices as string[] | undefined) ?? [])];
			return all.length > 0 ? { ...item, notices: all } : item;
		});
	});
}
