import type { INodeExecutionData } from 'n8n-workflow';

import { ALICE_KEY, SandboxClient } from './sandboxClient';

/**
 * The sandbox as the trigger tests use it: reset before each test with no point budget (every
 * poll runs; a trigger skips checks beyond its budget share) and its clock frozen at a known
 * moment, moved on with `advance`.
 */
export function triggerSandbox() {
	const sandbox = new SandboxClient();
	beforeAll(async () => await sandbox.start());
	afterAll(async () => await sandbox.stop());
	beforeEach(async () => {
		await sandbox.reset();
		await sandbox.control('limits', { points: null });
		await sandbox.control('clock', { now: '2026-12-01T08:00:00.000Z' });
	});
	return {
		sandbox,
		target: { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' },
		credentials: () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } }),
		advance: async (seconds: number) => await sandbox.control('clock', { advanceSeconds: seconds }),
		/** What a poll delivered, as `triggerEvent:title`. */
		fired: (result: INodeExecutionData[][] | null) => (result?.[0] ?? []).map((item) => `${item.json.triggerEvent}:${item.json.title}`),
	};
}
