import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { busySummary, MAX_RANGE_MONTHS, readCalendarEvents } from '../../../shared/calendar/busyTime';
import { calendarName } from '../../../shared/calendar/calendarLists';
import { isIanaZone, notIanaZoneProblem, utcIso, zonedIso } from '../../../shared/time/dates';
import { invalidField } from '../../../shared/transport/errors';
import { toStringList } from '../../../shared/fields/fields';
import {
	busyEvents,
	clipBlocks,
	freeSlots,
	mergeBusy,
	type BusyBlock,
	type Interval,
	type WorkingHours,
} from '../../../shared/calendar/freeTime';
import type { OperationItem } from '../../../shared/transport/itemOperation';
import { readWorkingHours } from '../../../shared/calendar/busyTimeFields';
import { readStartEnd } from '../../../shared/time/rangeFields';

const MINUTE = 60_000;

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
function readQuery(item: OperationItem): FreeTimeQuery {
	const { context, itemIndex, parameter } = item;
	const node = context.getNode();
	const zone = String(parameter('timeZone', '') || context.getTimezone());
	if (!isIanaZone(zone)) throw invalidField(node, 'Time Zone', notIanaZoneProblem(zone), itemIndex);
	const { start, end } = readStartEnd(item, zone);
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
	const workingHours = output === 'slots' ? readWorkingHours(node, parameter, itemIndex) : undefined;
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

function times(interval: Interval, zone: string): IDataObject {
	return {
		start: utcIso(interval.start),
		end: utcIso(interval.end),
		startInZone: zonedIso(interval.start, zone),
		endInZone: zonedIso(interval.end, zone),
		timeZone: zone,
		durationMinutes: Math.round((interval.end - interval.start) / MINUTE),
	};
}

function rangeText(query: FreeTimeQuery): string {
	const local = (ms: number) => DateTime.fromMillis(ms, { zone: query.zone }).toFormat("yyyy-MM-dd HH:mm");
	return `between ${local(query.range.start)} and ${local(query.range.end)} (${query.zone})`;
}

function shapeOutput(query: FreeTimeQuery, blocks: BusyBlock[], names: Map<string, string>): IDataObject[] {
	const inRange = clipBlocks(blocks, query.range, query.bufferBeforeMs, query.bufferAfterMs);
	if (query.output === 'isFree') {
		const conflicts = inRange.flatMap((block) => block.events);
		return [{ free: conflicts.length === 0, ...times(query.range, query.zone), conflicts: conflicts.map((busy) => busySummary(busy, names)) }];
	}
	if (query.output === 'busy') {
		if (inRange.length === 0) return [{ notices: [`No busy time ${rangeText(query)}`] }];
		return inRange.map((block) => ({ ...times(block, query.zone), events: block.events.map((busy) => busySummary(busy, names)) }));
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
 * Find Free Time: lists the events of the chosen calendars (see `readCalendarEvents`), keeps
 * those that make time busy and computes free slots, busy blocks or whether the range is free.
 */
export async function findFreeTime(item: OperationItem): Promise<IDataObject[]> {
	const { context, itemIndex } = item;
	const query = readQuery(item);
	const { chosen, events, notices } = await readCalendarEvents(context, itemIndex, {
		values: query.calendarValues,
		field: 'Calendars',
		unreadable: query.skipUnreadable ? 'skip' : 'fail',
		range: query.range,
		zone: query.zone,
		reachMs: Math.max(query.bufferBeforeMs, query.bufferAfterMs),
	});
	const names = new Map(chosen.map((calendar) => [`${calendar.accountId}/${calendar.id}`, calendarName(calendar)]));
	const busy = busyEvents(events, { zone: query.zone, ignoreAllDay: query.ignoreAllDay });
	const blocks = mergeBusy(busy, query.bufferBeforeMs, query.bufferAfterMs);
	// The skipped calendars concern the whole result: said once, on the first item.
	return shapeOutput(query, blocks, names).map((output, index) => {
		const all = [...(index === 0 ? notices : []), ...((output.notices as string[] | undefined) ?? [])];
		return all.length > 0 ? { ...output, notices: all } : output;
	});
}
