/**
 * "Redeliver After a Restart" of both triggers, through the engine (PollHarness) against the
 * sandbox. On n8n's default path the static data of a poll that returns items is stored before
 * its execution; `restartFromStored(fresh node type)` is a kill of n8n right after that store (the
 * execution lost) and a start of a new process, which loads the package anew. With the option,
 * the first poll of the new process delivers that poll's changes again; within one process a poll
 * confirms the previous one and nothing repeats.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';

import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PollHarness } from '../../harness/engine';
import { timedEvent } from '../../harness/sandboxClient';
import { triggerSandbox } from '../../harness/triggerSandbox';

const { sandbox, target, credentials, advance, fired } = triggerSandbox();

/** The node type as a newly started n8n process loads it: a fresh copy of the package's modules. */
function inNewProcess<T extends INodeType>(load: () => new () => T): T {
	let nodeType: T | undefined;
	jest.isolateModules(() => {
		nodeType = new (load())();
	});
	return nodeType!;
}
const newTaskTrigger = () =>
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	inNewProcess(() => (require('../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node') as typeof import('../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node')).CtsTaskTrigger);
const newEventTrigger = () =>
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	inNewProcess(() => (require('../../../nodes/CtsEventTrigger/CtsEventTrigger.node') as typeof import('../../../nodes/CtsEventTrigger/CtsEventTrigger.node')).CtsEventTrigger);

describe('task trigger', () => {
	const trigger = (redeliverAfterRestart?: boolean) =>
		new PollHarness(
			new CtsTaskTrigger(),
			'ctsTaskTrigger',
			{ events: ['created', 'updated'], filters: {}, options: redeliverAfterRestart === undefined ? {} : { redeliverAfterRestart } },
			credentials(),
		);
	const update = async (id: string, title: string) => await sandbox.api('POST', '/v3/tasks/update', { body: { id, title } });

	it('a kill after the static data of a delivering poll was stored: the new process delivers those changes again, then each change once', async () => {
		const poller = trigger(true);
		await poller.poll();
		await advance(1);
		const first = await sandbox.createTask({ title: 'first' });
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['created:first']);
		// The stored static data keeps the position before that poll, with the poll's own as pending.
		const stored = poller.storedStaticData['node:Trigger'] as IDataObject;
		expect(stored.pending).toBeDefined();
		expect(stored.cursor).not.toEqual((stored.pending as IDataObject).position);

		poller.restartFromStored(newTaskTrigger());
		await advance(1);
		await sandbox.createTask({ title: 'second' });
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['created:first', 'created:second']);
		await advance(1);
		await update(first, 'first, changed');
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['updated:first, changed']);
		await advance(1);
		expect(await poller.poll()).toBeNull();
	});

	it('within one process each poll confirms the previous one: nothing repeats, and a re-activation in the same process repeats nothing', async () => {
		const poller = trigger(true);
		await poller.poll();
		const delivered: string[] = [];
		const ids: string[] = [];
		for (let round = 0; round < 4; round++) {
			await advance(1);
			ids.push(await sandbox.createTask({ title: `task ${round}` }));
			if (round > 0) await update(ids[round - 1], `task ${round - 1}, changed`);
			await advance(1);
			// The service lists changes of one second in any order.
			delivered.push(...fired(await poller.poll()).sort());
		}
		expect(delivered).toEqual([
			'created:task 0',
			'created:task 1',
			'updated:task 0, changed',
			'created:task 2',
			'updated:task 1, changed',
			'created:task 3',
			'updated:task 2, changed',
		]);
		const saved = poller.savedStaticData['node:Trigger'] as IDataObject;
		expect(saved.pending).toBeDefined();

		// The stored pending position was written by this process: it is confirmed, not repeated.
		poller.restartFromStored();
		await advance(1);
		expect(await poller.poll()).toBeNull();
		expect(poller.savedStaticData['node:Trigger']).not.toHaveProperty('pending');
	});

	it('a restart after several delivering polls repeats only the last of them', async () => {
		const poller = trigger(true);
		await poller.poll();
		for (const title of ['one', 'two', 'three']) {
			await advance(1);
			await sandbox.createTask({ title });
			await advance(1);
			expect(fired(await poller.poll())).toEqual([`created:${title}`]);
		}
		poller.restartFromStored(newTaskTrigger());
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['created:three']);
		poller.restartFromStored(newTaskTrigger());
		await advance(1);
		// That poll delivered again, so it is the last delivering poll, and the next process repeats it.
		expect(fired(await poller.poll())).toEqual(['created:three']);
		await advance(1);
		expect(await poller.poll()).toBeNull();
	});

	it('a poll that delivers nothing moves the position at once: a restart after it repeats nothing', async () => {
		const poller = trigger(true);
		await poller.poll();
		await advance(1);
		await sandbox.createTask({ title: 'one' });
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['created:one']);
		await advance(1);
		expect(await poller.poll()).toBeNull();
		// In memory the position moved; n8n stored nothing after the empty poll, so the stored
		// static data still holds the pending position of the poll that delivered "one".
		poller.restartFromStored(newTaskTrigger());
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['created:one']);
	});

	it('off (the default): the same kill loses that poll\'s changes, which is what the option is for', async () => {
		for (const option of [undefined, false]) {
			await sandbox.reset();
			await sandbox.control('clock', { now: '2026-12-01T08:00:00.000Z' });
			const poller = trigger(option);
			await poller.poll();
			await advance(1);
			await sandbox.createTask({ title: 'first' });
			await advance(1);
			expect(fired(await poller.poll())).toEqual(['created:first']);
			expect(poller.storedStaticData['node:Trigger']).not.toHaveProperty('pending');
			poller.restartFromStored(newTaskTrigger());
			await advance(1);
			await sandbox.createTask({ title: 'second' });
			await advance(1);
			expect(fired(await poller.poll())).toEqual(['created:second']);
		}
	});
});

describe('event trigger', () => {
	const trigger = (redeliverAfterRestart: boolean) =>
		new PollHarness(
			new CtsEventTrigger(),
			'ctsEventTrigger',
			{
				...target,
				calendarIds: target.calendarId,
				events: ['created', 'updated', 'cancelled'],
				lookAheadDays: 14,
				lookBackDays: 0,
				options: { redeliverAfterRestart },
			},
			credentials(),
		);

	it('creations, updates and cancellations of a poll whose execution was lost are delivered again by the new process, then nothing repeats', async () => {
		const poller = trigger(true);
		await poller.poll();
		await advance(60);
		const { status, body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ timeZone: 'UTC', title: 'planning', start: '2026-12-03T09:00:00' }) });
		expect(status).toBe(200);
		const id = (body.data.event as { id: string }).id;
		await advance(60);
		expect(fired(await poller.poll())).toEqual(['created:planning']);
		poller.restartFromStored(newEventTrigger());
		await advance(60);
		expect(fired(await poller.poll())).toEqual(['created:planning']);

		await advance(60);
		await sandbox.api('POST', '/v3/events/update', { body: { id, ...target, title: 'planning (moved)' } });
		await advance(60);
		expect(fired(await poller.poll())).toEqual(['updated:planning (moved)']);
		poller.restartFromStored(newEventTrigger());
		await advance(60);
		expect(fired(await poller.poll())).toEqual(['updated:planning (moved)']);

		await advance(60);
		await sandbox.api('POST', '/v3/events/delete', { body: { id, ...target } });
		await advance(60);
		expect(fired(await poller.poll())).toEqual(['cancelled:planning (moved)']);
		poller.restartFromStored(newEventTrigger());
		await advance(60);
		expect(fired(await poller.poll())).toEqual(['cancelled:planning (moved)']);
		await advance(60);
		expect(await poller.poll()).toBeNull();
		poller.restartFromStored();
		await advance(60);
		expect(await poller.poll()).toBeNull();
	});

	it('an event first delivered by the poll being repeated and deleted since: the new process delivers its cancellation', async () => {
		const poller = trigger(true);
		await poller.poll();
		await advance(60);
		const { body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ timeZone: 'UTC', title: 'planning', start: '2026-12-03T09:00:00' }) });
		await advance(60);
		expect(fired(await poller.poll())).toEqual(['created:planning']);
		await sandbox.api('POST', '/v3/events/delete', { body: { id: (body.data.event as { id: string }).id, ...target } });
		await advance(60);
		poller.restartFromStored(newEventTrigger());
		expect(fired(await poller.poll())).toEqual(['cancelled:planning']);
		await advance(60);
		expect(await poller.poll()).toBeNull();
	});

	it('off: the same kill loses the poll\'s creation', async () => {
		const poller = trigger(false);
		await poller.poll();
		await advance(60);
		await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ timeZone: 'UTC', title: 'planning', start: '2026-12-03T09:00:00' }) });
		await advance(60);
		expect(fired(await poller.poll())).toEqual(['created:planning']);
		poller.restartFromStored(newEventTrigger());
		await advance(60);
		expect(await poller.poll()).toBeNull();
	});
});
