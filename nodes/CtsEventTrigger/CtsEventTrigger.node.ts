import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { accountAndCalendarsFields, getAccountCalendars, getAccounts } from '../shared/calendarLists';
import { serviceStatus } from '../shared/errors';
import { ctsApiTest } from '../shared/credentialTests';
import { toStringList } from '../shared/fields';
import { answeredAt, ctsRequest, ctsResponse } from '../shared/transport';
import { pendingPosition, redeliverOption, resolvePending, type PendingPosition } from '../shared/redelivery';
import { shapeTriggerOutput, triggerOutputFields } from '../shared/triggerOutput';
import { budgetShareOption, checkFitsBudget, DEFAULT_BUDGET_SHARE, TRIGGER_BUDGET_NOTICE } from '../shared/triggerBudget';
import { MAX_WINDOW_MONTHS } from '../shared/windows';
import { withEnd } from '../CtsEvent/shared/eventOutput';
import { SIMPLIFIED_EVENT_FIELDS, simplifyEvent } from '../CtsEvent/shared/simplify';
import { decide, type EventTriggerState, type TriggerEvent } from './state';

const DAY_MS = 24 * 3600 * 1000;
const MINUTE_MS = 60 * 1000;
/** Six months, the longest window one list call accepts, counted short (181 days fit any six months). */
const MAX_WINDOW_DAYS = 181;
/** How far the local clock may drift from the service's between polls before the window is placed again. */
const CLOCK_SKEW_MS = 5 * MINUTE_MS;

export class CtsEventTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Event Trigger',
		name: 'ctsEventTrigger',
		icon: { light: 'file:../../icons/cts-event.svg', dark: 'file:../../icons/cts-event.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + $parameter["events"].join(", ")}}',
		description: 'Starts the workflow when calendar events are created, changed, cancelled, about to start or ended',
		defaults: { name: 'CTS Event Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'ctsApi', required: true, testedBy: 'ctsApiTest' }],
		properties: [
			...accountAndCalendarsFields(undefined, 'to watch'),
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{ name: 'Event Cancelled or Deleted', value: 'cancelled', description: 'An event or occurrence in the window was deleted or cancelled' },
					{ name: 'Event Created', value: 'created', description: 'An event (or the occurrences of a new series) was created since the previous check. Occurrences that only come into view as time passes do not count: use Event Starting for those.' },
					{ name: 'Event Ended', value: 'ended', description: 'An occurrence ended' },
					{ name: 'Event Starting', value: 'started', description: 'An occurrence starts within the chosen number of minutes' },
					{ name: 'Event Updated', value: 'updated', description: 'An event or occurrence in the window changed' },
				],
				default: ['created', 'updated', 'cancelled'],
			},
			{
				displayName: 'Minutes Before Start',
				name: 'minutesBefore',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 10,
				description: 'Fire "Event Starting" this many minutes before an occurrence starts (0 = when it starts)',
				displayOptions: { show: { events: ['started'] } },
			},
			{
				displayName: 'Look Ahead (Days)',
				name: 'lookAheadDays',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_WINDOW_DAYS },
				default: 14,
				description: `How far ahead to watch. Each check lists this window once (10 points); at most ${MAX_WINDOW_DAYS} days, what one list call allows.`,
			},
			{
				displayName: TRIGGER_BUDGET_NOTICE,
				name: 'budgetNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Look Back (Days)',
				name: 'lookBackDays',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 30 },
				default: 0,
				description: 'Also watch events that started up to this many days ago (for changes to recent events)',
			},
			...triggerOutputFields('event', SIMPLIFIED_EVENT_FIELDS),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [budgetShareOption, redeliverOption],
			},
		],
	};

	methods = { loadOptions: { getAccounts, getAccountCalendars }, credentialTest: { ctsApiTest } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const staticData = this.getWorkflowStaticData('node') as IDataObject & { state?: EventTriggerState; pending?: PendingPosition<EventTriggerState> };
		const accountId = String(this.getNodeParameter('accountId', '')).trim();
		const calendarIds = toStringList(this.getNodeParameter('calendarIds', ''));
		const events = this.getNodeParameter('events', []) as TriggerEvent[];
		const leadMs = Number(this.getNodeParameter('minutesBefore', 10)) * MINUTE_MS;
		const lookAheadMs = Number(this.getNodeParameter('lookAheadDays', 14)) * DAY_MS;
		const lookBackMs = Number(this.getNodeParameter('lookBackDays', 0)) * DAY_MS;
		if (!accountId || calendarIds.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Account and Calendars: choose the account and at least one of its calendars');
		}
		if (lookAheadMs + lookBackMs > MAX_WINDOW_DAYS * DAY_MS) {
			throw new NodeOperationError(this.getNode(), `Look Ahead (Days): look ahead and look back together may cover at most ${MAX_WINDOW_DAYS} days (${MAX_WINDOW_MONTHS} months)`);
		}

		const { budgetShare = DEFAULT_BUDGET_SHARE, redeliverAfterRestart = false } = this.getNodeParameter('options', {}) as {
			budgetShare?: number;
			redeliverAfterRestart?: boolean;
		};
		if (!(await checkFitsBudget(this, budgetShare))) return null;

		let dropped: EventTriggerState | undefined;
		if (this.getMode() !== 'manual') {
			const { position, redelivering } = resolvePending(staticData.state, staticData.pending);
			if (redelivering) dropped = staticData.pending?.position;
			staticData.state = position;
			delete staticData.pending;
			if (redelivering) {
				this.logger.info(`${this.getNode().name}: n8n restarted after a check that delivered changes; delivering them again (Redeliver After a Restart).`);
			}
		}
		const previous = staticData.state;
		// The window is placed on the service's time, carried forward on the local clock since the
		// previous poll (a first poll starts from the local clock and corrects below). Decisions use
		// the service's time the list answered at.
		const estimateMs = previous ? previous.serviceTimeMs + (Date.now() - previous.localTimeMs) : Date.now();
		const listWindow = async (aroundMs: number) => {
			// The window reaches back to the previous poll, so occurrences that ended in between are seen.
			const endMs = aroundMs + lookAheadMs;
			const fromMs = Math.min(previous?.serviceTimeMs ?? aroundMs, aroundMs - lookBackMs);
			const startMs = Math.max(fromMs, endMs - MAX_WINDOW_DAYS * DAY_MS);
			const response = await ctsResponse.call(this, 'ctsApi', {
				method: 'GET',
				url: '/v3/events/list',
				qs: {
					accountId,
					calendarIds: calendarIds.join(','),
					start: new Date(startMs).toISOString(),
					end: new Date(endMs).toISOString(),
				},
			});
			const listed = (((response.body as IDataObject).data as IDataObject)?.events as IDataObject[] | undefined) ?? [];
			// The service's clock never runs backwards for the trigger.
			const serviceNow = Math.max(answeredAt(response) ?? aroundMs, previous?.serviceTimeMs ?? 0);
			return { listed, serviceNowMs: serviceNow, startMs, endMs };
		};
		let window = await listWindow(estimateMs);
		if (Math.abs(window.serviceNowMs - estimateMs) > CLOCK_SKEW_MS) {
			// The local clock no longer tracks the service's (n8n was suspended, or the clock jumped): list again.
			window = await listWindow(window.serviceNowMs);
		}
		const { listed, serviceNowMs: nowMs, startMs: windowStartMs, endMs: windowEndMs } = window;
		const previousMs = previous?.serviceTimeMs ?? nowMs;

		if (this.getMode() === 'manual') {
			const sample = listed[0];
			if (!sample) {
				throw new NodeOperationError(this.getNode(), 'No events in the watched window', {
					description: 'Create an event in one of these calendars within the look-ahead window, or widen the window, then fetch again.',
				});
			}
			return shapeTriggerOutput(this, simplifyEvent, [[{ json: { ...withEnd(sample), triggerEvent: 'created' } }]]);
		}

		const state: EventTriggerState = previous ?? { serviceTimeMs: nowMs, localTimeMs: Date.now(), known: {}, started: [], ended: [] };
		const decision = decide(listed, state, { nowMs, previousMs, windowStartMs, windowEndMs, leadMs });
		const fired = previous ? decision.fired : []; // a first poll only learns what is there

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
		for (const gone of previous ? [...decision.vanished, ...goneSinceDropped] : []) {
			const replacement = gone.recurrenceId ? newcomers.get(`${gone.calendarId}|${gone.recurrenceId}`) : undefined;
			if (replacement) {
				replacement.event = 'updated';
				replacement.data = { ...replacement.data, previousId: gone.id };
				continue;
			}
			// Otherwise it was deleted, or moved out of the window: one read tells.
			const now = await readEventOrGone(this, gone.id);
			fired.push(now ? { event: 'updated', data: now } : { event: 'cancelled', data: { ...gone } });
		}

		const next = { ...decision.next, serviceTimeMs: nowMs, localTimeMs: Date.now() };
		const items = fired
			.filter(({ event }) => events.includes(event))
			.map(({ event, data }) => ({ json: { ...withEnd(data), triggerEvent: event } }));
		// With Redeliver After a Restart, a poll that delivers moves the state only once a later poll confirms it.
		if (redeliverAfterRestart && items.length > 0 && previous) staticData.pending = pendingPosition(next);
		else staticData.state = next;
		return shapeTriggerOutput(this, simplifyEvent, items.length > 0 ? [items] : null);
	}
}

/** The event as it is now, or null when the service says it is gone (404). */
async function readEventOrGone(context: IPollFunctions, id: string): Promise<IDataObject | null> {
	let failure: unknown;
	try {
		const answer = await ctsRequest.call(context, 'ctsApi', { method: 'GET', url: '/v3/events', qs: { id } });
		return ((answer.data as IDataObject)?.event as IDataObject | undefined) ?? null;
	} catch (error) {
		failure = error;
	}
	if (serviceStatus(failure) === 404) return null;
	throw failure as NodeOperationError;
}
