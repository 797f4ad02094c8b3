/**
 * The service's rate limit as the package models it, in one place: what a call costs, the window,
 * the part of the budget triggers leave to actions, and the share arithmetic the triggers, their
 * editor hints, the messages and the benchmarks use.
 *
 * The size of the budget is never assumed: accounts differ (100, 300 or 500 points per 15 minutes
 * are all in use, and a bearer-token budget may count requests rather than points), and every
 * answer says which applies (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`). The
 * pacer (`pointBudget.ts`) learns the limit, the window and, where answers show it, what a call
 * really costs; everything here is a function of what it learnt.
 */

/** The kinds of call the service prices differently. */
export type CallKind = 'list' | 'call';

/** What the service's documentation says a call costs: 10 points for a `/list` call, 1 for any other. */
export const COST_TABLE: Readonly<Record<CallKind, number>> = { list: 10, call: 1 };

/** Which kind of call a request path is. */
export function callKind(url: string): CallKind {
	return /\/list(?:$|\?)/.test(url) ? 'list' : 'call';
}

/** The service's documented window, used until answers tell where a window ends. */
export const USUAL_WINDOW_MS = 15 * 60 * 1000;

/** The budgets accounts are known to have per 15 minutes, for texts that cannot know the user's. */
export const USUAL_BUDGETS = [100, 300, 500] as const;

/** The part of the budget trigger polls leave to actions (beyond each trigger's one check per window). */
export const RESERVE_FOR_ACTIONS = 0.2;

/** The points of a budget of `limit` that trigger polls leave to actions. */
export function reserveFor(limit: number): number {
	return Math.ceil(limit * RESERVE_FOR_ACTIONS);
}

/** A trigger's default share of the budget per window, in percent, and the smallest the editor allows. */
export const DEFAULT_BUDGET_SHARE = 25;
export const MIN_BUDGET_SHARE = 1;

/** The share in percent as given (an option may be unset or out of range), within 1–100. */
export function sharePercent(share: unknown): number {
	const value = Number(share ?? DEFAULT_BUDGET_SHARE);
	return Number.isFinite(value) ? Math.min(100, Math.max(MIN_BUDGET_SHARE, value)) : DEFAULT_BUDGET_SHARE;
}

/**
 * What a trigger may spend per window: its share of the limit, and never less than one list call,
 * so that whatever the budget and the share it checks at least once per window.
 */
export function sharePoints(limit: number, share: number, listCost = COST_TABLE.list): number {
	return Math.max(listCost, Math.floor((limit * sharePercent(share)) / 100));
}

/** The checks (list calls) a trigger's share holds per window: at least one. */
export function checksPerWindow(limit: number, share: number, listCost = COST_TABLE.list): number {
	return Math.max(1, Math.floor(sharePoints(limit, share, listCost) / listCost));
}

/** How far apart a trigger's checks are spread when its schedule asks for more than its share holds. */
export function checkSpacingMs(limit: number, share: number, windowMs = USUAL_WINDOW_MS, listCost = COST_TABLE.list): number {
	return windowMs / checksPerWindow(limit, share, listCost);
}

/** A duration as people say it: "45 s", "2 min", "7.5 min", "1 h". */
export function spokenDuration(ms: number): string {
	const seconds = ms / 1000;
	if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
	const minutes = Math.round((seconds / 60) * 2) / 2;
	if (minutes < 90) return `${minutes} min`;
	return `${Math.round((minutes / 60) * 2) / 2} h`;
}

/** What the service reported of a budget, as the messages quote it. */
export interface ReportedBudget {
	limit?: number;
	remaining?: number;
	/** Epoch ms at which the window resets. */
	resetAt?: number;
	/** The window's length as the answers showed it. */
	windowMs?: number;
	/** Whether the answers show that calls are counted one each (requests) rather than priced in points. */
	countsRequests?: boolean;
}

/**
 * The budget in words, from what the service reported: "4 of 100 points left; this account's
 * budget is 100 points per 15 min; it resets at 2026-11-27T09:15:00Z (in 9 min)". Empty when no
 * answer has told it yet.
 */
export function describeBudget(budget: ReportedBudget, now = Date.now()): string {
	if (budget.limit === undefined || budget.limit <= 0) return '';
	const unit = budget.countsRequests ? 'requests' : 'points';
	const parts = [`this account's budget is ${budget.limit} ${unit} per ${spokenDuration(budget.windowMs ?? USUAL_WINDOW_MS)}`];
	if (budget.remaining !== undefined) parts.unshift(`${budget.remaining} of ${budget.limit} ${unit} left`);
	if (budget.resetAt !== undefined) {
		const at = new Date(budget.resetAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
		parts.push(`it resets at ${at} (in ${spokenDuration(Math.max(1000, budget.resetAt - now))})`);
	}
	return parts.join('; ');
}

/** What calls cost in the budget's own unit, for messages: "each list call costs 10 points, any other call 1". */
export function describeCosts(listCost: number, callCost: number): string {
	if (listCost === callCost) return `each call counts ${listCost === 1 ? 'once' : `${listCost} points`}`;
	return `each list call costs ${listCost} points, any other call ${callCost}`;
}
