/**
 * The Reminder of time blocks, one rule for Schedule in Calendar and Plan Tasks, run by n8n's real
 * engine against the sandbox over HTTP: a block the node creates reminds once as it begins by
 * default, with the calendar's default alerts, or not at all; a block it moves keeps the alerts
 * it has; a value that is none of the three fails naming the field, before any request. What
 * the blocks carry is read back from the sandbox.
 */
import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });

sandboxWithFreshLists(sandbox);

const A = 'acc-alice-a/cal-alice-a-primary';
type Json = Record<string, any>;

/** One task's block written by an operation: the same fields for both, its task named as each operation takes it. */
const OPERATIONS = {
	schedule: (taskId: string) => ({ parameters: { operation: 'schedule', taskId: { mode: 'id', value: taskId } }, items: [{}] }),
	plan: (taskId: string) => ({ parameters: { operation: 'plan' }, items: [{ id: taskId }] }),
};

async function writeBlock(operation: keyof typeof OPERATIONS, taskId: string, options: Json = {}) {
	const { parameters, items } = OPERATIONS[operation](taskId);
	return await engine.runNode({
		type: 'ctsTask',
		parameters: { resource: 'task', ...parameters, calendarId: { mode: 'list', value: A }, checkCalendars: [A], timeZone: 'Europe/Berlin', notBefore: '2026-12-01T08:00:00', options },
		items,
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
	});
}

async function blockOf(taskId: string): Promise<Json> {
	const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: '2026-11-25T00:00:00Z', end: '2027-01-20T00:00:00Z' } });
	const blocks = (body.data.events as Json[]).filter((event) => String(event.description ?? '').endsWith(`Task ID: ${taskId}`));
	expect(blocks).toHaveLength(1);
	return blocks[0];
}

const AT_START = { [Buffer.from('{"a":"display","to":"PT0S"}').toString('base64')]: { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: 'PT0S', relativeTo: 'start' }, action: 'display' } };

describe.each(Object.keys(OPERATIONS) as Array<keyof typeof OPERATIONS>)('Reminder of the blocks of %s', (operation) => {
	const task = async () => await sandbox.createTask({ title: 'Write report', estimatedDuration: 'PT1H', timeZone: 'Europe/Berlin' });

	it('by default a new block reminds once, as it begins; or with the calendar\'s default alerts; or not at all', async () => {
		const cases: Array<[Json, Json]> = [
			[{}, { useDefaultAlerts: false, alerts: AT_START }],
			[{ reminder: 'atStart' }, { useDefaultAlerts: false, alerts: AT_START }],
			[{ reminder: 'calendarDefault' }, { useDefaultAlerts: true }],
			[{ reminder: 'none' }, { useDefaultAlerts: false }],
		];
		for (const [options, expected] of cases) {
			const id = await task();
			const { error } = await writeBlock(operation, id, options);
			expect(error).toBeUndefined();
			const block = await blockOf(id);
			expect({ useDefaultAlerts: block.useDefaultAlerts, ...(block.alerts && Object.keys(block.alerts).length > 0 ? { alerts: block.alerts } : {}) }).toEqual(expected);
		}
	});

	it('a block it moves keeps the alerts it has: a change made in the calendar stays', async () => {
		const id = await task();
		await writeBlock(operation, id, { reminder: 'none' });
		const block = await blockOf(id);
		await sandbox.api('POST', '/v3/events/update', { body: { id: block.id, accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary', useDefaultAlerts: true } });
		await sandbox.createEvent(timedEvent({ title: 'In the way', start: block.start, duration: 'PT15M' }));
		const { items, error } = await writeBlock(operation, id, { reminder: 'none' });
		expect(error).toBeUndefined();
		expect((items[0].json as Json).action).toBe('moved');
		expect(await blockOf(id)).toMatchObject({ id: block.id, useDefaultAlerts: true });
		expect((await blockOf(id)).start).not.toBe(block.start);
	});

	it('a Reminder that is none of the three fails naming the field, before any request', async () => {
		await sandbox.clearRequests();
		const { error } = await writeBlock(operation, 'any-task', { reminder: 'tenMinutes' });
		expect(error?.message).toBe('Reminder: "tenMinutes" is not one of At the Start of the Block, Calendar\'s Default Alerts, None');
		expect(await sandbox.requests()).toEqual([]);
	});
});
