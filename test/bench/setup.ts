/**
 * What the benchmark runs: the package's compiled nodes (dist/), n8n's HTTP Request node and a
 * minimal request node in one engine, and the four ways of creating tasks that section 1 compares.
 * Import this module first: it sets n8n's environment before n8n-core loads.
 */
import '../harness/env';

import { join, resolve } from 'node:path';

import type { ICredentialDataDecryptedObject, IDataObject, INodeType } from 'n8n-workflow';

import { Engine, type NodeRunOptions, type NodeRunResult } from '../harness/engine';
import { ALICE_KEY } from '../harness/sandboxClient';
import { FLOOR_NODE_TYPE, RequestFloorNode } from './floorNode';
import { COMPARE_DATASETS_TYPE, HTTP_REQUEST_TYPE, HTTP_REQUEST_VERSION, httpCreateTaskNode, loadCompareDatasetsNode, loadHttpRequestNode } from './httpRequestNode';
import { timed } from './measure';
import type { SandboxProcess } from './sandboxProcess';

export const ROOT = resolve(__dirname, '..', '..', '..');

type NodeClass = new () => INodeType;

/** A node class of the package as it is published: compiled, from dist/. */
function distNode(file: string, name: string): NodeClass {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(join(ROOT, 'dist', 'nodes', file)) as Record<string, NodeClass>)[name];
}

/** Forgets the point budgets the compiled nodes learnt and the syncs' memories handed over, as a restart of n8n does (after a sandbox reset). */
export function forgetDistBudgets(): void {
	/* eslint-disable @typescript-eslint/no-require-imports */
	(require(join(ROOT, 'dist', 'nodes', 'shared', 'pacing', 'triggerPacing.js')) as { forgetPacing: () => void }).forgetPacing();
	(require(join(ROOT, 'dist', 'nodes', 'CtsTask', 'shared', 'syncMemory.js')) as { forgetHandedOver: () => void }).forgetHandedOver();
	/* eslint-enable @typescript-eslint/no-require-imports */
}

export const CtsTask = distNode('CtsTask/CtsTask.node.js', 'CtsTask');
export const CtsEvent = distNode('CtsEvent/CtsEvent.node.js', 'CtsEvent');
export const CtsEventV1 = distNode('CtsEvent/CtsEventV1.node.js', 'CtsEventV1');
export const CtsTaskTrigger = distNode('CtsTaskTrigger/CtsTaskTrigger.node.js', 'CtsTaskTrigger');
export const CtsEventTrigger = distNode('CtsEventTrigger/CtsEventTrigger.node.js', 'CtsEventTrigger');

/** The package's action nodes, the HTTP Request and Compare Datasets nodes and the request-floor node, in one engine. */
export function createEngine(): Engine {
	return new Engine(
		{ ctsTask: new CtsTask(), ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() },
		{ [HTTP_REQUEST_TYPE]: loadHttpRequestNode(ROOT), [COMPARE_DATASETS_TYPE]: loadCompareDatasetsNode(ROOT), [FLOOR_NODE_TYPE]: new RequestFloorNode() },
	);
}

export function apiCredential(sandbox: SandboxProcess): Record<string, ICredentialDataDecryptedObject> {
	return { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } };
}

/** Runs a node with the CTS API credential; a failed node is an error of the benchmark. */
export async function runNode(engine: Engine, sandbox: SandboxProcess, options: NodeRunOptions): Promise<NodeRunResult> {
	const result = await engine.runNode({ credentials: apiCredential(sandbox), ...options });
	if (result.error) throw new Error(`${options.type} failed: ${result.error.message}`);
	return result;
}

/** The node's own execution time as n8n records it (ms). */
export function nodeTime(result: NodeRunResult): number {
	return result.run.data.resultData.runData.CTS[0].executionTime;
}

export interface CreateVariant {
	label: string;
	/** Creates one task per item; resolves to the time taken (ms) and the created IDs in item order. */
	run: () => Promise<{ ms: number; ids: unknown[] }>;
}

/** The four ways section 1 creates one task per item, every one sending the same requests. */
export function createVariants(engine: Engine, sandbox: SandboxProcess, items: IDataObject[]): Record<string, CreateVariant> {
	return {
		cts: {
			label: 'CTS Task node, Create (Return Task off)',
			run: async () => {
				const result = await runNode(engine, sandbox, {
					type: 'ctsTask',
					parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}', returnTask: false },
					items,
				});
				return { ms: nodeTime(result), ids: result.items.map((item) => item.json.id) };
			},
		},
		http: {
			label: `HTTP Request node ${HTTP_REQUEST_VERSION}, POST /v3/tasks/create, predefined credential CTS API`,
			run: async () => {
				const result = await runNode(engine, sandbox, {
					...httpCreateTaskNode(sandbox.url),
					items,
				});
				return { ms: nodeTime(result), ids: result.items.map((item) => (item.json.data as IDataObject | undefined)?.id) };
			},
		},
		floor: {
			label: 'minimal programmatic node: Title expression, httpRequestWithAuthentication per item',
			run: async () => {
				const result = await runNode(engine, sandbox, {
					type: FLOOR_NODE_TYPE,
					parameters: { url: `${sandbox.url}/v3/tasks/create`, title: '={{ $json.title }}' },
					items,
				});
				return { ms: nodeTime(result), ids: result.items.map((item) => item.json.id) };
			},
		},
		raw: {
			label: 'raw fetch, all requests started at once',
			run: async () => {
				const headers = { authorization: `ApiKey ${ALICE_KEY}`, accept: 'application/json', 'content-type': 'application/json' };
				const { result, ms } = await timed(
					async () =>
						await Promise.all(
							items.map(async ({ title }) => {
								const response = await fetch(`${sandbox.url}/v3/tasks/create`, { method: 'POST', headers, body: JSON.stringify({ title }) });
								return ((await response.json()) as { data: { id: string } }).data.id;
							}),
						),
				);
				return { ms, ids: result };
			},
		},
	};
}
