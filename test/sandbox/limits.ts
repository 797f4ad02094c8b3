/**
 * Rate limiting by points, per user, in fixed windows.
 *
 * - Each `/list` call costs {@link LIST_POINTS}, every other API call {@link CALL_POINTS}.
 * - Default budget (this sandbox's; accounts differ, see below): {@link DEFAULT_POINTS} points per {@link DEFAULT_WINDOW_SECONDS} s.
 *   A user's window starts with their first charged call and lasts `windowSeconds` on the
 *   sandbox clock; the budget is full again when it ends.
 * - A call is charged once its caller is authenticated, whatever its outcome (400s included).
 *   A call refused with 429 is not charged, nor are 401/403 answers, unknown routes and
 *   injected faults.
 * - A call whose cost exceeds the remaining points is refused with 429 and `Retry-After` (whole
 *   seconds until the window resets, at least 1).
 * - Every authenticated API response carries `RateLimit-Limit`, `RateLimit-Remaining` and
 *   `RateLimit-Reset` (whole seconds until the window resets). With limiting off there are none.
 * - Accounts differ (the service's documents give API keys 100 or 300 points and bearer tokens
 *   500 points, or 300 requests): a budget can be set for one user, one kind of credential, or
 *   both, in points or in requests (every call counts 1), of any size and window. A budget set for
 *   a kind of credential is kept apart from the user's other budget; otherwise the user's v1 and
 *   v3 calls share one.
 */
export const DEFAULT_POINTS = 300;
export const DEFAULT_WINDOW_SECONDS = 900;
export const LIST_POINTS = 10;
export const CALL_POINTS = 1;

/** How a budget counts: points by the price of each call, or requests (every call 1). */
export type Counting = 'points' | 'requests';
/** The kinds of credential: the v3 API key and the v1 bearer token. */
export type CredentialKind = 'apiKey' | 'bearer';

export interface LimitConfig {
	points: number;
	windowSeconds: number;
	counting?: Counting;
}

/** Whom a budget applies to: one user, one kind of credential, or both (neither: every caller). */
export interface LimitScope {
	user?: string;
	credential?: CredentialKind;
}

interface Bucket {
	/** Epoch ms at which the window ends. */
	resetAt: number;
	used: number;
}

export interface LimitResult {
	allowed: boolean;
	/** Points charged for this call (0 when refused). */
	charged: number;
	headers: Record<string, string>;
	/** Seconds until the budget refills, for `Retry-After` on a refusal. */
	retryAfter: number;
	/** The budget that applied (none: limiting is off). */
	config: LimitConfig | null;
}

/**
 * The message of a refusal (429). The service's own text is not documented; the sandbox says what
 * it is and how its budget is changed, so that whoever meets the refusal while trying the nodes
 * (the nodes show the service's message) knows what to do.
 */
export function refusalMessage(config: LimitConfig): string {
	const unit = config.counting === 'requests' ? 'request' : 'point';
	const plural = (count: number) => `${count} ${unit}${count === 1 ? '' : 's'}`;
	return (
		`Rate limit exceeded: not enough ${unit}s left in this window. This is the sandbox, with a budget of ${plural(config.points)} per ${config.windowSeconds} s: ` +
		'restart it (npm start or npm run sandbox) to begin with a full budget, set another one with SANDBOX_POINTS=<points> when it starts, or POST /_sandbox/limits while it runs'
	);
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const scopeKey = (scope: LimitScope) => `${scope.user ?? '*'}|${scope.credential ?? '*'}`;

export class Limiter {
	/** The budget of every caller no scoped budget applies to (null: no limiting). */
	config: LimitConfig | null = { points: DEFAULT_POINTS, windowSeconds: DEFAULT_WINDOW_SECONDS };

	/** Budgets set for a user, a kind of credential or both, by `user|credential` (`*` for any). */
	private scoped = new Map<string, { scope: LimitScope; config: LimitConfig | null }>();
	private buckets = new Map<string, Bucket>();

	/**
	 * Sets a budget (null: no limiting) and refills every budget. Without a scope it is every
	 * caller's, and budgets set for a scope are dropped; with one it applies to that scope.
	 */
	configure(config: LimitConfig | null, scope: LimitScope = {}): void {
		if (scope.user === undefined && scope.credential === undefined) {
			this.config = config;
			this.scoped.clear();
		} else {
			this.scoped.set(scopeKey(scope), { scope, config });
		}
		this.buckets.clear();
	}

	/** What {@link reset} restores: the sandbox's default, or what it was started with (`SANDBOX_POINTS`). */
	private startBudget: LimitConfig = { points: DEFAULT_POINTS, windowSeconds: DEFAULT_WINDOW_SECONDS };

	/** Sets the budget every caller starts with, now and after each reset. */
	startWith(config: LimitConfig): void {
		this.startBudget = config;
		this.reset();
	}

	/** The budget it started with, all budgets full. */
	reset(): void {
		this.configure({ ...this.startBudget });
	}

	/** The budgets set for a scope, as the control endpoint shows them. */
	scopedBudgets(): Array<LimitScope & { points: number | null; windowSeconds?: number; counting?: Counting }> {
		return [...this.scoped.values()].map(({ scope, config }) => ({ ...scope, points: config?.points ?? null, ...(config ? { windowSeconds: config.windowSeconds, counting: config.counting ?? 'points' } : {}) }));
	}

	/** The budget that applies to this user's calls with this credential, most specific first, and the bucket it counts in. */
	private applying(userId: string, credential: CredentialKind): { config: LimitConfig | null; bucketKey: string } {
		for (const scope of [{ user: userId, credential }, { user: userId }, { credential }]) {
			const found = this.scoped.get(scopeKey(scope));
			if (found) return { config: found.config, bucketKey: scope.credential ? `${userId}|${credential}` : userId };
		}
		return { config: this.config, bucketKey: userId };
	}

	private bucket(key: string, now: number, config: LimitConfig): Bucket {
		let bucket = this.buckets.get(key);
		if (!bucket || bucket.resetAt <= now) {
			bucket = { resetAt: now + config.windowSeconds * 1000, used: 0 };
			this.buckets.set(key, bucket);
		}
		return bucket;
	}

	/** Charges a call priced `points` to `userId`'s budget for this credential, if it allows it. */
	charge(userId: string, credential: CredentialKind, points: number, now: number): LimitResult {
		const { config, bucketKey } = this.applying(userId, credential);
		if (!config) return { allowed: true, charged: points, headers: NO_HEADERS, retryAfter: 0, config };
		const cost = config.counting === 'requests' ? 1 : points;
		const bucket = this.bucket(bucketKey, now, config);
		const allowed = bucket.used + cost <= config.points;
		if (allowed) bucket.used += cost;
		const reset = Math.max(0, Math.ceil((bucket.resetAt - now) / 1000));
		return {
			allowed,
			charged: allowed ? cost : 0,
			headers: headers(config.points, config.points - bucket.used, reset),
			retryAfter: Math.max(1, reset),
			config,
		};
	}

	/** Headers describing the budget without charging anything. */
	peek(userId: string, credential: CredentialKind, now: number): Record<string, string> {
		const { config, bucketKey } = this.applying(userId, credential);
		if (!config) return NO_HEADERS;
		const bucket = this.buckets.get(bucketKey);
		if (!bucket || bucket.resetAt <= now) return headers(config.points, config.points, config.windowSeconds);
		return headers(config.points, config.points - bucket.used, Math.max(0, Math.ceil((bucket.resetAt - now) / 1000)));
	}
}

function headers(limit: number, remaining: number, reset: number): Record<string, string> {
	return {
		'RateLimit-Limit': String(limit),
		'RateLimit-Remaining': String(Math.max(0, remaining)),
		'RateLimit-Reset': String(reset),
	};
}
