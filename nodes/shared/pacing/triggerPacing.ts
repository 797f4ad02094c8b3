import type { IDataObject, INodeProperties, IPollFunctions, NodeHint } from 'n8n-workflow';

import { credentialUserKey } from '../transport/credentialUser';
import {
	checkSpacingMs,
	DEFAULT_BUDGET_SHARE,
	MIN_BUDGET_SHARE,
	reserveFor,
	sharePercent,
	sharePoints,
	spokenDuration,
	USUAL_BUDGETS,
	USUAL_WINDOW_MS,
	type CallKind,
} from './costModel';
import { budgetOf, forgetBudgets, type PointBudget, type Spender } from './pointBudget';

/**
 * How trigger polls spend the point budget: one {@link PollPurse} per poll says what it may send,
 * from the budget the service reported for the trigger's user.
 *
 * - Each trigger may spend its Budget Share of the window, and never less than one check (list
 *   call) per window, so it never stops, whatever the budget and the share.
 * - Beyond its first check of a window it leaves {@link reserveFor} the limit to actions, and it
 *   reads nothing while actions wait for points.
 * - When the schedule (Poll Times) asks for more checks than the share holds (k per window), the
 *   feed it reads reads in slots window ÷ k apart, each taken by the first check within half a
 *   schedule interval of it, so reads never bunch and a check on the schedule is never missed by
 *   a tick; each read may spend what is left of the share beyond one check for each still to come
 *   in the window, so a backlog is read one page per read at the even pace, faster when earlier
 *   reads were idle.
 * - Before an answer has told the budget, a poll may send one list call; its answer tells the
 *   rest.
 * A check that may not read sends nothing and changes nothing: the next one delivers what it
 * would have, late, never lost, never twice.
 */

/** The trigger option that sets its share of the point budget. */
export const budgetShareOption: INodeProperties = {
	displayName: 'Budget Share (%)',
	name: 'budgetShare',
	type: 'number',
	typeOptions: { minValue: MIN_BUDGET_SHARE, maxValue: 100 },
	default: DEFAULT_BUDGET_SHARE,
	description:
		"Largest part of the account's point budget per 15-minute window this trigger may use; it always checks at least once per window. Its checks are spread evenly over the window, and what changed meanwhile comes with the next check.",
};

/** The trigger's one notice on the budget, with the README's section for the details. */
export const TRIGGER_BUDGET_NOTICE =
	'Each check costs points of the account\'s budget, spread evenly over each 15 minutes. <a href="https://github.com/calendar-task-service/n8n-nodes-calendar-task-service#the-point-budget-rate-limits-and-retries" target="_blank">How checks are paced</a>';

/** How long a poll's request may wait for the budget: a poll that cannot run is repeated by the next one. */
const POLL_MAX_WAIT_MS = 60_000;

/**
 * State kept per service user in this n8n process, of one kind (a trigger feed, a shared
 * listing, the pacing below): typed, and forgotten together, as a restart of n8n forgets it.
 */
export class PerUser<T> {
	private static readonly all = new Set<PerUser<unknown>>();
	private readonly states = new Map<string, T>();

	constructor(private readonly create: () => T) {
		PerUser.all.add(this as PerUser<unknown>);
	}

	/** The state of the trigger's user. */
	async of(context: IPollFunctions): Promise<T> {
		return this.forKey(await credentialUserKey(context, 'ctsApi'));
	}

	forKey(userKey: string): T {
		let state = this.states.get(userKey);
		if (state === undefined) {
			state = this.create();
			this.states.set(userKey, state);
		}
		return state;
	}

	/** Forgets every user's state of every kind. */
	static forgetAll(): void {
		for (const kind of PerUser.all) kind.states.clear();
	}
}

/** What the triggers of one user share for their pacing. */
interface TriggerPacing {
	/** The slot of each feed's last read (epoch ms). */
	readSlots: Map<string, number>;
	/** What each trigger spent, in which of the budget's windows. */
	spent: Map<string, { window: number; points: number }>;
}

const pacingOf = new PerUser<TriggerPacing>(() => ({ readSlots: new Map(), spent: new Map() }));

/** Forgets every budget learnt and everything triggers share, as a restart of n8n does. */
export function forgetPacing(): void {
	forgetBudgets();
	PerUser.forgetAll();
}

/** Who spends a trigger's points: one trigger node of one workflow. */
export function triggerSpender(context: IPollFunctions): string {
	return `trigger:${context.getWorkflow().id ?? ''}:${context.getNode().name}`;
}

/**
 * The shortest interval of the trigger's schedule (Poll Times), or undefined when it has none
 * that repeats at a fixed interval (a custom cron), or none at all.
 */
function scheduleIntervalMs(context: IPollFunctions): number | undefined {
	let pollTimes: IDataObject | undefined;
	try {
		pollTimes = context.getNodeParameter('pollTimes', {}) as IDataObject;
	} catch {
		return undefined;
	}
	const intervals = ((pollTimes?.item as IDataObject[] | undefined) ?? []).map((time) => {
		if (time.mode === 'everyMinute') return 60_000;
		if (time.mode === 'everyHour') return 3_600_000;
		if (time.mode === 'everyX') return Number(time.value) * (time.unit === 'hours' ? 3_600_000 : 60_000);
		return Number.NaN;
	});
	const known = intervals.filter((ms) => Number.isFinite(ms) && ms > 0);
	return known.length > 0 && known.length === intervals.length ? Math.min(...known) : undefined;
}

interface Grant {
	points: number;
	reason?: string;
}

/**
 * What one poll may spend, asked once when the poll opens it and then taken from call by call
 * ({@link take}); handed to the transport with each request the poll sends, which waits for the
 * budget on its behalf and tells it what each request cost.
 */
export class PollPurse implements Spender {
	readonly maxWaitMs = POLL_MAX_WAIT_MS;
	readonly job: string;
	private points = 0;
	private reason?: string;
	/** Granted before any answer told the budget: asked again once one has. */
	private provisional = false;
	private spentHere = 0;

	private constructor(
		private readonly context: IPollFunctions,
		private readonly budget: PointBudget,
		private readonly pacing: TriggerPacing,
		private readonly share: number,
		private readonly feed: string,
		private readonly readsUseShare: boolean,
	) {
		this.job = triggerSpender(context);
	}

	/**
	 * Opens the purse of one poll of the trigger with this Budget Share (percent) that reads `feed`
	 * (a key naming what it reads: triggers that read the same thing use the same key, so that their
	 * reads are paced together). Opening it counts as the feed's read for the pacing when it grants
	 * a check, so open it only when the poll has to read. With `readsUseShare`, single reads (1
	 * point) may go on within the rest of the share once the grant is spent.
	 */
	static async open(context: IPollFunctions, share: unknown, { feed = triggerSpender(context), readsUseShare = false } = {}): Promise<PollPurse> {
		const userKey = await credentialUserKey(context, 'ctsApi');
		const purse = new PollPurse(context, budgetOf(userKey), pacingOf.forKey(userKey), sharePercent(share), feed, readsUseShare);
		if (context.getMode() === 'manual') purse.points = Number.POSITIVE_INFINITY;
		else ({ points: purse.points, reason: purse.reason } = purse.grant(false));
		return purse;
	}

	/** Whether the poll may send a call of this kind now; its cost is then counted as spent from the purse. */
	take(kind: CallKind): boolean {
		const cost = this.budget.costOf(kind);
		this.regrantOnceTold();
		// Single reads after the paced list calls are spent may use the rest of the share in this
		// check rather than wait for a read slot of their own.
		if (this.readsUseShare && this.spentHere > 0 && kind === 'call' && this.points < cost) this.points = this.grant(true).points;
		if (this.points < cost) {
			if (this.spentHere === 0) this.logSkipped();
			return false;
		}
		this.points -= cost;
		this.spentHere += cost;
		return true;
	}

	/** The list calls the purse holds now. */
	checks(): number {
		this.regrantOnceTold();
		return Math.floor(this.points / this.budget.costOf('list'));
	}

	/** Whether the purse holds a list call and `reads` single reads. */
	holds(reads: number): boolean {
		this.regrantOnceTold();
		return this.points >= this.budget.costOf('list') + reads * this.budget.costOf('call');
	}

	/** Whether the poll may read at all: when not, logs why (the next check delivers what changed). */
	mayCheck(): boolean {
		if (this.checks() > 0) return true;
		this.logSkipped();
		return false;
	}

	/** A grant made before an answer told the budget is made again once one has (or has shown that none will). */
	private regrantOnceTold(): void {
		if (!this.provisional) return;
		const { limit, unmetered } = this.budget.snapshot();
		if (limit === undefined && !unmetered) return;
		this.provisional = false;
		this.points = this.grant(true).points;
	}

	/** Told by the transport: a request of the poll took these points of the budget. */
	spent(cost: number): void {
		const window = this.budget.snapshot().window;
		this.pacing.spent.set(this.job, { window, points: this.spentInWindow(window) + cost });
	}

	private spentInWindow(window: number): number {
		const entry = this.pacing.spent.get(this.job);
		return entry?.window === window ? entry.points : 0;
	}

	/**
	 * What the poll may spend now (see the module's comment). `continuing`: the poll is under way
	 * (it learnt the budget from its first answer, or its reads go on): no slot is taken.
	 */
	private grant(continuing: boolean): Grant {
		const budget = this.budget.snapshot();
		if (budget.waiting > 0) return { points: 0, reason: `${budget.waiting} requests of actions are waiting for points` };
		const listCost = this.budget.costOf('list');
		if (budget.unmetered && budget.limit === undefined) {
			// Answers without rate-limit headers: nothing to keep to here (the pacer still heeds a 429),
			// until an answer tells the budget.
			this.provisional = true;
			if (!continuing) this.pacing.readSlots.set(this.feed, Date.now());
			return { points: Number.POSITIVE_INFINITY };
		}
		if (budget.limit === undefined || budget.remaining === undefined) {
			// No answer has told the budget yet: one list call, whose answer tells it.
			this.provisional = true;
			if (!continuing) this.pacing.readSlots.set(this.feed, Date.now());
			return { points: listCost };
		}
		const shareOfWindow = sharePoints(budget.limit, this.share, listCost);
		const spent = this.spentInWindow(budget.window);
		const reserve = reserveFor(budget.limit);
		// The first check of a window may use the reserve: a trigger checks at least once per window.
		const free = spent === 0 ? budget.remaining : budget.remaining - reserve;
		const available = Math.min(shareOfWindow - spent, free);
		if (available < listCost && !continuing) {
			return {
				points: 0,
				reason:
					shareOfWindow - spent < listCost
						? `it has used ${spent} of its ${shareOfWindow} points in this window`
						: `${budget.remaining} points remain, and ${reserve} are kept for actions`,
			};
		}
		if (continuing) return { points: Math.max(0, available) };
		const windowMs = budget.windowMs ?? USUAL_WINDOW_MS;
		const spacing = checkSpacingMs(budget.limit, this.share, windowMs, listCost);
		const schedule = scheduleIntervalMs(this.context);
		const now = Date.now();
		if (schedule === undefined || schedule >= spacing) {
			this.pacing.readSlots.set(this.feed, now);
			return { points: available };
		}
		// Reads keep to slots `spacing` apart, each taken by the first check within half a schedule
		// interval of it (never before the check itself, so a pause earns no catching up).
		const lastSlot = this.pacing.readSlots.get(this.feed);
		if (lastSlot !== undefined && now < lastSlot + spacing - schedule / 2) {
			return { points: 0, reason: `its reads are spread evenly, one every ${spokenDuration(spacing)}` };
		}
		this.pacing.readSlots.set(this.feed, lastSlot === undefined ? now : Math.max(lastSlot + spacing, now));
		// A window that has reset starts with the next answer: all of it is still to come.
		const readsToCome = Math.floor((budget.resetAt === undefined ? windowMs : Math.max(0, budget.resetAt - now)) / spacing);
		return { points: Math.min(available, Math.max(listCost, available - readsToCome * listCost)) };
	}

	private logSkipped(): void {
		this.context.logger.info(
			`${this.context.getNode().name}: check skipped to leave the point budget for actions (${this.reason ?? 'share used'}); the next check delivers what changed.`,
		);
	}
}

/**
 * The shortest interval of the trigger's Poll Times in seconds, as an editor expression (a custom
 * cron counts as every minute).
 */
const SCHEDULE_SECONDS =
	'Math.min(...($parameter.pollTimes?.item ?? []).map((time) => time.mode === "everyX" ? time.value * (time.unit === "hours" ? 3600 : 60) : time.mode === "everyHour" ? 3600 : time.mode === "everyDay" ? 86400 : time.mode === "everyWeek" ? 604800 : time.mode === "everyMonth" ? 2419200 : 60))';
const SHARE = `Math.round(Math.min(100, Math.max(${MIN_BUDGET_SHARE}, $parameter.options?.budgetShare ?? ${DEFAULT_BUDGET_SHARE})))`;

/**
 * The triggers' hint, in one sentence: how often the trigger checks at most with its Budget Share
 * at each of the usual budgets (the editor cannot know the account's, and n8n's editor shows no credential test's message).
 * One hint per set of spacings the shares give, each shown only when it applies (n8n evaluates
 * `displayCondition` in the editor), and one for a schedule slower than all of them.
 */
export function checkFrequencyHints(): NodeHint[] {
	const byShare = new Map<string, { spacings: number[]; shares: number[] }>();
	for (let share = MIN_BUDGET_SHARE; share <= 100; share++) {
		const spacings = USUAL_BUDGETS.map((limit) => checkSpacingMs(limit, share) / 1000);
		const key = spacings.join(',');
		const entry = byShare.get(key) ?? { spacings, shares: [] };
		entry.shares.push(share);
		byShare.set(key, entry);
	}
	const hint = (message: string, displayCondition: string): NodeHint => ({ message, type: 'info', location: 'ndv', whenToDisplay: 'always', displayCondition });
	// The spacing on the smallest usual budget, by share: a schedule at least that slow checks at every poll time.
	const slowestSpacing: Record<number, number> = {};
	for (const { spacings, shares } of byShare.values()) for (const share of shares) slowestSpacing[share] = spacings[0];
	const hints = [...byShare.values()].map(({ spacings, shares }) => {
		const [small, usual, large] = spacings.map((seconds) => spokenDuration(seconds * 1000));
		return hint(
			`Checks at most every ${small} on a ${USUAL_BUDGETS[0]}-point account, ${usual} on ${USUAL_BUDGETS[1]}, ${large} on ${USUAL_BUDGETS[2]} (per 15 min); it paces itself by the budget the service reports.`,
			`={{ ${JSON.stringify(shares)}.includes(${SHARE}) && ${SCHEDULE_SECONDS} < ${spacings[0]} }}`,
		);
	});
	hints.push(
		hint(
			`Checks at every poll time of its schedule on accounts of ${USUAL_BUDGETS.join(', ')} points per 15 min: its Budget Share holds more checks than the schedule asks for.`,
			`={{ ${SCHEDULE_SECONDS} >= ${JSON.stringify(slowestSpacing)}[${SHARE}] }}`,
		),
	);
	return hints;
}
