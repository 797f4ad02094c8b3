/**
 * Task Close and Reopen.
 *
 * The CTS Task node run by n8n's real engine (WorkflowExecute → RoutingNode) against the
 * sandbox over HTTP. What the node sent is read back from the sandbox's request log.
 */
import { taskNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = taskNodeSuite();

async function apiCalls() {
	return await sandbox.requests();
}

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
