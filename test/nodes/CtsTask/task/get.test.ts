/**
 * Task Get.
 *
 * The CTS Task node run by n8n's real engine (WorkflowExecute → RoutingNode) against the
 * sandbox over HTTP. What the node sent is read back from the sandbox's request log.
 */
import { taskNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = taskNodeSuite();

async function apiCalls() {
	return await sandbox.requests();
}

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
