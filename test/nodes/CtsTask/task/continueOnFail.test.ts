/**
 * Continue On Fail with input refused before any request.
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
