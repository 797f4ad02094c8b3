/**
 * Soak run of the CTS Task Trigger: at least 10,000 randomized creates, updates, completions and
 * deletions against the sandbox, polled through n8n's PollContext with 5xx, 429 and delays
 * injected, and the trigger's static data reloaded from JSON now and then, as after a restart.
 *
 * Every change is recorded as the version it produces (task id + `updated`; the sandbox's clock
 * is frozen and moved by the test, so the test knows each `updated` value without asking the
 * trigger). A version that is still the task's current, open version when a poll succeeds is
 * due: it must have been delivered by then, exactly once. A version replaced, completed or
 * deleted before any poll succeeded is not visible to a poller and must not be delivered. The
 * final poll runs without faults and must succeed.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PollHarness } from '../harness/engine';
import { ALICE_KEY, SandboxClient } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const CHANGES = 10_000;
const START = Date.parse('2026-03-01T09:00:00.000Z');

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());

it(`delivers every one of ${CHANGES.toLocaleString('en')} randomized changes exactly once through faults and restarts`, async () => {
	await sandbox.reset();
	await sandbox.control('limits', { points: null });
	await sandbox.control('clock', { now: new Date(START).toISOString() });
	// A deterministic generator, so a failure can be replayed.
	let seed = 20261121;
	const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	let clock = START;
	const tick = async () => {
		await sandbox.control('clock', { advanceSeconds: 1 });
		clock += 1000;
	};
	const poller = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'] }, {
		ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url },
	});
	expect(await poller.poll()).toBeNull();

	/** The current version of every open task, as the changes made it. */
	const current = new Map<string, string>();
	/** Every version a change produced: whether a successful poll found it current and open. */
	const produced = new Map<string, { due: boolean }>();
	const deliveries = new Map<string, number>();
	const counts = { changes: 0, attempts: 0, polls: 0, failedPolls: 0, faultsBeyondRetries: 0, restarts: 0, delivered: 0, unexpected: 0 };

	const change = (id: string) => {
		const version = `${id}@${new Date(clock).toISOString()}`;
		current.set(id, version);
		produced.set(version, { due: false });
	};

	const deliver = (result: INodeExecutionData[][] | null) => {
		counts.polls++;
		for (const { json } of result?.[0] ?? []) {
			const version = `${json.id}@${json.updated}`;
			deliveries.set(version, (deliveries.get(version) ?? 0) + 1);
			counts.delivered++;
			if (!produced.has(version)) counts.unexpected++;
		}
		for (const version of current.values()) produced.get(version)!.due = true;
	};

	const poll = async () => {
		counts.attempts++;
		let result: INodeExecutionData[][] | null;
		try {
			result = await poller.poll();
		} catch (error) {
			// Only an injected fault that outlasts the trigger's retries may fail a poll.
			expect((error as Error).message).toMatch(/^The service failed/);
			counts.failedPolls++;
			return;
		}
		deliver(result);
	};

	while (counts.changes < CHANGES) {
		const burst = 1 + Math.floor(random() * 100);
		for (let index = 0; index < burst; index++, counts.changes++) {
			const choice = random();
			if (current.size < 5 || choice < 0.35) {
				change(await sandbox.createTask({ title: `c${counts.changes}`, priority: Math.floor(random() * 10) }));
			} else {
				const open = [...current.keys()];
				const id = open[Math.floor(random() * open.length)];
				if (choice < 0.8) {
					expect((await sandbox.api('POST', '/v3/tasks/update', { body: { id, title: `u${counts.changes}` } })).status).toBe(204);
					change(id);
				} else {
					expect((await sandbox.api('POST', choice < 0.9 ? '/v3/tasks/close' : '/v3/tasks/delete', { body: { id } })).status).toBe(204);
					current.delete(id);
				}
			}
			// Several changes often share one timestamp, as writes within one millisecond do.
			if (random() < 0.05) await tick();
		}
		// Keep the open list within one page, so the final state can be compared in one call.
		while (current.size > 90) {
			const [oldest] = current.keys();
			expect((await sandbox.api('POST', '/v3/tasks/close', { body: { id: oldest } })).status).toBe(204);
			current.delete(oldest);
		}
		const fault = random();
		if (fault < 0.1) await sandbox.control('faults', { status: 503, count: 1 });
		else if (fault < 0.13) {
			// More failures in a row than the trigger retries a read (3 times).
			await sandbox.control('faults', { status: 500, count: 4 });
			counts.faultsBeyondRetries++;
		} else if (fault < 0.18) await sandbox.control('faults', { status: 429, count: 1 });
		else if (fault < 0.23) await sandbox.control('faults', { delayMs: 50, count: 2 });
		await tick();
		await poll();
		// Faults the poll did not meet must not fall on the next changes.
		await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
		if (random() < 0.1) {
			poller.restart();
			counts.restarts++;
		}
	}
	// The final drain, without faults: it must succeed.
	await tick();
	counts.attempts++;
	deliver(await poller.poll());

	// The test's record of the open tasks agrees with the service.
	const { status, body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
	expect(status).toBe(200);
	const listed = (body.data.tasks as Array<{ id: string; updated: string }>).map((task) => `${task.id}@${task.updated}`);
	expect(listed.sort()).toEqual([...current.values()].sort());

	const due = [...produced].filter(([, { due }]) => due).map(([version]) => version);
	const lost = due.filter((version) => !deliveries.has(version)).length;
	const duplicated = [...deliveries.values()].filter((times) => times > 1).length;
	const notVisible = produced.size - due.length;
	const deliveredButNotVisible = [...produced].filter(([version, { due }]) => !due && deliveries.has(version)).length;
	console.log(
		`trigger soak: ${counts.changes} changes producing ${produced.size} versions (${due.length} seen by a successful poll, ` +
			`${notVisible} replaced or closed before one); ${counts.attempts} polls, ${counts.polls} successful, ${counts.failedPolls} failed ` +
			`(${counts.faultsBeyondRetries} faults beyond the retries), ${counts.restarts} restarts; ${counts.delivered} delivered, ` +
			`${lost} lost, ${duplicated} duplicated, ${counts.unexpected + deliveredButNotVisible} unexpected`,
	);
	expect(counts.changes).toBeGreaterThanOrEqual(CHANGES);
	// Each poll either succeeded or met a fault beyond its retries, and both happened.
	expect(counts.polls + counts.failedPolls).toBe(counts.attempts);
	expect(counts.failedPolls).toBeGreaterThan(0);
	expect(counts.failedPolls).toBeLessThanOrEqual(counts.faultsBeyondRetries);
	expect(counts.restarts).toBeGreaterThan(0);
	expect(due.length).toBeGreaterThan(CHANGES / 2);
	expect({ lost, duplicated, unexpected: counts.unexpected + deliveredButNotVisible }).toEqual({ lost: 0, duplicated: 0, unexpected: 0 });
}, 600_000);
