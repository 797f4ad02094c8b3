/** Waiting in the end-to-end tests: for a condition, or for a while. */

export const sleep = async (ms) => await new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Checks every `everyMs` until `check()` resolves to a truthy value, and answers it; fails after
 * `timeoutMs`, naming `what` it waited for.
 */
export async function waitFor(check, timeoutMs, what, everyMs = 500) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
		await sleep(everyMs);
	}
}
