/**
 * The sandbox's own control endpoints under `/_sandbox/`: no authentication, never charged,
 * never logged, never faulted.
 *
 * - `POST /_sandbox/reset`: fixtures, no tasks or events, default limits with full budgets, no
 *   faults, real clock, empty request log.
 * - `POST /_sandbox/token` `{ user, ttlSeconds? }` → `{ token }`: a v1 bearer token (default
 *   lifetime 3600 s; a negative lifetime mints an expired token).
 * - `GET|POST /_sandbox/clock` `{ now?: instant | null, advanceSeconds?: number }` → `{ now, frozen }`.
 * - `GET|POST /_sandbox/limits` `{ points: number | null, windowSeconds?, counting?: "points" | "requests",
 *   user?, credential?: "apiKey" | "bearer" }` → `{ points, windowSeconds, counting?, scoped? }`: without
 *   `user` or `credential` every caller's budget (scoped budgets are dropped), with them that scope's.
 * - `GET|POST|DELETE /_sandbox/faults` `{ status?, delayMs?, count?, retryAfterSeconds?, path? }` → pending faults.
 * - `GET|DELETE /_sandbox/requests` → `{ requests: [...] }`, oldest first.
 * - `GET /_sandbox/health` → `{ ok: true }`.
 */
import { z } from 'zod';

import { signToken } from './auth';
import { validate, validationError } from './errors';
import { isInstant, parseDateTime } from './formats';
import { DEFAULT_WINDOW_SECONDS } from './limits';
import type { Query, Reply, RequestContext, Route } from './router';

/** Injected failures and delays for the next API calls (`POST /_sandbox/faults`). */
export class Faults {
	failStatus = 0;

	failRemaining = 0;

	retryAfterSeconds = 1;

	delayMs = 0;

	delayRemaining = 0;

	/** Only API calls to this path take the faults; every call when unset. */
	path: string | undefined = undefined;

	clear(): void {
		this.failStatus = 0;
		this.failRemaining = 0;
		this.retryAfterSeconds = 1;
		this.delayMs = 0;
		this.delayRemaining = 0;
		this.path = undefined;
	}

	/** Whether an API call to `path` takes a fault. */
	pendingFor(path: string): boolean {
		return this.pending && (this.path === undefined || this.path === path);
	}

	/** Takes the fault for one API call: the delay to wait, and the status to fail with (0: none). */
	take(): { delayMs: number; status: number; retryAfterSeconds: number } {
		let delayMs = 0;
		let status = 0;
		if (this.delayRemaining > 0) {
			this.delayRemaining--;
			delayMs = this.delayMs;
		}
		if (this.failRemaining > 0) {
			this.failRemaining--;
			status = this.failStatus;
		}
		return { delayMs, status, retryAfterSeconds: this.retryAfterSeconds };
	}

	get pending(): boolean {
		return this.failRemaining > 0 || this.delayRemaining > 0;
	}

	describe(): Record<string, number | string> {
		const out: Record<string, number> = {};
		if (this.failRemaining > 0) {
			out.status = this.failStatus;
			out.statusCount = this.failRemaining;
			if (this.failStatus === 429) out.retryAfterSeconds = this.retryAfterSeconds;
		}
		if (this.delayRemaining > 0) {
			out.delayMs = this.delayMs;
			out.delayCount = this.delayRemaining;
		}
		return this.path === undefined || !this.pending ? out : { ...out, path: this.path };
	}
}

/** One API call as `GET /_sandbox/requests` shows it. */
export interface LoggedRequest {
	time: string;
	method: string;
	path: string;
	query: Query;
	status: number;
	points: number;
	user?: string;
	/** Parsed JSON body of a POST, when at most 16 KiB and 64 levels deep. */
	body?: unknown;
	/** Why `body` is missing from a POST's entry. */
	bodyOmitted?: string;
}

/** The recent API calls, oldest first, bounded to the last {@link RequestLog.capacity}. */
export class RequestLog {
	private entries: LoggedRequest[] = [];

	constructor(readonly capacity = 10_000) {}

	add(entry: LoggedRequest): void {
		this.entries.push(entry);
		// Trim in batches so the hot path stays O(1) amortised.
		if (this.entries.length > this.capacity + 1000) this.entries.splice(0, this.entries.length - this.capacity);
	}

	list(): LoggedRequest[] {
		return this.entries.length > this.capacity ? this.entries.slice(-this.capacity) : [...this.entries];
	}

	clear(): void {
		this.entries = [];
	}
}

const MAX_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);


const ok = (body?: unknown): Reply => ({ status: body === undefined ? 204 : 200, body });

const tokenSchema = z
	.object(
		{
			user: z.string({ required_error: 'user must be a string', invalid_type_error: 'user must be a string' }),
			ttlSeconds: z
				.number({ invalid_type_error: 'ttlSeconds must be a number' })
				.int('ttlSeconds must be an integer number')
				.min(-315_360_000, 'ttlSeconds must not be less than -315360000')
				.max(315_360_000, 'ttlSeconds must not be greater than 315360000')
				.optional(),
		},
		{ invalid_type_error: 'request body must be a JSON object' },
	)
	.strict();

const clockSchema = z
	.object(
		{
			now: z
				.string({ invalid_type_error: 'now must be an ISO 8601 date-time with Z or an offset, or null' })
				.refine(
					(value) => {
						const ms = parseDateTime(value, true);
						return ms !== undefined && ms >= 0 && ms <= MAX_CLOCK_MS;
					},
					'now must be an ISO 8601 date-time with Z or an offset, between 1970 and 9999',
				)
				.nullable()
				.optional(),
			advanceSeconds: z
				.number({ invalid_type_error: 'advanceSeconds must be a number' })
				.min(-1e10, 'advanceSeconds must not be less than -10000000000')
				.max(1e10, 'advanceSeconds must not be greater than 10000000000')
				.optional(),
		},
		{ invalid_type_error: 'request body must be a JSON object' },
	)
	.strict();

const limitsSchema = z
	.object(
		{
			points: z
				.number({
					required_error: 'points must be a number or null',
					invalid_type_error: 'points must be a number or null',
				})
				.int('points must be an integer number')
				.min(0, 'points must not be less than 0')
				.max(1e12, 'points must not be greater than 1000000000000')
				.nullable(),
			windowSeconds: z
				.number({ invalid_type_error: 'windowSeconds must be a number' })
				.int('windowSeconds must be an integer number')
				.min(1, 'windowSeconds must not be less than 1')
				.max(31_536_000, 'windowSeconds must not be greater than 31536000')
				.optional(),
			counting: z.enum(['points', 'requests'], { errorMap: () => ({ message: 'counting must be "points" or "requests"' }) }).optional(),
			user: z.string({ invalid_type_error: 'user must be a string' }).optional(),
			credential: z.enum(['apiKey', 'bearer'], { errorMap: () => ({ message: 'credential must be "apiKey" or "bearer"' }) }).optional(),
		},
		{ invalid_type_error: 'request body must be a JSON object' },
	)
	.strict();

const faultsSchema = z
	.object(
		{
			status: z
				.number({ invalid_type_error: 'status must be a number' })
				.int('status must be an integer number')
				.min(400, 'status must not be less than 400')
				.max(599, 'status must not be greater than 599')
				.optional(),
			delayMs: z
				.number({ invalid_type_error: 'delayMs must be a number' })
				.int('delayMs must be an integer number')
				.min(0, 'delayMs must not be less than 0')
				.max(120_000, 'delayMs must not be greater than 120000')
				.optional(),
			count: z
				.number({ invalid_type_error: 'count must be a number' })
				.int('count must be an integer number')
				.min(0, 'count must not be less than 0')
				.max(1_000_000, 'count must not be greater than 1000000')
				.optional(),
			retryAfterSeconds: z
				.number({ invalid_type_error: 'retryAfterSeconds must be a number' })
				.int('retryAfterSeconds must be an integer number')
				.min(1, 'retryAfterSeconds must not be less than 1')
				.max(86_400, 'retryAfterSeconds must not be greater than 86400')
				.optional(),
			path: z
				.string({ invalid_type_error: 'path must be a string' })
				.startsWith('/', 'path must start with /')
				.optional(),
		},
		{ invalid_type_error: 'request body must be a JSON object' },
	)
	.strict();

function clockReply(ctx: RequestContext): Reply {
	return ok({ now: ctx.clock.nowIso(), frozen: ctx.clock.frozen });
}

function limitsReply(ctx: RequestContext): Reply {
	const limiter = ctx.sandbox.limiter;
	const config = limiter.config;
	const scoped = limiter.scopedBudgets();
	return ok({
		...(config ? { points: config.points, windowSeconds: config.windowSeconds } : { points: null }),
		...(config?.counting === 'requests' ? { counting: 'requests' } : {}),
		...(scoped.length > 0 ? { scoped } : {}),
	});
}

function control(method: Route['method'], path: string, handler: Route['handler']): Route {
	return { method, path: `/_sandbox/${path}`, auth: 'none', handler };
}

export const controlRoutes: Route[] = [
	control('GET', 'health', () => ok({ ok: true })),

	control('POST', 'reset', (ctx) => {
		const { store, clock, limiter, faults, requestLog } = ctx.sandbox;
		store.reset();
		limiter.reset();
		faults.clear();
		clock.real();
		requestLog.clear();
		return ok({ ok: true });
	}),

	control('POST', 'token', (ctx) => {
		const { user, ttlSeconds } = validate(tokenSchema, ctx.body);
		if (!ctx.store.users.has(user)) throw validationError(['user must be a known user']);
		return ok({ token: signToken(user, ttlSeconds ?? 3600, ctx.clock.now()) });
	}),

	control('GET', 'clock', clockReply),
	control('POST', 'clock', (ctx) => {
		const { now, advanceSeconds } = validate(clockSchema, ctx.body);
		if (now === null) ctx.clock.real();
		else if (now !== undefined && isInstant(now)) ctx.clock.freeze(parseDateTime(now, true)!);
		if (advanceSeconds !== undefined) ctx.clock.advance(advanceSeconds);
		return clockReply(ctx);
	}),

	control('GET', 'limits', limitsReply),
	control('POST', 'limits', (ctx) => {
		const { points, windowSeconds, counting, user, credential } = validate(limitsSchema, ctx.body);
		if (user !== undefined && !ctx.store.users.has(user)) throw validationError(['user must be a known user']);
		const limiter = ctx.sandbox.limiter;
		limiter.configure(
			points === null
				? null
				: { points, windowSeconds: windowSeconds ?? limiter.config?.windowSeconds ?? DEFAULT_WINDOW_SECONDS, ...(counting ? { counting } : {}) },
			{ user, credential },
		);
		return limitsReply(ctx);
	}),

	control('GET', 'faults', (ctx) => ok(ctx.sandbox.faults.describe())),
	control('POST', 'faults', (ctx) => {
		const input = validate(faultsSchema, ctx.body);
		if (input.status === undefined && input.delayMs === undefined) {
			throw validationError(['status or delayMs must be given']);
		}
		const faults = ctx.sandbox.faults;
		const count = input.count ?? 1;
		faults.path = input.path;
		if (input.status !== undefined) {
			faults.failStatus = input.status;
			faults.failRemaining = count;
			faults.retryAfterSeconds = input.retryAfterSeconds ?? 1;
		}
		if (input.delayMs !== undefined) {
			faults.delayMs = input.delayMs;
			faults.delayRemaining = count;
		}
		return ok(faults.describe());
	}),
	control('DELETE', 'faults', (ctx) => {
		ctx.sandbox.faults.clear();
		return ok();
	}),

	control('GET', 'requests', (ctx) => ok({ requests: ctx.sandbox.requestLog.list() })),
	control('DELETE', 'requests', (ctx) => {
		ctx.sandbox.requestLog.clear();
		return ok();
	}),
];
