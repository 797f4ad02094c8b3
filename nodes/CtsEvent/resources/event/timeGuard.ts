import { DateTime } from 'luxon';
import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { busySummary, readCalendarEvents } from '../../../shared/calendar/busyTime';
import { calendarName, type CalendarInfo } from '../../../shared/calendar/calendarLists';
import { errorItem, quoted, toNodeError } from '../../../shared/transport/errors';
import { toStringList } from '../../../shared/fields/fields';
import { busyEvents, eventInterval, notBusyReason, type Interval } from '../../../shared/calendar/freeTime';
import { inItemTurn } from '../../../shared/transport/itemOperation';
import { itemState } from '../../../shared/transport/itemState';
import { createdBefore, deleteOwnEvent, gaveWayNotice } from '../../../shared/copies/sameMoment';
import { shapeOutput } from '../../../shared/output/outputShape';
import { sendRequest } from '../../../shared/transport/transport';
import { readableCalendarsField } from '../../../shared/calendar/busyTimeFields';
import { EVENT_RESOURCE } from '../../shared/eventFields';
import { simplifyEvent } from '../../../shared/output/simplifyEvent';
import { utcIso } from '../../../shared/time/dates';
import { showFor } from '../../../shared/fields/displayOptions';

/**
 * The guards of Create and Update (v3): whether the event's time is taken in the calendars the
 * user picks, and (Create) whether the same event is already in the calendar. Both read the
 * calendars with one list call per account; with neither asked for, the request is sent as is.
 */

const MINUTE = 60_000;

/** What the guards of an item ask for. */
interface Guard {
	ifTaken: string;
	skipExisting: boolean;
}

/** What a check says: output this instead of writing, or fail with this error; undefined: write. */
type Verdict = { output: IDataObject } | { error: NodeOperationError } | undefined;

/**
 * Sends an item's Create or Update, unless a guard the user set says not to (see {@link guardFields}).
 * A Create is checked again after it is sent (see {@link checkAfterCreating}).
 */
async function sendGuarded(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	const ifTaken = this.getNodeParameter('ifTimeTaken', 'createAnyway') as string;
	const isCreate = this.getNodeParameter('operation', '') === 'create';
	const guard: Guard = { ifTaken, skipExisting: isCreate && this.getNodeParameter('skipIfExists', false) === true };
	if (ifTaken === 'createAnyway' && !guard.skipExisting) return await sendRequest.call(this, requestData);
	const body = (requestData.options.body ?? {}) as IDataObject;
	const outputOf = (json: IDataObject): INodeExecutionData[] => [{ json, pairedItem: { item: itemIndex } }];
	const failed = (error: unknown): INodeExecutionData[] => {
		const nodeError = toNodeError(this.getNode(), error, itemIndex);
		if (this.continueOnFail()) return [errorItem(nodeError, itemIndex)];
		throw nodeError;
	};
	// Items take turns: an item checks the calendars after the items before it wrote their events.
	return await inItemTurn(this, async () => {
		let verdict: Verdict;
		try {
			verdict = await checkTime(this, body, guard);
		} catch (error) {
			return failed(error);
		}
		if (verdict) return 'error' in verdict ? failed(verdict.error) : outputOf(verdict.output);
		const sent = await sendRequest.call(this, requestData);
		const created = isCreate ? itemState(this).answeredEvent : undefined;
		if (!created?.id || sent.length !== 1 || sent[0].json.error !== undefined) return sent;
		try {
			const settled = await checkAfterCreating(this, body, guard, created, sent[0].json);
			return settled ? ('error' in settled ? failed(settled.error) : outputOf(settled.output)) : sent;
		} catch (error) {
			return failed(error);
		}
	});
}

/**
 * After creating: the same check over the events created before the new one (see
 * `copies/sameMoment.ts`). Runs in another process (a queue-mode worker) take no turns with this
 * one, so one may have created the same event, or one in the same time, between this run's check
 * and its create: then this run deletes its own event and answers what its check would have said.
 * The run that created later always reads both, so one event remains. A read that fails leaves the
 * event as created, with a notice.
 */
async function checkAfterCreating(context: IExecutePaginationFunctions, body: IDataObject, guard: Guard, created: IDataObject, output: IDataObject): Promise<Verdict> {
	let verdict: Verdict;
	try {
		verdict = await checkTime(context, body, guard, created);
	} catch (error) {
		const notice = `Could not check whether another run created the same event at the same moment (${(error as Error).message})`;
		return { output: { ...output, notices: [...((output.notices as string[] | undefined) ?? []), notice] } };
	}
	if (!verdict) return undefined;
	const itemIndex = context.getItemIndex();
	await deleteOwnEvent(context, itemIndex, created);
	// The event kept: the one that already exists, else the first event in the way.
	const conflicts = ('error' in verdict ? verdict.error.context.conflicts : verdict.output.conflicts) as IDataObject[] | undefined;
	const existing = 'output' in verdict && verdict.output.alreadyExists === true ? verdict.output : undefined;
	const notice = gaveWayNotice(existing ? 'the same event' : 'an event in this time', created, existing ?? conflicts?.[0] ?? {});
	if ('error' in verdict) {
		verdict.error.description = `${notice}. ${String(verdict.error.description ?? '')}`;
		return verdict;
	}
	return { output: { ...verdict.output, notices: [...((verdict.output.notices as string[] | undefined) ?? []), notice] } };
}

/** The IDs that stand for the event an Update changes: it never conflicts with itself or its own series. */
async function ownIds(context: IExecutePaginationFunctions, body: IDataObject): Promise<Set<string>> {
	const ids = new Set<string>();
	for (const id of [body.id, body.masterEventId]) if (typeof id === 'string' && id) ids.add(id);
	const current = await itemState(context).currentEvent;
	if (typeof current?.masterEventId === 'string') ids.add(current.masterEventId);
	return ids;
}

/**
 * Reads the calendars around the event's time and says what to output instead of sending the
 * request: the existing event (Skip If It Already Exists), or the conflicts (Skip); or the error
 * naming the conflicts (Fail). Undefined: send it. An update that does not change the time is not
 * checked. With `created`, the check after creating it: only events created before it count.
 */
async function checkTime(context: IExecutePaginationFunctions, body: IDataObject, { ifTaken, skipExisting }: Guard, created?: IDataObject): Promise<Verdict> {
	const itemIndex = context.getItemIndex();
	if (typeof body.start !== 'string') return undefined;
	const zone = typeof body.timeZone === 'string' && body.timeZone ? body.timeZone : context.getTimezone();
	const interval = eventInterval(body, zone);
	if (!interval) return undefined;
	const target: CalendarInfo = { id: String(body.calendarId), accountId: String(body.accountId) };
	const isTarget = (event: IDataObject) => event.accountId === target.accountId && event.calendarId === target.id;
	const checkValues = ifTaken === 'createAnyway' ? [] : toStringList(context.getNodeParameter('checkCalendars', []));
	// Empty Check Calendars: the event's own calendar, which the duplicate check reads too.
	const ownRead = (ifTaken !== 'createAnyway' && checkValues.length === 0) || skipExisting;
	const { chosen, events: read } = await readCalendarEvents(context, itemIndex, {
		values: checkValues,
		field: 'Check Calendars',
		unreadable: 'fail',
		skipOption: null,
		emptyMeansOwn: true,
		...(ownRead ? { own: target, ownProblem: `so whether ${ifTaken === 'createAnyway' ? 'the event already exists' : 'the time is taken'} cannot be checked` } : {}),
		range: interval.end > interval.start ? interval : { start: interval.start, end: interval.start + MINUTE },
		zone,
	});
	const checked = ifTaken === 'createAnyway' ? [] : checkValues.length === 0 ? [target] : chosen;
	const events = created ? createdBefore(created, read) : read;

	if (skipExisting) {
		const existing = events.find((event) => isTarget(event) && isSameEvent(event, body, interval, zone));
		if (existing) {
			const shaped = shapeOutput((name, fallback) => context.getNodeParameter(name, fallback), existing, simplifyEvent);
			return { output: { ...shaped, alreadyExists: true } };
		}
	}
	if (ifTaken === 'createAnyway') return undefined;

	const own = await ownIds(context, body);
	const inChecked = (event: IDataObject) => checked.some((calendar) => event.accountId === calendar.accountId && event.calendarId === calendar.id);
	const others = events.filter((event) => inChecked(event) && !own.has(String(event.id)) && !own.has(String(event.masterEventId ?? '')));
	const conflicts = busyEvents(others, { zone }).filter((busy) => busy.start < interval.end && busy.end > interval.start);
	if (conflicts.length === 0) return undefined;
	const names = new Map(checked.map((calendar) => [`${calendar.accountId}/${calendar.id}`, calendarName(calendar)]));
	const summaries = conflicts.sort((a, b) => a.start - b.start).map((busy) => busySummary(busy, names));
	if (ifTaken === 'fail') {
		const local = (ms: number, format: string) => DateTime.fromMillis(ms, { zone }).toFormat(format);
		const span = ({ start, end }: Interval) => `${local(start, 'yyyy-MM-dd HH:mm')}–${local(end, local(start, 'yyyyMMdd') === local(end, 'yyyyMMdd') ? 'HH:mm' : 'yyyy-MM-dd HH:mm')}`;
		const listText = summaries
			.slice(0, 5)
			.map((summary, index) => `${quoted(summary.title ?? '(no title)')} ${span(conflicts[index])} in ${quoted(summary.calendarName ?? summary.calendarId)}`)
			.join('; ');
		const more = summaries.length > 5 ? ` and ${summaries.length - 5} more` : '';
		const error = new NodeOperationError(context.getNode(), `The time is taken (${zone}): ${listText}${more}`, {
			itemIndex,
			description: `Nothing was ${context.getNodeParameter('operation', '') === 'create' ? 'created' : 'changed'}. Choose another time (Calendar → Find Free Time finds one), or set If the Time Is Taken to Skip or Create Anyway.`,
		});
		error.context.conflicts = summaries;
		return { error };
	}
	const title = typeof body.title === 'string' ? { title: body.title } : {};
	return { output: { skipped: true, reason: 'The time is taken', ...title, start: utcIso(interval.start), end: utcIso(interval.end), conflicts: summaries } };
}

/** The same event: the same title (spaces around it aside), all-day or not alike, starting at the same instant (all-day: date). */
function isSameEvent(event: IDataObject, body: IDataObject, interval: Interval, zone: string): boolean {
	if (notBusyReason(event) === 'cancelled') return false;
	if (String(event.title ?? '').trim() !== String(body.title ?? '').trim()) return false;
	if ((event.showWithoutTime === true) !== (body.showWithoutTime === true)) return false;
	return eventInterval(event, zone)?.start === interval.start;
}

/** The guard fields of an operation (`create` or `update`, v3). */
export function guardFields(operation: 'create' | 'update'): INodeProperties[] {
	const displayOptions = showFor(EVENT_RESOURCE, [operation], { apiVersion: ['v3'] });
	const checking = { show: { ...displayOptions?.show, ifTimeTaken: ['skip', 'fail'] } };
	const what = operation === 'create' ? 'create' : 'change';
	const anyway = { name: operation === 'create' ? 'Create Anyway' : 'Update Anyway', value: 'createAnyway', description: 'Do not check (no extra cost)' };
	const checks = [
		{ name: 'Skip', value: 'skip', description: `Output the events in the way (under conflicts) and ${what} nothing` },
		{ name: 'Fail', value: 'fail', description: 'Stop with an error listing the events in the way' },
	];
	const fields: INodeProperties[] = [
		{
			displayName: 'If the Time Is Taken',
			name: 'ifTimeTaken',
			type: 'options',
			options: [anyway, ...checks],
			default: 'createAnyway',
			description:
				operation === 'create'
					? 'What to do when busy events in the checked calendars overlap the new event: not marked free, not declined by the account owner, not cancelled; all-day events block their whole days. A recurring event is checked at its first occurrence.'
					: 'What to do when the new time overlaps busy events in the checked calendars (the rules of Find Free Time). Checked only when the update changes the time; the event and its series never conflict with themselves.',
			displayOptions,
			// Wraps the request of the operation: the guards run before it is sent, through the same transport.
			routing: { operations: { pagination: sendGuarded } },
		},
		readableCalendarsField('checkCalendars', 'Check Calendar Names or IDs', "Calendars whose busy events count, from any of the accounts. Leave empty for the event's own calendar only.", {
			hint: "Empty: the event's own calendar.",
			displayOptions: checking,
		}),
	];
	if (operation === 'create') {
		fields.push({
			displayName: 'Skip If It Already Exists',
			name: 'skipIfExists',
			type: 'boolean',
			default: false,
			description:
				'Whether an event of the calendar with the same title and start is output as it is (with alreadyExists: true) instead of creating a second one, so a retried workflow or an AI agent never books twice. Costs 10 points (one list call), shared with the time check, and 10 more after creating (the check for the same event created by another run at the same moment).',
			displayOptions,
		});
	}
	return fields;
}
