/**
 * Task Completed and Task Deleted under randomized changes, restarts (n8n's default path: what
 * a poll that delivered nothing changed is forgotten) and failed polls, through the engine
 * against the sandbox. Each poll must deliver exactly the difference between the tasks as they
 * were at the last stored poll and as they are now: nothing lost, nothing repeated.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PollHarness } from '../../harness/engine';
import { triggerSandbox } from '../../harness/triggerSandbox';

const { sandbox, credentials, advance } = triggerSandbox();

type Status = 'open' | 'completed' | 'deleted' | 'closed otherwise';
interface Seen {
	status: Status;
	updated: string;
}

/** Every task as the service has it now (read by ID, with no budget in the sandbox). */
async function snapshot(ids: string[]): Promise<Map<string, Seen>> {
	const out = new Map<string, Seen>();
	for (const id of ids) {
		const task = (await sandbox.getTask(id))!;
		const status: Status = task.deleted
			? 'deleted'
			: task.progress === 'completed'
				? 'completed'
				: ['needs-action', 'in-process'].includes(task.progress)
					? 'open'
					: 'closed otherwise';
		out.set(id, { status, updated: task.updated });
	}
	return out;
}

/** What a poll must deliver, as `event:id`, going from the tasks at `before` to those at `after`. */
function expectedBetween(before: Map<string, Seen>, after: Map<string, Seen>): string[] {
	const out: string[] = [];
	for (const [id, now] of after) {
		const was = before.get(id);
		if (now.status === 'open') {
			if (!was) out.push(`created:${id}`);
			else if (was.status !== 'open' || was.updated !== now.updated) out.push(`updated:${id}`);
		} else if (was?.status === 'open') {
			out.push(`${now.status === 'closed otherwise' ? 'updated' : now.status}:${id}`);
		}
	}
	return out.sort();
}

it('randomized changes with restarts and failed polls: each poll delivers exactly what changed since the last stored poll', async () => {
	let seed = 20261125;
	const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const pick = <T>(list: T[]): T | undefined => (list.length === 0 ? undefined : list[Math.floor(random() * list.length)]);

	const ids: string[] = [];
	for (let index = 0; index < 30; index++) ids.push(await sandbox.createTask({ title: `start ${index}` }));
	const poller = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated', 'completed', 'deleted'], output: 'raw', options: { budgetShare: 100 } }, credentials());
	expect(await poller.poll()).toBeNull();
	let stored = await snapshot(ids);
	let memory = stored;
	const counts = { rounds: 0, delivered: 0, restarts: 0, failed: 0, changes: 0 };

	for (let round = 0; round < 60; round++) {
		await advance(1);
		const current = await snapshot(ids);
		const byStatus = (status: Status) => ids.filter((id) => current.get(id)?.status === status);
		for (let change = 0; change < 1 + Math.floor(random() * 5); change++) {
			const roll = random();
			const open = byStatus('open');
			const target = pick(open);
			counts.changes++;
			if (roll < 0.2 || !target) {
				const parent = random() < 0.3 ? pick(open) : undefined;
				ids.push(await sandbox.createTask({ title: `r${round}`, ...(parent ? { relatedTo: { [parent]: { relation: { parent: true } } } } : {}) }));
			} else if (roll < 0.4) {
				await sandbox.api('POST', '/v3/tasks/update', { body: { id: target, title: `changed ${round}` } });
			} else if (roll < 0.55) {
				await sandbox.api('POST', '/v3/tasks/close', { body: { id: target } });
			} else if (roll < 0.65) {
				const done = pick(byStatus('completed'));
				if (done) await sandbox.api('POST', '/v3/tasks/reopen', { body: { id: done } });
			} else if (roll < 0.75) {
				await sandbox.api('POST', '/v3/tasks/delete', { body: { id: target } });
			} else if (roll < 0.82) {
				await sandbox.api('POST', '/v3/tasks/update', { body: { id: target, progress: random() < 0.5 ? 'cancelled' : 'in-process' } });
			} else if (roll < 0.9) {
				await sandbox.api('POST', '/v3/tasks/update', { body: { id: target, taskListId: `list ${round % 3}` } });
			} else {
				// Changed and completed within one poll.
				await sandbox.api('POST', '/v3/tasks/update', { body: { id: target, title: `last change ${round}` } });
				await sandbox.api('POST', '/v3/tasks/close', { body: { id: target } });
			}
		}
		await advance(1);

		if (random() < 0.2) {
			poller.restartFromStored();
			memory = stored;
			counts.restarts++;
		}
		if (random() < 0.1) await sandbox.control('faults', { status: 500, count: 4, path: random() < 0.5 ? '/v3/tasks' : '/v3/tasks/list' });
		let result;
		try {
			result = await poller.poll();
		} catch (error) {
			// A poll that fails changes nothing: the next one delivers what it would have.
			expect((error as Error).message).toMatch(/^The service failed/);
			counts.failed++;
			continue;
		} finally {
			await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
		}
		const now = await snapshot(ids);
		const delivered = (result?.[0] ?? []).map((item) => `${String((item.json as IDataObject).triggerEvent)}:${String(item.json.id)}`).sort();
		expect({ round, delivered }).toEqual({ round, delivered: expectedBetween(memory, now) });
		memory = now;
		if (delivered.length > 0) stored = now;
		counts.delivered += delivered.length;
		counts.rounds++;
	}
	expect(counts.delivered).toBeGreaterThan(100);
	expect(counts.restarts).toBeGreaterThan(5);
	expect(counts.failed).toBeGreaterThan(0);
}, 300_000);
