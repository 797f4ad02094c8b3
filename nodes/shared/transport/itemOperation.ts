import type { IDataObject, IExecuteFunctions, IExecutePaginationFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { credentialUserKey, type ServiceContext } from './credentialUser';
import { errorItem, toNodeError, withoutErrorCode } from './errors';
import type { ParameterReader } from '../output/outputShape';

/** One input item of an operation that takes several requests: where it runs, its index and its parameters. */
export interface OperationItem {
	context: ServiceContext;
	itemIndex: number;
	parameter: ParameterReader;
}

/** The work of such an operation for one item: the objects it outputs for it. */
type ItemOperation = (item: OperationItem) => Promise<IDataObject[]>;

/**
 * Runs one item's work: each output object paired with the item, and under "Continue On Fail"
 * one error item in place of a failed item.
 */
export async function pairedOutput(
	context: ServiceContext,
	itemIndex: number,
	run: () => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	try {
		return (await run()).map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
	} catch (error) {
		const nodeError = toNodeError(context.getNode(), error, itemIndex);
		if ('continueOnFail' in context && context.continueOnFail()) return [errorItem(nodeError, itemIndex)];
		throw withoutErrorCode(context.getNode(), nodeError, itemIndex);
	}
}

/** The last work in line for each turn key. */
const turns = new Map<string, Promise<void>>();

/**
 * Runs `work` after the work queued before it under the same key in this process, whether that
 * succeeds or fails.
 */
export async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
	const mine = (turns.get(key) ?? Promise.resolve()).then(work);
	const done = mine.then(
		() => undefined,
		() => undefined,
	);
	turns.set(key, done);
	void done.then(() => {
		if (turns.get(key) === done) turns.delete(key);
	});
	return await mine;
}

/**
 * Runs an item's work after the work queued before it for the same operation of the same account
 * in this process. n8n's RoutingNode starts every item at once, and executions overlap (a schedule
 * firing while a run waits for the budget, a manual run beside the published one, an agent calling
 * a tool twice); an operation that reads and then writes (a guard, a time block, a copy, a task
 * found by its key) must see what the work before it wrote, or two book the same slot or write the
 * same thing twice. Keyed by the operation, so a long run holds up only runs of its own kind.
 */
export async function inItemTurn<T>(context: ServiceContext, work: () => Promise<T>): Promise<T> {
	const node = context.getNode();
	const who = node.credentials?.ctsApi ? await credentialUserKey(context, 'ctsApi') : 'getExecutionId' in context ? context.getExecutionId() : undefined;
	if (!who) return await work();
	return await inTurn(`write|${who}|${node.type}|${String(node.parameters.resource)}.${String(node.parameters.operation)}`, work);
}

/**
 * The routing of an operation that takes several requests per item (Get Many, Find Free Time,
 * Schedule in Calendar), in the way n8n's own nodes page: the operation's own `pagination`
 * function, which RoutingNode calls once per item in place of sending the routed request.
 * A workflow and an AI agent's or MCP server's tool call run the same code; each request it
 * sends goes through the transport layer (`ctsRequest`).
 */
export function multiRequestRouting(operation: ItemOperation, { writes = false }: { writes?: boolean } = {}): NonNullable<INodeProperties['routing']> {
	return {
		send: { paginate: true },
		operations: {
			async pagination(this: IExecutePaginationFunctions): Promise<INodeExecutionData[]> {
				const itemIndex = this.getItemIndex();
				const parameter: ParameterReader = (name, fallback) => this.getNodeParameter(name, fallback);
				const run = async () => (await operation({ context: this, itemIndex, parameter })).map((json) => ({ json }));
				// An operation that writes: its items take turns (see `inItemTurn`).
				return await pairedOutput(this, itemIndex, writes ? async () => await inItemTurn(this, run) : run);
			},
		},
	};
}

/** The outcome of a batch operation for one input item: its output objects, or its error. */
export interface BatchItemResult {
	itemIndex: number;
	output: IDataObject[];
	error?: Error;
}

/**
 * Runs an operation that takes all input items at once (Plan Tasks, Sync Tasks: RoutingNode would
 * run each item alone), as the node's custom operation: each output item paired with its input
 * item. `batch` throws a problem of the whole run and returns each item's own; with
 * `stopAtItemErrors` (no Continue On Fail) it throws an item's problem too. Under Continue On Fail
 * a failed item is one error item, and a problem of the whole run makes every item one.
 */
export async function runBatch(
	context: IExecuteFunctions,
	batch: (items: OperationItem[], stopAtItemErrors: boolean) => Promise<BatchItemResult[]>,
): Promise<INodeExecutionData[][]> {
	const items: OperationItem[] = context.getInputData().map((_item, itemIndex) => {
		const parameter: ParameterReader = (name, fallback) => context.getNodeParameter(name, itemIndex, fallback);
		return { context, itemIndex, parameter };
	});
	const keepGoing = context.continueOnFail();
	const failed = (error: unknown, itemIndex: number) => {
		const nodeError = toNodeError(context.getNode(), error, itemIndex);
		if (keepGoing) return errorItem(nodeError, itemIndex);
		throw withoutErrorCode(context.getNode(), nodeError, itemIndex);
	};
	let results: BatchItemResult[];
	try {
		results = await batch(items, !keepGoing);
	} catch (error) {
		const itemIndex = (error as { context?: IDataObject }).context?.itemIndex;
		if (!keepGoing) return [[failed(error, typeof itemIndex === 'number' ? itemIndex : 0)]];
		return [items.map(({ itemIndex }) => failed(error, itemIndex))];
	}
	return [results.flatMap(({ itemIndex, output, error }) => (error ? [failed(error, itemIndex)] : output.map((json) => ({ json, pairedItem: { item: itemIndex } }))))];
}
