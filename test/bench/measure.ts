/** Timing and memory measurement for the benchmark. */

export function now(): number {
	return Number(process.hrtime.bigint()) / 1e6;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
	const start = now();
	const result = await work();
	return { result, ms: now() - start };
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const gc = (globalThis as { gc?: () => void }).gc;

export function canCollectGarbage(): boolean {
	return typeof gc === 'function';
}

function collect(): void {
	// Twice: the first pass may only finalise objects the second frees.
	gc?.();
	gc?.();
}

/** V8 heap in use plus memory outside it held by JS objects (Buffers, ArrayBuffers). */
function used(): number {
	const usage = process.memoryUsage();
	return usage.heapUsed + usage.external;
}

export interface MemoryResult<T> {
	result: T;
	ms: number;
	/** Highest heapUsed + external seen during the work, minus the level before it (after a full GC). */
	peakAddedBytes: number;
	/** heapUsed + external after the work and a full GC, with the result still held, minus the level before. */
	retainedBytes: number;
	samples: number;
}

/**
 * Runs `work` with a full GC before it (needs `node --expose-gc`), sampling heapUsed + external
 * every `intervalMs` while it runs and once at its end.
 */
export async function withMemory<T>(work: () => Promise<T>, intervalMs = 5): Promise<MemoryResult<T>> {
	collect();
	const baseline = used();
	let peak = baseline;
	let samples = 0;
	const sample = () => {
		samples++;
		const value = used();
		if (value > peak) peak = value;
	};
	const timer = setInterval(sample, intervalMs);
	const start = now();
	let result: T;
	try {
		result = await work();
	} finally {
		clearInterval(timer);
	}
	const ms = now() - start;
	sample();
	collect();
	const retained = used() - baseline;
	return { result, ms, peakAddedBytes: peak - baseline, retainedBytes: retained, samples };
}

export function mb(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
