/**
 * Rate limiting by points, per user, in fixed windows.
 *
 * - Each `/list` call costs {@link LIST_POINTS}, every other API call {@link CALL_POINTS}.
 * - Default budget (the public figure): {@link DEFAULT_POINTS} points per {@link DEFAULT_WINDOW_SECONDS} s.
 *   A user's window starts with their first charged call and lasts `windowSeconds` on the
 *   sandbox clock; the budget is full again when it ends.
 * - A call is charged once its caller is authenticated, whatever its outcome (400s included).
 *   A call refused with 429 is not charged, nor are 401/403 answers, unknown routes and
 *   injected faults.
 * - A call whose cost exceeds the remaining points is refused with 429 and `Retry-After` (whole
 *   seconds until the window resets, at least 1).
 * - Every authenticated API response carries `RateLimit-Limit`, `RateLimit-Remaining` and
 *   `RateLimit-Reset` (whole seconds until the window resets). With limiting off there are none.
 */
export const DEFAULT_POINTS = 300;
export const DEFAULT_WINDOW_SECONDS = 900;
export const LIST_POINTS = 10;
export const CALL_POINTS = 1;

export interface LimitConfig {
	points: number;
	windowSeconds: number;
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
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class Limiter {
	config: LimitConfig | null = { points: DEFAULT_POINTS, windowSeconds: DEFAULT_WINDOW_SECONDS };

	private buckets = new Map<string, Bucket>();

	/** Sets the budget (null: no limiting) and refills every user's budget. */
	configure(config: LimitConfig | null): void {
		this.config = config;
		this.buckets.clear();
	}

	/** Default budget, all budgets full. */
	reset(): void {
		this.configure({ points: DEFAULT_POINTS, windowSeconds: DEFAULT_WINDOW_SECONDS });
	}

	private bucket(userId: string, now: number, config: LimitConfig): Bucket {
		let bucket = this.buckets.get(userId);
		if (!bucket || bucket.resetAt <= now) {
			bucket = { resetAt: now + config.windowSeconds * 1000, used: 0 };
			this.buckets.set(userId, bucket);
		}
		return bucket;
	}

	/** Charges `cost` points to `userId` if the budget allows it. */
	charge(userId: string, cost: number, now: number): LimitResult {
		const config = this.config;
		if (!config) return { allowed: true, charged: cost, headers: NO_HEADERS, retryAfter: 0 };
		const bucket = this.bucket(userId, now, config);
		const allowed = bucket.used + cost <= config.points;
		if (allowed) bucket.used += cost;
		const reset = Math.max(0, Math.ceil((bucket.resetAt - now) / 1000));
		return {
			allowed,
			charged: allowed ? cost : 0,
			headers: headers(config.points, config.points - bucket.used, reset),
			retryAfter: Math.max(1, reset),
		};
	}

	/** Headers describing the user's budget without charging anything. */
	peek(userId: string, now: number): Record<string, string> {
		const config = this.config;
		if (!config) return NO_HEADERS;
		const bucket = this.buckets.get(userId);
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
