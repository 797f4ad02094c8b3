/**
 * n8n expression evaluations: how many a run makes (counted on n8n-workflow's WorkflowExpression,
 * the one copy in the process) and what one costs. In n8n 2.x every evaluation builds a data proxy
 * and a global context (with `$now` and `$today` in the workflow's zone), so evaluations are the
 * engine's largest per-item cost for a node whose work is one small request.
 */
import { NodeConnectionTypes, Workflow, type INodeType, type INodeTypes, type IRunExecutionData } from 'n8n-workflow';

import { median, now } from './measure';

type Resolve = (this: unknown, value: unknown, ...rest: unknown[]) => unknown;

const inert: INodeType = {
	description: {
		displayName: 'Inert',
		name: 'inert',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: {},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
};
const inertTypes: INodeTypes = { getByName: () => inert, getByNameAndVersion: () => inert, getKnownTypes: () => ({}) };

function workflowIn(timezone: string): Workflow {
	return new Workflow({
		id: 'expressions',
		nodes: [{ id: 'n', name: 'Node', type: 'inert', typeVersion: 1, position: [0, 0], parameters: {} }],
		connections: {},
		active: false,
		nodeTypes: inertTypes,
		settings: { timezone },
	});
}

/** Counts the expressions evaluated while `work` runs, by expression text. */
export async function countExpressions<T>(work: () => Promise<T>): Promise<{ result: T; byText: Map<string, number>; total: number }> {
	const prototype = Object.getPrototypeOf(workflowIn('UTC').expression) as { resolveSimpleParameterValue: Resolve };
	const original = prototype.resolveSimpleParameterValue;
	const byText = new Map<string, number>();
	prototype.resolveSimpleParameterValue = function (value, ...rest) {
		if (typeof value === 'string' && value.charAt(0) === '=') byText.set(value, (byText.get(value) ?? 0) + 1);
		return original.call(this, value, ...rest);
	};
	try {
		const result = await work();
		return { result, byText, total: [...byText.values()].reduce((sum, value) => sum + value, 0) };
	} finally {
		prototype.resolveSimpleParameterValue = original;
	}
}

/** Median time (µs) of one evaluation of `={{ $json.title }}` for an item, in a workflow of that time zone. */
export function expressionCost(timezone: string, rounds = 7, perRound = 1000): number {
	const workflow = workflowIn(timezone);
	const runData = { resultData: { runData: {} } } as unknown as IRunExecutionData;
	const input = [{ json: { title: 'A task' } }];
	const evaluate = () => workflow.expression.getParameterValue('={{ $json.title }}', runData, 0, 0, 'Node', input, 'manual', {});
	for (let index = 0; index < perRound; index++) evaluate();
	const samples: number[] = [];
	for (let round = 0; round < rounds; round++) {
		const start = now();
		for (let index = 0; index < perRound; index++) evaluate();
		samples.push(((now() - start) * 1000) / perRound);
	}
	return median(samples);
}
