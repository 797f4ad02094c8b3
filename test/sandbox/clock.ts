/**
 * The sandbox's clock. Real time by default; the control endpoint can freeze it at an instant,
 * move it forward or back, and return it to real time. Every timestamp the sandbox writes
 * (`created`, `updated`), token expiry and the rate-limit windows read this clock, so under a
 * frozen clock every write gets the same timestamp.
 */
import { toTimestamp } from './formats';

export class Clock {
	private frozenAt: number | undefined;

	private offsetMs = 0;

	/** Current time in epoch milliseconds. */
	now(): number {
		return this.frozenAt ?? Date.now() + this.offsetMs;
	}

	/** Current time as UTC ISO 8601 with milliseconds, e.g. `2026-11-21T09:30:00.125Z`. */
	nowIso(): string {
		return toTimestamp(this.now());
	}

	get frozen(): boolean {
		return this.frozenAt !== undefined;
	}

	/** Stops the clock at `ms`. */
	freeze(ms: number): void {
		this.frozenAt = ms;
		this.offsetMs = 0;
	}

	/** Moves the clock by `seconds` (may be negative), frozen or not. */
	advance(seconds: number): void {
		const delta = Math.round(seconds * 1000);
		if (this.frozenAt !== undefined) this.frozenAt += delta;
		else this.offsetMs += delta;
	}

	/** Back to real time. */
	real(): void {
		this.frozenAt = undefined;
		this.offsetMs = 0;
	}
}
