/**
 * Bulk jobs on every account's budget, on the real clock: 100, 300 and 500 points, and a bearer-token
 * budget counted in requests, each with a window (90 s) longer than any poll's wait for the budget
 * (a minute), so a job that needs more than a window waits for the reset. Each job is its budget and
 * ten more writes, so it needs exactly one reset: it must finish within 1.00–1.05× that minimum (from
 * its first write to its last, as the service logged them) with no failed item and every write once.
 * The four run at once, each a budget of its own (two users, each with an API key and a bearer token).
 *
 * Also: what a call costs is what the service counts (a bearer list call counted as 1 request), and
 * the messages quote the budget the service reported.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../harness/engine';
import { ALICE_KEY, BOB_KEY, SandboxClient } from '../harness/sandboxClient';

const WINDOW_SECONDS = 90;
const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask(), ctsEventV1: new CtsEventV1() });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

interface Job {
	account: string;
	user: 'alice' | 'bob';
	credential: 'apiKey' | 'bearer';
	points: number;
	counting?: 'requests';
}

const JOBS: Job[] = [
	{ account: '100 points (API key)', user: 'alice', credential: 'apiKey', points: 100 },
	{ account: '300 points (API key)', user: 'bob', credential: 'apiKey', points: 300 },
	{ account: '500 points (bearer token)', user: 'alice', credential: 'bearer', points: 500 },
	{ account: '300 requests (bearer token)', user: 'bob', credential: 'bearer', points: 300, counting: 'requests' },
];

/** Writes that need one reset of the window: the budget, and ten more. */
const itemsFor = (job: Job) => job.points + 10;

async function runJob(job: Job) {
	const titles = Array.from({ length: itemsFor(job) }, (_, index) => `${job.account} ${index}`);
	const items = titles.map((title) => ({ title }));
	const started = Date.now();
	const result =
		job.credential === 'apiKey'
			? await engine.runNode({
					type: 'ctsTask',
					parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false },
					credentials: { ctsApi: { apiKey: job.user === 'alice' ? ALICE_KEY : BOB_KEY, baseUrl: sandbox.url } },
					items,
					continueOnFail: true,
					// Bulk jobs of published workflows: they wait for the budget (the editor's runs do not).
					mode: 'trigger',
				})
			: await engine.runNode({
					type: 'ctsEventV1',
					parameters: {
						resource: 'event',
						operation: 'create',
						calendarId: job.user === 'alice' ? 'cal-alice-b-primary' : 'cal-bob-a-primary',
						title: '={{ $json.title }}',
						start: '2026-12-01T09:00:00',
						end: '2026-12-01T09:30:00',
						timeZone: 'Europe/Berlin',
					},
					credentials: { ctsSyncApi: { token: await sandbox.token(job.user), syncUrl: sandbox.url } },
					items,
					continueOnFail: true,
					mode: 'trigger',
				});
	const wallSeconds = (Date.now() - started) / 1000;
	const path = job.credential === 'apiKey' ? '/v3/tasks/create' : '/v1/events/create';
	const calls = (await sandbox.requests()).filter((call) => call.path === path && String((call.body as IDataObject | undefined)?.title ?? '').startsWith(`${job.account} `));
	const times = calls.map((call) => Date.parse(call.time));
	return {
		seconds: (Math.max(...times) - Math.min(...times)) / 1000,
		firstAfter: (Math.min(...times) - started) / 1000,
		wallSeconds,
		failed: result.items.filter((item) => item.json.error !== undefined).length + (titles.length - result.items.length),
		written: calls.filter((call) => call.status === 200).map((call) => String((call.body as IDataObject).title)),
		refused: calls.filter((call) => call.status === 429).length,
	};
}

const setBudget = async (job: Job, windowSeconds = WINDOW_SECONDS) =>
	await sandbox.control('limits', { points: job.points, windowSeconds, user: job.user, credential: job.credential, ...(job.counting ? { counting: job.counting } : {}) });

it(`bulk writes at the budget's pace on accounts of 100, 300 and 500 points and 300 requests, at once: each within 1.00–1.05× the budget's minimum (one reset of ${WINDOW_SECONDS} s), no item failed, every write once`, async () => {
	for (const job of JOBS) await setBudget(job);
	await sandbox.clearRequests();
	const results = await Promise.all(JOBS.map(runJob));
	for (const [index, job] of JOBS.entries()) {
		const { seconds, firstAfter, wallSeconds, failed, written, refused } = results[index];
		const ratio = seconds / WINDOW_SECONDS;
		console.log(`${job.account}: ${itemsFor(job)} writes in ${seconds.toFixed(1)} s from the first to the last (the first ${firstAfter.toFixed(1)} s after the run started, ${wallSeconds.toFixed(1)} s in all) = ${ratio.toFixed(3)}x the budget's minimum (${WINDOW_SECONDS} s, one reset); ${failed} failed; ${refused} answered 429`);
		expect(failed).toBe(0);
		expect(written).toHaveLength(itemsFor(job));
		expect(new Set(written).size).toBe(itemsFor(job));
		expect(refused).toBe(0);
		expect(ratio).toBeGreaterThanOrEqual(1.0);
		expect(ratio).toBeLessThanOrEqual(1.05);
	}
}, 300_000);

describe('what the service counts, and what the messages say', () => {
	it('a bearer budget counted in requests: 20 list calls fit a 20-request window, though the table prices a list call at 10', async () => {
		await setBudget({ account: 'x', user: 'alice', credential: 'bearer', points: 20, counting: 'requests' }, 900);
		const { items } = await engine.runNode({
			type: 'ctsEventV1',
			parameters: { resource: 'event', operation: 'getAll', calendarIds: 'cal-alice-a-primary', start: '2026-11-01T00:00:00Z', end: '2026-12-01T00:00:00Z', returnAll: true, options: { maxWaitSeconds: 0 } },
			credentials: { ctsSyncApi: { token: await sandbox.token('alice'), syncUrl: sandbox.url } },
			items: Array.from({ length: 20 }, (_, index) => ({ index })),
			continueOnFail: true,
		});
		const lists = (await sandbox.requests()).filter((call) => call.path === '/v1/events/list');
		expect(lists).toHaveLength(20);
		expect(lists.every((call) => call.status === 200)).toBe(true);
		expect(items.filter((item) => item.json.error !== undefined)).toEqual([]);
	});

	it('a job that may not wait fails with the budget and reset the service reported', async () => {
		await setBudget({ account: 'x', user: 'alice', credential: 'apiKey', points: 100 }, 900);
		const { items } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false, options: { maxWaitSeconds: 0 } },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
			items: Array.from({ length: 101 }, (_, index) => ({ title: `quick ${index}` })),
			continueOnFail: true,
		});
		expect(String(items[100].json.error)).toMatch(
			/^Rate limit: the account's point budget is used up \(0 of 100 points left; this account's budget is 100 points per 15 min; it resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 15 min\)\)$/,
		);
	});

	it('a 429 from the service (another client used the points) is explained with the budget it reported', async () => {
		await setBudget({ account: 'x', user: 'alice', credential: 'apiKey', points: 100 }, 900);
		for (let call = 0; call < 10; call++) await sandbox.api('GET', '/v3/tasks/list');
		// The node learns nothing before its first request: it is sent, and refused.
		const { error } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'getAll', returnAll: false, limit: 5, options: { maxWaitSeconds: 0 } },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		expect(error?.message).toMatch(/point budget/);
		expect(error?.message).toMatch(/\(0 of 100 points left; this account's budget is 100 points per 15 min; it resets at /);
	});
});
