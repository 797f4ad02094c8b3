/**
 * A read-back that fails after the write.
 *
 * The CTS Task node through n8n's real engine against the sandbox over HTTP.
 */
import { taskNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = taskNodeSuite();

async function arrangeTask(fields: Record<string, unknown>) {
	const id = await sandbox.createTask(fields);
	await sandbox.clearRequests();
	return id;
}

async function calls() {
	return (await sandbox.requests()).map((call) => `${call.method} ${call.path} ${call.status}`);
}

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
