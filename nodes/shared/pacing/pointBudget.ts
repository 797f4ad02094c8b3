import * as workflow from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { COST_TABLE, type CallKind, type ReportedBudget } from './costModel';

/**
 * The service's point budget of one user and credential, as the service's answers describe it,
 * shared by every node, trigger and execution in this n8n process that uses it.
 *
 * The service allows a number of points per window; its size differs by account (see
 * `costModel.ts`), and every answer carries `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` (seconds until the window resets). Requests wait in one queue, first come
 * first served, and a request is sent only when the budget as last reported still holds its
 * points, so the service should never have to refuse one; otherwise it waits for the window to
 * reset. Other clients of the same account can still use points the process does not see: their
 * 429 answers (nothing processed) put the request back at the head of the queue until
 * `Retry-After` has passed.
 *
 * What a call costs starts from the documented table and follows the answers: when a request
 * that was alone in flight lowers `RateLimit-Remaining` by less (a budget that counts requests
 * charges a list call 1), the pacer reserves what the service counts. A larger drop is not taken
 * as the price: other clients of the account may have spent in between.
 */

/** Requests of one user in flight at once: enough to hide latency, few enough to read the budget right. */
const MAX_IN_FLIGHT = 8;

interface Known {
	limit: number;
	remaining: number;
	/** Epoch ms at which the window resets; undefined once it has (until an answer says again). */
	resetAt?: number;
	/** The lowest `RateLimit-Remaining` an answer gave in this window: the newest, since it only falls. */
	lowestTold?: number;
	/** Set by a 429: nothing may be sent before `resetAt`, whatever later answers without headers say. */
	refused?: boolean;
	/** The window has just reset here: the budget is full (others can only have spent from it). */
	fresh?: boolean;
}

/** A request that holds points: returned by {@link PointBudget.take}, given back by {@link PointBudget.answered} or {@link PointBudget.settle}. */
export interface Ticket {
	readonly cost: number;
	readonly kind: CallKind;
	settled: boolean;
	/** Whether it was sent with nothing else in flight, and what the service had said was left then: its answer then shows what it cost. */
	readonly alone: boolean;
	readonly sequence: number;
	readonly remainingBefore?: number;
	readonly windowResetAt?: number;
	/** Sent first in a window that has just reset, when the budget was full. */
	readonly freshWindow?: boolean;
}

/** How many of a kind's recent alone-in-flight costs are kept; the smallest is what the service counts (others' calls on the account can only add). */
const COST_SAMPLES = 5;

interface Waiter {
	kind: CallKind;
	job: string;
	maxWaitMs: number;
	resolve: (ticket: Ticket) => void;
	reject: (error: Error) => void;
	signal?: AbortSignal;
}

export interface TakeOptions {
	/** Who asks: one execution, one trigger, the editor; for the error that says what the job still needs. */
	job: string;
	/** What kind of call it is (its cost is {@link PointBudget.costOf} that kind); a plain call when not given. */
	kind?: CallKind;
	/**
	 * How long the request may wait for the budget to refill: when the window resets (or a 429's
	 * `Retry-After` ends) later than that, it gives up. Waiting its turn behind requests that are
	 * being sent does not count.
	 */
	maxWaitMs: number;
	signal?: AbortSignal;
}

/**
 * Who sends a request and how long it may wait for the budget: an execution, the editor, or a
 * trigger's poll, which is also told what each of its requests cost (its share of the window).
 */
export interface Spender {
	job: string;
	maxWaitMs: number;
	signal?: AbortSignal;
	spent?(cost: number): void;
}

/** What a budget knows at a moment: what the service reported, what calls cost, and what waits. */
export interface BudgetSnapshot extends ReportedBudget {
	listCost: number;
	callCost: number;
	/** Requests waiting for points. */
	waiting: number;
	/** Which window it is, counted from the first: trigger shares are counted per window. */
	window: number;
	/** Whether the answers carry no rate-limit headers (limiting off, or a proxy removed them): nothing tells the budget. */
	unmetered: boolean;
}

/** Why a request could not be sent in time: what is known of the budget when it gave up. */
export class BudgetExhausted extends Error {
	constructor(
		readonly neededPoints: number,
		readonly waitingRequests: number,
		readonly budget: BudgetSnapshot,
	) {
		super('The point budget of the account is used up');
	}
}

/** Waits `ms`, or until `signal` aborts (then rejects at once), on n8n 2.x and 1.x alike. */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await workflow.sleep(ms);
	if (signal.aborted) throw new Error('The execution was cancelled');
	// n8n 1.x has `sleepWithAbort`; in 2.x `sleep` itself takes the signal.
	const { sleepWithAbort } = workflow as unknown as { sleepWithAbort?: (ms: number, signal: AbortSignal) => Promise<void> };
	await (sleepWithAbort ? sleepWithAbort(ms, signal) : (workflow.sleep as (ms: number, signal?: AbortSignal) => Promise<void>)(ms, signal));
}

export class PointBudget {
	private known?: Known;
	/** The service's answers carry no rate-limit headers (limiting off, or a proxy removed them): only 429s tell. */
	private unmetered = false;
	private inFlightPoints = 0;
	private inFlightCount = 0;
	private readonly queue: Waiter[] = [];
	private timer?: { at: number; controller: AbortController };
	/** Recent costs of each kind of call as the answers showed them. */
	private readonly costSamples: Record<CallKind, number[]> = { list: [], call: [] };
	/** Requests sent so far: a request's answer shows its own cost only when none was sent after it. */
	private sent = 0;
	/** The longest `RateLimit-Reset` in this and the previous window: the window's length. */
	private windowSeen = { current: 0, previous: 0 };
	/** Counts windows: a new one starts when the budget refills or an answer tells of a new reset time. */
	private windowNumber = 0;
	/** The cancel signals of executions with requests in this budget's queue, each listened to once. */
	private readonly watched = new WeakSet<AbortSignal>();

	/**
	 * Waits its turn and until the budget holds what the call costs, then counts it as taken. Rejects
	 * with {@link BudgetExhausted} when the budget does not refill within the request's maximum
	 * wait, and at once when the execution is cancelled. `atHead` puts a request that was refused
	 * (429) back in front, keeping the order.
	 */
	async take(options: TakeOptions, atHead = false): Promise<Ticket> {
		const kind = options.kind ?? 'call';
		return await new Promise<Ticket>((resolve, reject) => {
			if (options.signal?.aborted) return reject(new Error('The execution was cancelled'));
			const waiter: Waiter = { kind, job: options.job, maxWaitMs: options.maxWaitMs, resolve, reject, signal: options.signal };
			if (options.signal) this.watch(options.signal);
			if (atHead) this.queue.unshift(waiter);
			else this.queue.push(waiter);
			this.pump();
		});
	}

	/**
	 * One listener per execution's signal (not one per waiting request: a job of 1,000 items would
	 * add 1,000): when it aborts, that execution's requests leave the queue at once.
	 */
	private watch(signal: AbortSignal): void {
		if (this.watched.has(signal)) return;
		this.watched.add(signal);
		signal.addEventListener(
			'abort',
			() => {
				this.watched.delete(signal);
				for (const waiter of this.queue.filter((entry) => entry.signal === signal)) {
					this.remove(waiter);
					waiter.reject(new Error('The execution was cancelled'));
				}
				this.pump();
			},
			{ once: true },
		);
	}

	/**
	 * An answer arrived (any status): its points are no longer in flight, and its headers tell
	 * the budget, counting what is still in flight. Called as soon as the answer is there, so
	 * that a read the answer leads to (a read-back) never waits for its own write.
	 */
	answered(ticket: Ticket, headers: IDataObject | undefined): void {
		const limit = Number(headers?.['ratelimit-limit']);
		const remaining = Number(headers?.['ratelimit-remaining']);
		const reset = Number(headers?.['ratelimit-reset']);
		if (!ticket.settled) {
			ticket.settled = true;
			this.inFlightPoints -= ticket.cost;
			this.inFlightCount--;
		}
		if ([limit, remaining, reset].every(Number.isFinite)) {
			const resetAt = Date.now() + reset * 1000;
			// Answers can arrive out of order: within one window the lowest figure is the newest, so an
			// older answer never raises the count. Requests still in flight may not be counted in it
			// yet: assume they are not. Once all are answered, the count is exactly what the service said.
			const sameWindow = this.known?.resetAt !== undefined && Math.abs(resetAt - this.known.resetAt) < 2000;
			// A reset time other than the one known starts a new window (after a local refill, or before
			// any answer, the window was counted already; a 429's wait is no window of its own).
			if (!sameWindow && this.known?.resetAt !== undefined && !this.known.refused) this.newWindow();
			this.learnCost(ticket, remaining, resetAt, reset * 1000);
			this.learnWindow(reset * 1000);
			const lowestTold = sameWindow && this.known!.lowestTold !== undefined ? Math.min(this.known!.lowestTold, remaining) : remaining;
			this.known = {
				limit,
				remaining: Math.max(0, lowestTold - this.inFlightPoints),
				resetAt: sameWindow ? this.known!.resetAt : resetAt,
				lowestTold,
			};
			this.unmetered = false;
		} else {
			// Without rate-limit headers nothing tells the budget (a proxy removed them, or the
			// deployment sends none): counting down from an older answer would end in waits no answer
			// asked for. Only a 429's Retry-After still holds.
			if (!this.known?.refused) this.known = undefined;
			this.unmetered = true;
		}
		this.pump();
	}

	/** The request is over (answered, or failed without an answer): its points are no longer in flight. */
	settle(ticket: Ticket): void {
		if (ticket.settled) return;
		ticket.settled = true;
		this.inFlightPoints -= ticket.cost;
		this.inFlightCount--;
		this.pump();
	}

	/**
	 * A 429: nothing was processed, and nothing can be sent before `retryAfterSeconds` have
	 * passed (other clients of the account used the points). Then the budget counts as full
	 * again, until the next answer says how full it is.
	 */
	refused(retryAfterSeconds: number): void {
		this.known = { limit: this.known?.limit ?? 0, remaining: 0, resetAt: Date.now() + Math.max(1, retryAfterSeconds) * 1000, refused: true };
		this.pump();
	}

	/** What is known now: what the service reported, what the answers showed of the window and costs, and how many requests wait. */
	snapshot(): BudgetSnapshot {
		this.refill();
		return {
			listCost: this.costOf('list'),
			callCost: this.costOf('call'),
			limit: this.known?.limit || undefined,
			remaining: this.known?.remaining,
			resetAt: this.known?.resetAt,
			windowMs: this.windowMs(),
			countsRequests: this.costSamples.list.length > 0 && this.costOf('list') === 1 && this.costOf('call') === 1,
			waiting: this.queue.length,
			window: this.windowNumber,
			unmetered: this.unmetered,
		};
	}

	/** What a kind of call costs: the least the answers showed lately, or the documented cost until they show it. */
	costOf(kind: CallKind): number {
		const samples = this.costSamples[kind];
		return samples.length > 0 ? Math.min(...samples) : COST_TABLE[kind];
	}

	/** The window's length as the answers showed it (the longest reset time of this and the previous window), if any did. */
	windowMs(): number | undefined {
		return Math.max(this.windowSeen.current, this.windowSeen.previous) || undefined;
	}

	/** A request sent alone whose answer is in the same window as the figure before it shows what the service counted for it. */
	private learnCost(ticket: Ticket, remaining: number, resetAt: number, resetMs: number): void {
		if (!ticket.alone || ticket.sequence !== this.sent || ticket.remainingBefore === undefined) return;
		if (ticket.freshWindow) {
			// Only an answer at the start of its window shows the window as new to the service too.
			const windowMs = this.windowMs();
			if (windowMs === undefined || resetMs < windowMs - 5000) return;
		} else if (ticket.windowResetAt === undefined || Math.abs(resetAt - ticket.windowResetAt) >= 2000) return;
		const cost = ticket.remainingBefore - remaining;
		// Nothing charged (a refusal, an unauthenticated answer) says nothing of the price; more than
		// the table is others' calls on the same account in between, not the price.
		if (cost < 1) return;
		const samples = this.costSamples[ticket.kind];
		samples.push(Math.min(cost, COST_TABLE[ticket.kind]));
		if (samples.length > COST_SAMPLES) samples.shift();
	}

	private learnWindow(resetMs: number): void {
		this.windowSeen.current = Math.max(this.windowSeen.current, Math.ceil(resetMs / 1000) * 1000);
	}

	private newWindow(): void {
		this.windowNumber++;
		if (this.windowSeen.current > 0) this.windowSeen = { current: 0, previous: this.windowSeen.current };
	}

	/** Once the window has reset, the whole budget is there again (until an answer says otherwise). */
	private refill(): void {
		if (this.known?.resetAt !== undefined && this.known.resetAt <= Date.now()) {
			// After a 429 that came before any answer with headers, the limit is not known yet.
			this.known = this.known.limit > 0 ? { limit: this.known.limit, remaining: this.known.limit, lowestTold: this.known.limit, fresh: true } : undefined;
			this.newWindow();
		}
	}

	private remove(waiter: Waiter): void {
		const index = this.queue.indexOf(waiter);
		if (index >= 0) this.queue.splice(index, 1);
	}

	/** Sends whoever can go, fails whoever cannot go in time, and wakes up when the window resets. */
	private pump(): void {
		this.refill();
		while (this.queue.length > 0 && this.inFlightCount < MAX_IN_FLIGHT) {
			const head = this.queue[0];
			// Priced as it is sent: what the service counts may have been learnt while it waited.
			const cost = this.costOf(head.kind);
			if (this.known && this.known.resetAt === undefined && cost > this.known.remaining && this.inFlightCount === 0) {
				// Spent down without an answer saying when the window resets (no rate headers): start over.
				this.known = undefined;
			}
			// Without knowledge, one request at a time: its answer tells the budget (or that none is told).
			const fits = this.known ? cost <= this.known.remaining : this.unmetered || this.inFlightCount === 0;
			if (!fits) break;
			this.remove(head);
			const ticket: Ticket = {
				cost,
				kind: head.kind,
				settled: false,
				alone: this.inFlightCount === 0,
				sequence: ++this.sent,
				remainingBefore: this.known?.lowestTold,
				windowResetAt: this.known?.resetAt,
				freshWindow: this.known?.fresh,
			};
			if (this.known) this.known.remaining -= cost;
			this.inFlightPoints += cost;
			this.inFlightCount++;
			head.resolve(ticket);
		}
		const nextChance = this.known?.resetAt;
		if (this.queue.length === 0 || nextChance === undefined || this.inFlightCount > 0) return this.disarm();
		// Nothing in flight to tell more, and the budget is short until the window resets: whoever
		// may not wait that long gives up now, saying what its job still needed.
		const waitMs = nextChance - Date.now();
		const late = this.queue.filter((waiter) => waiter.maxWaitMs < waitMs);
		if (late.length > 0) {
			const needed = new Map<string, { points: number; requests: number }>();
			for (const { job, kind } of this.queue) {
				const cost = this.costOf(kind);
				const total = needed.get(job) ?? { points: 0, requests: 0 };
				needed.set(job, { points: total.points + cost, requests: total.requests + 1 });
			}
			for (const waiter of late) {
				this.remove(waiter);
				const { points, requests } = needed.get(waiter.job)!;
				waiter.reject(new BudgetExhausted(points, requests, { ...this.snapshot(), resetAt: nextChance }));
			}
		}
		if (this.queue.length > 0) this.arm(nextChance);
		else this.disarm();
	}

	private arm(at: number): void {
		if (this.timer?.at === at) return;
		this.disarm();
		const controller = new AbortController();
		this.timer = { at, controller };
		pause(Math.max(0, at - Date.now()) + 50, controller.signal).then(
			() => {
				if (this.timer?.controller === controller) this.timer = undefined;
				this.pump();
			},
			() => undefined,
		);
	}

	private disarm(): void {
		this.timer?.controller.abort();
		this.timer = undefined;
	}
}

const budgets = new Map<string, PointBudget>();

/** The budget of the service user and credential with this key (see `credentialUserKey`). */
export function budgetOf(userKey: string): PointBudget {
	let budget = budgets.get(userKey);
	if (!budget) {
		budget = new PointBudget();
		budgets.set(userKey, budget);
	}
	return budget;
}

/** Forgets every budget, as a restart of n8n does. */
export function forgetBudgets(): void {
	budgets.clear();
}
