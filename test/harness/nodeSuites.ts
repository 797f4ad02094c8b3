import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine, type NodeRunOptions } from './engine';
import { ALICE_KEY, SandboxClient, timedEvent } from './sandboxClient';

/**
 * What the operation tests of one node share: the sandbox, started once per test file and reset
 * before each test; n8n's engine with the node; and `run`, which runs one operation of it with
 * alice's API key and the service's raw output (parameters given win).
 */
function nodeSuite(type: 'ctsTask' | 'ctsEvent', resource: string, nodes: ConstructorParameters<typeof Engine>[0]) {
	const sandbox = new SandboxClient();
	const engine = new Engine(nodes);
	beforeAll(async () => await sandbox.start());
	afterAll(async () => await sandbox.stop());
	beforeEach(async () => await sandbox.reset());
	const run = (parameters: Record<string, unknown>, options: Partial<NodeRunOptions> = {}) =>
		engine.runNode({
			type,
			parameters: { resource, output: 'raw', ...parameters },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
			...options,
		});
	return { sandbox, engine, run };
}

/** The CTS Task node's operation tests (see {@link nodeSuite}). */
export const taskNodeSuite = () => nodeSuite('ctsTask', 'task', { ctsTask: new CtsTask() });

/** The CTS Event node's operation tests, with CTS Event V1 beside it (see {@link nodeSuite}). */
export const eventNodeSuite = () => nodeSuite('ctsEvent', 'event', { ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });

/** Events made and read through the API around a node's run (alice's first provider A calendar unless told). */
export function eventApi(sandbox: SandboxClient) {
	return {
		async createEvent(fields: Record<string, unknown> = {}) {
			const { status, body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent(fields) });
			if (status !== 200) throw new Error(`create event answered ${status}: ${JSON.stringify(body)}`);
			return body.data.event as Record<string, any>;
		},
		async getEvent(id: string) {
			return await sandbox.api('GET', '/v3/events', { qs: { id } });
		},
		async listEvents(start: string, end: string, calendarIds = 'cal-alice-a-primary') {
			const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId: 'acc-alice-a', calendarIds, start, end } });
			return body.data.events as Array<Record<string, any>>;
		},
	};
}
