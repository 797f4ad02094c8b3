import { DateTime, Duration } from 'luxon';
import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import { writableCalendar } from '../../../shared/calendar/calendarTarget';
import { MAX_RANGE_MONTHS, readCalendarEvents } from '../../../shared/calendar/busyTime';
import type { CalendarInfo } from '../../../shared/calendar/calendarLists';
import { simplifyEvent } from '../../../shared/output/simplifyEvent';
import { simplifyTask } from '../../../shared/output/simplifyTask';
import { DATE_TIME_HINT, isIanaZone, notIanaZoneProblem, parseDateInput, utcIso } from '../../../shared/time/dates';
import { invalidField, quoted } from '../../../shared/transport/errors';
import { locatorValue, toStringList } from '../../../shared/fields/fields';
import { busyEvents, freeSlots, mergeBusy, type Interval, type WorkingHours } from '../../../shared/calendar/freeTime';
import type { OperationItem } from '../../../shared/transport/itemOperation';
import { readTaskById } from '../../../shared/tasks/taskPaging';
import { blocksByTask, extraBlockNotice, markedTaskId, readBlockReminder, writeBlock, type BlockReminder } from '../../../shared/calendar/taskBlocks';
import { gaveWayNotice, giveWayToOlder } from '../../../shared/copies/sameMoment';
import { readWorkingHours } from '../../../shared/calendar/busyTimeFields';
import { DEFAULT_HORIZON_DAYS } from './scheduleFields';

const MINUTE = 60_000;

/**
 * Task → Schedule in Calendar (time-blocking): the first free slot for a task in working hours,
 * booked as an event whose description carries a marker line with the task's ID. The marker is
 * how a later run finds the block again: it keeps a block that is still free and moves one that
 * is not, so a task never gets two blocks.
 */

interface ScheduleQuery {
	taskId: string;
	zone: string;
	notBefore: DateTime;
	notAfterValue: unknown;
	lengthMinutes?: number;
	workingHours?: WorkingHours;
	stepMinutes: number;
	reminder: BlockReminder;
	ignoreAllDay: boolean;
	skipUnreadable: boolean;
	checkValues: string[];
}

/** The fields of one item that need no request, checked. */
function readQuery({ context, itemIndex, parameter }: OperationItem): ScheduleQuery {
	const node = context.getNode();
	const taskId = locatorValue(parameter('taskId', '')).trim();
	if (!taskId) throw invalidField(node, 'Task', 'choose a task from the list or enter its ID', itemIndex);
	const zone = String(parameter('timeZone', '') || context.getTimezone());
	if (!isIanaZone(zone)) throw invalidField(node, 'Time Zone', notIanaZoneProblem(zone), itemIndex);
	const notBeforeValue = parameter('notBefore', '');
	const notBefore = parseDateInput(notBeforeValue, zone);
	if (!notBefore) throw invalidField(node, 'Not Before', `${quoted(notBeforeValue)} is not a date and time`, itemIndex, DATE_TIME_HINT);
	let lengthMinutes: number | undefined;
	if (parameter('lengthFrom', 'task') === 'minutes') {
		lengthMinutes = Number(parameter('lengthMinutes', 60));
		if (!Number.isInteger(lengthMinutes) || lengthMinutes < 1 || lengthMinutes > 24 * 60) {
			throw invalidField(node, 'Length (Minutes)', 'must be a whole number of minutes from 1 to 1440', itemIndex);
		}
	}
	const options = parameter('options', {}) as IDataObject;
	const step = Number(options.slotStep ?? 15);
	if (!Number.isInteger(step) || step < 1 || step > 1440) throw invalidField(node, 'Block Starts Every (Minutes)', 'must be a whole number of minutes from 1 to 1440', itemIndex);
	return {
		taskId,
		zone,
		notBefore,
		notAfterValue: parameter('notAfter', ''),
		lengthMinutes,
		workingHours: readWorkingHours(node, parameter, itemIndex),
		stepMinutes: step,
		reminder: readBlockReminder(node, options, itemIndex),
		ignoreAllDay: options.allDayEvents === 'ignore',
		skipUnreadable: options.unreadableCalendars === 'skip',
		checkValues: toStringList(parameter('checkCalendars', [])),
	};
}

/** The task (1 point); one that is unknown, deleted or done cannot be scheduled. */
async function readTaskToSchedule({ context, itemIndex }: OperationItem, taskId: string): Promise<IDataObject> {
	const task = await readTaskById(context, taskId, itemIndex);
	const node = context.getNode();
	if (!task) throw invalidField(node, 'Task', `no task with ID ${quoted(taskId)} exists in this account`, itemIndex, 'Check the task ID, or pick the task from the list.');
	if (task.deleted === true) throw invalidField(node, 'Task', `the task ${quoted(task.title)} is deleted`, itemIndex);
	if (task.progress === 'completed' || task.progress === 'cancelled') {
		throw invalidField(node, 'Task', `the task ${quoted(task.title)} is ${String(task.progress)}: there is nothing left to schedule`, itemIndex, 'Reopen the task first to schedule it again.');
	}
	return task;
}

/** The block's length and the search range, from the fields or else from the task. */
function lengthAndRange({ context, itemIndex }: OperationItem, query: ScheduleQuery, task: IDataObject): { lengthMs: number; range: Interval } {
	const node = context.getNode();
	let lengthMinutes = query.lengthMinutes;
	if (lengthMinutes === undefined) {
		const estimate = typeof task.estimatedDuration === 'string' ? Duration.fromISO(task.estimatedDuration) : undefined;
		if (!estimate?.isValid || estimate.as('minutes') < 1) {
			throw invalidField(node, 'Length', `the task ${quoted(task.title)} has no estimated duration`, itemIndex, 'Set Length to Minutes Given Below, or give the task an estimated duration.');
		}
		lengthMinutes = Math.ceil(estimate.as('minutes'));
	}
	let end: DateTime | undefined;
	let endField = 'Not After';
	if (String(query.notAfterValue ?? '').trim() !== '' || DateTime.isDateTime(query.notAfterValue)) {
		end = parseDateInput(query.notAfterValue, query.zone);
		if (!end) throw invalidField(node, 'Not After', `${quoted(query.notAfterValue)} is not a date and time`, itemIndex, DATE_TIME_HINT);
	} else if (typeof task.due === 'string') {
		endField = "The task's due date";
		end = parseDateInput(task.due, isIanaZone(task.timeZone) ? task.timeZone : query.zone);
	}
	end ??= query.notBefore.plus({ days: DEFAULT_HORIZON_DAYS });
	if (end <= query.notBefore) {
		throw invalidField(node, endField === 'Not After' ? 'Not After' : 'Not Before', `${endField} (${end.setZone(query.zone).toFormat('yyyy-MM-dd HH:mm')}) is not after Not Before (${query.notBefore.setZone(query.zone).toFormat('yyyy-MM-dd HH:mm')})`, itemIndex);
	}
	if (end > query.notBefore.setZone(query.zone).plus({ months: MAX_RANGE_MONTHS })) {
		throw invalidField(node, 'Not After', `must be at most ${MAX_RANGE_MONTHS} months after Not Before`, itemIndex);
	}
	return { lengthMs: lengthMinutes * MINUTE, range: { start: query.notBefore.toMillis(), end: end.toMillis() } };
}

/** The calendar the block goes in: one the user may write to (see `writableCalendar`). */
export async function blockCalendar(item: OperationItem): Promise<CalendarInfo> {
	return await writableCalendar(item, 'Calendar');
}

/** Task → Schedule in Calendar for one item; the output names what happened: created, kept or moved. */
export async function scheduleTask(item: OperationItem): Promise<IDataObject[]> {
	const { context, itemIndex } = item;
	const query = readQuery(item);
	const task = await readTaskToSchedule(item, query.taskId);
	const { lengthMs, range } = lengthAndRange(item, query, task);
	const target = await blockCalendar(item);
	const { events, notices: skipped } = await readCalendarEvents(context, itemIndex, {
		values: query.checkValues,
		field: 'Check Calendars',
		unreadable: query.skipUnreadable ? 'skip' : 'fail',
		// The block's own calendar must be read: without it, the block could not be found again.
		own: target,
		ownProblem: 'so its block for the task cannot be looked for',
		range,
		zone: query.zone,
	});

	const blocks = blocksByTask(events, target, query.zone).get(query.taskId) ?? [];
	const blockIds = new Set(blocks.map(({ event }) => String(event.id)));
	const busy = mergeBusy(busyEvents(events.filter((event) => !blockIds.has(String(event.id))), { zone: query.zone, ignoreAllDay: query.ignoreAllDay }));
	const rules = { zone: query.zone, workingHours: query.workingHours, minimumMs: lengthMs };
	const notices = [...skipped, ...blocks.slice(1).map(({ event }) => extraBlockNotice(event))];
	// The block and the task as their Simplified outputs give them (dates with their offsets).
	const output = (action: string, event: IDataObject, previousStart?: string) => ({
		action,
		event: { ...simplifyEvent(event), ...(previousStart ? { previousStart } : {}) },
		task: simplifyTask(task),
		...(notices.length > 0 ? { notices } : {}),
	});

	const current = blocks[0];
	if (current?.interval) {
		const { start, end } = current.interval;
		const stillFree = end - start === lengthMs && freeSlots(range, busy, rules).some((slot) => slot.start <= start && end <= slot.end);
		if (stillFree) return [output('kept', current.event)];
	}
	const slot = freeSlots(range, busy, { ...rules, stepMinutes: query.stepMinutes })[0];
	if (!slot) {
		const local = (ms: number) => DateTime.fromMillis(ms, { zone: query.zone }).toFormat('yyyy-MM-dd HH:mm');
		const hours = query.workingHours ? ` within the working hours ${query.workingHours.from}–${query.workingHours.to}` : '';
		throw new NodeOperationError(context.getNode(), `No free slot of ${lengthMs / MINUTE} minutes between ${local(range.start)} and ${local(range.end)} (${query.zone})${hours}`, {
			itemIndex,
			description: `${current ? 'The block the task has is no longer free and was left as it is. ' : 'Nothing was created. '}Give a later Not After, a shorter Length, other working hours, or fewer Check Calendars.`,
		});
	}
	const written = await writeBlock(context, itemIndex, { target, block: { start: slot.start, end: slot.start + lengthMs }, zone: query.zone, task: { ...task, id: query.taskId }, current: current?.event, reminder: query.reminder });
	if (current) return [output('moved', written, utcIso(current.interval?.start ?? 0))];
	// Another process may have created a block for the task at the same moment: the older one stays.
	const settled = await giveWayToOlder(context, itemIndex, { target, zone: query.zone, created: [written], keyOf: markedTaskId });
	notices.push(...settled.notices);
	const kept = settled.kept.get(String(written.id));
	if (!kept) return [output('created', written)];
	notices.push(gaveWayNotice('a block for this task', written, kept));
	return [output('kept', kept)];
}
