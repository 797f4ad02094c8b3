import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine, type NodeRunOptions } from './engine';
import { ALICE_KEY, SandboxClient } from './sandboxClient';

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
