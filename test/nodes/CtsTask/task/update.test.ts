/**
 * Task Update.
 *
 * The CTS Task node run by n8n's real engine (WorkflowExecute → RoutingNode) against the
 * sandbox over HTTP. What the node sent is read back from the sandbox's request log.
 */
import { taskNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = taskNodeSuite();

async function apiCalls() {
	return await sandbox.requests();
}

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
		expect(items[0].json).toEqual({ id, title: 'New', progress: 'in-process', due: '2026-12-24T18:00:00+01:00', timeZone: 'Europe/Berlin', success: true });
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
