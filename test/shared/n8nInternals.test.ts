/**
 * What the package relies on in n8n where n8n has no public API (each place names this file):
 * run through the real engine with a probe node, so that a change in n8n fails here first.
 * - `nodes/shared/transport/itemState.ts`: RoutingNode makes the context of `requestOperations.pagination`
 *   from the item's context with `Object.create`, so one item's steps share their state.
 * - `nodes/shared/transport/transport.ts` (runItemRequest): RoutingNode post-processes each answer of
 *   `makeRoutingRequest` with the same `requestData` it hands to `pagination`.
 * - `nodes/shared/transport/transport.ts` (executionCancelSignal): the item context's
 *   `additionalData.hooks` runs a `workflowExecuteAfter` handler when the execution ends.
 */
import {
	NodeConnectionTypes,
	type DeclarativeRestApiSettings,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { itemState } from '../../nodes/shared/transport/itemState';
import { executionCancelSignal } from '../../nodes/shared/transport/transport';
import { Engine } from '../harness/engine';
import { SandboxClient } from '../harness/sandboxClient';

const sandbox = new SandboxClient();

interface Seen {
	preSendContext?: object;
	paginationContext?: object;
	paginationPrototype?: object;
	sameState?: boolean;
	postReceiveAdded?: number;
	nativeSignal?: AbortSignal;
	signalDuringRun?: AbortSignal;
	abortedDuringRun?: boolean;
}
let seen: Seen = {};

async function recordPreSend(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	seen.preSendContext = this;
	itemState(this).notices.push('from preSend');
	return options;
}

async function countAddedAction(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	seen.postReceiveAdded = (seen.postReceiveAdded ?? 0) + 1;
	return items;
}

async function probePagination(this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions): Promise<INodeExecutionData[]> {
	seen.paginationContext = this;
	seen.paginationPrototype = Object.getPrototypeOf(this) as object;
	seen.sameState = itemState(this).notices.includes('from preSend');
	seen.nativeSignal = this.getExecutionCancelSignal();
	seen.signalDuringRun = executionCancelSignal(this);
	seen.abortedDuringRun = seen.signalDuringRun?.aborted;
	requestData.postReceive.unshift({ data: { parameterValue: undefined }, actions: [countAddedAction] });
	return await this.makeRoutingRequest(requestData);
}

/** A declarative node with one routed operation that sends one unauthenticated request. */
class Probe implements INodeType {
	description = {
		displayName: 'Probe',
		name: 'probe',
		group: ['transform'],
		version: 1,
		description: 'Probes RoutingNode',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		requestDefaults: { baseURL: '={{ $parameter.address }}', ignoreHttpStatusErrors: true, json: true },
		requestOperations: { pagination: probePagination },
		properties: [
			{ displayName: 'Address', name: 'address', type: 'string', default: '' },
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				options: [{ name: 'Run', value: 'run', routing: { request: { method: 'GET', url: '/v3/tasks/list' }, send: { preSend: [recordPreSend], paginate: true } } }],
				default: 'run',
			},
		],
	} as INodeTypeDescription;
}

const engine = new Engine({ probe: new Probe() });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	seen = {};
});

it('RoutingNode hands pagination a context made from the item context with Object.create, and post-processes with the requestData it hands over', async () => {
	const { error } = await engine.runNode({ type: 'probe', parameters: { address: sandbox.url, operation: 'run' } });
	expect(error).toBeUndefined();
	expect(seen.preSendContext).toBeDefined();
	expect(seen.paginationContext).not.toBe(seen.preSendContext);
	expect(Object.prototype.hasOwnProperty.call(seen.paginationContext, 'makeRoutingRequest')).toBe(true);
	expect(seen.paginationPrototype).toBe(seen.preSendContext);
	expect(seen.sameState).toBe(true);
	expect(seen.postReceiveAdded).toBe(1);
});

it("a declarative node's item context gets no cancel signal from n8n, and its additionalData.hooks runs workflowExecuteAfter when the execution ends", async () => {
	const { error } = await engine.runNode({ type: 'probe', parameters: { address: sandbox.url, operation: 'run' } });
	expect(error).toBeUndefined();
	expect(seen.nativeSignal).toBeUndefined();
	expect(seen.signalDuringRun).toBeInstanceOf(AbortSignal);
	expect(seen.abortedDuringRun).toBe(false);
	expect(seen.signalDuringRun?.aborted).toBe(true);
});
