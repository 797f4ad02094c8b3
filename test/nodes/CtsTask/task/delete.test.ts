/**
 * Task Delete.
 *
 * The CTS Task node run by n8n's real engine (WorkflowExecute → RoutingNode) against the
 * sandbox over HTTP. What the node sent is read back from the sandbox's request log.
 */
import { taskNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = taskNodeSuite();

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
