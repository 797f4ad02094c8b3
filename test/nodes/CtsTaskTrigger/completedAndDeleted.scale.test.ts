/**
 * Task Completed and Task Deleted over an account with 1,200 open tasks, under the point budget
 * (300 points per window, the trigger's default share of 25%): the full read takes several
 * checks, keeps its place between them, and nothing is lost or delivered twice. The sandbox's
 * window is 3 seconds here (real time), so the test waits out a few windows.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PollHarness } from '../../harness/engine';
import { ALICE_KEY, SandboxClient } from '../../harness/sandboxClient';

const sandbox = new SandboxClient();
beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());

const WINDOW_SECONDS = 3;
const OPEN_TASKS = 1200;

/** The next budget window, on the sandbox's frozen clock and on this machine's (where the trigger counts it). */
async function nextWindow() {
	await sandbox.control('clock', { advanceSeconds: WINDOW_SECONDS + 1 });
	await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 100));
}

const post = async (path: string, body: IDataObject) => {
	const { status } = await sandbox.api('POST', path, { body });
	expect(status).toBe(204);
};

it(`an account with ${OPEN_TASKS} open tasks is read over several checks within the budget share; every change is delivered exactly once`, async () => {
	await sandbox.reset();
	await sandbox.control('limits', { points: null });
	const ids: string[] = [];
	// One millisecond apart on a frozen clock: no two share an `updated` value, so the pages are full ones.
	await sandbox.control('clock', { now: '2026-12-01T08:00:00.000Z' });
	for (let index = 0; index < OPEN_TASKS; index++) {
		ids.push(await sandbox.createTask({ title: `t${index}` }));
		await sandbox.control('clock', { advanceSeconds: 0.001 });
	}
	await sandbox.control('limits', { points: 300, windowSeconds: WINDOW_SECONDS });

	const poller = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated', 'completed', 'deleted'], output: 'raw' }, {
		ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url },
	});
	const state = () => (poller.savedStaticData['node:Trigger'] as IDataObject).openTasks as IDataObject | undefined;
	const fired: string[] = [];
	const pointsPerCheck: number[] = [];
	/** Checks as a schedule would run them, one per window, until the running read is complete. */
	async function checkUntilReadComplete() {
		for (let check = 0; check < 10; check++) {
			await sandbox.clearRequests();
			const result = await poller.poll();
			fired.push(...(result?.[0] ?? []).map((item) => `${item.json.triggerEvent}:${item.json.title}`));
			pointsPerCheck.push((await sandbox.requests()).reduce((sum, call) => sum + Number(call.points ?? 0), 0));
			if (state()?.known && !state()?.scan && !state()?.gone) return check + 1;
			// A check right away is skipped without a request: the share of this window is used.
			await sandbox.clearRequests();
			expect(await poller.poll()).toBeNull();
			expect(await sandbox.requests()).toEqual([]);
			await nextWindow();
		}
		throw new Error('the read did not complete in 10 checks');
	}

	// Learning the open tasks: 13 list calls (12 full pages and the empty one), 7 within a share of 75 points.
	expect(await checkUntilReadComplete()).toBe(2);
	expect(fired).toEqual([]);
	expect(pointsPerCheck).toEqual([70, 60]);
	expect(Object.keys(state()!.known as IDataObject)).toHaveLength(OPEN_TASKS);

	// Changes before the next read, and during it: to tasks the read has passed and to tasks it has not reached.
	for (const id of ids.slice(0, 20)) await post('/v3/tasks/close', { id });
	for (const id of ids.slice(20, 30)) await post('/v3/tasks/delete', { id });
	for (const id of ids.slice(30, 60)) await post('/v3/tasks/update', { id, description: 'changed' });
	for (let index = 0; index < 5; index++) await sandbox.createTask({ title: `new${index}` });
	fired.length = 0;
	pointsPerCheck.length = 0;
	// The writes took 65 points of this window; the read starts in the next.
	await nextWindow();
	// Each check goes on where the previous one stopped; a read that completes is followed by the
	// reads by ID of the tasks that left, then by the next read, as far as the share allows.
	for (let check = 0; check < 6; check++) {
		await sandbox.clearRequests();
		const result = await poller.poll();
		fired.push(...(result?.[0] ?? []).map((item) => `${item.json.triggerEvent}:${item.json.title}`));
		pointsPerCheck.push((await sandbox.requests()).reduce((sum, call) => sum + Number(call.points ?? 0), 0));
		if (check === 0) {
			await post('/v3/tasks/close', { id: ids[100] }); // read by the first check: found missing by the next read
			await post('/v3/tasks/close', { id: ids[1100] }); // not read yet
			await post('/v3/tasks/update', { id: ids[101], title: 'retitled' }); // read, then changed: read again at the end
		}
		await nextWindow();
	}
	const expected = [
		...ids.slice(0, 20).map((_, index) => `completed:t${index}`),
		...ids.slice(20, 30).map((_, index) => `deleted:t${index + 20}`),
		...ids.slice(30, 60).map((_, index) => `updated:t${index + 30}`),
		...Array.from({ length: 5 }, (_, index) => `created:new${index}`),
		'completed:t1100',
		'updated:retitled',
		'completed:t100',
	];
	expect([...fired].sort()).toEqual([...expected].sort());
	// 12 pages for 1,175 open tasks and 31 reads by ID, then 12 pages and 1 read, each check spending
	// its share of 75 points as far as whole requests fit: 70 (7 pages), 75 (5 pages, 25 reads),
	// 66 (6 reads, 6 pages), 61 (6 pages, 1 read), then reads with nothing new.
	expect(pointsPerCheck.slice(0, 4)).toEqual([70, 75, 66, 61]);
	for (const points of pointsPerCheck) expect(points).toBeLessThanOrEqual(75);
}, 300_000);
