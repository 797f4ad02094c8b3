/**
 * A 1,000-item Create under a tight point budget: every request that meets a 429 waits as
 * Retry-After says and is sent again (a 429 means nothing was processed), so the run finishes
 * with every task created exactly once.
 */
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../harness/engine';
import { ALICE_KEY, SandboxClient } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());

it('creates 1,000 tasks exactly once under a budget of 100 points per second', async () => {
	await sandbox.reset();
	await sandbox.control('limits', { points: 100, windowSeconds: 1 });
	const titles = Array.from({ length: 1000 }, (_, index) => ({ title: `bulk-${index}` }));
	const { items, error } = await engine.runNode({
		type: 'ctsTask',
		parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnFullTask: false },
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		items: titles,
	});
	await sandbox.control('limits', { points: null });
	expect(error).toBeUndefined();
	expect(items).toHaveLength(1000);
	expect(items.every((item) => typeof item.json.id === 'string' && !item.json.error)).toBe(true);

	const creates = (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/create');
	const accepted = creates.filter((call) => call.status === 200).map((call) => (call.body as { title: string }).title);
	const refused = creates.filter((call) => call.status === 429).length;
	console.log(`bulk create: 1000 items, ${accepted.length} accepted, ${refused} answered 429 and were sent again`);
	expect(refused).toBeGreaterThan(0);
	expect(accepted).toHaveLength(1000);
	expect(new Set(accepted).size).toBe(1000);
	expect(new Set(items.map((item) => item.json.id)).size).toBe(1000);
}, 300_000);
