/**
 * Authentication and the service's limits.
 *
 * The CTS Task node run by n8n's real engine (WorkflowExecute → RoutingNode) against the
 * sandbox over HTTP. What the node sent is read back from the sandbox's request log.
 */
import { ALICE_KEY, NOPLAN_KEY } from '../../../harness/sandboxClient';
import { taskNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, engine, run } = taskNodeSuite();

async function apiCalls() {
	return await sandbox.requests();
}

describe('authentication and limits', () => {
	it('explains an invalid key and a plan without API access, without showing the key', async () => {
		const invalid = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'get', taskId: 'x' },
			credentials: { ctsApi: { apiKey: 'wrong-secret-key', baseUrl: sandbox.url } },
		});
		expect(invalid.error?.message).toMatch(/^Authentication failed/);
		expect(invalid.error?.httpCode).toBe('401');
		expect(JSON.stringify(invalid.error)).not.toContain('wrong-secret-key');
		const noPlan = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'get', taskId: 'x' },
			credentials: { ctsApi: { apiKey: NOPLAN_KEY, baseUrl: sandbox.url } },
		});
		expect(noPlan.error?.message).toMatch(/^Access denied/);
		expect(noPlan.error?.description).toContain('plan lacks API access');
	});

	it('names an unreachable service, in routed operations and in Get Many alike', async () => {
		for (const parameters of [
			{ operation: 'create', title: 'x', returnTask: false },
			{ operation: 'getAll', returnAll: true },
		]) {
			const { error } = await engine.runNode({
				type: 'ctsTask',
				parameters: { resource: 'task', output: 'raw', ...parameters },
				credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: 'http://127.0.0.1:9' } },
			});
			expect([parameters.operation, error?.message]).toEqual([parameters.operation, 'Could not reach the service']);
			expect(error?.description).toMatch(/^ECONNREFUSED: check the Base URL/);
			// No answer, no HTTP status: the editor's "Error code" row stays empty rather than reading "none".
			expect([parameters.operation, error?.httpCode ?? null]).toEqual([parameters.operation, null]);
		}
	});

	it('paces a job through a small budget: every task created once, without a single 429', async () => {
		await sandbox.control('limits', { points: 3, windowSeconds: 1 });
		const titles = Array.from({ length: 8 }, (_, index) => ({ title: `bulk ${index}` }));
		const { items, error } = await run(
			{ operation: 'create', title: '={{ $json.title }}', returnTask: false },
			{ items: titles },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(8);
		await sandbox.control('limits', { points: null });
		const created = (await apiCalls()).filter((call) => call.path === '/v3/tasks/create');
		expect(created.map((call) => call.status)).toEqual(Array(8).fill(200));
		const listed = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
		expect(listed.body.data.tasks.map((task: { title: string }) => task.title).sort()).toEqual(titles.map((t) => t.title).sort());
	});

	it('waits out a 429 caused by another client of the account, and creates the task once', async () => {
		await sandbox.control('limits', { points: 3, windowSeconds: 2 });
		for (let call = 0; call < 3; call++) await sandbox.api('GET', '/v3/tasks', { qs: { id: 'other-client' } });
		const { items, error } = await run({ operation: 'create', title: 'after the other client', returnTask: false });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const created = (await apiCalls()).filter((call) => call.path === '/v3/tasks/create');
		expect(created.map((call) => call.status)).toEqual([429, 200]);
	});

	it('sends a write again once when the service answers 408 without reading it, and creates the task once', async () => {
		await sandbox.control('faults', { status: 408, count: 1, path: '/v3/tasks/create' });
		const once = await run({ operation: 'create', title: 'sent again after a 408', returnTask: false });
		expect(once.error).toBeUndefined();
		const created = (await apiCalls()).filter((call) => call.path === '/v3/tasks/create');
		expect(created.map((call) => call.status)).toEqual([408, 200]);
		const listed = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
		expect(listed.body.data.tasks.filter((task: { title: string }) => task.title === 'sent again after a 408')).toHaveLength(1);

		await sandbox.control('faults', { status: 408, count: 2, path: '/v3/tasks/create' });
		const twice = await run({ operation: 'create', title: 'two 408 answers', returnTask: false });
		expect(twice.error?.message).toMatch(/408/);
	});

	it('does not replay a write after a 5xx, and retries a read', async () => {
		await sandbox.control('faults', { status: 503, count: 1 });
		const write = await run({ operation: 'create', title: 'once', returnTask: false });
		expect(write.error?.message).toMatch(/^The service failed/);
		expect((await apiCalls()).filter((call) => call.path === '/v3/tasks/create')).toHaveLength(1);

		const id = await sandbox.createTask({ title: 'read me' });
		await sandbox.control('faults', { status: 502, count: 2 });
		const read = await run({ operation: 'get', taskId: id });
		expect(read.error).toBeUndefined();
		expect(read.items[0].json.title).toBe('read me');
	});
});
