/**
 * Both credentials: `authenticate` as n8n applies it (checked on the wire through the
 * sandbox's request log), and their tests run the way n8n's server runs a credential tested by a
 * node: against the sandbox, against addresses that are not the service (a web page, a server
 * answering other JSON, nothing at all), and with a used-up point budget.
 */
import { createServer, type Server } from 'node:http';

import { CtsApi } from '../credentials/CtsApi.credentials';
import { CtsSyncApi } from '../credentials/CtsSyncApi.credentials';
import { CtsEvent } from '../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../nodes/CtsTask/CtsTask.node';
import { Engine, testCredential } from './harness/engine';
import { ALICE_KEY, NOPLAN_KEY, SandboxClient } from './harness/sandboxClient';

const sandbox = new SandboxClient();
const nodes = [new CtsTask(), new CtsEvent(), new CtsEventV1()];
/** A server that is not the service: n8n's own address, a proxy's error page, another API. */
let elsewhere: Server;
let elsewhereUrl: string;

beforeAll(async () => {
	await sandbox.start();
	elsewhere = createServer((request, response) => {
		if (request.url?.startsWith('/json')) {
			response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
			return;
		}
		response.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>n8n</body></html>');
	});
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
	elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}`;
});
afterAll(async () => {
	await sandbox.stop();
	await new Promise((resolve) => elsewhere.close(resolve));
});
beforeEach(async () => await sandbox.reset());

describe('CTS API (ctsApi)', () => {
	it('sends the key as "Authorization: ApiKey <key>" and is accepted', async () => {
		const engine = new Engine({ ctsTask: new CtsTask() });
		const { error } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'create', title: 'auth check', returnTask: false },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: `${sandbox.url}/` } },
		});
		expect(error).toBeUndefined();
		const [call] = await sandbox.requests();
		expect(call.status).toBe(200);
	});

	it('has no default address: a key is never sent anywhere the user did not name', () => {
		expect(new CtsApi().properties.find((field) => field.name === 'baseUrl')).toMatchObject({
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com',
		});
		expect(new CtsSyncApi().properties.find((field) => field.name === 'syncUrl')).toMatchObject({ default: '', required: true });
	});

	it('test: a valid key passes, reports the point budget, costs 1 point and changes nothing', async () => {
		await expect(testCredential('ctsApi', { apiKey: ALICE_KEY, baseUrl: sandbox.url }, nodes)).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful: 299 of 300 points left; the budget resets in 15 min',
		});
		const calls = await sandbox.requests();
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ method: 'GET', path: '/v3/tasks', points: 1 });
	});

	it('test: an invalid key fails with "invalid key"', async () => {
		const result = await testCredential('ctsApi', { apiKey: 'not-a-key', baseUrl: sandbox.url }, nodes);
		expect(result).toEqual({ status: 'Error', message: 'Invalid API key: the service did not accept it' });
	});

	it('test: a key whose plan lacks API access says so', async () => {
		const result = await testCredential('ctsApi', { apiKey: NOPLAN_KEY, baseUrl: sandbox.url }, nodes);
		expect(result).toEqual({ status: 'Error', message: 'The API key is valid, but its plan lacks API access' });
	});

	it('test: a used-up budget says what remains and when it resets', async () => {
		await sandbox.control('limits', { points: 2, windowSeconds: 600 });
		await sandbox.api('GET', '/v3/tasks', { qs: { id: 'x' } });
		await sandbox.api('GET', '/v3/tasks', { qs: { id: 'x' } });
		const result = await testCredential('ctsApi', { apiKey: ALICE_KEY, baseUrl: sandbox.url }, nodes);
		expect(result).toEqual({
			status: 'Error',
			message: 'The credential works, but the point budget is used up: 0 of 2 points left; the budget resets in 10 min. Test again after it resets.',
		});
	});

	it.each([
		['a web page (HTML, HTTP 200)', '', 'it answered HTTP 200 with text/html'],
		['another JSON API', '/json', "its answer, HTTP 200, is not the service's"],
	])('test: a Base URL that answers like %s is "not the service"', async (_name, path, detail) => {
		const result = await testCredential('ctsApi', { apiKey: ALICE_KEY, baseUrl: `${elsewhereUrl}${path}` }, nodes);
		expect(result.status).toBe('Error');
		expect(result.message).toBe(`The Base URL does not point at the service: use the address of the Calendar and Task Service, without /v3 or /v1 (${detail})`);
	});

	it('test: an unreachable or missing Base URL fails, naming what to check', async () => {
		const unreachable = await testCredential('ctsApi', { apiKey: ALICE_KEY, baseUrl: 'http://127.0.0.1:9' }, nodes);
		expect(unreachable).toEqual({
			status: 'Error',
			message: 'Could not reach the service at this address (ECONNREFUSED): check the URL and that n8n can reach it',
		});
		const missing = await testCredential('ctsApi', { apiKey: ALICE_KEY }, nodes);
		expect(missing).toEqual({ status: 'Error', message: 'Base URL: enter the address of the service, e.g. https://api.example.com' });
	});
});

describe('CTS Sync API (ctsSyncApi)', () => {
	it('test: a valid token passes, costing 1 point and changing nothing', async () => {
		const token = await sandbox.token('alice');
		await expect(testCredential('ctsSyncApi', { token, syncUrl: sandbox.url }, nodes)).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful: 299 of 300 points left; the budget resets in 15 min',
		});
		const calls = await sandbox.requests();
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ method: 'POST', path: '/v1/events/update', status: 400, points: 1 });
	});

	it('test: an invalid or expired token fails', async () => {
		const expired = await sandbox.token('alice', -60);
		for (const token of ['not-a-jwt', expired]) {
			const result = await testCredential('ctsSyncApi', { token, syncUrl: sandbox.url }, nodes);
			expect(result).toEqual({ status: 'Error', message: 'Invalid or expired token: the service did not accept it' });
		}
	});

	it('test: a URL that is not the service fails, naming the Sync URL', async () => {
		const token = await sandbox.token('alice');
		for (const syncUrl of [`${sandbox.url}/elsewhere`, elsewhereUrl]) {
			const result = await testCredential('ctsSyncApi', { token, syncUrl }, nodes);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^The Sync URL does not point at the service: /);
		}
	});
});
