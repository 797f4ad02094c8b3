/**
 * Secrets never leave the credential: every operation of both nodes and both triggers runs
 * with "Continue On Fail" and on error paths (service errors, 401s, an unreachable service),
 * then all node output, error objects (message, description, context, cause) and captured logs
 * are searched for the API key and the bearer token.
 */
import { inspect } from 'node:util';
import { Container } from '@n8n/di';
import { Logger } from '@n8n/backend-common';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { Engine, PollHarness, testCredential } from '../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask(), ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });
const WRONG_KEY = 'wrong-key-4f1c9a7e-never-valid';

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());

it('no API key or bearer token in any output, error or log', async () => {
	await sandbox.reset();
	// Over 200 runs: more than one window's points, and the budget is not what this test is about.
	await sandbox.control('limits', { points: null });
	const token = await sandbox.token('alice');
	const expiredToken = await sandbox.token('alice', -60);
	const secrets = [ALICE_KEY, WRONG_KEY, token, expiredToken];
	const captured: string[] = [];
	const logger = Container.get(Logger);
	const spies = (['error', 'warn', 'info', 'debug'] as const).map((level) =>
		jest.spyOn(logger, level).mockImplementation((...args: unknown[]) => void captured.push(inspect(args, { depth: 8 }))),
	);
	const consoleSpies = (['log', 'warn', 'error'] as const).map((level) =>
		jest.spyOn(console, level).mockImplementation((...args: unknown[]) => void captured.push(inspect(args, { depth: 8 }))),
	);

	const taskId = await sandbox.createTask({ title: 'exists' });
	const { body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent() });
	const eventId = body.data.event.id as string;
	const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
	const taskOperations = [
		{ operation: 'create', title: 'x' },
		{ operation: 'create', title: 'x', additionalFields: { progress: '={{ "failed" }}' } },
		{ operation: 'get', taskId },
		{ operation: 'get', taskId: 'missing' },
		{ operation: 'getAll', returnAll: true },
		{ operation: 'update', taskId: 'missing', updateFields: { title: 'x' } },
		{ operation: 'update', taskId, updateFields: { priority: 3 }, returnTask: true },
		{ operation: 'move', taskId: 'missing', position: 'first', parent: 'keep' },
		{ operation: 'delete', taskId: 'never-existed' },
		{ operation: 'close', taskId: 'missing' },
		{ operation: 'reopen', taskId },
	];
	const eventOperations = [
		{ operation: 'create', ...target, title: 'e', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: 'UTC' },
		{ operation: 'create', accountId: 'acc-alice-expired', calendarId: 'cal-alice-expired', title: 'e', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: 'UTC' },
		{ operation: 'get', eventId: 'missing' },
		{ operation: 'getAll', accountId: 'acc-alice-revoked', calendarIds: 'cal-alice-revoked', start: '2026-12-01T00:00:00Z', end: '2027-01-01T00:00:00Z', returnAll: true },
		{ operation: 'update', eventId, ...target, seriesUpdateMode: 'all', updateFields: { title: 'x' } },
		{ operation: 'delete', eventId: 'missing', ...target, goneIsSuccess: false },
		{ v1: true, operation: 'create', calendarId: 'cal-alice-a-primary', title: 'e', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: 'UTC' },
		{ v1: true, operation: 'getAll', calendarIds: 'cal-alice-a-primary,cal-alice-b-primary', start: '2026-12-01T00:00:00Z', end: '2027-01-01T00:00:00Z', returnAll: true },
		{ v1: true, operation: 'update', eventId: 'missing', updateFields: { title: 'x' } },
		{ v1: true, operation: 'delete', eventId: 'missing', goneIsSuccess: false },
		{ v1: true, operation: 'rsvp', eventId, rsvpAction: 'accept' },
	];
	const credentialSets = [
		{ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url }, ctsSyncApi: { token, syncUrl: sandbox.url } },
		{ ctsApi: { apiKey: WRONG_KEY, baseUrl: sandbox.url }, ctsSyncApi: { token: expiredToken, syncUrl: sandbox.url } },
		{ ctsApi: { apiKey: ALICE_KEY, baseUrl: 'http://127.0.0.1:9' }, ctsSyncApi: { token, syncUrl: 'http://127.0.0.1:9' } },
	];

	const evidence: unknown[] = [];
	for (const credentials of credentialSets) {
		// An unreachable service makes every read wait out its retries: once is enough there.
		const unreachable = credentials.ctsApi.baseUrl !== sandbox.url;
		for (const continueOnFail of unreachable ? [true] : [true, false]) {
			for (const parameters of taskOperations) {
				const run = await engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', ...parameters }, credentials, continueOnFail });
				evidence.push(run.items, run.error, run.run.data.resultData);
			}
			for (const { v1, ...parameters } of eventOperations) {
				const type = v1 ? 'ctsEventV1' : 'ctsEvent';
				const run = await engine.runNode({ type, parameters: { resource: 'event', ...parameters }, credentials, continueOnFail });
				evidence.push(run.items, run.error, run.run.data.resultData);
			}
		}
		const triggers = [
			new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'] }, credentials),
			new PollHarness(new CtsEventTrigger(), 'ctsEventTrigger', { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', events: ['created'], lookAheadDays: 14 }, credentials),
		];
		for (const poller of triggers) {
			for (const mode of ['trigger', 'manual'] as const) {
				try {
					evidence.push(await poller.poll(mode));
				} catch (error) {
					evidence.push(error);
				}
			}
			evidence.push(poller.savedStaticData);
		}
		for (const [type, data] of Object.entries(credentials)) evidence.push(await testCredential(type, data, [new CtsTask(), new CtsEvent(), new CtsEventV1()]));
	}
	for (const spy of [...spies, ...consoleSpies]) spy.mockRestore();

	// Errors are searched in every form n8n shows or stores them: JSON, and a deep inspection
	// that includes non-enumerable properties such as `cause`.
	const haystack = evidence
		.map((entry) => `${JSON.stringify(entry) ?? ''}\n${inspect(entry, { depth: 12, showHidden: true })}`)
		.concat(captured)
		.join('\n');
	expect(evidence.length).toBeGreaterThan(100);
	expect(haystack).toContain('errorRef'); // the search covers real error output
	for (const secret of secrets) expect(haystack.includes(secret)).toBe(false);
}, 180_000);
