/**
 * Several input items in one run.
 *
 * The CTS Task node run by n8n's real engine (WorkflowExecute → RoutingNode) against the
 * sandbox over HTTP. What the node sent is read back from the sandbox's request log.
 */
import { taskNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = taskNodeSuite();

async function apiCalls() {
	return await sandbox.requests();
}

describe('several items', () => {
	it('sends one request per item with its own expressions, and nothing leaks between items', async () => {
		const { items, error } = await run(
			{
				operation: 'create',
				title: '={{ $json.title }}',
				returnTask: false,
				additionalFields: { priority: '={{ $json.priority ?? 0 }}', tags: '={{ $json.tags ?? "" }}' },
			},
			{ items: [{ title: 'one', priority: 1, tags: ['x'] }, { title: 'two' }, { title: 'three', priority: 3 }] },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		const bodies = (await apiCalls()).map((call) => call.body);
		expect(bodies).toHaveLength(3);
		expect(bodies).toEqual(
			expect.arrayContaining([
				{ title: 'one', priority: 1, tags: ['x'] },
				// An expression that leaves Tags empty sends no tags (it does not clear them).
				{ title: 'two', priority: 0 },
				{ title: 'three', priority: 3 },
			]),
		);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});
