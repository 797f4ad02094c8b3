/**
 * What a message repeats from outside stays one readable line: a user's ID or the service's
 * message with control characters escaped and long values cut. Requests the service could not
 * take (an address too long for its headers, a body over 1 MiB) are refused before sending,
 * naming the field. The credential tests never send a key or token over plain http:// to
 * another machine.
 */
import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine, testCredential } from '../harness/engine';
import { ALICE_KEY, SandboxClient } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask(), ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });
const credentials = () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

/** Characters that must never reach a message unescaped. */
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\r\n\u0000]/;

describe('values repeated in messages', () => {
	const forged = 'a\u0000b\r\nX-Evil: 1';

	it('an ID with control characters is shown escaped, on one line', async () => {
		const { error } = await engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', operation: 'get', taskId: forged }, credentials: credentials() });
		expect(error?.message).toBe('Task not found: no task with ID "a\\u0000b\\r\\nX-Evil: 1" exists in this account');
		expect(error?.message).not.toMatch(LINE_BREAKING);
	});

	it("the service's message, which repeats the ID, is escaped too", async () => {
		const { error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'event', operation: 'getAll', accountId: 'acc-alice-a', calendarIds: forged, start: '2026-12-01T00:00:00Z', end: '2026-12-08T00:00:00Z', returnAll: true },
			credentials: credentials(),
		});
		expect(error?.message).toContain('calendar a\\u0000b\\r\\nX-Evil: 1 is not a calendar');
		expect(error?.message).not.toMatch(LINE_BREAKING);
	});

	it('a long value is cut, with its length given', async () => {
		const long = 'x'.repeat(5000);
		const { error } = await engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', operation: 'get', taskId: long }, credentials: credentials() });
		expect(error?.message).toBe(`Task not found: no task with ID "${'x'.repeat(120)}… (5000 characters)" exists in this account`);
	});

	it('a wrong value in a field is quoted the same way', async () => {
		const { error } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'create', title: 'x', additionalFields: { priority: '1\n2' } },
			credentials: credentials(),
		});
		expect(error?.message).toBe('Priority: "1\\n2" is not a whole number from 0 to 9');
		expect(await sandbox.requests()).toEqual([]);
	});
});

describe('requests too large for the service, refused before sending', () => {
	it('5,000 calendar IDs: names Calendars, sends nothing', async () => {
		const calendarIds = Array.from({ length: 5000 }, (_, index) => `cal-alice-a-${index}`).join(',');
		const { error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'event', operation: 'getAll', accountId: 'acc-alice-a', calendarIds, start: '2026-12-01T00:00:00Z', end: '2026-12-08T00:00:00Z', returnAll: true },
			credentials: credentials(),
		});
		expect(error?.message).toMatch(/^Calendars: too many or too long values to send \(the request's address would be [\d,]+ characters; the service accepts about 8,000\)$/);
		expect(await sandbox.requests()).toEqual([]);
	});

	it('a description over 1 MiB: names Description, sends nothing; Continue On Fail gives one error item per item', async () => {
		const { items } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', additionalFields: { description: '={{ $json.description }}' } },
			credentials: credentials(),
			items: [
				{ title: 'too long', description: 'd'.repeat(1_200_000) },
				{ title: 'fine', description: 'short' },
			],
			continueOnFail: true,
		});
		expect(items[0].json.error).toBe('Description: too long to send (the request would be 1.14 MiB; the service accepts at most 1 MiB)');
		expect(items[1].json).toMatchObject({ title: 'fine' });
		const calls = await sandbox.requests();
		expect(calls.filter((call) => call.path === '/v3/tasks/create')).toHaveLength(1);
	});
});

describe('credential tests and plain http://', () => {
	it.each([
		['ctsApi', { apiKey: ALICE_KEY, baseUrl: 'http://api.example.invalid' }, 'Base URL: http:// to another machine would send the API key unencrypted'],
		['ctsApi', { apiKey: ALICE_KEY, baseUrl: 'http://cts.internal.invalid:3000' }, 'Base URL: http:// to another machine would send the API key unencrypted'],
		['ctsSyncApi', { token: 't', syncUrl: 'http://sync.example.invalid' }, 'Sync URL: http:// to another machine would send the token unencrypted'],
	])('%s with %j is refused without sending anything', async (type, data, message) => {
		const result = await testCredential(type, data, [new CtsTask(), new CtsEventV1()]);
		expect(result.status).toBe('Error');
		expect(result.message.startsWith(message)).toBe(true);
	});

	it.each(['http://127.0.0.1', 'http://localhost'])('http:// on this machine (%s) is tested as usual', async (host) => {
		const baseUrl = sandbox.url.replace('http://127.0.0.1', host);
		expect(await testCredential('ctsApi', { apiKey: ALICE_KEY, baseUrl }, [new CtsTask()])).toMatchObject({ status: 'OK' });
	});

	it('http://[::1] is this machine too: the test is sent (the sandbox listens on IPv4 only, so nothing answers)', async () => {
		const baseUrl = sandbox.url.replace('http://127.0.0.1', 'http://[::1]');
		const result = await testCredential('ctsApi', { apiKey: ALICE_KEY, baseUrl }, [new CtsTask()]);
		expect(result.message).toMatch(/^Could not reach the service at this address/);
	});
});
