/**
 * Every date-time in a Simplified output carries its offset (`…+01:00` or `…Z`), so that an
 * expression or a spreadsheet cannot read it in its own zone: every operation and trigger that
 * outputs dates runs through the engine against the sandbox with its default output, and a walker
 * over the output JSON collects each string that reads as a date-time without an offset. Raw output
 * stays the service's (its LocalDateTimes have no offset).
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { Engine, PollHarness } from '../harness/engine';
import { timedEvent } from '../harness/sandboxClient';
import { triggerSandbox } from '../harness/triggerSandbox';

const { sandbox, target, credentials, advance } = triggerSandbox();
const engine = new Engine({ ctsTask: new CtsTask(), ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });

const A = 'acc-alice-a/cal-alice-a-primary';
/** A string that reads as a date and time (`2026-12-01T09:00`, `2026-12-01 09:00:00`). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
/** Ends in an offset: `Z`, `+01:00`, `-05:30`. */
const OFFSET = /(?:Z|[+-]\d{2}:\d{2})$/;

/** Every date-time string in `value`, at any depth, as `path: value`, split by whether it carries an offset. */
function dateTimes(value: unknown, path = '$', found = { withOffset: [] as string[], without: [] as string[] }) {
	if (typeof value === 'string') {
		if (DATE_TIME.test(value)) (OFFSET.test(value) ? found.withOffset : found.without).push(`${path}: ${value}`);
	} else if (Array.isArray(value)) {
		value.forEach((entry, index) => dateTimes(entry, `${path}[${index}]`, found));
	} else if (value && typeof value === 'object') {
		for (const [key, entry] of Object.entries(value)) dateTimes(entry, `${path}.${key}`, found);
	}
	return found;
}

it('the walker finds a date-time without offset at any depth, and lets dates and offsets through', () => {
	const found = dateTimes({ a: '2026-11-28T01:37:36', b: [{ c: '2026-11-28T01:37:36+01:00' }], d: '2026-11-28', e: { f: '2026-11-28T01:37:36Z' }, g: 'at 09:00' });
	expect(found.without).toEqual(['$.a: 2026-11-28T01:37:36']);
	expect(found.withOffset).toHaveLength(2);
});

it('every Simplified output of every operation and trigger gives its date-times with their offsets', async () => {
	const outputs: Array<[string, unknown]> = [];
	const credentialsOf = { ...credentials(), ctsSyncApi: { token: await sandbox.token('alice'), syncUrl: sandbox.url } };
	const run = async (name: string, type: string, parameters: IDataObject, input?: IDataObject[]) => {
		const { items, error } = await engine.runNode({ type, parameters, credentials: credentialsOf, ...(input ? { items: input } : {}) });
		if (error) throw new Error(`${name}: ${error.message}`);
		outputs.push([name, items.map((item) => item.json)]);
		return items.map((item) => item.json as IDataObject);
	};

	// What the operations find: a timed event in Berlin, an all-day event, a weekly series with an end, a task due.
	const berlin = { timeZone: 'Europe/Berlin', start: '2026-12-01T10:00:00' };
	const timed = await sandbox.createEvent(timedEvent({ title: 'timed', ...berlin }));
	await sandbox.createEvent(timedEvent({ title: 'all day', showWithoutTime: true, start: '2026-12-02T00:00:00', duration: 'P1D', timeZone: null }));
	const series = await sandbox.createEvent(
		timedEvent({ title: 'weekly', ...berlin, start: '2026-12-01T12:00:00', recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', until: '2026-12-22T12:00:00' }] }),
	);
	const due = { due: '2026-12-01T17:00:00', timeZone: 'Europe/Berlin' };
	const taskId = await sandbox.createTask({ title: 'due', ...due, estimatedDuration: 'PT1H' });

	const task = (parameters: IDataObject) => ({ resource: 'task', ...parameters });
	await run('Task Create', 'ctsTask', task({ operation: 'create', title: 'new', additionalFields: due }));
	await run('Task Create, Return Task', 'ctsTask', task({ operation: 'create', title: 'new', additionalFields: due, returnTask: true }));
	await run('Task Get', 'ctsTask', task({ operation: 'get', taskId }));
	await run('Task Get Many', 'ctsTask', task({ operation: 'getAll', returnAll: true }));
	await run('Task Update', 'ctsTask', task({ operation: 'update', taskId, updateFields: { ...due, due: '2026-12-02T17:00:00' } }));
	await run('Task Update, Return Task', 'ctsTask', task({ operation: 'update', taskId, updateFields: { title: 'changed' }, returnTask: true }));
	const busy = { calendarId: { mode: 'list', value: A }, checkCalendars: [A], timeZone: 'Europe/Berlin', notBefore: '2026-12-01T08:00:00' };
	await run('Task Schedule in Calendar', 'ctsTask', task({ operation: 'schedule', taskId: { mode: 'id', value: taskId }, ...busy }));
	const other = await sandbox.createTask({ title: 'to plan', estimatedDuration: 'PT1H', ...due });
	await run('Task Plan Tasks', 'ctsTask', task({ operation: 'plan', tasksFrom: 'input', ...busy }), [{ id: other }]);
	const synced = { source: 'dates', sourceKey: '={{ $json.key }}', title: '={{ $json.key }}', syncFields: { due: '={{ $json.due }}', timeZone: 'Europe/Berlin' } };
	await run('Task Sync Tasks', 'ctsTask', task({ operation: 'sync', ...synced }), [{ key: 'a', due: '2026-12-01T17:00:00' }]);
	await run('Task Create or Update', 'ctsTask', task({ operation: 'upsert', ...synced }), [{ key: 'a', due: '2026-12-02T17:00:00' }]);

	const event = (parameters: IDataObject) => ({ resource: 'event', ...parameters });
	const created = await run('Event Create', 'ctsEvent', event({ operation: 'create', ...target, title: 'created', start: '2026-12-03T09:00:00', end: '2026-12-03T10:00:00', timeZone: 'Europe/Berlin' }));
	await run('Event Get', 'ctsEvent', event({ operation: 'get', eventId: timed.id }));
	await run('Event Get, a series with an end', 'ctsEvent', event({ operation: 'get', eventId: series.id }));
	await run('Event Get Many', 'ctsEvent', event({ operation: 'getAll', ...target, calendarIds: target.calendarId, start: '2026-12-01T00:00:00Z', end: '2027-01-01T00:00:00Z', returnAll: true }));
	await run('Event Update', 'ctsEvent', event({ operation: 'update', eventId: created[0].id, ...target, updateFields: { title: 'updated' } }));
	await run('Event V1 Create', 'ctsEventV1', event({ operation: 'create', calendarId: target.calendarId, title: 'v1', start: '2026-12-04T09:00:00', end: '2026-12-04T10:00:00', timeZone: 'Europe/Berlin' }));
	const calendar = { resource: 'calendar', calendars: [A], timeZone: 'Europe/Berlin' };
	await run('Find Free Time', 'ctsEvent', { ...calendar, operation: 'findFreeTime', start: '2026-12-01T00:00:00', end: '2026-12-03T00:00:00' });
	await run('Get Agenda', 'ctsEvent', { ...calendar, operation: 'getAgenda', day: '2026-12-01' });
	await run('Get Agenda, digest', 'ctsEvent', { ...calendar, operation: 'getAgenda', day: '2026-12-01', agendaOutput: 'digest' });
	await run('Mirror Busy Time', 'ctsEvent', { resource: 'calendar', operation: 'mirrorBusyTime', sourceCalendars: [A], calendarId: { mode: 'list', value: 'acc-alice-b/cal-alice-b-primary' }, start: '2026-12-01T00:00:00', end: '2026-12-08T00:00:00', timeZone: 'Europe/Berlin', preview: true });

	const taskTrigger = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated', 'completed'] }, credentials());
	const eventTrigger = new PollHarness(new CtsEventTrigger(), 'ctsEventTrigger', { ...target, calendarIds: target.calendarId, events: ['created'], lookAheadDays: 40 }, credentials());
	outputs.push(['Task Trigger, Fetch Test Event', await taskTrigger.poll('manual')], ['Event Trigger, Fetch Test Event', await eventTrigger.poll('manual')]);
	expect(await taskTrigger.poll()).toBeNull();
	expect(await eventTrigger.poll()).toBeNull();
	await advance(60);
	await sandbox.createTask({ title: 'later', ...due });
	await sandbox.api('POST', '/v3/tasks/close', { body: { id: taskId } });
	await sandbox.createEvent(timedEvent({ title: 'later', ...berlin, start: '2026-12-05T09:00:00' }));
	await advance(60);
	outputs.push(['Task Trigger', await taskTrigger.poll()], ['Event Trigger', await eventTrigger.poll()]);

	const without = outputs.flatMap(([name, output]) => dateTimes(output).without.map((found) => `${name} ${found}`));
	expect(without).toEqual([]);
	// Each run gave date-times to check (an output without any would prove nothing).
	expect(outputs.filter(([, output]) => dateTimes(output).withOffset.length === 0).map(([name]) => name)).toEqual([]);
}, 300_000);
