/**
 * The Output choice of both triggers (Simplified by default, Raw, Selected Fields), the same
 * shapes as Get of the action nodes, with `triggerEvent` on every item: through the engine
 * (PollHarness) against the sandbox.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PollHarness } from '../../harness/engine';
import { timedEvent } from '../../harness/sandboxClient';
import { triggerSandbox } from '../../harness/triggerSandbox';

const { sandbox, target, credentials, advance } = triggerSandbox();

const items = (result: INodeExecutionData[][] | null) => (result?.[0] ?? []).map((item) => item.json);

describe('task trigger', () => {
	const trigger = (parameters: IDataObject) =>
		new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated', 'completed', 'deleted'], ...parameters }, credentials());

	/** One created subtask and one completed task, as the trigger with these parameters delivers them. */
	async function deliveredWith(parameters: IDataObject) {
		const parent = await sandbox.createTask({ title: 'parent' });
		const done = await sandbox.createTask({ title: 'done' });
		const poller = trigger(parameters);
		expect(await poller.poll()).toBeNull();
		await advance(1);
		await sandbox.createTask({ title: 'child', tags: ['home'], relatedTo: { [parent]: { relation: { parent: true } } } });
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: done } });
		await advance(1);
		const delivered = items(await poller.poll());
		return { parent, child: delivered.find((task) => task.title === 'child')!, done: delivered.find((task) => task.title === 'done')! };
	}

	it('Simplified by default: the parent as parentTaskId, no @type or service prefixes, triggerEvent kept', async () => {
		const { parent, child, done } = await deliveredWith({});
		expect(child).toMatchObject({ title: 'child', parentTaskId: parent, tags: ['home'], scheduled: false, triggerEvent: 'created' });
		expect(child).not.toHaveProperty('@type');
		expect(child).not.toHaveProperty('relatedTo');
		expect(child).not.toHaveProperty(['service.example:derived']);
		expect(done).toMatchObject({ title: 'done', progress: 'completed', triggerEvent: 'completed' });
	});

	it('Raw: the task as the service returned it', async () => {
		const { parent, child } = await deliveredWith({ output: 'raw' });
		expect(child).toMatchObject({ '@type': 'Task', relatedTo: { [parent]: { relation: { parent: true } } }, 'service.example:derived': { scheduled: false }, triggerEvent: 'created' });
		expect(child).not.toHaveProperty('parentTaskId');
	});

	it('Selected Fields: only those of the simplified task, and triggerEvent', async () => {
		const { parent, child, done } = await deliveredWith({ output: 'fields', outputFields: ['title', 'parentTaskId'] });
		expect(child).toEqual({ title: 'child', parentTaskId: parent, triggerEvent: 'created' });
		expect(done).toEqual({ title: 'done', triggerEvent: 'completed' });
	});

	it('Fetch Test Event is shaped the same way', async () => {
		await sandbox.createTask({ title: 'sample' });
		const [[sample]] = (await trigger({ events: ['created'], output: 'fields', outputFields: ['title'] }).poll('manual'))!;
		expect(sample.json).toEqual({ title: 'sample', triggerEvent: 'created' });
	});
});

describe('event trigger', () => {
	const trigger = (parameters: IDataObject) =>
		new PollHarness(
			new CtsEventTrigger(),
			'ctsEventTrigger',
			{ ...target, calendarIds: target.calendarId, events: ['created'], lookAheadDays: 14, ...parameters },
			credentials(),
		);

	async function deliveredWith(parameters: IDataObject) {
		const poller = trigger(parameters);
		expect(await poller.poll()).toBeNull();
		await advance(60);
		const { status } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ timeZone: 'UTC', title: 'review', start: '2026-12-02T09:00:00' }) });
		expect(status).toBe(200);
		await advance(60);
		const [event] = items(await poller.poll());
		return event;
	}

	it('Simplified by default: end next to start, allDay, no @type, triggerEvent kept', async () => {
		const event = await deliveredWith({});
		expect(event).toMatchObject({ title: 'review', start: '2026-12-02T09:00:00Z', end: '2026-12-02T10:00:00Z', allDay: false, triggerEvent: 'created' });
		expect(event).not.toHaveProperty('@type');
		expect(event).not.toHaveProperty('showWithoutTime');
	});

	it('Raw: the event as the service returned it, with the computed end', async () => {
		const event = await deliveredWith({ output: 'raw' });
		expect(event).toMatchObject({ '@type': 'Event', showWithoutTime: false, end: '2026-12-02T10:00:00', triggerEvent: 'created' });
		expect(event).not.toHaveProperty('allDay');
	});

	it('Selected Fields: only those of the simplified event, and triggerEvent', async () => {
		const event = await deliveredWith({ output: 'fields', outputFields: ['title', 'start'] });
		expect(event).toEqual({ title: 'review', start: '2026-12-02T09:00:00Z', triggerEvent: 'created' });
	});
});
