/** Waiting in the end-to-end tests: for a condition, or for a while. */

export const sleep = async (ms) => await new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `check()` may give this error while n8n is still busy: its 503 "Database is not ready!" on a loaded machine. */
const notYet = (error) => error?.status === 503;

/**
 * Checks every `everyMs` until `check()` resolves to a truthy value, and answers it; fails after
 * `timeoutMs`, naming `what` it waited for. An n8n answer 503 counts as not yet (see `notYet`).
 */
export async function waitFor(check, timeoutMs, what, everyMs = 500) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check().catch((error) => {
			if (notYet(error)) return undefined;
			throw error;
		});
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
		await sleep(everyMs);
	}
}
