import { DateTime, Duration } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { MAX_RANGE_MONTHS, readCalendarEvents } from '../../../shared/calendar/busyTime';
import { calendarName, type CalendarInfo } from '../../../shared/calendar/calendarLists';
import { DATE_TIME_HINT, isIanaZone, notIanaZoneProblem, parseDateInput, zonedIso } from '../../../shared/time/dates';
import { invalidField, quoted, toNodeError } from '../../../shared/transport/errors';
import { toStringList } from '../../../shared/fields/fields';
import { busyEvents, eventInterval, type Interval, type WorkingHours } from '../../../shared/calendar/freeTime';
import { inItemTurn, runBatch, type BatchItemResult, type OperationItem } from '../../../shared/transport/itemOperation';
import { listTaskPage, readTaskById, walkTasks } from '../../../shared/tasks/taskPaging';
import { readWorkingHours } from '../../../shared/calendar/busyTimeFields';
import { taskFilter } from '../../../shared/tasks/taskFilter';
import { READ_ONE_BY_ONE_BELOW } from './planFields';
import { planOrder, planPlacements, type Placement, type PlanTask } from './planPlacement';
import { blockCalendar } from './schedule';
import { blocksByTask, extraBlockNotice, markedTaskId, readBlockReminder, writeBlock, type BlockReminder, type TaskBlock } from '../../../shared/calendar/taskBlocks';
import { gaveWayNotice, giveWayToOlder } from '../../../shared/copies/sameMoment';
import { actionWord } from '../../../shared/copies/plan';
import { DEFAULT_HORIZON_DAYS } from './scheduleFields';

/**
 * Task → Plan Tasks (batch time-blocking): many tasks placed with one read of the tasks and the
 * calendars for the whole batch, then one write per block created or moved. Blocks carry the
 * same marker line as Schedule in Calendar's, so either operation finds and keeps the other's.
 * In a workflow all input items are planned together (the node's custom operation); as a tool,
 * one call is one item and one plan (the operation's routing). Fields other than Task IDs are
 * read from the first input item.
 */

const MINUTE = 60_000;

interface PlanSettings {
	zone: string;
	notBefore: DateTime;
	end: DateTime;
	defaultLengthMinutes: number;
	workingHours?: WorkingHours;
	stepMinutes: number;
	reminder: BlockReminder;
	ignoreAllDay: boolean;
	skipUnreadable: boolean;
	checkValues: string[];
	preview: boolean;
	fromFilters: boolean;
	filters: IDataObject;
}

/** What one input item asks for: its task IDs, or the error that item fails with. */
interface Request {
	itemIndex: number;
	ids: string[];
	error?: Error;
}

/** The outcome for one input item: its output objects, or its error. */
type ItemResult = BatchItemResult;

const local = (instant: DateTime | number, zone: string) => (typeof instant === 'number' ? DateTime.fromMillis(instant, { zone }) : instant.setZone(zone)).toFormat('yyyy-MM-dd HH:mm');

/** The fields that hold for the whole plan, from the first item, checked before any request. */
function readSettings({ context, itemIndex, parameter }: OperationItem): PlanSettings {
	const node = context.getNode();
	const zone = String(parameter('timeZone', '') || context.getTimezone());
	if (!isIanaZone(zone)) throw invalidField(node, 'Time Zone', notIanaZoneProblem(zone), itemIndex);
	const notBeforeValue = parameter('notBefore', '');
	const notBefore = parseDateInput(notBeforeValue, zone);
	if (!notBefore) throw invalidField(node, 'Not Before', `${quoted(notBeforeValue)} is not a date and time`, itemIndex, DATE_TIME_HINT);
	const notAfterValue = parameter('notAfter', '');
	let end = notBefore.plus({ days: DEFAULT_HORIZON_DAYS });
	if (String(notAfterValue ?? '').trim() !== '' || DateTime.isDateTime(notAfterValue)) {
		const parsed = parseDateInput(notAfterValue, zone);
		if (!parsed) throw invalidField(node, 'Not After', `${quoted(notAfterValue)} is not a date and time`, itemIndex, DATE_TIME_HINT);
		if (parsed <= notBefore) throw invalidField(node, 'Not After', `${local(parsed, zone)} is not after Not Before (${local(notBefore, zone)})`, itemIndex);
		if (parsed > notBefore.setZone(zone).plus({ months: MAX_RANGE_MONTHS })) throw invalidField(node, 'Not After', `must be at most ${MAX_RANGE_MONTHS} months after Not Before`, itemIndex);
		end = parsed;
	}
	const defaultLengthMinutes = Number(parameter('defaultLengthMinutes', 60));
	if (!Number.isInteger(defaultLengthMinutes) || defaultLengthMinutes < 0 || defaultLengthMinutes > 1440) {
		throw invalidField(node, 'Default Length (Minutes)', 'must be a whole number of minutes from 0 to 1440', itemIndex);
	}
	const options = parameter('options', {}) as IDataObject;
	const stepMinutes = Number(options.slotStep ?? 15);
	if (!Number.isInteger(stepMinutes) || stepMinutes < 1 || stepMinutes > 1440) throw invalidField(node, 'Block Starts Every (Minutes)', 'must be a whole number of minutes from 1 to 1440', itemIndex);
	const preview = parameter('preview', false);
	if (typeof preview !== 'boolean') throw invalidField(node, 'Preview', `${quoted(preview)} is not true or false`, itemIndex);
	return {
		zone,
		notBefore,
		end,
		defaultLengthMinutes,
		workingHours: readWorkingHours(node, parameter, itemIndex),
		stepMinutes,
		reminder: readBlockReminder(node, options, itemIndex),
		ignoreAllDay: options.allDayEvents === 'ignore',
		skipUnreadable: options.unreadableCalendars === 'skip',
		checkValues: toStringList(parameter('checkCalendars', [])),
		preview,
		fromFilters: parameter('tasksFrom', 'input') === 'filters',
		filters: parameter('filters', {}) as IDataObject,
	};
}

/** Each item's task IDs (Task IDs = input items); an item without any fails on its own. */
function readRequests(items: OperationItem[]): Request[] {
	return items.map(({ context, itemIndex, parameter }) => {
		let ids: string[];
		try {
			ids = toStringList(parameter('taskIds', ''));
		} catch (error) {
			// An expression that fails for one item fails that item only.
			return { itemIndex, ids: [], error: toNodeError(context.getNode(), error, itemIndex) };
		}
		const error =
			ids.length === 0
				? invalidField(
						context.getNode(),
						'Task IDs',
						'give at least one task ID',
						itemIndex,
						'The input item names no task (after a Manual Trigger none does). Put Task Get Many before this node, give the IDs separated by commas, or set Tasks to Open Tasks Matching Filters to plan your open tasks.',
					)
				: undefined;
		return { itemIndex, ids, error };
	});
}

/** Tasks read by ID, one by one (1 point each): the open ones, and why each other one cannot be planned. */
async function readTasksById({ context, itemIndex }: OperationItem, ids: string[], tasks: Map<string, IDataObject>, problems: Map<string, string>): Promise<void> {
	for (const id of ids) {
		const task = await readTaskById(context, id, itemIndex);
		if (!task) problems.set(id, `no task with ID ${quoted(id)} exists in this account`);
		else if (task.deleted === true) problems.set(id, `the task ${quoted(task.title)} is deleted`);
		else if (task.progress === 'completed' || task.progress === 'cancelled') problems.set(id, `the task ${quoted(task.title)} is ${String(task.progress)}: there is nothing left to plan`);
		else tasks.set(id, task);
	}
}

/**
 * The open tasks asked for, by ID: read one by one when few (1 point each), else from the list of
 * open tasks (10 points per 100). When more open tasks share one `updated` value than a page
 * holds, the list cannot reach all of them: an ID it did not give is then read by ID before it
 * is called unknown. A task that is unknown, deleted or done is a problem of the items that name
 * it, not of the plan.
 */
async function readRequestedTasks(first: OperationItem, ids: string[]): Promise<{ tasks: Map<string, IDataObject>; problems: Map<string, string> }> {
	const { context, itemIndex } = first;
	const tasks = new Map<string, IDataObject>();
	const problems = new Map<string, string>();
	if (ids.length < READ_ONE_BY_ONE_BELOW) {
		await readTasksById(first, ids, tasks, problems);
		return { tasks, problems };
	}
	const wanted = new Set(ids);
	const open = await walkTasks(async (after, limit) => await listTaskPage(context, after, limit, itemIndex), { idsAtUpdated: [] }, Number.POSITIVE_INFINITY, {
		keep: (task) => (wanted.has(String(task.id)) ? task : undefined),
	});
	for (const task of open.tasks) tasks.set(String(task.id), task);
	const missing = ids.filter((id) => !tasks.has(id));
	if (open.overflowedAt.length > 0) await readTasksById(first, missing, tasks, problems);
	else for (const id of missing) problems.set(id, `no open task with ID ${quoted(id)}: it is unknown, completed or deleted`);
	return { tasks, problems };
}

/** The open tasks that match the filters, in the order the service lists them. */
async function readFilteredTasks({ context, itemIndex }: OperationItem, filters: IDataObject): Promise<IDataObject[]> {
	const matches = taskFilter(filters) ?? (() => true);
	const open = await walkTasks(async (after, limit) => await listTaskPage(context, after, limit, itemIndex), { idsAtUpdated: [] }, Number.POSITIVE_INFINITY, {
		keep: (task) => (matches(task) ? task : undefined),
	});
	return open.tasks;
}

/** A task's block length (ms) from its estimated duration, else the default; undefined: none. */
function blockLength(task: IDataObject, settings: PlanSettings): number | undefined {
	const estimate = typeof task.estimatedDuration === 'string' ? Duration.fromISO(task.estimatedDuration) : undefined;
	if (estimate?.isValid && estimate.as('minutes') >= 1) return Math.ceil(estimate.as('minutes')) * MINUTE;
	return settings.defaultLengthMinutes > 0 ? settings.defaultLengthMinutes * MINUTE : undefined;
}

function dueOf(task: IDataObject, settings: PlanSettings): number | undefined {
	if (typeof task.due !== 'string') return undefined;
	return parseDateInput(task.due, isIanaZone(task.timeZone) ? task.timeZone : settings.zone)?.toMillis();
}

interface Calendars {
	target: CalendarInfo;
	events: IDataObject[];
	notices: string[];
}

/** The one read of the calendars: the blocks' calendar (which must be readable) and the checked ones, over the plan's range. */
async function readCalendars(first: OperationItem, settings: PlanSettings): Promise<Calendars> {
	const { context, itemIndex } = first;
	const target = await blockCalendar(first);
	const { events, notices } = await readCalendarEvents(context, itemIndex, {
		values: settings.checkValues,
		field: 'Check Calendars',
		unreadable: settings.skipUnreadable ? 'skip' : 'fail',
		own: target,
		ownProblem: 'so the blocks of the tasks cannot be looked for',
		range: { start: settings.notBefore.toMillis(), end: settings.end.toMillis() },
		zone: settings.zone,
	});
	return { target, events, notices };
}

interface Planned {
	task: IDataObject;
	plan: PlanTask;
	placement: Placement;
	/** The block the task has (the first, when it has several), and the others left as they are. */
	block?: IDataObject;
	extraBlocks: IDataObject[];
}

/** Every task placed: the busy time is the events less the tasks' own blocks (each task keeps or moves its own). */
function makePlan(tasks: IDataObject[], calendars: Calendars, settings: PlanSettings): Map<string, Planned> {
	const { target, events } = calendars;
	const blocksOf = blocksByTask(events, target, settings.zone);
	const blockIds = new Set<string>();
	const planned = new Map<string, Planned>();
	for (const [order, task] of tasks.entries()) {
		const id = String(task.id);
		const blocks: TaskBlock[] = blocksOf.get(id) ?? [];
		for (const { event } of blocks) blockIds.add(String(event.id));
		const due = dueOf(task, settings);
		const end = Math.min(due ?? Number.POSITIVE_INFINITY, settings.end.toMillis());
		const plan: PlanTask = { id, order, priority: Number(task.priority ?? 0), due, lengthMs: blockLength(task, settings), end, current: blocks[0]?.interval };
		planned.set(id, { task, plan, placement: { kind: 'none', why: 'noSlot' }, block: blocks[0]?.event, extraBlocks: blocks.slice(1).map(({ event }) => event) });
	}
	const busy: Interval[] = busyEvents(events.filter((event) => !blockIds.has(String(event.id))), { zone: settings.zone, ignoreAllDay: settings.ignoreAllDay });
	const rules = { start: settings.notBefore.toMillis(), zone: settings.zone, workingHours: settings.workingHours, stepMinutes: settings.stepMinutes };
	for (const [id, placement] of planPlacements([...planned.values()].map(({ plan }) => plan), busy, rules)) planned.get(id)!.placement = placement;
	return planned;
}

/** Why a task was not placed, in words. */
function reasonFor(entry: Planned, settings: PlanSettings): string {
	const { plan, placement } = entry;
	if (placement.kind !== 'none') return '';
	if (placement.why === 'noLength') return 'the task has no estimated duration, and Default Length is 0';
	const limit = plan.due !== undefined && plan.due <= settings.end.toMillis() ? `its due (${local(plan.due, settings.zone)})` : `Not After (${local(settings.end, settings.zone)})`;
	if (placement.why === 'endsBeforeStart') return `${limit} is not after Not Before (${local(settings.notBefore, settings.zone)})`;
	const hours = settings.workingHours ? ` within the working hours ${settings.workingHours.from}–${settings.workingHours.to}` : '';
	return `no free slot of ${(plan.lengthMs ?? 0) / MINUTE} minutes before ${limit}${hours}`;
}

/**
 * One task's output item, after writing its block unless previewing (a block created is added to
 * `created`); the calendars' notice only on the run's first output item.
 */
async function outputFor(first: OperationItem, itemIndex: number, entry: Planned, calendars: Calendars, settings: PlanSettings, isFirstOutput: boolean, created: IDataObject[]): Promise<IDataObject> {
	const { task, plan, placement } = entry;
	const { zone } = settings;
	const notices = [...(isFirstOutput ? calendars.notices : []), ...entry.extraBlocks.map(extraBlockNotice)];
	const about: IDataObject = { taskId: plan.id, title: task.title, priority: task.priority ?? 0, due: plan.due === undefined ? null : zonedIso(plan.due, zone), timeZone: zone };
	const done = (fields: IDataObject) => ({ ...about, ...fields, preview: settings.preview, ...(notices.length > 0 ? { notices } : {}) });
	if (placement.kind === 'none') {
		if (entry.block && plan.current) notices.push(`Its block (event ${String(entry.block.id)}, ${local(plan.current.start, zone)}) is no longer free and was left as it is`);
		return done({ action: 'notPlaced', reason: reasonFor(entry, settings) });
	}
	const { block } = placement;
	const kind = placement.kind === 'keep' ? 'keep' : entry.block ? 'move' : 'create';
	let eventId = entry.block?.id ?? null;
	if (kind !== 'keep' && !settings.preview) {
		const written = await writeBlock(first.context, itemIndex, { target: calendars.target, block, zone, task, current: entry.block, reminder: settings.reminder });
		eventId = String(written.id ?? '');
		if (kind === 'create') created.push(written);
	}
	return done({
		action: actionWord(kind, settings.preview),
		start: zonedIso(block.start, zone),
		end: zonedIso(block.end, zone),
		durationMinutes: (block.end - block.start) / MINUTE,
		calendarId: calendars.target.id,
		accountId: calendars.target.accountId,
		calendarName: calendarName(calendars.target),
		eventId,
		...(kind === 'move' && plan.current ? { previousStart: zonedIso(plan.current.start, zone) } : {}),
	});
}

/**
 * Plans the tasks of all `items` at once. A problem of the whole plan (a field, a read) throws;
 * a problem of one item (no IDs, an unknown task, a failed write) is that item's result. With
 * `stopAtItemErrors` (no Continue On Fail) an item's problem throws before anything is written.
 */
async function planBatch(items: OperationItem[], stopAtItemErrors: boolean): Promise<ItemResult[]> {
	const first = items[0];
	const settings = readSettings(first);
	const requests: Request[] = settings.fromFilters ? [{ itemIndex: first.itemIndex, ids: [] }] : readRequests(items);
	const stopAt = (request: Request) => {
		if (request.error && stopAtItemErrors) throw request.error;
	};
	requests.forEach(stopAt);
	let tasks: IDataObject[];
	if (settings.fromFilters) {
		tasks = await readFilteredTasks(first, settings.filters);
		requests[0].ids = planOrder(tasks.map((task, order) => ({ id: String(task.id), order, priority: Number(task.priority ?? 0), due: dueOf(task, settings), end: 0 }))).map(({ id }) => id);
	} else {
		const ids = [...new Set(requests.filter((request) => !request.error).flatMap((request) => request.ids))];
		const read = await readRequestedTasks(first, ids);
		for (const request of requests) {
			const problem = request.error ? undefined : request.ids.map((id) => read.problems.get(id)).find(Boolean);
			if (problem) request.error = invalidField(first.context.getNode(), 'Task IDs', problem, request.itemIndex, 'Check the IDs, or plan only open tasks (Task Get Many lists them).');
			stopAt(request);
		}
		// Only the tasks of items that stand: a failed item's other tasks take no time from the rest.
		tasks = [...new Set(requests.filter((request) => !request.error).flatMap((request) => request.ids))].map((id) => read.tasks.get(id)!);
	}
	// Nothing to plan (no task matches the filters, or every item failed): no calendar is read.
	if (tasks.length === 0) return requests.map(({ itemIndex, error }) => ({ itemIndex, output: [], error }));
	const calendars = await readCalendars(first, settings);
	const planned = makePlan(tasks, calendars, settings);
	return await writePlan(first, requests, planned, calendars, settings, stopAtItemErrors);
}

/** Each item's output in its own order of IDs (a task named twice is written once and output for each). */
async function writePlan(first: OperationItem, requests: Request[], planned: Map<string, Planned>, calendars: Calendars, settings: PlanSettings, stopAtItemErrors: boolean): Promise<ItemResult[]> {
	const outputs = new Map<string, IDataObject>();
	const created: IDataObject[] = [];
	const results: ItemResult[] = [];
	for (const request of requests) {
		if (request.error) {
			results.push({ itemIndex: request.itemIndex, output: [], error: request.error });
			continue;
		}
		try {
			const output: IDataObject[] = [];
			for (const id of request.ids) {
				if (!outputs.has(id)) outputs.set(id, await outputFor(first, request.itemIndex, planned.get(id)!, calendars, settings, outputs.size === 0, created));
				output.push(outputs.get(id)!);
			}
			results.push({ itemIndex: request.itemIndex, output });
		} catch (error) {
			const nodeError = toNodeError(first.context.getNode(), error, request.itemIndex);
			if (stopAtItemErrors) throw nodeError;
			results.push({ itemIndex: request.itemIndex, output: [], error: nodeError });
		}
	}
	await settleCreatedBlocks(first, created, [...outputs.values()], calendars, settings);
	return results;
}

/**
 * After creating blocks: a task another process planned at the same moment keeps its older block
 * (see `giveWayToOlder`), and the task's output names that block. Outputs are changed in place.
 */
async function settleCreatedBlocks(first: OperationItem, created: IDataObject[], outputs: IDataObject[], calendars: Calendars, settings: PlanSettings): Promise<void> {
	const { kept, notices } = await giveWayToOlder(first.context, first.itemIndex, { target: calendars.target, zone: settings.zone, created, keyOf: markedTaskId });
	const addNotices = (output: IDataObject, added: string[]) => {
		if (added.length > 0) output.notices = [...((output.notices as string[] | undefined) ?? []), ...added];
	};
	if (outputs.length > 0) addNotices(outputs[0], notices);
	for (const output of outputs) {
		const own = created.find((event) => String(event.id) === output.eventId);
		const older = own && kept.get(String(own.id));
		const interval = older && eventInterval(older, settings.zone);
		if (!own || !older || !interval) continue;
		Object.assign(output, { action: actionWord('keep', false), start: zonedIso(interval.start, settings.zone), end: zonedIso(interval.end, settings.zone), durationMinutes: (interval.end - interval.start) / MINUTE, eventId: String(older.id) });
		addNotices(output, [gaveWayNotice('a block for this task', own, older)]);
	}
}

/** Plan Tasks as a tool runs it (the operation's routing): one item, one plan. */
export async function planOneItem(item: OperationItem): Promise<IDataObject[]> {
	const [result] = await planBatch([item], true);
	if (result.error) throw result.error;
	return result.output;
}

/**
 * Plan Tasks in a workflow: all input items in one plan, each output item paired with the input
 * item that named its task (see {@link runBatch}).
 */
export async function planTasks(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// Runs that overlap take turns, as the items of Schedule in Calendar do: the later reads the blocks the earlier wrote.
	return await runBatch(this, async (items, stopAtItemErrors) => await inItemTurn(this, async () => await planBatch(items, stopAtItemErrors)));
}
