/**
 * Reopen of an occurrence.
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
