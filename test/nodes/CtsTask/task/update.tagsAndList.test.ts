/**
 * Update of tags, description and task list.
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
