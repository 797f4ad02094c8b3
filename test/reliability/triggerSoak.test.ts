/**
 * Soak run of the CTS Task Trigger: at least 10,000 randomized creates, updates, completions and
 * deletions against the sandbox, polled through n8n's PollContext with 5xx, 429 and delays
 * injected, and the trigger's static data reloaded from JSON now and then, as after a restart.
 *
 * Invariant checked after every successful poll: the current version (id + updated) of every
 * open task has been delivered exactly once; no version is ever delivered twice.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PollHarness } from '../harness/engine';
import { ALICE_KEY, SandboxClient } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const CHANGES = 10_000;

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());

it(`delivers every one of ${CHANGES.toLocaleString('en')} randomized changes exactly once through faults and restarts`, async () => {
	await sandbox.reset();
	await sandbox.control('limits', { points: null });
	await sandbox.control('clock', { now: '2026-03-01T09:00:00.000Z' });
	// A deterministic generator, so a failure can be replayed.
	let seed = 20261121;
	const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const tick = async () => await sandbox.control('clock', { advanceSeconds: 1 });
	const poller = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'] }, {
		ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url },
	});
	await poller.poll();

	const open: string[] = [];
	const deliveries = new Map<string, number>();
	const counts = { changes: 0, polls: 0, failedPolls: 0, restarts: 0, delivered: 0, lost: 0, duplicated: 0 };

	const poll = async () => {
		let result: INodeExecutionData[][] | null;
		try {
			result = await poller.poll();
		} catch {
			counts.failedPolls++;
			return;
		}
		counts.polls++;
		for (const { json } of result?.[0] ?? []) {
			const version = `${json.id}@${json.updated}`;
			const times = (deliveries.get(version) ?? 0) + 1;
			deliveries.set(version, times);
			counts.delivered++;
			if (times > 1) counts.duplicated++;
		}
		const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
		for (const task of body.data.tasks as Array<{ id: string; updated: string }>) {
			if (!deliveries.has(`${task.id}@${task.updated}`)) counts.lost++;
		}
	};

	while (counts.changes < CHANGES) {
		const burst = 1 + Math.floor(random() * 100);
		for (let index = 0; index < burst; index++, counts.changes++) {
			const choice = random();
			if (open.length < 5 || choice < 0.35) {
				open.push(await sandbox.createTask({ title: `c${counts.changes}`, priority: Math.floor(random() * 10) }));
			} else {
				const at = Math.floor(random() * open.length);
				const id = open[at];
				if (choice < 0.8) {
					await sandbox.api('POST', '/v3/tasks/update', { body: { id, title: `u${counts.changes}` } });
				} else {
					await sandbox.api('POST', choice < 0.9 ? '/v3/tasks/close' : '/v3/tasks/delete', { body: { id } });
					open.splice(at, 1);
				}
			}
			// Several changes often share one timestamp, as writes within one millisecond do.
			if (random() < 0.05) await tick();
		}
		// Keep the open list within one page, so the invariant can be checked with one call.
		while (open.length > 90) await sandbox.api('POST', '/v3/tasks/close', { body: { id: open.shift() } });
		const fault = random();
		if (fault < 0.1) await sandbox.control('faults', { status: 503, count: 1 });
		else if (fault < 0.13) await sandbox.control('faults', { status: 500, count: 4 });
		else if (fault < 0.18) await sandbox.control('faults', { status: 429, count: 1 });
		else if (fault < 0.23) await sandbox.control('faults', { delayMs: 50, count: 2 });
		await tick();
		await poll();
		if (random() < 0.1) {
			poller.restart();
			counts.restarts++;
		}
	}
	await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
	await tick();
	await poll();

	console.log(
		`trigger soak: ${counts.changes} changes, ${counts.polls} polls (${counts.failedPolls} failed, ${counts.restarts} restarts), ` +
			`${counts.delivered} delivered, ${counts.lost} lost, ${counts.duplicated} duplicated`,
	);
	expect(counts.changes).toBeGreaterThanOrEqual(CHANGES);
	expect(counts.failedPolls).toBeGreaterThan(0);
	expect(counts.restarts).toBeGreaterThan(0);
	expect(counts.lost).toBe(0);
	expect(counts.duplicated).toBe(0);
}, 600_000);
