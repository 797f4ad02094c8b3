import type { IDataObject, INodeProperties, IPollFunctions, NodeHint } from 'n8n-workflow';

import { budgetOf, pointsFor, RESERVE_FOR_ACTIONS, type PointBudget } from './budget';
import { credentialUserKey } from './credentialUser';

/** The default share of the point budget a trigger may use per window, in percent. */
export const DEFAULT_BUDGET_SHARE = 25;

/** The service's rate-limit window: 15 minutes. */
const WINDOW_MS = 15 * 60 * 1000;
const LIST_POINTS = pointsFor('/list');

/** What a check costs, for the trigger's notice: one sentence, the rest in the Budget Share hint. */
export const TRIGGER_BUDGET_NOTICE =
	"Each check costs 10 points of the account's 300 per 15 minutes; the trigger spends at most its Budget Share (Options), spread evenly over each 15 minutes.";

/** The smallest share that holds one check (10 points) per window of the service's 300 points. */
const MIN_BUDGET_SHARE = 4;

/** The trigger option that sets its share of the point budget. */
export const budgetShareOption: INodeProperties = {
	displayName: 'Budget Share (%)',
	name: 'budgetShare',
	type: 'number',
	typeOptions: { minValue: MIN_BUDGET_SHARE, maxValue: 100 },
	default: DEFAULT_BUDGET_SHARE,
	description:
		"Largest part of the account's point budget per 15-minute window this trigger may use. Checks beyond it are skipped until the window resets; what changed is delivered by the next check.",
	hint: 'Its checks are spread evenly over each 15 minutes; the hint above the output says how often that is with this share and schedule.',
};

/**
 * How many list calls the trigger's Budget Share holds per window, and the shortest interval of
 * its Poll Times in seconds, as editor expressions (the same arithmetic as {@link pollAllowance},
 * for the service's 300 points; a custom cron counts as every minute).
 */
const SHARE_READS = `Math.floor(Math.floor(3 * Math.min(100, Math.max(${MIN_BUDGET_SHARE}, $parameter.options?.budgetShare ?? ${DEFAULT_BUDGET_SHARE}))) / 10)`;
const SCHEDULE_SECONDS =
	'Math.min(...($parameter.pollTimes?.item ?? []).map((time) => time.mode === "everyX" ? time.value * (time.unit === "hours" ? 3600 : 60) : time.mode === "everyHour" ? 3600 : time.mode === "everyDay" ? 86400 : time.mode === "everyWeek" ? 604800 : time.mode === "everyMonth" ? 2419200 : 60))';

/** Seconds as people say them: "45 seconds", "2 minutes", "7.5 minutes". */
function spoken(seconds: number): string {
	if (seconds < 90) return `${Math.round(seconds)} seconds`;
	const minutes = Math.round((seconds / 60) * 2) / 2;
	return `${minutes} minutes`;
}

/**
 * The hint of both triggers that says, in one sentence, how often the trigger actually checks with
 * its current Budget Share and schedule: one hint per number of reads a share can hold, each shown
 * only when it applies (n8n evaluates `displayCondition` in the editor).
 */
export function checkFrequencyHints(): NodeHint[] {
	const hints: NodeHint[] = [
		{
			message: 'This trigger checks at every poll time of its schedule: its Budget Share holds more checks than the schedule asks for.',
			type: 'info',
			location: 'ndv',
			whenToDisplay: 'always',
			displayCondition: `={{ ${WINDOW_MS / 1000} / ${SHARE_READS} <= ${SCHEDULE_SECONDS} }}`,
		},
	];
	for (let reads = 1; reads <= 30; reads++) {
		const spacing = WINDOW_MS / 1000 / reads;
		hints.push({
			message: `This trigger checks about every ${spoken(spacing)}, not at every poll time: its Budget Share holds ${reads} ${reads === 1 ? 'check' : 'checks'} (${reads * LIST_POINTS} points) per 15 minutes, spread evenly.`,
			type: 'info',
			location: 'ndv',
			whenToDisplay: 'always',
			displayCondition: `={{ ${SHARE_READS} === ${reads} && ${spacing} > ${SCHEDULE_SECONDS} }}`,
		});
	}
	return hints;
}

/** The point budget of the trigger's user, which also holds what that user's triggers share. */
export async function userBudget(context: IPollFunctions): Promise<PointBudget> {
	return budgetOf(await credentialUserKey(context, 'ctsApi'));
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

/** What a poll may spend now: points (Infinity when the budget is not known), or 0 and why not. */
export interface PollAllowance {
	points: number;
	reason?: string;
}

/**
 * How many points a poll that has to read may spend now, for the list calls (10 points each) and
 * reads (1 each) of `feed` (a key naming what it reads: several triggers that read the same thing
 * use the same key, so that their reads are paced together). Call it only when the poll has to
 * read; a grant counts as the feed's read for the pacing.
 *
 * - Nothing when actions wait for points, when the trigger's Budget Share of the window is spent,
 *   or when less than {@link RESERVE_FOR_ACTIONS} of the budget would remain for actions.
 * - Even pacing: when the schedule (Poll Times) asks for more checks than the share holds (k list
 *   calls per window), the feed reads in slots window ÷ k apart (each taken by the first check
 *   within half a schedule interval of it, so a check on the schedule is never missed by a tick,
 *   and reads never bunch), and each read may spend what is left of the share beyond one list
 *   call for each read still to come in the window: a backlog is read one page per read at the
 *   even pace, faster when earlier reads were idle.
 * - Without a schedule that repeats, the rest of the share; without an answer with rate-limit
 *   headers yet, no limit here (the pacer in `budget.ts` still holds every request): a poll that
 *   got that should ask again after its first request, with `continuing`, which skips the spacing
 *   (the poll is under way) and is not counted as another read.
 */
export async function pollAllowance(context: IPollFunctions, share: number, feed: string, continuing = false): Promise<PollAllowance> {
	if (context.getMode() === 'manual') return { points: Number.POSITIVE_INFINITY };
	const budget = await userBudget(context);
	const fraction = Math.min(100, Math.max(1, share)) / 100;
	const spender = triggerSpender(context);
	const verdict = budget.pollAllowed(spender, LIST_POINTS, fraction);
	if (!verdict.allowed) return { points: 0, reason: verdict.reason };
	const { limit, remaining, resetAt } = budget.snapshot();
	if (limit === undefined || remaining === undefined) return continuing ? { points: Number.POSITIVE_INFINITY } : grant(budget.readSlots, feed, Number.POSITIVE_INFINITY);
	const sharePoints = Math.floor(limit * fraction);
	const available = Math.min(sharePoints - budget.spentBy(spender), remaining - Math.ceil(limit * RESERVE_FOR_ACTIONS));
	const schedule = scheduleIntervalMs(context);
	const spacing = WINDOW_MS / Math.max(1, Math.floor(sharePoints / LIST_POINTS));
	if (continuing || schedule === undefined || schedule >= spacing) return continuing ? { points: available } : grant(budget.readSlots, feed, available);
	// Reads keep to slots `spacing` apart, each taken by the first check within half a schedule
	// interval of it (never before the check itself, so a pause earns no catching up): a schedule
	// only a little more frequent than the spacing skips a check now and then, rather than reading
	// at every check until the share is spent and then pausing.
	const now = Date.now();
	const lastSlot = budget.readSlots.get(feed);
	if (lastSlot !== undefined && now < lastSlot + spacing - schedule / 2) {
		return { points: 0, reason: `its reads are spread evenly, one every ${Math.round(spacing / 1000)} s` };
	}
	// A window that has reset starts with the next answer: all of it is still to come.
	const readsToCome = Math.floor((resetAt === undefined ? WINDOW_MS : Math.max(0, resetAt - now)) / spacing);
	const slot = lastSlot === undefined ? now : Math.max(lastSlot + spacing, now);
	return grant(budget.readSlots, feed, Math.min(available, Math.max(LIST_POINTS, available - readsToCome * LIST_POINTS)), slot);
}

function grant(readSlots: Map<string, number>, feed: string, points: number, slot = Date.now()): PollAllowance {
	readSlots.set(feed, slot);
	return { points };
}

/**
 * What one poll may still spend, asked once per poll (a grant counts as the feed's read for the
 * pacing, see {@link pollAllowance}) and then taken from request by request. When the budget was
 * not known at the start, the allowance is asked again after the first request, whose answer
 * told it; single reads (1 point) may go on within the trigger's share once the grant is spent.
 */
export class PollPurse {
	private points?: number;
	private reason?: string;
	private spent = 0;

	constructor(
		private readonly context: IPollFunctions,
		private readonly share: number,
		private readonly feed = triggerSpender(context),
	) {}

	/** Whether a request of `cost` points may be sent now (its points are then counted as spent). */
	async take(cost: number): Promise<boolean> {
		if (this.points === undefined) ({ points: this.points, reason: this.reason } = await pollAllowance(this.context, this.share, this.feed));
		else if (this.spent > 0 && (!Number.isFinite(this.points) || (this.points < cost && cost < LIST_POINTS))) {
			// Learnt from the first answer; or single reads (1 point) after the paced list calls are spent:
			// they may use the rest of the share in this check rather than wait for a read slot of their own.
			this.points = (await pollAllowance(this.context, this.share, this.feed, true)).points;
		}
		if (this.points < cost) {
			if (this.spent === 0) logSkipped(this.context, this.reason);
			return false;
		}
		this.points -= cost;
		this.spent += cost;
		return true;
	}
}

/** The list calls an allowance holds. */
export function listCallsOf(allowance: PollAllowance): number {
	return Math.floor(allowance.points / LIST_POINTS);
}

/** Logs why a poll skipped its read; the next check delivers what changed. */
export function logSkipped(context: IPollFunctions, reason: string | undefined): void {
	context.logger.info(`${context.getNode().name}: check skipped to leave the point budget for actions (${reason ?? 'share used'}); the next check delivers what changed.`);
}

/**
 * Whether a check may run now (a list call within the allowance, see {@link pollAllowance}). A
 * check that may not run sends nothing and changes nothing, so the next one delivers what it
 * would have: late, never lost, never twice.
 */
export async function checkFitsBudget(context: IPollFunctions, share: number, feed = triggerSpender(context)): Promise<boolean> {
	const allowance = await pollAllowance(context, share, feed);
	if (listCallsOf(allowance) > 0) return true;
	logSkipped(context, allowance.reason);
	return false;
}
