/**
 * The input schema an AI agent gets for a CTS node that a user adds as a tool in n8n's editor.
 * The tool node is built as n8n 2.41 builds it (the node type under its name + "Tool"), saved
 * as the editor saves it (parameters equal to their default left out: NodeHelpers.getNodeParameters
 * without defaults), loaded back by n8n's Workflow (which fills the defaults in), and turned into
 * the tool's schema by n8n-core's own getSchema, then into JSON Schema by LangChain as an agent
 * sends it to the model.
 */
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { getSchema } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';
import {
	extractFromAICalls,
	NodeHelpers,
	Workflow,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
} from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEventV1/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { FROM_AI_MARKER } from '../../nodes/shared/toolInputs';
import { PACKAGE_NAME } from '../harness/engine';

/**
 * The tool variant as n8n's server makes it (n8n/dist/node-types.js `getByNameAndVersion` →
 * tool-generation/ai-tools.js `convertNodeToAiTool`): same properties, name + "Tool", no main
 * input. The name is what `'@tool'` display options test.
 */
function asTool(node: INodeType): INodeType {
	const description = { ...node.description, name: `${node.description.name}Tool`, inputs: [], outputs: ['ai_tool'] };
	return Object.assign(Object.create(node) as INodeType, { description: description as INodeTypeDescription });
}

const tools: Record<string, INodeType> = {
	ctsTaskTool: asTool(new CtsTask()),
	ctsEventTool: asTool(new CtsEvent()),
	ctsEventV1Tool: asTool(new CtsEventV1()),
};

const nodeTypes: INodeTypes = {
	getByName: (type: string) => tools[type.replace(`${PACKAGE_NAME}.`, '')],
	getByNameAndVersion: (type: string) => tools[type.replace(`${PACKAGE_NAME}.`, '')],
	getKnownTypes: () => ({}),
};

/**
 * The node as the editor saves it when the user picks a resource and operation and adds every
 * text field of its collections (the editor gives an added field its default, here the tool
 * variant's `$fromAI`).
 */
function savedNode(tool: string, chosen: INodeParameters): INode {
	const node: INode = { id: 'tool-1', name: 'CTS Tool', type: `${PACKAGE_NAME}.${tool}`, typeVersion: 1, position: [0, 0], parameters: chosen };
	const { description } = tools[tool];
	const save = (parameters: INodeParameters) =>
		NodeHelpers.getNodeParameters(description.properties, parameters, false, false, node, description) ?? {};
	// What the panel shows depends on all values, those left at their default included.
	const shown = NodeHelpers.getNodeParameters(description.properties, chosen, true, false, node, description) ?? {};
	const added: INodeParameters = { ...chosen };
	for (const property of description.properties) {
		if (property.type !== 'collection' || !NodeHelpers.displayParameter(shown, property, node, description)) continue;
		const toolFields = (property.options as INodeProperties[]).filter((option) => option.displayOptions?.show?.['@tool']?.[0] === true);
		if (toolFields.length) added[property.name] = Object.fromEntries(toolFields.map((option) => [option.name, option.default]));
	}
	node.parameters = save(added);
	return node;
}

interface JsonSchema {
	properties: Record<string, { description?: string; type?: string }>;
	required?: string[];
}

/** The schema the agent hands the model for this saved tool node. */
function toolSchema(node: INode): JsonSchema {
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return toJsonSchema(getSchema(workflow.getNode(node.name)!)) as unknown as JsonSchema;
}

function inputs(schema: JsonSchema) {
	const required = new Set(schema.required ?? []);
	return Object.fromEntries(
		Object.entries(schema.properties).map(([key, value]) => [key, { required: required.has(key), described: Boolean(value.description?.trim()) }]),
	);
}

/** Every resource and operation the tool offers (the user picks them in the tool's panel). */
function operations(tool: string): Array<{ resource: string; operation: string }> {
	const { properties } = tools[tool].description;
	const resources = (properties.find((property) => property.name === 'resource')!.options as Array<{ value: string }>).map(({ value }) => value);
	return resources.flatMap((resource) =>
		properties
			.filter((property) => property.name === 'operation' && (property.displayOptions?.show?.resource as string[]).includes(resource))
			.flatMap((property) => (property.options as Array<{ value: string }>).map(({ value }) => ({ resource, operation: value }))),
	);
}

/**
 * The editor's ✨ "Defined automatically by the model" switch, as n8n-editor-ui 2.41 writes it
 * (dist/assets/focusPanel.store-*.js, `buildValueFromOverride` and `parseOverrides`): the key
 * is the field's display name, the description is the one parsed from the field's current
 * `$fromAI` value (empty when there is none), the type is number, boolean, json or else string,
 * and there is never a default.
 */
function editorOverride(property: INodeProperties, currentValue: string): string {
	let description = '';
	try {
		const calls = extractFromAICalls(currentValue.replace(/\\[^`]/g, '\\\\'));
		if (calls.length === 1) description = calls[0].description ?? '';
	} catch {
		// Not a single $fromAI call: the editor starts with an empty description.
	}
	const key = property.displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);
	const quote = description.includes('\n') || !description.includes('`') ? '`' : description.includes('"') ? "'" : '"';
	const type = ['boolean', 'number', 'json'].includes(property.type) ? property.type : 'string';
	const text = description.replaceAll('\\', '\\\\').replaceAll(quote, `\\${quote}`);
	return `={{ ${FROM_AI_MARKER} $fromAI('${key}', ${quote}${text}${quote}, '${type}') }}`;
}

const toolField = (tool: string, name: string, operation: string) =>
	tools[tool].description.properties.find(
		(property) =>
			property.name === name &&
			property.displayOptions?.show?.['@tool']?.[0] === true &&
			(property.displayOptions.show.operation as string[] | undefined)?.includes(operation),
	)!;

describe('a CTS node added as a tool in the editor', () => {
	it.each(Object.keys(tools).flatMap((tool) => operations(tool).map((chosen) => [tool, chosen.resource, chosen.operation])))(
		'%s %s %s: every input the model gives is described, as a value (never an expression)',
		(tool, resource, operation) => {
			const node = savedNode(tool, { resource, operation });
			const schema = toolSchema(node);
			for (const [key, input] of Object.entries(schema.properties)) {
				expect({ key, described: (input.description ?? '').trim().length > 10 }).toEqual({ key, described: true });
				expect(input.description).not.toMatch(/\{\{|expression/);
			}
		},
	);

	it.each([
		['ctsTaskTool', 'task', 'create', ['Title'], ['Description', 'Due', 'Parent_Task']],
		['ctsTaskTool', 'task', 'update', ['Task'], ['Title', 'Due', 'Description']],
		['ctsTaskTool', 'task', 'close', ['Task'], []],
		['ctsTaskTool', 'task', 'getAll', [], ['Task_List_ID', 'Updated_After']],
		['ctsTaskTool', 'task', 'plan', ['Calendar', 'Task_IDs'], []],
		['ctsTaskTool', 'tag', 'create', ['Name'], []],
		['ctsEventTool', 'event', 'create', ['Calendar', 'End', 'Start', 'Title'], ['Attendees', 'Description']],
		['ctsEventTool', 'event', 'update', ['Calendar', 'Event'], ['Title', 'Start', 'End', 'Description']],
		['ctsEventTool', 'event', 'getAll', ['End', 'Start'], []],
		['ctsEventTool', 'calendar', 'findFreeTime', ['End', 'Start'], []],
		['ctsEventV1Tool', 'event', 'rsvp', ['Event_ID'], []],
	])('%s %s %s: required %j, optional among them %j', (tool, resource, operation, required, optional) => {
		const listed = inputs(toolSchema(savedNode(tool, { resource, operation })));
		const requiredKeys = Object.keys(listed).filter((key) => listed[key].required);
		expect(requiredKeys.sort()).toEqual([...required].sort());
		for (const key of optional) expect({ key, ...listed[key] }).toEqual({ key, required: false, described: true });
	});

	it('Plan Tasks as a tool: the model gives the task IDs and the calendar, each saying where its IDs come from; Preview is on', () => {
		const schema = toolSchema(savedNode('ctsTaskTool', { resource: 'task', operation: 'plan' }));
		expect(Object.keys(schema.properties).sort()).toEqual(['Calendar', 'Task_IDs']);
		expect(schema.properties.Task_IDs.description).toMatch(/^IDs of the tasks to plan, exactly as Task Create or Get Many gave them, separated by commas/);
		expect(schema.properties.Calendar.description).toMatch(/\(its ID\)$/);
		const preview = tools.ctsTaskTool.description.properties.filter((property) => property.name === 'preview');
		expect(preview.map((property) => [property.displayOptions?.show?.['@tool'], property.default])).toEqual([
			[[false], false],
			[[true], true],
		]);
	});

	it('optional settings outside collections keep their working default and are not handed to the model', () => {
		expect(Object.keys(toolSchema(savedNode('ctsEventTool', { resource: 'event', operation: 'create' })).properties)).not.toContain('Account_ID');
		expect(Object.keys(toolSchema(savedNode('ctsEventTool', { resource: 'calendar', operation: 'findFreeTime' })).properties).sort()).toEqual(['End', 'Start']);
		expect(toolSchema(savedNode('ctsTaskTool', { resource: 'tag', operation: 'getAll' })).properties).toEqual({});
	});

	it('an optional input carries the field\'s empty default, which n8n uses when the model leaves it out', () => {
		const schema = toolSchema(savedNode('ctsTaskTool', { resource: 'task', operation: 'update' }));
		expect(schema.properties.Due).toMatchObject({ type: 'string', default: '' });
		expect(schema.properties.Due.description).toMatch(/Empty string: left out\.$/);
	});

	it('switching ✨ off and on again keeps the description (the editor reads it back) but drops the default: the input becomes required', () => {
		const updateFields = tools.ctsTaskTool.description.properties.find((property) => property.name === 'updateFields')!;
		const field = (updateFields.options as INodeProperties[]).find((option) => option.name === 'due' && option.displayOptions?.show?.['@tool']?.[0])!;
		const rewritten = editorOverride(field, field.default as string);
		expect(rewritten).toMatch(/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('Due', `When the task is due\./);
		const node = savedNode('ctsTaskTool', { resource: 'task', operation: 'update' });
		node.parameters.updateFields = { ...(node.parameters.updateFields as INodeParameters), due: rewritten };
		const listed = inputs(toolSchema(node));
		expect(listed.Due).toEqual({ required: true, described: true });
	});

	it('✨ on a field whose value is not a $fromAI (for example a typed-in value) gets no description from n8n', () => {
		const title = toolField('ctsTaskTool', 'title', 'create');
		const node = savedNode('ctsTaskTool', { resource: 'task', operation: 'create', title: editorOverride(title, 'Weekly report') });
		expect(inputs(toolSchema(node)).Title).toEqual({ required: true, described: false });
	});

	it('the same fields in a workflow keep their plain defaults: nothing is left to a model there', () => {
		const { properties } = new CtsTask().description;
		const title = properties.find((property) => property.name === 'title' && property.displayOptions?.show?.['@tool']?.[0] === false)!;
		expect(title.default).toBe('');
		const workflowNode = { ...savedNode('ctsTaskTool', { resource: 'task', operation: 'create' }), type: `${PACKAGE_NAME}.ctsTask` };
		const description = new CtsTask().description;
		const values = NodeHelpers.getNodeParameters(description.properties, { resource: 'task', operation: 'create' }, true, false, workflowNode, description);
		expect(JSON.stringify(values)).not.toContain('$fromAI');
	});
});
