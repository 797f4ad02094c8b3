/**
 * The transport seam: every routed request of every action node reaches the service through the
 * transport layer (point budget, retries, service errors) because the node descriptions declare
 * `requestOperations`, not because of where a property is listed; and an operation that takes
 * several requests per item (Get Many) runs the same code in a workflow and as an AI tool.
 * Through the real engine against the sandbox.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeType } from 'n8n-workflow';

import { CtsEvent } from '../../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../../nodes/CtsTask/CtsTask.node';
import { SERVICE_REQUEST_OPERATIONS } from '../../../nodes/shared/transport/transport';
import { asTool, Engine } from '../../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../harness/sandboxClient';

/** The node with its properties in reverse order: what the seam must not depend on. */
function reversed<T extends INodeType>(node: T): T {
	node.description = { ...node.description, properties: [...node.description.properties].reverse() };
	return node;
}

const sandbox = new SandboxClient();
const engine = new Engine({
	ctsTask: new CtsTask(),
	ctsTaskTool: asTool(new CtsTask()),
	ctsTaskReversed: reversed(new CtsTask()),
	ctsEvent: new CtsEvent(),
	ctsEventTool: asTool(new CtsEvent()),
	ctsEventV1: new CtsEventV1(),
});

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

const apiKey = (key = ALICE_KEY) => ({ ctsApi: { apiKey: key, baseUrl: sandbox.url } });
const paths = async () => (await sandbox.requests()).map((call) => `${call.method} ${call.path}`);

const eventList = {
	resource: 'event',
	operation: 'getAll',
	accountId: 'acc-alice-a',
	calendarIds: 'cal-alice-a-primary',
	start: '2026-11-30T00:00:00Z',
	end: '2026-12-10T00:00:00Z',
	returnAll: true,
};

it('each action node declares the transport as its requestOperations, and only Plan Tasks and Sync Tasks (all input items at once) keep a custom operation', () => {
	for (const node of [new CtsTask(), new CtsEvent(), new CtsEventV1()]) {
		expect(node.description.requestOperations).toBe(SERVICE_REQUEST_OPERATIONS);
		expect(node.description.properties.map((property) => property.name)).not.toContain('transport');
	}
	expect(Object.keys(new CtsTask().customOperations)).toEqual(['task']);
	expect(Object.keys(new CtsTask().customOperations.task)).toEqual(['plan', 'sync']);
	expect((new CtsEvent() as INodeType).customOperations).toBeUndefined();
	expect((new CtsEventV1() as INodeType).customOperations).toBeUndefined();
});

describe('the order of the properties does not matter', () => {
	it('a service error is reported before the operation reads the answer, whatever the order', async () => {
		const get = (type: string) =>
			engine.runNode({ type, parameters: { resource: 'task', operation: 'get', taskId: 'some-task' }, credentials: apiKey('not-a-key') });
		const inOrder = await get('ctsTask');
		const inReverse = await get('ctsTaskReversed');
		expect(inOrder.error?.message).toMatch(/^Authentication failed/);
		expect(inReverse.error?.message).toBe(inOrder.error?.message);
	});

	it('routed answers teach the budget, whatever the order', async () => {
		await sandbox.control('limits', { points: 2, windowSeconds: 600 });
		const { items, error } = await engine.runNode({
			type: 'ctsTaskReversed',
			parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false, options: { maxWaitSeconds: 0 } },
			credentials: apiKey(),
			items: [{ title: 'one' }, { title: 'two' }, { title: 'three' }],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => (item.json.error ? 'budget' : 'created'))).toEqual(['created', 'created', 'budget']);
		expect(String(items[2].json.error)).toMatch(/^Rate limit: the account's point budget is used up/);
		expect(await paths()).toEqual(['POST /v3/tasks/create', 'POST /v3/tasks/create']);
	});
});

describe('Get Many runs the same code in a workflow and as a tool', () => {
	it('events: the same items from the same requests', async () => {
		await sandbox.createEvent(timedEvent({ title: 'Standup', start: '2026-12-01T09:00:00' }));
		await sandbox.createEvent(timedEvent({ title: 'Review', start: '2026-12-02T09:00:00' }));
		await sandbox.clearRequests();
		const workflow = await engine.runNode({ type: 'ctsEvent', parameters: eventList, credentials: apiKey() });
		const workflowPaths = await paths();
		await sandbox.clearRequests();
		const tool = await engine.runNode({ type: 'ctsEventTool', parameters: eventList, credentials: apiKey() });
		expect(workflow.error).toBeUndefined();
		expect(tool.error).toBeUndefined();
		expect(workflow.items.map((item) => item.json.title)).toEqual(['Standup', 'Review']);
		expect(tool.items.map((item) => item.json)).toEqual(workflow.items.map((item) => item.json));
		expect(await paths()).toEqual(workflowPaths);
	});

	it('tasks: the same items from the same requests', async () => {
		for (const title of ['first', 'second', 'third']) await sandbox.createTask({ title });
		await sandbox.clearRequests();
		const parameters = { resource: 'task', operation: 'getAll', returnAll: false, limit: 2 };
		const workflow = await engine.runNode({ type: 'ctsTask', parameters, credentials: apiKey() });
		const workflowPaths = await paths();
		await sandbox.clearRequests();
		const tool = await engine.runNode({ type: 'ctsTaskTool', parameters, credentials: apiKey() });
		expect(workflow.error).toBeUndefined();
		expect(tool.error).toBeUndefined();
		expect(workflow.items).toHaveLength(2);
		expect(tool.items.map((item) => item.json)).toEqual(workflow.items.map((item) => item.json));
		expect(await paths()).toEqual(workflowPaths);
	});
});

// Last: it leaves the credentials' budget used up for the rest of this file.
it('with the budget used up, every kind of routed request of every action node fails with the budget error and sends nothing', async () => {
	await sandbox.control('limits', { points: 1, windowSeconds: 600 });
	// Another user for the V1 node: each user has a budget of their own.
	const v1 = { ctsSyncApi: { token: await sandbox.token('bob'), syncUrl: sandbox.url } };
	// Use up the budget of both credentials' users (the nodes learn it from the answers).
	expect((await engine.runNode({ type: 'ctsTask', parameters: { resource: 'tag', operation: 'create', name: 'x', color: '#123456' }, credentials: apiKey() })).error).toBeUndefined();
	const gone = await engine.runNode({ type: 'ctsEventV1', parameters: { resource: 'event', operation: 'delete', eventId: 'gone' }, credentials: v1 });
	expect(gone.error).toBeUndefined();
	await sandbox.clearRequests();

	const cases: Array<[string, IDataObject, Record<string, ICredentialDataDecryptedObject>]> = [
		['ctsTask', { resource: 'task', operation: 'get', taskId: 'some-task' }, apiKey()],
		['ctsTask', { resource: 'task', operation: 'create', title: 'late', returnTask: false }, apiKey()],
		['ctsTask', { resource: 'task', operation: 'getAll', returnAll: true }, apiKey()],
		['ctsTask', { resource: 'tag', operation: 'getAll', returnAll: true }, apiKey()],
		['ctsTaskTool', { resource: 'task', operation: 'get', taskId: 'some-task' }, apiKey()],
		['ctsTaskTool', { resource: 'task', operation: 'getAll', returnAll: true }, apiKey()],
		['ctsTaskReversed', { resource: 'tag', operation: 'create', name: 'y', color: '#123456' }, apiKey()],
		['ctsEvent', { resource: 'calendar', operation: 'getAll' }, apiKey()],
		['ctsEvent', eventList, apiKey()],
		['ctsEventTool', eventList, apiKey()],
		['ctsEventV1', { resource: 'event', operation: 'delete', eventId: 'gone' }, v1],
	];
	for (const [type, parameters, credentials] of cases) {
		const { error } = await engine.runNode({ type, parameters: { ...parameters, options: { maxWaitSeconds: 0 } }, credentials });
		expect([type, parameters.resource, parameters.operation, error?.message]).toEqual([
			type,
			parameters.resource,
			parameters.operation,
			expect.stringMatching(/^Rate limit: the account's point budget is used up/),
		]);
	}
	expect(await paths()).toEqual([]);
});
