/**
 * One rule for every operation that reads and then writes for each input item (the guards of Event
 * Create, Schedule in Calendar, Plan Tasks, Mirror Busy Time, Create or Update): n8n's RoutingNode starts all
 * items at once, and executions overlap; the node makes the work of one operation and account take
 * turns, so the second of two items, or of two executions, that want the same thing sees what the
 * first wrote. One table of operations, one assertion each way: the second writes nothing, and the
 * service holds one thing, not two. Executions in two processes (queue-mode workers) take no turns:
 * both may write, and the service still ends with one (`copies/sameMoment.ts`, the sync's check
 * after creating; Mirror Busy Time's next run). Run by n8n's real engine against the sandbox over HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../harness/engine';
import { sandboxWithFreshLists } from '../harness/freshLists';
import { engineInAnotherProcess } from '../harness/otherProcess';
import { ALICE_KEY, SandboxClient, timedEvent } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent(), ctsTask: new CtsTask() });
const otherProcess = engineInAnotherProcess(({ CtsEvent: Event, CtsTask: Task }) => ({ ctsEvent: new Event(), ctsTask: new Task() }));

sandboxWithFreshLists(sandbox);

const A = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
const B = { accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' };
const ref = (calendar: typeof A) => `${calendar.accountId}/${calendar.calendarId}`;

async function eventsIn(calendar: typeof A): Promise<IDataObject[]> {
	const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId: calendar.accountId, calendarIds: calendar.calendarId, start: '2026-11-29T00:00:00Z', end: '2026-12-10T00:00:00Z' } });
	return body.data.events as IDataObject[];
}

interface Case {
	operation: string;
	type: 'ctsEvent' | 'ctsTask';
	/** The node's parameters; both items give the same thing. */
	parameters: () => Promise<IDataObject>;
	/** What the service holds of it afterwards: one, not two. */
	held: () => Promise<IDataObject[]>;
	/** The ID of the thing the output item of the input item names. */
	named: (json: IDataObject) => unknown;
	/** Two runs in two processes may leave two; the next run, which reads them anyway, leaves one. */
	nextRunSettles?: boolean;
}

const EVENT_CREATE = { resource: 'event', operation: 'create', ...A, title: 'Review', start: '2026-12-01T10:00:00', endMode: 'duration', duration: 'PT1H', timeZone: 'Europe/Berlin' };

const CASES: Case[] = [
	{
		operation: 'Event Create, Skip If It Already Exists',
		type: 'ctsEvent',
		parameters: async () => ({ ...EVENT_CREATE, skipIfExists: true }),
		held: async () => (await eventsIn(A)).filter((event) => event.title === 'Review'),
		named: (json) => json.id,
	},
	{
		operation: 'Event Create, If the Time Is Taken: Skip',
		type: 'ctsEvent',
		parameters: async () => ({ ...EVENT_CREATE, ifTimeTaken: 'skip' }),
		held: async () => (await eventsIn(A)).filter((event) => event.title === 'Review'),
		named: (json) => json.id ?? (json.conflicts as IDataObject[] | undefined)?.[0]?.id,
	},
	{
		operation: 'Task Schedule in Calendar',
		type: 'ctsTask',
		parameters: async () => {
			const id = await sandbox.createTask({ title: 'Write report', estimatedDuration: 'PT90M', due: '2026-12-03T17:00:00', timeZone: 'Europe/Berlin' });
			return { resource: 'task', operation: 'schedule', taskId: { mode: 'id', value: id }, calendarId: { mode: 'list', value: ref(A) }, timeZone: 'Europe/Berlin', notBefore: '2026-12-01T08:00:00' };
		},
		held: async () => (await eventsIn(A)).filter((event) => String(event.description ?? '').includes('Task ID:')),
		named: (json) => (json.event as IDataObject).id,
	},
	{
		operation: 'Task Plan Tasks',
		type: 'ctsTask',
		parameters: async () => {
			const id = await sandbox.createTask({ title: 'Plan the week', estimatedDuration: 'PT60M', due: '2026-12-03T17:00:00', timeZone: 'Europe/Berlin' });
			return { resource: 'task', operation: 'plan', tasksFrom: 'input', taskIds: id, calendarId: { mode: 'list', value: ref(A) }, timeZone: 'Europe/Berlin', notBefore: '2026-12-01T08:00:00', preview: false };
		},
		held: async () => (await eventsIn(A)).filter((event) => String(event.description ?? '').includes('Task ID:')),
		named: (json) => json.eventId,
	},
	{
		operation: 'Calendar Mirror Busy Time',
		type: 'ctsEvent',
		parameters: async () => {
			await sandbox.createEvent(timedEvent({ ...A, title: 'Meeting', start: '2026-12-01T09:00:00' }));
			return { resource: 'calendar', operation: 'mirrorBusyTime', sourceCalendars: [ref(A)], calendarId: { __rl: true, mode: 'list', value: ref(B) }, timeZone: 'Europe/Berlin', start: '2026-11-30T00:00:00', end: '2026-12-07T00:00:00' };
		},
		held: async () => (await eventsIn(B)).filter((event) => String(event.description ?? '').startsWith('Busy copy of:')),
		named: (json) => json.copyId,
		// Kept in step on every run: a second copy of a source is removed by the next one, at no extra cost.
		nextRunSettles: true,
	},
	{
		operation: 'Task Create or Update',
		type: 'ctsTask',
		parameters: async () => ({ resource: 'task', operation: 'upsert', source: 'sheet', sourceKey: 'row-1', title: 'Row 1' }),
		held: async () => {
			const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
			return (body.data.tasks as IDataObject[]).filter((task) => String(task.description ?? '').includes('Synced from: sheet'));
		},
		named: (json) => json.taskId,
	},
];

describe('two items that want the same thing, in one run', () => {
	it.each(CASES.map((entry) => [entry.operation, entry]))('%s: the second sees what the first wrote and writes nothing', async (_name, entry) => {
		const parameters = await entry.parameters();
		await sandbox.clearRequests();
		const { error } = await engine.runNode({ type: entry.type, parameters, items: [{}, {}], timezone: 'Europe/Berlin', credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });
		expect(error).toBeUndefined();
		const writes = (await sandbox.requests()).filter((request) => request.method === 'POST');
		expect([writes.length, (await entry.held()).length]).toEqual([1, 1]);
	});
});

describe('two executions that overlap, in one process', () => {
	it.each(CASES.map((entry) => [entry.operation, entry]))('%s: the later sees what the earlier wrote and writes nothing', async (_name, entry) => {
		const parameters = await entry.parameters();
		await sandbox.clearRequests();
		const run = async () => await engine.runNode({ type: entry.type, parameters, timezone: 'Europe/Berlin', credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });
		const runs = await Promise.all([run(), run()]);
		expect(runs.map(({ error }) => error)).toEqual([undefined, undefined]);
		const writes = (await sandbox.requests()).filter((request) => request.method === 'POST');
		expect([writes.length, (await entry.held()).length]).toEqual([1, 1]);
	});
});

describe('two executions that overlap, in two processes', () => {
	it.each(CASES.map((entry) => [entry.operation, entry]))('%s: both may write, one thing remains (at the latest after the next run), named by the runs', async (_name, entry) => {
		const parameters = await entry.parameters();
		await sandbox.clearRequests();
		const run = async (on: Engine) => await on.runNode({ type: entry.type, parameters, timezone: 'Europe/Berlin', credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });
		const runs = await Promise.all([run(engine), run(otherProcess)]);
		expect(runs.map(({ error }) => error)).toEqual([undefined, undefined]);
		const creates = (await sandbox.requests()).filter((request) => request.method === 'POST' && /\/create$/.test(request.path));
		// Both runs read before either wrote, so both created: the case this rule is for.
		expect(creates.length).toBe(2);
		if (entry.nextRunSettles) {
			const next = await run(engine);
			expect(next.error).toBeUndefined();
			const held = await entry.held();
			expect(held.length).toBe(1);
			expect(next.items.map(({ json }) => entry.named(json))).toContain(held[0].id);
			return;
		}
		const held = await entry.held();
		expect(held.length).toBe(1);
		// The input item's output (a sync adds one for a duplicate it removed).
		expect(runs.map(({ items }) => entry.named(items[0].json))).toEqual([held[0].id, held[0].id]);
	});
});

describe('If the Time Is Taken: Fail, in two processes at once', () => {
	it('one run creates the event, the other fails naming it and leaves nothing of its own', async () => {
		const credentials = { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } };
		const run = async (on: Engine) => await on.runNode({ type: 'ctsEvent', parameters: { ...EVENT_CREATE, ifTimeTaken: 'fail' }, timezone: 'Europe/Berlin', credentials });
		await sandbox.clearRequests();
		const runs = await Promise.all([run(engine), run(otherProcess)]);
		expect((await sandbox.requests()).filter((request) => request.path === '/v3/events/create').length).toBe(2);
		const held = (await eventsIn(A)).filter((event) => event.title === 'Review');
		expect(held.length).toBe(1);
		const failed = runs.filter(({ error }) => error);
		expect(failed.length).toBe(1);
		expect(failed[0].error?.message).toContain('The time is taken');
		expect(failed[0].error?.description).toMatch(new RegExp(`^Another run created an event in this time at the same moment: the older one \\(event ${held[0].id as string}\\) is kept`.replace(/\+/g, '\\+')));
		expect(runs.find(({ error }) => !error)?.items[0].json.id).toBe(held[0].id);
	});
});
