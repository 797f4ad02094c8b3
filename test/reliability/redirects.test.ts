/**
 * A credential stays at the address the user named. A server at the Base URL (or Sync URL) that
 * answers with a redirect (302, 307, 308; to another origin or its own) gets an error back from
 * every node, trigger, list and credential test, naming the status and where the redirect
 * pointed (without its query string), and nothing is ever sent to the redirect's target.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { IDataObject } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { Engine, PollHarness, testCredential } from '../harness/engine';
import { ALICE_KEY } from '../harness/sandboxClient';

const TOKEN = 'sandbox-v1-token-never-valid';

interface Received {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
}

/** A loopback server that records what it receives and answers with `respond`. */
async function recordingServer(respond: (path: string) => { status: number; headers: Record<string, string> }) {
	const received: Received[] = [];
	const server: Server = createServer((request, response) => {
		received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers });
		request.resume();
		const { status, headers } = respond(request.url ?? '');
		response.writeHead(status, { 'content-type': 'application/json', ...headers }).end('{}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
	return { server, url, received };
}

let elsewhere: Awaited<ReturnType<typeof recordingServer>>;
let redirector: Awaited<ReturnType<typeof recordingServer>>;
/** What the redirector answers; set by each case. */
let redirect = { status: 302, location: '' };

beforeAll(async () => {
	elsewhere = await recordingServer(() => ({ status: 200, headers: {} }));
	redirector = await recordingServer(() => ({ status: redirect.status, headers: { location: redirect.location } }));
});
afterAll(async () => {
	for (const { server } of [elsewhere, redirector]) await new Promise((resolve) => server.close(resolve));
});

const engine = new Engine({ ctsTask: new CtsTask(), ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });
const credentials = () => ({
	ctsApi: { apiKey: ALICE_KEY, baseUrl: redirector.url },
	ctsSyncApi: { token: TOKEN, syncUrl: redirector.url },
});
const window = { start: '2026-12-01T00:00:00Z', end: '2026-12-08T00:00:00Z' };

/** Every way the package sends a request: each resolves to the error (or failed test) the user sees. */
const senders: Array<[string, 'Base URL' | 'Sync URL', () => Promise<string | undefined>]> = [
	...(
		[
			['Task Get Many', 'ctsTask', { resource: 'task', operation: 'getAll', returnAll: true }],
			['Task Create', 'ctsTask', { resource: 'task', operation: 'create', title: 'x' }],
			['Task Get', 'ctsTask', { resource: 'task', operation: 'get', taskId: 'task-1' }],
			['Event Get Many', 'ctsEvent', { resource: 'event', operation: 'getAll', accountId: 'acc-1', calendarIds: 'cal-1', ...window, returnAll: true }],
			['Event Delete', 'ctsEvent', { resource: 'event', operation: 'delete', eventId: 'event-1', accountId: 'acc-1', calendarId: 'cal-1' }],
		] as Array<[string, string, IDataObject]>
	).map(
		([name, type, parameters]) =>
			[
				name,
				'Base URL',
				async () => (await engine.runNode({ type, parameters, credentials: credentials() })).error?.message,
			] as [string, 'Base URL', () => Promise<string | undefined>],
	),
	[
		'V1 Event Get Many',
		'Sync URL',
		async () =>
			(await engine.runNode({ type: 'ctsEventV1', parameters: { resource: 'event', operation: 'getAll', calendarIds: 'cal-1', ...window, returnAll: true }, credentials: credentials() }))
				.error?.message,
	],
	[
		'Task Trigger poll',
		'Base URL',
		async () => await failureOf(new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'] }, { ctsApi: credentials().ctsApi }).poll()),
	],
	[
		'Event Trigger poll',
		'Base URL',
		async () =>
			await failureOf(
				new PollHarness(
					new CtsEventTrigger(),
					'ctsEventTrigger',
					{ accountId: 'acc-1', calendarIds: 'cal-1', events: ['created', 'updated'], lookAheadDays: 7, lookBackDays: 0 },
					{ ctsApi: credentials().ctsApi },
				).poll(),
			),
	],
	[
		'Task list (From List)',
		'Base URL',
		async () => await failureOf(engine.runListSearch('searchTasks', { type: 'ctsTask', parameters: { resource: 'task', operation: 'get' }, credentials: credentials() })),
	],
	['Tags dropdown', 'Base URL', async () => await failureOf(engine.runLoadOptions('getTags', { type: 'ctsTask', parameters: {}, credentials: credentials() }))],
	['CTS API credential test', 'Base URL', async () => (await testCredential('ctsApi', credentials().ctsApi, [new CtsTask()])).message],
	['CTS Sync API credential test', 'Sync URL', async () => (await testCredential('ctsSyncApi', credentials().ctsSyncApi, [new CtsEventV1()])).message],
];

async function failureOf(pending: Promise<unknown>): Promise<string | undefined> {
	try {
		await pending;
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

describe.each([302, 307, 308])('a Base URL that answers HTTP %i', (status) => {
	describe.each([
		['to another origin', () => `${elsewhere.url}/v3/tasks?apiKey=leak#part`, () => `${elsewhere.url}/v3/tasks`],
		['to its own origin', () => '/moved/v3/tasks?token=abc', () => '/moved/v3/tasks'],
	])('%s', (_case, location, shown) => {
		it.each(senders)('%s fails naming the redirect; nothing follows it', async (name, field, send) => {
			redirect = { status, location: location() };
			elsewhere.received.length = 0;
			redirector.received.length = 0;

			const message = await send();

			expect(message).toBe(
				name.endsWith('credential test')
					? `The ${field} does not point at the service: use the address of the Calendar and Task Service, without /v3 or /v1 (it answered HTTP ${status}, a redirect to ${shown()}; the credential was not sent there. If the service moved, enter its new address)`
					: `The ${field} does not point at the service: it answered HTTP ${status}, a redirect to ${shown()}`,
			);
			expect(elsewhere.received).toEqual([]);
			expect(redirector.received.length).toBeGreaterThan(0);
			expect(redirector.received.filter((request) => request.path.startsWith('/moved'))).toEqual([]);
		});
	});
});

it('a redirect is never retried: one request per failed read', async () => {
	redirect = { status: 302, location: `${elsewhere.url}/v3/tasks` };
	redirector.received.length = 0;
	const { error } = await engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', operation: 'get', taskId: 'task-1' }, credentials: credentials() });
	expect(error?.description).toContain("enter its new address as the credential's Base URL");
	expect(redirector.received).toHaveLength(1);
});

it('under Continue On Fail, one error item per input item', async () => {
	redirect = { status: 307, location: `${elsewhere.url}/v3/tasks/create` };
	elsewhere.received.length = 0;
	const { items } = await engine.runNode({
		type: 'ctsTask',
		parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}' },
		credentials: credentials(),
		items: [{ title: 'a' }, { title: 'b' }],
		continueOnFail: true,
	});
	expect(items.map((item) => item.json.error)).toEqual([
		`The Base URL does not point at the service: it answered HTTP 307, a redirect to ${elsewhere.url}/v3/tasks/create`,
		`The Base URL does not point at the service: it answered HTTP 307, a redirect to ${elsewhere.url}/v3/tasks/create`,
	]);
	expect(elsewhere.received).toEqual([]);
});
