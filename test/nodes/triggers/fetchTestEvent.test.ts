/**
 * Fetch Test Event of both triggers, for each Trigger On choice, through n8n's PollContext against
 * the sandbox: with such a change in the account, a real task or event of that kind, labelled with
 * it; without one, one item that says so (no `triggerEvent`, nothing a workflow would act on).
 * Completed, deleted and cancelled ones are not listed by the service: the trigger shows the last
 * one its published checks delivered, as n8n's editor runs it on the static data they stored.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PollHarness } from '../../harness/engine';
import { timedEvent } from '../../harness/sandboxClient';
import { triggerSandbox } from '../../harness/triggerSandbox';

const { sandbox, target, credentials, advance } = triggerSandbox();

const taskTrigger = (events: string[]) => new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events, output: 'raw', options: { budgetShare: 100 } }, credentials());
const eventTrigger = (events: string[]) =>
	new PollHarness(
		new CtsEventTrigger(),
		'ctsEventTrigger',
		{ ...target, calendarIds: target.calendarId, events, minutesBefore: 10, lookAheadDays: 14, lookBackDays: 0, output: 'raw', options: { budgetShare: 100 } },
		credentials(),
	);

/** The one item Fetch Test Event gives. */
async function sample(poller: PollHarness): Promise<IDataObject> {
	const result = (await poller.poll('manual')) as INodeExecutionData[][];
	expect(result).toHaveLength(1);
	expect(result[0]).toHaveLength(1);
	return result[0][0].json;
}

/** The item that says there is none: only its notice, which names what was looked for. */
async function noSample(poller: PollHarness, says: RegExp): Promise<void> {
	const json = await sample(poller);
	expect(Object.keys(json)).toEqual(['notices']);
	expect((json.notices as string[]).join(' ')).toMatch(says);
}

const post = async (path: string, body: IDataObject) => expect((await sandbox.api('POST', path, { body })).status).toBeLessThan(300);
const points = async () => (await sandbox.requests()).reduce((sum, call) => sum + call.points, 0);

describe('Task Trigger', () => {
	it('Task Created: the newest task, created; none in the account: says so', async () => {
		await noSample(taskTrigger(['created']), /No open task in this account yet: create one/);
		const changed = await sandbox.createTask({ title: 'older' });
		await advance(60);
		await sandbox.createTask({ title: 'newer' });
		await advance(60);
		await post('/v3/tasks/update', { id: changed, title: 'older, changed since' });
		// A task changed since it was created is a created one at its creation, an updated one at its change.
		expect(await sample(taskTrigger(['created']))).toMatchObject({ title: 'newer', triggerEvent: 'created' });
		expect(await sample(taskTrigger(['created', 'updated']))).toMatchObject({ title: 'older, changed since', triggerEvent: 'updated' });
		// A completed task is not listed: the newest open one is shown.
		await advance(60);
		await post('/v3/tasks/close', { id: await sandbox.createTask({ title: 'newest, completed' }) });
		expect(await sample(taskTrigger(['created']))).toMatchObject({ title: 'newer', triggerEvent: 'created' });
	});

	it('Task Updated: the task changed most recently, updated; none changed since it was created: says so', async () => {
		const id = await sandbox.createTask({ title: 'never changed' });
		await noSample(taskTrigger(['updated']), /No open task was changed after it was created/);
		await advance(60);
		await post('/v3/tasks/update', { id, title: 'changed' });
		await advance(60);
		await sandbox.createTask({ title: 'new, unchanged' });
		expect(await sample(taskTrigger(['updated']))).toMatchObject({ id, title: 'changed', triggerEvent: 'updated' });
	});

	for (const [kind, path, name] of [
		['completed', '/v3/tasks/close', 'Task Completed'],
		['deleted', '/v3/tasks/delete', 'Task Deleted'],
	] as const) {
		it(`${name}: the last task the published trigger delivered as ${kind}; none delivered yet: says so, without a request`, async () => {
			const id = await sandbox.createTask({ title: `to be ${kind}` });
			await sandbox.createTask({ title: 'stays open' });
			const poller = taskTrigger([kind]);
			await sandbox.clearRequests();
			await noSample(poller, new RegExp(`No ${kind} task to show: the service lists only open tasks.*Publish the workflow`));
			expect(await points()).toBe(0);
			// Published: the first check learns the open tasks, the next delivers the change.
			expect(await poller.poll()).toBeNull();
			await advance(60);
			await post(path, { id });
			await advance(60);
			expect((await poller.poll())?.[0].map((item) => item.json.triggerEvent)).toEqual([kind]);
			expect(await sample(poller)).toMatchObject({ id, title: `to be ${kind}`, triggerEvent: kind });
		});
	}

	it('Task Completed and Task Deleted both chosen, nothing delivered: one notice for both', async () => {
		await sandbox.createTask({ title: 'open' });
		await noSample(taskTrigger(['completed', 'deleted']), /No completed or deleted task to show.*complete or delete a task/);
	});
});

describe('Event Trigger', () => {
	const createEvent = async (fields: IDataObject) => (await sandbox.createEvent(timedEvent({ timeZone: 'UTC', ...fields }))) as IDataObject;

	it('Event Created: the newest event of the window, created; an empty window: says so', async () => {
		await noSample(eventTrigger(['created']), /No event in the watched calendars from now to 14 days ahead/);
		await createEvent({ title: 'first', start: '2026-12-03T09:00:00' });
		await advance(60);
		await createEvent({ title: 'second', start: '2026-12-02T09:00:00' });
		expect(await sample(eventTrigger(['created']))).toMatchObject({ title: 'second', triggerEvent: 'created', end: '2026-12-02T10:00:00' });
	});

	it('Event Updated: the event changed most recently, updated; none changed since created: says so', async () => {
		const event = await createEvent({ title: 'planning', start: '2026-12-03T09:00:00' });
		await noSample(eventTrigger(['updated']), /No event in the watched window was changed after it was created/);
		await advance(60);
		const { status } = await sandbox.api('POST', '/v3/events/update', { body: { id: event.id, accountId: target.accountId, calendarId: target.calendarId, title: 'planning (moved)' } });
		expect(status).toBe(200);
		expect(await sample(eventTrigger(['updated']))).toMatchObject({ id: event.id, title: 'planning (moved)', triggerEvent: 'updated' });
	});

	it('Event Starting: the next occurrence to start; none ahead: says so', async () => {
		await createEvent({ title: 'over', start: '2026-12-01T06:00:00' });
		await noSample(eventTrigger(['started']), /No event in the watched calendars from now to 14 days ahead/);
		await createEvent({ title: 'later', start: '2026-12-04T09:00:00' });
		await createEvent({ title: 'next', start: '2026-12-01T09:00:00' });
		expect(await sample(eventTrigger(['started']))).toMatchObject({ title: 'next', triggerEvent: 'started' });
	});

	it('Event Ended: the occurrence that ended last (up to a day back); none: says so', async () => {
		await createEvent({ title: 'ahead', start: '2026-12-02T09:00:00' });
		await noSample(eventTrigger(['ended']), /No event in the watched calendars ended in the last day/);
		await createEvent({ title: 'earlier', start: '2026-12-01T05:00:00' });
		await createEvent({ title: 'just ended', start: '2026-12-01T06:30:00' });
		expect(await sample(eventTrigger(['ended']))).toMatchObject({ title: 'just ended', triggerEvent: 'ended', end: '2026-12-01T07:30:00' });
	});

	it('Event Cancelled or Deleted: the last one the published trigger delivered; none delivered yet: says so', async () => {
		const event = await createEvent({ title: 'called off', start: '2026-12-03T09:00:00' });
		const poller = eventTrigger(['cancelled']);
		await noSample(poller, /No cancelled or deleted event to show: the service no longer lists an event once it is gone.*Publish the workflow/);
		expect(await poller.poll()).toBeNull();
		await advance(1);
		expect((await sandbox.api('POST', '/v3/events/delete', { body: { id: event.id, accountId: target.accountId, calendarId: target.calendarId } })).status).toBe(204);
		await advance(1);
		expect((await poller.poll())?.[0].map((item) => item.json.triggerEvent)).toEqual(['cancelled']);
		expect(await sample(poller)).toMatchObject({ id: event.id, title: 'called off', triggerEvent: 'cancelled' });
		// Kept by later checks that deliver nothing.
		await advance(1);
		expect(await poller.poll()).toBeNull();
		await advance(1);
		await createEvent({ title: 'new', start: '2026-12-04T09:00:00' });
		await advance(1);
		await poller.poll();
		expect(await sample(poller)).toMatchObject({ id: event.id, triggerEvent: 'cancelled' });
	});

	it('the defaults (created, updated, cancelled) show an event of the window, as before', async () => {
		await createEvent({ title: 'sample', start: '2026-12-05T09:00:00' });
		expect(await sample(eventTrigger(['created', 'updated', 'cancelled']))).toMatchObject({ title: 'sample', triggerEvent: 'created', end: '2026-12-05T10:00:00' });
	});
});
