/**
 * Task Move.
 *
 * The CTS Task node run by n8n's real engine (WorkflowExecute → RoutingNode) against the
 * sandbox over HTTP. What the node sent is read back from the sandbox's request log.
 */
import { taskNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = taskNodeSuite();

async function apiCalls() {
	return await sandbox.requests();
}

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
