/**
 * The CTS Task node run by n8n's real engine (WorkflowExecute → RoutingNode) against the
 * sandbox over HTTP. What the node sent is read back from the sandbox's request log.
 */
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { AlteringProxy } from '../harness/alteringProxy';
import { Engine, type NodeRunOptions } from '../harness/engine';
import { ALICE_KEY, NOPLAN_KEY, SandboxClient } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

function run(parameters: Record<string, unknown>, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsTask',
		parameters: { resource: 'task', output: 'raw', ...parameters },
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

async function apiCalls() {
	return await sandbox.requests();
}

describe('Create', () => {
	it('creates a task from its title and, with Return Task on, outputs the whole task read back (2 calls)', async () => {
		const { items, error } = await run({ operation: 'create', title: 'Write report', returnTask: true });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			'@type': 'Task',
			title: 'Write report',
			progress: 'needs-action',
			taskListId: 'default',
		});
		const calls = await apiCalls();
		expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /v3/tasks/create', 'GET /v3/tasks']);
		expect(calls[0].body).toEqual({ title: 'Write report' });
		expect(calls[1].query).toEqual({ id: items[0].json.id });
	});

	it('by default outputs the ID, the fields sent and success, with one call (1 point)', async () => {
		const parentId = await sandbox.createTask({ title: 'Parent' });
		await sandbox.clearRequests();
		const { items, error } = await run({ operation: 'create', title: 'Quick', additionalFields: { priority: 3, parentTaskId: parentId } });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: expect.any(String), title: 'Quick', priority: 3, parentTaskId: parentId, success: true });
		expect(Object.keys(items[0].json)[0]).toBe('id');
		expect(await apiCalls()).toHaveLength(1);
		expect(await sandbox.getTask(items[0].json.id as string)).toMatchObject({ title: 'Quick', priority: 3 });
	});

	it('outputs the same one-call shape when Return Task is set off explicitly', async () => {
		const { items, error } = await run({ operation: 'create', title: 'Quick', returnTask: false });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: expect.any(String), title: 'Quick', success: true });
		expect(await apiCalls()).toHaveLength(1);
	});

	it('maps every additional field to the request body', async () => {
		const parentId = await sandbox.createTask({ title: 'Parent' });
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'create',
			title: 'Child',
			additionalFields: {
				description: '<p>Details</p>',
				descriptionContentType: 'text/html',
				due: '2026-12-01T17:00:00+01:00',
				timeZone: 'America/New_York',
				estimatedDuration: 'PT1H30M',
				taskListId: 'default',
				priority: 1,
				progress: 'completed',
				parentTaskId: parentId,
				tags: 'tag-a, tag-b',
			},
		});
		expect(error).toBeUndefined();
		const [create] = await apiCalls();
		expect(create.body).toEqual({
			title: 'Child',
			description: '<p>Details</p>',
			descriptionContentType: 'text/html',
			due: '2026-12-01T11:00:00',
			timeZone: 'America/New_York',
			estimatedDuration: 'PT1H30M',
			taskListId: 'default',
			priority: 1,
			progress: 'completed',
			relatedTo: { [parentId]: { '@type': 'Relation', relation: { parent: true } } },
			tags: ['tag-a', 'tag-b'],
		});
		expect(items[0].json).toMatchObject({ due: '2026-12-01T11:00:00', timeZone: 'America/New_York', priority: 1 });
	});

	it.each([
		['a wall-clock time without a chosen zone is sent with the workflow zone it was read in', '2026-12-01T09:30:00', undefined, '2026-12-01T09:30:00', 'America/New_York'],
		['a date alone means midnight', '2026-12-01', 'Europe/Berlin', '2026-12-01T00:00:00', 'Europe/Berlin'],
		['an instant without a chosen zone is kept in the workflow zone', '2026-12-01T12:00:00Z', undefined, '2026-12-01T07:00:00', 'America/New_York'],
		['a space-separated time is understood', '2026-12-01 08:15', 'Asia/Tokyo', '2026-12-01T08:15:00', 'Asia/Tokyo'],
		[
			'an n8n DateTime expression is converted into the chosen zone',
			"={{ DateTime.fromISO('2026-06-01T10:00:00', { zone: 'Europe/Berlin' }) }}",
			'Europe/London',
			'2026-06-01T09:00:00',
			'Europe/London',
		],
	])('due: %s', async (_name, due, timeZone, expectedDue, expectedZone) => {
		const additionalFields: Record<string, unknown> = { due };
		if (timeZone) additionalFields.timeZone = timeZone;
		const { error } = await run({ operation: 'create', title: 'Due test', returnTask: false, additionalFields });
		expect(error).toBeUndefined();
		const [create] = await apiCalls();
		expect((create.body as Record<string, unknown>).due).toBe(expectedDue);
		expect((create.body as Record<string, unknown>).timeZone).toBe(expectedZone);
	});

	it.each([
		['an empty title', { title: '={{ "" }}' }, 'Title: must not be empty'],
		['a due date that is not a date', { title: 'x', additionalFields: { due: 'next tuesday' } }, 'Due: "next tuesday" is not a date and time'],
		['a time zone abbreviation', { title: 'x', additionalFields: { timeZone: 'EST' } }, 'Time Zone: "EST" is not an IANA time zone'],
		['a due date in an abbreviated chosen zone', { title: 'x', additionalFields: { due: '2026-12-01T09:00:00', timeZone: 'EST' } }, 'Time Zone: "EST" is not an IANA time zone'],
		['an offset as time zone', { title: 'x', additionalFields: { timeZone: 'GMT+1' } }, 'Time Zone: "GMT+1" is not an IANA time zone'],
		['a priority above 9', { title: 'x', additionalFields: { priority: '={{ 12 }}' } }, 'Priority: must be a whole number from 0 to 9'],
		['a priority below 0', { title: 'x', additionalFields: { priority: '={{ -1 }}' } }, 'Priority: must be a whole number from 0 to 9'],
		[
			'a duration that is not ISO 8601',
			{ title: 'x', additionalFields: { estimatedDuration: '90 minutes' } },
			'Estimated Duration: "90 minutes" is not an ISO 8601 duration',
		],
	])('refuses %s before any request, naming the field', async (_name, parameters, message) => {
		const { error, items } = await run({ operation: 'create', ...parameters });
		expect(items).toHaveLength(0);
		expect(error?.message).toContain(message);
		// No request, no HTTP status: the editor shows no "Error code" row (RoutingNode gave other errors "none").
		expect(error?.httpCode ?? null).toBeNull();
		expect(await apiCalls()).toHaveLength(0);
	});

	it.each(['GMT', 'Etc/GMT-2', 'EST5EDT', 'Universal'])(
		'refuses a due date when no zone is chosen and the workflow zone is %s, before any request',
		async (workflowZone) => {
			const { error, items } = await run({ operation: 'create', title: 'x', additionalFields: { due: '2026-12-01T09:00:00' } }, { timezone: workflowZone });
			expect(items).toHaveLength(0);
			expect(error?.message).toBe(
				`Due: the workflow's time zone "${workflowZone}" is not one the service accepts, so the date cannot be sent in it: choose a Time Zone`,
			);
			expect(await apiCalls()).toHaveLength(0);
		},
	);

	it('says so in the output when the due time falls into a daylight-saving gap', async () => {
		const { items, error } = await run({
			operation: 'create',
			title: 'x',
			additionalFields: { due: '2026-03-29T02:30:00', timeZone: 'Europe/Berlin' },
		});
		expect(error).toBeUndefined();
		const [create] = await apiCalls();
		expect(create.body).toMatchObject({ due: '2026-03-29T03:30:00', timeZone: 'Europe/Berlin' });
		expect(items[0].json).toMatchObject({ due: '2026-03-29T03:30:00' });
		expect(items[0].json.notices).toEqual([
			'Due: 2026-03-29 02:30:00 does not exist in Europe/Berlin (the clocks skip that hour for daylight saving time), so it was taken as 2026-03-29 03:30:00',
		]);
	});

	it('does not send an added but empty due date, time zone or task list', async () => {
		const { error } = await run({
			operation: 'create',
			title: 'x',
			returnTask: false,
			additionalFields: { due: '', timeZone: '', description: 'kept' },
		});
		expect(error).toBeUndefined();
		const [create] = await apiCalls();
		expect(create.body).toEqual({ title: 'x', description: 'kept' });
	});

	it('fails, instead of outputting an empty ID, when the service answers create without one', async () => {
		const proxy = new AlteringProxy(sandbox.url, (_method, path, answer) =>
			path === '/v3/tasks/create' ? { ...answer, body: Buffer.from(JSON.stringify({ data: {} })) } : answer,
		);
		await proxy.start();
		try {
			const { error, items } = await run(
				{ operation: 'create', title: 'x', returnTask: false },
				{ credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: proxy.url } } },
			);
			expect(items).toHaveLength(0);
			expect(error?.message).toBe('The service answered the create request without a task ID');
			expect(error?.description).toContain('The task may have been created');
		} finally {
			await proxy.stop();
		}
	});

	it('shows a service validation error decoded, with status and errorRef', async () => {
		const { error } = await run({
			operation: 'create',
			title: 'x',
			returnTask: false,
			additionalFields: { progress: '={{ "in-process" }}' },
		});
		expect(error?.message).toBe('The service rejected the request: Progress must be one of: needs-action, completed');
		expect(error?.message).not.toContain('["');
		expect(error?.description).toMatch(/HTTP 400 · errorRef \S+/);
		expect(error?.httpCode).toBe('400');
	});
});

describe('Get', () => {
	it('outputs the task', async () => {
		const id = await sandbox.createTask({ title: 'Read me', priority: 3 });
		const { items, error } = await run({ operation: 'get', taskId: id });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id, title: 'Read me', priority: 3 });
		expect((await apiCalls()).at(-1)).toMatchObject({ method: 'GET', path: '/v3/tasks', query: { id } });
	});

	it('outputs a deleted task with deleted: true', async () => {
		const id = await sandbox.createTask({ title: 'Gone' });
		await sandbox.api('POST', '/v3/tasks/delete', { body: { id } });
		const { items, error } = await run({ operation: 'get', taskId: id });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id, title: 'Gone', deleted: true });
	});

	it('raises "task not found" for an unknown ID, and for another user\'s task', async () => {
		const unknown = await run({ operation: 'get', taskId: 'no-such-task' });
		expect(unknown.error?.message).toContain('Task not found');
		// An answer the node judged, not an HTTP failure: the editor shows no "Error code" row.
		expect(unknown.error?.httpCode ?? null).toBeNull();
		expect(unknown.error?.description).toContain('ID');
		const bobsTask = await sandbox.createTask({ title: 'Bob only' }, 'sandbox-bob-key');
		const foreign = await run({ operation: 'get', taskId: bobsTask });
		expect(foreign.error?.message).toContain('Task not found');
	});

	it('gives one error item per failed item under Continue On Fail, paired with its input', async () => {
		const id = await sandbox.createTask({ title: 'Exists' });
		const { items, error } = await run(
			{ operation: 'get', taskId: '={{ $json.id }}' },
			{ items: [{ id }, { id: 'missing' }, { id }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(items[0].json.title).toBe('Exists');
		expect(items[1].json.error).toContain('Task not found');
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[2].pairedItem).toEqual({ item: 2 });
	});
});

describe('Update', () => {
	it('sends only the fields that were set and, with Return Task off, outputs { id, the fields sent, success }', async () => {
		const id = await sandbox.createTask({ title: 'Old', description: 'keep me', priority: 2 });
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'update',
			taskId: id,
			returnTask: false,
			updateFields: { title: 'New', progress: 'in-process', due: '2026-12-24T18:00:00', timeZone: 'Europe/Berlin' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id, title: 'New', progress: 'in-process', due: '2026-12-24T18:00:00', timeZone: 'Europe/Berlin', success: true });
		const [update] = await apiCalls();
		expect(await apiCalls()).toHaveLength(1);
		expect(update.body).toEqual({ id, title: 'New', progress: 'in-process', due: '2026-12-24T18:00:00', timeZone: 'Europe/Berlin' });
		expect(await sandbox.getTask(id)).toMatchObject({ title: 'New', description: 'keep me', priority: 2, progress: 'in-process' });
	});

	it('returns the task after the change when asked', async () => {
		const id = await sandbox.createTask({ title: 'Old' });
		const { items, error } = await run({ operation: 'update', taskId: id, updateFields: { priority: 9 }, returnTask: true });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id, title: 'Old', priority: 9 });
	});

	it('refuses an update without fields, and an empty title', async () => {
		const id = await sandbox.createTask({ title: 'Old' });
		await sandbox.clearRequests();
		expect((await run({ operation: 'update', taskId: id, updateFields: {} })).error?.message).toContain(
			'Update Fields: add at least one field to change',
		);
		expect((await run({ operation: 'update', taskId: id, updateFields: { title: '' } })).error?.message).toContain(
			'Title: must not be empty',
		);
		expect(await apiCalls()).toHaveLength(0);
	});

	it('under Continue On Fail the error item carries the service message and its errorRef', async () => {
		const { items, error } = await run({ operation: 'update', taskId: 'nope', updateFields: { title: 'x' } }, { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ error: expect.stringMatching(/^The service rejected the request: Invalid task id \(errorRef [\w-]+\)$/) });
		expect(items[0].error?.description).toMatch(/^HTTP 400 · errorRef /);
	});

	it('shows the service error for an unknown task', async () => {
		const { error } = await run({ operation: 'update', taskId: 'nope', updateFields: { title: 'x' } });
		expect(error?.message).toBe('The service rejected the request: Invalid task id');
		expect(error?.httpCode).toBe('400');
	});
});

describe('Move', () => {
	it('moves to the first position (previousId null) and under a parent', async () => {
		const parent = await sandbox.createTask({ title: 'Parent' });
		const a = await sandbox.createTask({ title: 'A' });
		const b = await sandbox.createTask({ title: 'B' });
		await sandbox.clearRequests();
		const outputs: unknown[] = [];
		for (const parameters of [
			{ taskId: b, position: 'first', parent: 'keep' },
			{ taskId: a, position: 'after', previousTaskId: b, parent: 'under', parentTaskId: parent },
			{ taskId: a, position: 'keep', parent: 'root' },
		]) {
			const { items, error } = await run({ operation: 'move', returnTask: false, ...parameters });
			expect(error).toBeUndefined();
			outputs.push(items[0].json);
		}
		const bodies = (await apiCalls()).map((call) => call.body);
		// The output is the request's fields (as sent) and success, with no read-back.
		expect(outputs).toEqual(bodies.map((body) => ({ ...(body as object), success: true })));
		expect(bodies).toEqual([
			{ id: b, previousId: null },
			{ id: a, previousId: b, parentId: parent },
			{ id: a, parentId: null },
		]);
		const [taskA, taskB, taskParent] = await Promise.all([a, b, parent].map((id) => sandbox.getTask(id)));
		expect(taskB!.position).toBeLessThan(taskParent!.position);
		expect(taskA).not.toHaveProperty('relatedTo');
	});

	it('refuses keeping both position and parent', async () => {
		const a = await sandbox.createTask({ title: 'A' });
		const { error } = await run({ operation: 'move', taskId: a, position: 'keep', parent: 'keep' });
		expect(error?.message).toContain('Position: choose a new position or a new parent');
	});
});

describe('Delete', () => {
	it('outputs { id, deleted: true }, succeeds again for a deleted task, and refuses a never-existing ID', async () => {
		const id = await sandbox.createTask({ title: 'Doomed' });
		const first = await run({ operation: 'delete', taskId: id });
		expect(first.error).toBeUndefined();
		expect(first.items[0].json).toEqual({ id, deleted: true });
		const again = await run({ operation: 'delete', taskId: id });
		expect(again.error).toBeUndefined();
		expect(again.items[0].json).toEqual({ id, deleted: true });
		const never = await run({ operation: 'delete', taskId: 'never-existed' });
		expect(never.error?.message).toBe('The service rejected the request: Invalid task id');
		expect(never.error?.description).toMatch(/errorRef/);
		expect(await sandbox.getTask(id)).toMatchObject({ deleted: true });
	});
});

describe('Close and Reopen', () => {
	it('completes and reopens a task', async () => {
		const id = await sandbox.createTask({ title: 'Cycle' });
		const closed = await run({ operation: 'close', taskId: id, returnTask: true });
		expect(closed.error).toBeUndefined();
		expect(closed.items[0].json).toMatchObject({ id, progress: 'completed' });
		const reopened = await run({ operation: 'reopen', taskId: id, returnTask: false });
		expect(reopened.error).toBeUndefined();
		expect(reopened.items[0].json).toEqual({ id, success: true });
		expect(await sandbox.getTask(id)).toMatchObject({ progress: 'needs-action' });
	});

	it('sends Occurrence Start as an ISO 8601 date-time', async () => {
		const id = await sandbox.createTask({ title: 'Recurring' });
		await sandbox.clearRequests();
		const { error } = await run({ operation: 'close', taskId: id, occurrenceStart: '2026-12-01T09:00:00' }, { timezone: 'Europe/Berlin' });
		expect(error).toBeUndefined();
		const [close] = await apiCalls();
		expect(close.body).toEqual({ id, occurrenceStart: '2026-12-01T09:00:00+01:00' });
	});
});

describe('several items', () => {
	it('sends one request per item with its own expressions, and nothing leaks between items', async () => {
		const { items, error } = await run(
			{
				operation: 'create',
				title: '={{ $json.title }}',
				returnTask: false,
				additionalFields: { priority: '={{ $json.priority ?? 0 }}', tags: '={{ $json.tags ?? "" }}' },
			},
			{ items: [{ title: 'one', priority: 1, tags: ['x'] }, { title: 'two' }, { title: 'three', priority: 3 }] },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		const bodies = (await apiCalls()).map((call) => call.body);
		expect(bodies).toHaveLength(3);
		expect(bodies).toEqual(
			expect.arrayContaining([
				{ title: 'one', priority: 1, tags: ['x'] },
				// An expression that leaves Tags empty sends no tags (it does not clear them).
				{ title: 'two', priority: 0 },
				{ title: 'three', priority: 3 },
			]),
		);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

describe('authentication and limits', () => {
	it('explains an invalid key and a plan without API access, without showing the key', async () => {
		const invalid = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'get', taskId: 'x' },
			credentials: { ctsApi: { apiKey: 'wrong-secret-key', baseUrl: sandbox.url } },
		});
		expect(invalid.error?.message).toMatch(/^Authentication failed/);
		expect(invalid.error?.httpCode).toBe('401');
		expect(JSON.stringify(invalid.error)).not.toContain('wrong-secret-key');
		const noPlan = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'get', taskId: 'x' },
			credentials: { ctsApi: { apiKey: NOPLAN_KEY, baseUrl: sandbox.url } },
		});
		expect(noPlan.error?.message).toMatch(/^Access denied/);
		expect(noPlan.error?.description).toContain('plan lacks API access');
	});

	it('names an unreachable service, in routed operations and in Get Many alike', async () => {
		for (const parameters of [
			{ operation: 'create', title: 'x', returnTask: false },
			{ operation: 'getAll', returnAll: true },
		]) {
			const { error } = await engine.runNode({
				type: 'ctsTask',
				parameters: { resource: 'task', output: 'raw', ...parameters },
				credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: 'http://127.0.0.1:9' } },
			});
			expect([parameters.operation, error?.message]).toEqual([parameters.operation, 'Could not reach the service']);
			expect(error?.description).toMatch(/^ECONNREFUSED: check the Base URL/);
			// No answer, no HTTP status: the editor's "Error code" row stays empty rather than reading "none".
			expect([parameters.operation, error?.httpCode ?? null]).toEqual([parameters.operation, null]);
		}
	});

	it('paces a job through a small budget: every task created once, without a single 429', async () => {
		await sandbox.control('limits', { points: 3, windowSeconds: 1 });
		const titles = Array.from({ length: 8 }, (_, index) => ({ title: `bulk ${index}` }));
		const { items, error } = await run(
			{ operation: 'create', title: '={{ $json.title }}', returnTask: false },
			{ items: titles },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(8);
		await sandbox.control('limits', { points: null });
		const created = (await apiCalls()).filter((call) => call.path === '/v3/tasks/create');
		expect(created.map((call) => call.status)).toEqual(Array(8).fill(200));
		const listed = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
		expect(listed.body.data.tasks.map((task: { title: string }) => task.title).sort()).toEqual(titles.map((t) => t.title).sort());
	});

	it('waits out a 429 caused by another client of the account, and creates the task once', async () => {
		await sandbox.control('limits', { points: 3, windowSeconds: 2 });
		for (let call = 0; call < 3; call++) await sandbox.api('GET', '/v3/tasks', { qs: { id: 'other-client' } });
		const { items, error } = await run({ operation: 'create', title: 'after the other client', returnTask: false });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const created = (await apiCalls()).filter((call) => call.path === '/v3/tasks/create');
		expect(created.map((call) => call.status)).toEqual([429, 200]);
	});

	it('does not replay a write after a 5xx, and retries a read', async () => {
		await sandbox.control('faults', { status: 503, count: 1 });
		const write = await run({ operation: 'create', title: 'once', returnTask: false });
		expect(write.error?.message).toMatch(/^The service failed/);
		expect((await apiCalls()).filter((call) => call.path === '/v3/tasks/create')).toHaveLength(1);

		const id = await sandbox.createTask({ title: 'read me' });
		await sandbox.control('faults', { status: 502, count: 2 });
		const read = await run({ operation: 'get', taskId: id });
		expect(read.error).toBeUndefined();
		expect(read.items[0].json.title).toBe('read me');
	});
});
