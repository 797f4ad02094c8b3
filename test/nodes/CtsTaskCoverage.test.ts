/**
 * The CTS Task node's less travelled paths, through n8n's real engine against the sandbox:
 * Update of tags, description and task list; Reopen of an occurrence; a read-back that fails
 * after the write succeeded; Continue On Fail with input refused before any request.
 */
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine, type NodeRunOptions } from '../harness/engine';
import { ALICE_KEY, SandboxClient } from '../harness/sandboxClient';

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

async function arrangeTask(fields: Record<string, unknown>) {
	const id = await sandbox.createTask(fields);
	await sandbox.clearRequests();
	return id;
}

async function calls() {
	return (await sandbox.requests()).map((call) => `${call.method} ${call.path} ${call.status}`);
}

describe('Update of tags, description and task list', () => {
	it('sends them, and only them; the task holds them afterwards', async () => {
		const id = await arrangeTask({ title: 'Keep', tags: ['old'], description: 'old text', priority: 4 });
		const { items, error } = await run({
			operation: 'update',
			taskId: id,
			updateFields: { tags: 'tag-a, tag-b', description: 'new text', taskListId: 'other-list' },
			returnTask: true,
		});
		expect(error).toBeUndefined();
		const [update] = await sandbox.requests();
		expect(update.body).toEqual({ id, tags: ['tag-a', 'tag-b'], description: 'new text', taskListId: 'other-list' });
		const expected = { id, title: 'Keep', tags: ['tag-a', 'tag-b'], description: 'new text', taskListId: 'other-list', priority: 4 };
		expect(items[0].json).toMatchObject(expected);
		expect(await sandbox.getTask(id)).toMatchObject(expected);
	});

	it('takes the tags as a list from an expression', async () => {
		const id = await arrangeTask({ title: 'Tagged' });
		const { error } = await run({ operation: 'update', taskId: id, updateFields: { tags: '={{ ["x", " y "] }}' } });
		expect(error).toBeUndefined();
		expect((await sandbox.requests())[0].body).toEqual({ id, tags: ['x', 'y'] });
		expect((await sandbox.getTask(id))!.tags).toEqual(['x', 'y']);
	});
});

describe('Reopen of an occurrence', () => {
	it('sends Occurrence Start as an instant, read in the workflow\'s zone, and reopens the task', async () => {
		const id = await arrangeTask({ title: 'Weekly review', progress: 'completed' });
		const { items, error } = await run({ operation: 'reopen', taskId: id, occurrenceStart: '2026-07-01 09:00', returnTask: true }, { timezone: 'Europe/Berlin' });
		expect(error).toBeUndefined();
		expect((await sandbox.requests())[0].body).toEqual({ id, occurrenceStart: '2026-07-01T09:00:00+02:00' });
		expect(items[0].json).toMatchObject({ id, progress: 'needs-action' });
	});

	it('an Occurrence Start that is not a date is refused before any request', async () => {
		const id = await arrangeTask({ title: 'Weekly review', progress: 'completed' });
		const { error } = await run({ operation: 'reopen', taskId: id, occurrenceStart: '={{ "next week" }}' });
		expect(error?.message).toBe('Occurrence Start: "next week" is not a date and time');
		expect(await sandbox.requests()).toHaveLength(0);
		expect((await sandbox.getTask(id))!.progress).toBe('completed');
	});
});

describe('a read-back that fails after the write', () => {
	// Every read of the task fails, more often than a read is retried; the write itself succeeds.
	const failReads = async () => await sandbox.control('faults', { status: 500, count: 10, path: '/v3/tasks' });

	it('Update: says the change was made, does not send it again, and the task has it', async () => {
		const id = await arrangeTask({ title: 'Before' });
		await failReads();
		const { error } = await run({ operation: 'update', taskId: id, updateFields: { title: 'After' }, returnTask: true });
		expect(error?.message).toMatch(new RegExp(`^The change to task ${id} was made, but reading the task back failed: The service failed`));
		expect(error?.description).toMatch(/^Turn off Return Task, or read the task with the Get operation\. HTTP 500/);
		expect(await calls()).toEqual(['POST /v3/tasks/update 204', ...Array(4).fill('GET /v3/tasks 500')]);
		await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
		expect((await sandbox.getTask(id))!.title).toBe('After');
	});

	it('Create with Return Task: the task exists once, and the error names it', async () => {
		await failReads();
		const { error } = await run({ operation: 'create', title: 'Made once', returnTask: true });
		const created = (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/create');
		expect(created).toHaveLength(1);
		await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
		const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '10' } });
		expect(body.data.tasks.map((task: { title: string }) => task.title)).toEqual(['Made once']);
		expect(error?.message).toMatch(new RegExp(`^The change to task ${body.data.tasks[0].id} was made, but reading the task back failed`));
	});

	it('under Continue On Fail each item carries that error, naming its task; every change was made once', async () => {
		const first = await arrangeTask({ title: 'first' });
		const second = await arrangeTask({ title: 'second' });
		await failReads();
		const { items, error } = await run(
			{ operation: 'close', taskId: '={{ $json.id }}', returnTask: true },
			{ items: [{ id: first }, { id: second }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json.error).toMatch(new RegExp(`^The change to task ${first} was made, but reading the task back failed`));
		expect(items[1].json.error).toMatch(new RegExp(`^The change to task ${second} was made, but reading the task back failed`));
		expect((await sandbox.requests()).filter((call) => call.path === '/v3/tasks/close').map((call) => (call.body as { id: string }).id).sort()).toEqual([first, second].sort());
		await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
		for (const id of [first, second]) expect((await sandbox.getTask(id))!.progress).toBe('completed');
	});
});

describe('Continue On Fail with input refused before any request', () => {
	it('Create: each refused item becomes an error item naming the field; the others are created', async () => {
		const { items, error } = await run(
			{ operation: 'create', title: '={{ $json.title }}', returnTask: false, additionalFields: { priority: '={{ $json.priority }}' } },
			{
				items: [
					{ title: 'one', priority: 1 },
					{ title: '', priority: 1 },
					{ title: 'three', priority: 12 },
					{ title: 'four', priority: 2 },
				],
				continueOnFail: true,
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.error ?? 'created')).toEqual([
			'created',
			'Title: must not be empty',
			'Priority: must be a whole number from 0 to 9',
			'created',
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		const sent = (await sandbox.requests()).map((call) => (call.body as { title: string }).title);
		expect(sent.sort()).toEqual(['four', 'one']);
		for (const item of [items[0], items[3]]) expect(await sandbox.getTask(item.json.id as string)).not.toBeNull();
	});

	it('Get Many: an item with a bad Limit becomes an error item; the other is listed', async () => {
		await arrangeTask({ title: 'listed' });
		const { items, error } = await run(
			{ operation: 'getAll', returnAll: false, limit: '={{ $json.limit }}' },
			{ items: [{ limit: 0 }, { limit: 5 }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.error ?? item.json.title)).toEqual(['Limit: "0" is not a whole number of 1 or more', 'listed']);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(await calls()).toEqual(['GET /v3/tasks/list 200']);
	});
});
