/**
 * Both credentials: `authenticate` as n8n applies it (checked on the wire through the
 * sandbox's request log), and `test` run the way n8n's server runs a credential test.
 */
import { CtsTask } from '../nodes/CtsTask/CtsTask.node';
import { Engine, testCredential } from './harness/engine';
import { ALICE_KEY, NOPLAN_KEY, SandboxClient } from './harness/sandboxClient';

const sandbox = new SandboxClient();

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

describe('CTS API (ctsApi)', () => {
	it('sends the key as "Authorization: ApiKey <key>" and is accepted', async () => {
		const engine = new Engine({ ctsTask: new CtsTask() });
		const { error } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'create', title: 'auth check', returnFullTask: false },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: `${sandbox.url}/` } },
		});
		expect(error).toBeUndefined();
		const [call] = await sandbox.requests();
		expect(call.status).toBe(200);
	});

	it('test: a valid key passes, costing 1 point and changing nothing', async () => {
		await expect(testCredential('ctsApi', { apiKey: ALICE_KEY, baseUrl: sandbox.url })).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const calls = await sandbox.requests();
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ method: 'GET', path: '/v3/tasks', points: 1 });
	});

	it('test: an invalid key fails with "invalid key"', async () => {
		const result = await testCredential('ctsApi', { apiKey: 'not-a-key', baseUrl: sandbox.url });
		expect(result).toEqual({ status: 'Error', message: 'Invalid API key: the service did not accept it' });
	});

	it('test: a key whose plan lacks API access says so', async () => {
		const result = await testCredential('ctsApi', { apiKey: NOPLAN_KEY, baseUrl: sandbox.url });
		expect(result).toEqual({ status: 'Error', message: 'The API key is valid, but its plan lacks API access' });
	});

	it('test: an unreachable base URL fails', async () => {
		const result = await testCredential('ctsApi', { apiKey: ALICE_KEY, baseUrl: 'http://127.0.0.1:9' });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('ECONNREFUSED');
	});
});

describe('CTS Sync API (ctsSyncApi)', () => {
	it('test: a valid token passes, costing 1 point and changing nothing', async () => {
		const token = await sandbox.token('alice');
		await expect(testCredential('ctsSyncApi', { token, syncUrl: sandbox.url })).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const calls = await sandbox.requests();
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ method: 'POST', path: '/v1/events/update', status: 400, points: 1 });
	});

	it('test: an invalid or expired token fails', async () => {
		const expired = await sandbox.token('alice', -60);
		for (const token of ['not-a-jwt', expired]) {
			const result = await testCredential('ctsSyncApi', { token, syncUrl: sandbox.url });
			expect(result).toEqual({ status: 'Error', message: 'Invalid or expired token: the service did not accept it' });
		}
	});

	it('test: a URL that is not the service fails', async () => {
		const token = await sandbox.token('alice');
		const result = await testCredential('ctsSyncApi', { token, syncUrl: `${sandbox.url}/elsewhere` });
		expect(result.status).toBe('Error');
	});
});
