/**
 * Both triggers across n8n restarts on n8n's default path, through the engine (PollHarness):
 * n8n stores a trigger's static data when an activation is done and when a poll returns items,
 * never after a poll that returns nothing. A poll that moves the trigger's state without
 * returning items (everything it read was filtered out) is therefore forgotten by a restart; the
 * next poll reads those changes again and must neither repeat nor lose a delivery.
 *
 * End-to-end runs with real kills (SIGKILL) of n8n are in test/e2e/restart.test.mjs and
 * test/e2e/queue-mode.test.mjs.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PollHarness } from '../../harness/engine';
import { timedEvent } from '../../harness/sandboxClient';
import { triggerSandbox } from '../../harness/triggerSandbox';

const { sandbox, target, credentials, advance, fired } = triggerSandbox();

describe('task trigger', () => {
	const trigger = (parameters: IDataObject) => new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', parameters, credentials());

	it('a filtered-out change moves the cursor only in memory; after a restart it is read again and still not delivered', async () => {
		const poller = trigger({ events: ['created', 'updated'], filters: { tags: 'urgent' } });
		await poller.poll();
		await advance(1);
		const urgent = await sandbox.createTask({ title: 'urgent', tags: ['urgent'] });
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['created:urgent']);
		await advance(1);
		await sandbox.createTask({ title: 'routine', tags: ['later'] });
		await advance(1);
		expect(await poller.poll()).toBeNull();
		expect(poller.savedStaticData).not.toEqual(poller.storedStaticData);

		poller.restartFromStored();
		await advance(1);
		expect(await poller.poll()).toBeNull();
		await sandbox.api('POST', '/v3/tasks/update', { body: { id: urgent, title: 'urgent, changed' } });
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['updated:urgent, changed']);

		poller.restartFromStored();
		await advance(1);
		expect(await poller.poll()).toBeNull();
	});

	it('with only "created" chosen, updates move the cursor without delivering; restarts repeat no creation', async () => {
		const poller = trigger({ events: ['created'], filters: {} });
		await poller.poll();
		const delivered: string[] = [];
		const ids: string[] = [];
		for (let round = 0; round < 6; round++) {
			await advance(1);
			ids.push(await sandbox.createTask({ title: `task ${round}` }));
			for (const id of ids.slice(0, -1)) await sandbox.api('POST', '/v3/tasks/update', { body: { id, description: `round ${round}` } });
			await advance(1);
			delivered.push(...fired(await poller.poll()));
			// Only updates since the last delivery: nothing to deliver, nothing stored.
			for (const id of ids) await sandbox.api('POST', '/v3/tasks/update', { body: { id, priority: round } });
			await advance(1);
			expect(await poller.poll()).toBeNull();
			expect(poller.savedStaticData).not.toEqual(poller.storedStaticData);
			poller.restartFromStored();
		}
		expect(delivered).toEqual(ids.map((_, round) => `created:task ${round}`));
	});
});

describe('event trigger', () => {
	const trigger = (parameters: IDataObject) =>
		new PollHarness(
			new CtsEventTrigger(),
			'ctsEventTrigger',
			{ ...target, calendarIds: target.calendarId, minutesBefore: 10, lookAheadDays: 14, lookBackDays: 0, ...parameters },
			credentials(),
		);
	const createEvent = async (title: string, start: string) => {
		const { status, body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ timeZone: 'UTC', title, start }) });
		if (status !== 200) throw new Error(`create answered ${status}: ${JSON.stringify(body)}`);
		return body.data.event as { id: string };
	};

	it('an update that is not delivered is seen again after a restart and still not delivered; no creation repeats', async () => {
		const poller = trigger({ events: ['created'] });
		await poller.poll();
		await advance(60);
		const event = await createEvent('planning', '2026-12-03T09:00:00');
		expect(fired(await poller.poll())).toEqual(['created:planning']);
		await advance(60);
		await sandbox.api('POST', '/v3/events/update', { body: { id: event.id, ...target, title: 'planning (moved)' } });
		await advance(60);
		expect(await poller.poll()).toBeNull();
		expect(poller.savedStaticData).not.toEqual(poller.storedStaticData);

		poller.restartFromStored();
		await advance(60);
		expect(await poller.poll()).toBeNull();
		await createEvent('review', '2026-12-04T09:00:00');
		await advance(60);
		expect(fired(await poller.poll())).toEqual(['created:review']);
	});

	it('"starting" fires once across restarts, although polls that fire nothing leave the stored service time behind', async () => {
		const poller = trigger({ events: ['created', 'started'] });
		await poller.poll();
		await advance(60);
		await createEvent('standup', '2026-12-01T08:40:00');
		expect(fired(await poller.poll())).toEqual(['created:standup']);
		await advance(5 * 60);
		expect(await poller.poll()).toBeNull();
		expect(poller.savedStaticData).not.toEqual(poller.storedStaticData);

		poller.restartFromStored();
		await advance(30 * 60);
		expect(fired(await poller.poll())).toEqual(['started:standup']);
		poller.restartFromStored();
		await advance(60);
		expect(await poller.poll()).toBeNull();
	});
});
