import { NodeOperationError, type IDataObject, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import { serviceStatus } from '../shared/transport/errors';
import { toStringList } from '../shared/fields/fields';
import { answeredAt, ctsRequest, ctsResponse } from '../shared/transport/transport';
import { pendingPosition, positionAfterRestart, type PendingPosition } from '../shared/triggers/redelivery';
import { DEFAULT_BUDGET_SHARE } from '../shared/pacing/costModel';
import { PollPurse, triggerSpender } from '../shared/pacing/triggerPacing';
import { MAX_WINDOW_MONTHS } from '../shared/time/windows';
import { simplifyEvent, withEnd } from '../shared/output/simplifyEvent';
import { shapeTriggerOutput } from '../shared/triggers/triggerOutput';
import { noSampleItem, recentChange } from '../shared/triggers/triggerSample';
import { watchedCalendars } from '../shared/calendar/watchedCalendars';
import { oldestReader, sharedListing, takeListing, type Listing, type SharedListing } from './listing';
import { decide, snapshot, type EventTriggerState, type KnownEvent, type TriggerEvent } from './state';

const DAY_MS = 24 * 3600 * 1000;
const MINUTE_MS = 60 * 1000;
/** Six months, the longest window one list call accepts, counted short (181 days fit any six months). */
export const MAX_WINDOW_DAYS = 181;
/** How far the local clock may drift from the service's between polls before the window is placed again. */
const CLOCK_SKEW_MS = 5 * MINUTE_MS;

type Fired = Array<{ event: TriggerEvent; data: IDataObject }>;
type EventTriggerData = IDataObject & { state?: EventTriggerState; pending?: PendingPosition<EventTriggerState> };

/** The trigger's parameters, checked. `key` names the window it watches (triggers with the same key share listings). */
interface EventPollSettings {
	accountId: string;
	calendarIds: string[];
	events: TriggerEvent[];
	leadMs: number;
	lookAheadMs: number;
	lookBackMs: number;
	budgetShare: number;
	redeliverAfterRestart: boolean;
	key: string;
}

/**
 * One check of the CTS Event Trigger: lists the watched window once (10 points), compares it with
 * what the trigger knew, and confirms what left the window with reads (1 point each) within the
 * check's allowance (see `pacing/triggerPacing.ts`); what the allowance does not cover waits in the
 * state for the next checks, so a large deletion is confirmed over several checks, each once.
 */
export async function pollEvents(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	const staticData = this.getWorkflowStaticData('node') as EventTriggerData;
	const manual = this.getMode() === 'manual';
	const dropped = manual ? undefined : takePosition(this, staticData);
	const previous = staticData.state;
	const shared = manual ? undefined : await sharedListing(this, settings.key);
	let window = shared && takeListing(this, shared, previous?.serviceTimeMs, settings.lookBackMs);
	/** What the check may spend on its list call and confirmations (for a shared listing, opened when reads are needed). */
	let purse: PollPurse | undefined;
	if (!window) {
		const opened = (purse = await PollPurse.open(this, settings.budgetShare, { feed: settings.key }));
		if (!opened.mayCheck()) return null;
		if (!manual && previous?.unconfirmed?.length && !previous.confirmedOnly && !opened.holds(previous.unconfirmed.length)) {
			// More left the window than this check's allowance can confirm after a list call: every other
			// check spends its allowance on reads alone, so confirmations keep pace with the schedule.
			const fired: Fired = [];
			const unconfirmed = await confirmGone(this, previous.unconfirmed, opened, fired);
			return deliver(this, { ...previous, unconfirmed, confirmedOnly: true }, fired, settings);
		}
		// Fetch Test Event with Event Ended chosen looks back a day as well, for an occurrence that ended.
		const reach = manual && settings.events.includes('ended') ? { ...settings, lookBackMs: Math.max(settings.lookBackMs, DAY_MS) } : settings;
		window = await readWindow(this, reach, previous, opened, shared);
	}
	if (manual) return sampleOf(this, settings, window, previous);

	const { fired, next, toConfirm } = diffWindow(window, previous, dropped, settings.leadMs);
	if (toConfirm.length > 0 && !purse) purse = await PollPurse.open(this, settings.budgetShare);
	const unconfirmed = purse ? await confirmGone(this, toConfirm, purse, fired, window.reads) : [];
	if (unconfirmed.length > 0) next.unconfirmed = unconfirmed;
	if (!previous) staticData.state = next;
	return previous ? deliver(this, next, fired, settings) : null;
}

function readSettings(context: IPollFunctions): EventPollSettings {
	const accountId = String(context.getNodeParameter('accountId', '')).trim();
	const calendarIds = toStringList(context.getNodeParameter('calendarIds', ''));
	const lookAheadMs = Number(context.getNodeParameter('lookAheadDays', 14)) * DAY_MS;
	const lookBackMs = Number(context.getNodeParameter('lookBackDays', 0)) * DAY_MS;
	if (lookAheadMs + lookBackMs > MAX_WINDOW_DAYS * DAY_MS) {
		throw new NodeOperationError(context.getNode(), `Look Ahead (Days): look ahead and look back together may cover at most ${MAX_WINDOW_DAYS} days (${MAX_WINDOW_MONTHS} months)`);
	}
	const { budgetShare = DEFAULT_BUDGET_SHARE, redeliverAfterRestart = false } = context.getNodeParameter('options', {}) as {
		budgetShare?: number;
		redeliverAfterRestart?: boolean;
	};
	return {
		accountId,
		calendarIds,
		events: context.getNodeParameter('events', []) as TriggerEvent[],
		leadMs: Number(context.getNodeParameter('minutesBefore', 10)) * MINUTE_MS,
		lookAheadMs,
		lookBackMs,
		budgetShare,
		redeliverAfterRestart,
		key: `events|${accountId}|${[...calendarIds].sort().join(',')}|${lookAheadMs}|${lookBackMs}`,
	};
}

/** Settles where the check starts (see `triggers/redelivery.ts`); returns the state of a delivery dropped to redeliver it. */
function takePosition(context: IPollFunctions, staticData: EventTriggerData): EventTriggerState | undefined {
	const { position, redelivering } = positionAfterRestart(context, staticData.state, staticData.pending);
	const dropped = redelivering ? staticData.pending?.position : undefined;
	staticData.state = position;
	delete staticData.pending;
	return dropped;
}

/**
 * Reads the watched window: placed on the service's time, carried forward on the local clock since
 * the previous poll (a first poll starts from the local clock and corrects below). Decisions use
 * the service's time the list answered at. It reaches back to the previous poll (so occurrences
 * that ended in between are seen), and to that of every trigger sharing it.
 */
async function readWindow(
	context: IPollFunctions,
	settings: EventPollSettings,
	previous: EventTriggerState | undefined,
	purse: PollPurse,
	shared: SharedListing | undefined,
): Promise<Listing> {
	const estimateMs = previous ? previous.serviceTimeMs + (Date.now() - previous.localTimeMs) : Date.now();
	const reachBackMs = Math.min(previous?.serviceTimeMs ?? Number.POSITIVE_INFINITY, shared ? oldestReader(shared) : Number.POSITIVE_INFINITY);
	const reading = (async () => {
		let listing = await listWindow(context, settings, purse, { aroundMs: estimateMs, reachBackMs, previousMs: previous?.serviceTimeMs });
		if (Math.abs(listing.serviceNowMs - estimateMs) > CLOCK_SKEW_MS) {
			// The local clock no longer tracks the service's (n8n was suspended, or the clock jumped): list again.
			listing = await listWindow(context, settings, purse, { aroundMs: listing.serviceNowMs, reachBackMs, previousMs: previous?.serviceTimeMs });
		}
		return listing;
	})();
	if (shared) shared.reading = reading;
	let window: Listing;
	try {
		window = await reading;
	} finally {
		if (shared) shared.reading = undefined;
	}
	if (shared) shared.latest = window = { ...window, by: triggerSpender(context), reads: new Map() };
	return window;
}

/**
 * How long the calendar list serves a trigger whose Calendars are empty (every readable calendar):
 * a check every minute would otherwise read it every time (10 points).
 */
const CALENDAR_LIST_REUSE_MS = 3600_000;

/** One list call per account of the watched calendars over the window around `aroundMs` (at most {@link MAX_WINDOW_DAYS} long). */
async function listWindow(
	context: IPollFunctions,
	{ accountId, calendarIds, lookAheadMs, lookBackMs }: EventPollSettings,
	purse: PollPurse,
	{ aroundMs, reachBackMs, previousMs }: { aroundMs: number; reachBackMs: number; previousMs: number | undefined },
): Promise<Listing> {
	const endMs = aroundMs + lookAheadMs;
	const startMs = Math.max(Math.min(reachBackMs, aroundMs - lookBackMs), endMs - MAX_WINDOW_DAYS * DAY_MS);
	const groups = await watchedCalendars(context, undefined, accountId, calendarIds, { listReuseMs: CALENDAR_LIST_REUSE_MS, beforeListRead: () => purse.take('list') });
	const listed: IDataObject[] = [];
	let serviceNowMs = previousMs ?? 0;
	for (const group of groups) {
		// Counted even when a second list call (for a clock that jumped) goes beyond the allowance: the listing must be right.
		purse.take('list');
		const response = await ctsResponse.call(
			context,
			'ctsApi',
			{
				method: 'GET',
				url: '/v3/events/list',
				qs: { accountId: group.accountId, calendarIds: group.calendarIds.join(','), start: new Date(startMs).toISOString(), end: new Date(endMs).toISOString() },
			},
			undefined,
			purse,
		);
		listed.push(...((((response.body as IDataObject).data as IDataObject)?.events as IDataObject[] | undefined) ?? []));
		// The service's clock never runs backwards for the trigger.
		serviceNowMs = Math.max(answeredAt(response) ?? aroundMs, serviceNowMs);
	}
	return { listed, serviceNowMs, localTimeMs: Date.now(), startMs, endMs };
}

/**
 * Fetch Test Event: a real event of a kind chosen in Trigger On, labelled with it, in this order:
 * the most recent created or updated one (see `recentChange`), the next occurrence to start, the
 * last one that ended, the cancellation this trigger delivered last (the service lists no deleted
 * or cancelled events, so only what the trigger's checks saw can be shown). When there is none,
 * an item that says so (see `noSampleItem`). Changes nothing.
 */
function sampleOf(context: IPollFunctions, settings: EventPollSettings, window: Listing, previous: EventTriggerState | undefined): INodeExecutionData[][] | null {
	const nowMs = window.serviceNowMs;
	const timed = window.listed.flatMap((event) => {
		const known = snapshot(event);
		return known ? [{ event, startMs: known.startMs, endMs: known.endMs }] : [];
	});
	// Within the trigger's own window (the one for Event Ended may reach further back).
	const watched = timed.filter(({ endMs }) => endMs > nowMs - settings.lookBackMs);
	const one = (event: IDataObject, kind: TriggerEvent) => shapeTriggerOutput(context, simplifyEvent, [[{ json: { ...withEnd(event), triggerEvent: kind } }]]);
	const { events } = settings;
	const change = recentChange(watched.map(({ event }) => event), events);
	if (change) return one(change.object, change.kind);
	const next = watched.filter(({ startMs }) => startMs >= nowMs).sort((a, b) => a.startMs - b.startMs)[0];
	if (events.includes('started') && next) return one(next.event, 'started');
	const last = timed.filter(({ endMs }) => endMs <= nowMs).sort((a, b) => b.endMs - a.endMs)[0];
	if (events.includes('ended') && last) return one(last.event, 'ended');
	if (events.includes('cancelled') && previous?.recentCancelled) return one(previous.recentCancelled, 'cancelled');
	return noSampleItem(noEventSample(settings));
}

/** What Fetch Test Event says when the watched calendars show no event of a chosen kind, and how to get one. */
function noEventSample({ events, lookAheadMs }: EventPollSettings): string {
	const said: string[] = [];
	const days = Math.round(lookAheadMs / DAY_MS);
	if (events.includes('created') || events.includes('started')) {
		said.push(`No event in the watched calendars from now to ${days} days ahead: create one there, or widen Look Ahead (Days), and fetch again.`);
	} else if (events.includes('updated')) {
		said.push('No event in the watched window was changed after it was created: change one and fetch again.');
	}
	if (events.includes('ended')) said.push('No event in the watched calendars ended in the last day.');
	if (events.includes('cancelled')) {
		said.push(
			'No cancelled or deleted event to show: the service no longer lists an event once it is gone, so this trigger learns of one from its checks, and it has delivered none yet. Publish the workflow, then delete an event in a watched calendar; after the next check, Fetch Test Event shows it.',
		);
	}
	return said.join(' ');
}

/**
 * Compares the window with what the trigger knew: what fired, the next state, and the events
 * that left the window and wait to be confirmed as deleted or moved. A first poll only learns
 * what is there.
 */
function diffWindow(
	window: Listing,
	previous: EventTriggerState | undefined,
	dropped: EventTriggerState | undefined,
	leadMs: number,
): { fired: Fired; next: EventTriggerState; toConfirm: KnownEvent[] } {
	const { listed, serviceNowMs: nowMs, startMs: windowStartMs, endMs: windowEndMs } = window;
	const state: EventTriggerState = previous ?? { serviceTimeMs: nowMs, localTimeMs: window.localTimeMs, known: {}, started: [], ended: [] };
	const decision = decide(listed, state, { nowMs, previousMs: previous?.serviceTimeMs ?? nowMs, windowStartMs, windowEndMs, leadMs });
	const fired = previous ? decision.fired : [];
	// An occurrence that left the list while a new one with the same recurrence ID appeared was
	// replaced (a "this and following" edit starts a new series): that is one update.
	const newcomers = new Map(
		fired
			.filter(({ event, data }) => event === 'created' && typeof data.recurrenceId === 'string')
			.map((entry) => [`${String(entry.data.calendarId)}|${String(entry.data.recurrenceId)}`, entry]),
	);
	// Events first seen by the poll delivered again that are gone now: their deletion (or move)
	// happened since, and the state this poll starts from does not know them.
	const goneSinceDropped = Object.values(dropped?.known ?? {}).filter(
		(event) => !state.known[event.id] && !decision.next.known[event.id] && event.endMs > windowStartMs && event.startMs < windowEndMs,
	);
	const toConfirm: KnownEvent[] = [];
	// Those waiting from earlier checks first; one listed again is back, and the list decides.
	for (const gone of previous ? [...(state.unconfirmed ?? []), ...decision.vanished, ...goneSinceDropped] : []) {
		if (decision.next.known[gone.id]) continue;
		const replacement = gone.recurrenceId ? newcomers.get(`${gone.calendarId}|${gone.recurrenceId}`) : undefined;
		if (replacement) {
			replacement.event = 'updated';
			replacement.data = { ...replacement.data, previousId: gone.id };
			continue;
		}
		toConfirm.push(gone);
	}
	const next: EventTriggerState = { ...decision.next, serviceTimeMs: nowMs, localTimeMs: window.localTimeMs };
	if (previous?.recentCancelled) next.recentCancelled = previous.recentCancelled;
	return { fired, next, toConfirm };
}

/** The items of a check, and its state: with Redeliver After a Restart, pending until a later check confirms it. */
function deliver(context: IPollFunctions, next: EventTriggerState, fired: Fired, { events, redeliverAfterRestart }: EventPollSettings): INodeExecutionData[][] | null {
	const staticData = context.getWorkflowStaticData('node') as EventTriggerData;
	if (next.unconfirmed?.length === 0) delete next.unconfirmed;
	const items = fired
		.filter(({ event }) => events.includes(event))
		.map(({ event, data }) => ({ json: { ...withEnd(data), triggerEvent: event } }));
	const cancelled = fired.filter(({ event }) => event === 'cancelled' && events.includes(event)).at(-1);
	// The last cancellation delivered, for Fetch Test Event (kept until another replaces it).
	if (cancelled) next.recentCancelled = cancelled.data;
	if (redeliverAfterRestart && items.length > 0) staticData.pending = pendingPosition(next);
	else staticData.state = next;
	return items.length > 0 ? shapeTriggerOutput(context, simplifyEvent, [items]) : null;
}

/**
 * Tells deleted events from ones moved out of the window, with at most one read per series: a
 * lone event or occurrence is read itself; several occurrences of one series that left together
 * read the series first, and when it is gone, so are they all. Reads while the purse allows
 * (what `reads` already holds, from another trigger's check of the same listing, is free); a read
 * the budget cannot hold ends the round. Adds what it learnt to `fired` and returns what is left
 * to confirm, in order.
 */
async function confirmGone(
	context: IPollFunctions,
	gone: KnownEvent[],
	purse: PollPurse,
	fired: Fired,
	reads = new Map<string, IDataObject | null>(),
): Promise<KnownEvent[]> {
	const read = async (id: string) => {
		if (reads.has(id)) return reads.get(id)!;
		const now = await readEventOrGone(context, id, purse);
		reads.set(id, now);
		return now;
	};
	const canRead = (id: string) => reads.has(id) || purse.take('call');
	const groups = new Map<string, KnownEvent[]>();
	for (const event of gone) {
		const key = event.masterEventId ?? event.id;
		groups.set(key, [...(groups.get(key) ?? []), event]);
	}
	const left: KnownEvent[] = [];
	let budgetOut = false;
	for (const [series, members] of groups) {
		const pending = [...members];
		try {
			if (members.length > 1 && members[0].masterEventId && !budgetOut && canRead(series)) {
				if ((await read(series)) === null) {
					for (const event of pending.splice(0)) fired.push({ event: 'cancelled', data: { ...event } });
				}
			}
			while (pending.length > 0 && !budgetOut && canRead(pending[0].id)) {
				const now = await read(pending[0].id);
				const event = pending.shift()!;
				fired.push(now ? { event: 'updated', data: now } : { event: 'cancelled', data: { ...event } });
			}
		} catch (error) {
			// A read the budget cannot hold waits for the next check; any other failure fails this one.
			if ((error as { context?: IDataObject }).context?.budget === undefined) throw error as NodeOperationError;
			budgetOut = true;
		}
		left.push(...pending);
	}
	return left;
}

/** The event as it is now, or null when the service says it is gone (404). */
async function readEventOrGone(context: IPollFunctions, id: string, purse: PollPurse): Promise<IDataObject | null> {
	let failure: unknown;
	try {
		const answer = await ctsRequest.call(context, 'ctsApi', { method: 'GET', url: '/v3/events', qs: { id } }, undefined, purse);
		return ((answer.data as IDataObject)?.event as IDataObject | undefined) ?? null;
	} catch (error) {
		failure = error;
	}
	if (serviceStatus(failure) === 404) return null;
	throw failure as NodeOperationError;
}
