/**
 * The point budget through the real engine against the sandbox: nodes learn it from the
 * service's answers and share it across executions, give up with an error that says what the
 * job needs when they may not wait, and triggers keep to their share of it.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTask } from '../../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { AlteringProxy } from '../../harness/alteringProxy';
import { asTool, Engine, PollHarness } from '../../harness/engine';
import { ALICE_KEY, SandboxClient } from '../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

const credentials = () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });

function createTasks(count: number, parameters: IDataObject = {}, continueOnFail = false) {
	return engine.runNode({
		type: 'ctsTask',
		parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false, ...parameters },
		credentials: credentials(),
		items: Array.from({ length: count }, (_, index) => ({ title: `task ${index}` })),
		continueOnFail,
	});
}

function taskTrigger(options: IDataObject = {}, name = 'Task Trigger') {
	return new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'], options }, credentials(), {}, name);
}

const paths = async () => (await sandbox.requests()).map((call) => `${call.path} ${call.status}`);

it('with Maximum Wait 0, the items beyond the budget fail at once, saying what the job needs, what remains and when it resets', async () => {
	await sandbox.control('limits', { points: 3, windowSeconds: 600 });
	const { items, error } = await createTasks(5, { options: { maxWaitSeconds: 0 } }, true);
	expect(error).toBeUndefined();
	expect(items.map((item) => (item.json.error ? 'error' : 'created'))).toEqual(['created', 'created', 'created', 'error', 'error']);
	// The budget was learnt from the answers: nothing was sent that the service would refuse.
	expect(await paths()).toEqual(Array(3).fill('/v3/tasks/create 200'));
	const failure = items[3].error!;
	expect(failure.message).toMatch(/^Rate limit: the account's point budget is used up \(0 of 3 points left; this account's budget is 3 points per 10 min; it resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in (9\.5|10) min\)\)$/);
	expect(failure.description).toMatch(/^This run still needed 2 points for 2 waiting requests\./);
	expect(items[3].pairedItem).toEqual({ item: 3 });
});

it('answers without rate-limit headers never make requests wait, even after an answer that said the budget was nearly used up', async () => {
	// A caching proxy hands out an old answer's headers once ("1 of 300 left, resets in 15 min"), then
	// passes answers with their rate-limit headers removed. The service itself has points to spare.
	let answers = 0;
	const proxy = new AlteringProxy(sandbox.url, (_method, _path, answer) => {
		const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !name.startsWith('ratelimit-')));
		if (answers++ === 0) Object.assign(headers, { 'ratelimit-limit': '300', 'ratelimit-remaining': '1', 'ratelimit-reset': '900' });
		return { ...answer, headers };
	});
	await proxy.start();
	try {
		const { items, error } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false, options: { maxWaitSeconds: 0 } },
			// The proxy's address makes a budget of its own: nothing learnt by another test applies.
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: proxy.url } },
			items: Array.from({ length: 12 }, (_, index) => ({ title: `unmetered ${index}` })),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.error ?? 'created')).toEqual(Array(12).fill('created'));
		expect(await paths()).toEqual(Array(12).fill('/v3/tasks/create 200'));
	} finally {
		await proxy.stop();
	}
});

describe('as a tool of an AI agent or MCP server (the node type n8n names <type>Tool)', () => {
	// The Task node under the name n8n gives its tool variant; RoutingNode runs its routed operations the same way.
	const tools = new Engine({ ctsTaskTool: asTool(new CtsTask()) });
	const createAsTool = (parameters: IDataObject = {}) =>
		tools.runNode({ type: 'ctsTaskTool', parameters: { resource: 'task', operation: 'create', title: 'from an agent', returnTask: false, ...parameters }, credentials: credentials() });

	it('a used-up budget that resets later than 20 s fails at once with the reset time, and nothing is sent afterwards', async () => {
		await sandbox.control('limits', { points: 1, windowSeconds: 600 });
		expect((await createTasks(1)).error).toBeUndefined();
		await sandbox.clearRequests();
		const started = Date.now();
		const { error } = await createAsTool();
		expect(Date.now() - started).toBeLessThan(5000);
		expect(error?.message).toMatch(/^Rate limit: the account's point budget is used up \(0 of 1 points left; this account's budget is 1 points per 10 min; it resets at .+Z \(in [\d.]+ min\)\)$/);
		expect(error?.description).toMatch(/^Nothing was sent: call again after the reset\. As a tool the node waits for the budget at most 20 s by default/);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expect(await paths()).toEqual([]);
	});

	it('a budget that resets within 20 s is waited for, and the call succeeds', async () => {
		await sandbox.control('limits', { points: 1, windowSeconds: 6 });
		expect((await createTasks(1)).error).toBeUndefined();
		const { items, error } = await createAsTool();
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
	});

	it('the user can still set a longer Maximum Wait on the tool', async () => {
		await sandbox.control('limits', { points: 1, windowSeconds: 21 });
		expect((await createTasks(1)).error).toBeUndefined();
		const { error } = await createAsTool({ options: { maxWaitSeconds: 60 } });
		expect(error).toBeUndefined();
	});
});

it('executions share the budget of the service user: a second run knows it is used up and sends nothing', async () => {
	await sandbox.control('limits', { points: 3, windowSeconds: 600 });
	expect((await createTasks(3)).error).toBeUndefined();
	await sandbox.clearRequests();
	const second = await createTasks(1, { options: { maxWaitSeconds: 60 } });
	expect(second.error?.message).toMatch(/^Rate limit: the account's point budget is used up \(0 of 3 points left;/);
	expect(await paths()).toEqual([]);
});

it('a trigger keeps to its share: 25% of 300 points is 7 checks, then it skips without a request until the window resets, and delivers what changed exactly once', async () => {
	await sandbox.control('limits', { points: 300, windowSeconds: 3 });
	const poller = taskTrigger();
	await poller.poll();
	for (let check = 1; check < 7; check++) expect(await poller.poll()).toBeNull();
	const id = await sandbox.createTask({ title: 'made while the trigger skips' });
	await sandbox.clearRequests();
	expect(await poller.poll()).toBeNull();
	expect(await sandbox.requests()).toEqual([]);
	// Another trigger has a share of its own.
	await taskTrigger({}, 'another trigger').poll();
	expect(await paths()).toEqual(['/v3/tasks/list 200']);
	await new Promise((resolve) => setTimeout(resolve, 3100));
	const delivered = (await poller.poll())?.[0].map((item) => item.json.id);
	expect(delivered).toEqual([id]);
	expect(await poller.poll()).toBeNull();
});

it('a trigger skips when fewer than a fifth of the budget would remain for actions', async () => {
	await sandbox.control('limits', { points: 100, windowSeconds: 600 });
	// Another client of the account spends 75 points; the trigger learns it from its first answer.
	for (let call = 0; call < 75; call++) await sandbox.api('GET', '/v3/tasks', { qs: { id: 'other' } });
	const poller = taskTrigger({ budgetShare: 100 });
	await poller.poll(); // 15 points left
	await sandbox.clearRequests();
	expect(await poller.poll()).toBeNull();
	expect(await sandbox.requests()).toEqual([]);
});

it('the task trigger and the event trigger skip while actions wait for points', async () => {
	await sandbox.control('limits', { points: 40, windowSeconds: 600 });
	const job = engine.startNode({
		type: 'ctsTask',
		parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false },
		credentials: credentials(),
		items: Array.from({ length: 45 }, (_, index) => ({ title: `job ${index}` })),
	});
	// The job uses the whole budget (40 creates), then its last 5 items wait for the window's reset.
	while ((await sandbox.requests()).length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
	await sandbox.clearRequests();
	expect(await taskTrigger({ budgetShare: 100 }, 'first').poll()).toBeNull();
	expect(await new PollHarness(
		new CtsEventTrigger(),
		'ctsEventTrigger',
		{ accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', events: ['created'], lookAheadDays: 14, options: { budgetShare: 100 } },
		credentials(),
		{},
		'second',
	).poll()).toBeNull();
	expect(await sandbox.requests()).toEqual([]);
	job.cancel();
	await job.result;
});
