/**
 * The input schema an AI agent gets for a CTS node that a user adds as a tool in n8n's editor.
 * The tool node is built as n8n 2.41 builds it (the node type under its name + "Tool"), saved
 * as the editor saves it (parameters equal to their default left out: NodeHelpers.getNodeParameters
 * without defaults), loaded back by n8n's Workflow (which fills the defaults in), and turned into
 * the tool's schema by n8n-core's own getSchema, then into JSON Schema by LangChain as an agent
 * sends it to the model.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

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
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { FROM_AI_MARKER, fromAIKey } from '../../nodes/shared/fields/toolInputs';
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
		['ctsEventTool', 'calendar', 'getAgenda', [], ['Day', 'Time_Zone']],
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
		expect(schema.properties.Task_IDs.description).toMatch(/^IDs of the tasks to plan, separated by commas.*exactly as the service returned it$/);
		expect(schema.properties.Calendar.description).toMatch(/Give its ID exactly as the service returned it/);
		const preview = tools.ctsTaskTool.description.properties.filter((property) => property.name === 'preview' && property.displayOptions?.show?.operation?.includes('plan'));
		expect(preview.map((property) => [property.displayOptions?.show?.['@tool'], property.default])).toEqual([
			[[false], false],
			[[true], true],
		]);
	});

	it('Mirror Busy Time as a tool: the model gives the range and the target; the sources are set in the node; Preview is on', () => {
		const schema = toolSchema(savedNode('ctsEventTool', { resource: 'calendar', operation: 'mirrorBusyTime' }));
		expect(Object.keys(schema.properties).sort()).toEqual(['End', 'Start', 'Target_Calendar']);
		expect(schema.properties.Start.description).toMatch(/^Beginning of the time whose busy events are copied, e\.g\. 2026-12-01T00:00:00/);
		const preview = tools.ctsEventTool.description.properties.filter((property) => property.name === 'preview' && property.displayOptions?.show?.operation?.includes('mirrorBusyTime'));
		expect(preview.map((property) => [property.displayOptions?.show?.['@tool'], property.default])).toEqual([
			[[false], false],
			[[true], true],
		]);
	});

	it('Create or Update as a tool: the model gives the key, the title and the fields it knows; Sync Tasks previews and keeps tasks not in its call', () => {
		const upsert = toolSchema(savedNode('ctsTaskTool', { resource: 'task', operation: 'upsert' }));
		expect(upsert.required).toEqual(['Source_Key', 'Title']);
		expect(upsert.properties.Description.description).toMatch(/^Details of the task, as plain text\./);
		expect(upsert.properties.Source_Key.description).toMatch(/identifies the item/);
		const sync = tools.ctsTaskTool.description.properties.filter((property) => property.displayOptions?.show?.operation?.includes('sync') && ['preview', 'missingTasks'].includes(property.name));
		expect(sync.map((property) => [property.name, property.displayOptions?.show?.['@tool'], property.default])).toEqual([
			['missingTasks', [false], 'keep'],
			['preview', [false], false],
			['preview', [true], true],
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
		expect(rewritten).toMatch(/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('Due', `When the task is due, e\.g\. 2026-12-01T17:00:00:/);
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

/** Every argument a model reads in a tool a user builds from a CTS node: where, key, description and the field behind it. */
function nodeToolArguments(): ToolArgument[] {
	return Object.keys(tools).flatMap((tool) => {
		const fields = tools[tool].description.properties.flatMap((property) => [property, ...((property.options ?? []) as INodeProperties[]).filter((option) => 'type' in option)]);
		return operations(tool).flatMap(({ resource, operation }) => {
			const { properties } = toolSchema(savedNode(tool, { resource, operation }));
			const keys = Object.keys(properties);
			return Object.entries(properties).map(([key, value]) => {
				const field = fields.find((candidate) => candidate.displayOptions?.show?.['@tool']?.[0] === true && fromAIKey(candidate.displayName) === key);
				return {
					where: `${tool} ${resource} ${operation}`,
					key,
					description: value.description ?? '',
					isId: field?.type === 'resourceLocator' || /(^|_)IDs?$/.test(key),
					isTime: field?.type === 'dateTime' || /^(Start|End|Due|Updated_After|Day)$/.test(key),
					hiddenFields: hiddenFieldNames(fields, keys, key),
				};
			});
		});
	});
}

/** The names of the node's fields that are no argument of this tool: settings the model never sees. */
function hiddenFieldNames(fields: INodeProperties[], keys: string[], key: string): string[] {
	// An option list loaded from the service is labelled "<Name> Name or ID" (n8n's rule); descriptions say "<Name>".
	const names = new Set(fields.map((field) => field.displayName.replace(/ Name or ID$/, '')).filter((name) => fromAIKey(name) !== key && !keys.includes(fromAIKey(name))));
	return [...names];
}

/** Every `$fromAI` argument of the example MCP server's tools (scripts/examples.mjs is an ES module, read in a child process). */
function exampleToolArguments(): ToolArgument[] {
	const script = "import { MCP_TOOLS } from './scripts/examples.mjs'; process.stdout.write(JSON.stringify(MCP_TOOLS));";
	const exampleTools = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: join(__dirname, '../..'), encoding: 'utf8' })) as Array<{ name: string; parameters: unknown }>;
	const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : []);
	return exampleTools.flatMap(({ name, parameters }) => {
		const calls = strings(parameters).flatMap((text) => (text.includes('$fromAI') ? extractFromAICalls(text) : []));
		return calls.map((call) => ({
			where: name,
			key: call.key,
			description: call.description ?? '',
			isId: /Ids?$/.test(call.key),
			isTime: /^(start|end|due|rangeStart|rangeEnd|date|updatedAfter)$/.test(call.key),
			// Arguments are named by their keys; the example has no other fields a description could name.
			hiddenFields: [],
		}));
	});
}

interface ToolArgument {
	where: string;
	key: string;
	description: string;
	isId: boolean;
	isTime: boolean;
	/** Field names of the node that are not arguments of this tool. */
	hiddenFields: string[];
}

/** Words that send a model to something it cannot see: the editor, other fields, text elsewhere. */
const POINTS_ELSEWHERE = /\b(fields?|above|below|options?|editor|panel|see)\b|same format|read like|\bas (start|rangeStart)\b/i;
/** Where an ID comes from: as the service gave or returned it, or the tool that lists it. */
const ID_SOURCE = /as the service (gave|returned) it|as \w+( or \w+)? returned it|\b(from|of) (list_\w+|create_\w+)|returned by \w+|the "id" (of|the service)/i;
/** A date or time example, and how a time without offset is read. */
const TIME_EXAMPLE = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ZONE_READING = /without (an )?offset is read in|read in (timeZone|the)|\bUTC\b/i;

/** The rules an argument's description breaks, as short texts (none: it stands on its own). */
function brokenRules(argument: ToolArgument): string[] {
	const broken: string[] = [];
	const { description } = argument;
	if (POINTS_ELSEWHERE.test(description)) broken.push(`points elsewhere ("${POINTS_ELSEWHERE.exec(description)?.[0]}")`);
	// A field's name inside a sentence (not the word that starts one) names a setting the model cannot see.
	const named = argument.hiddenFields.find((name) => new RegExp(`(?<!^|[.:!?] )\\b${name.replace(/[()]/g, '\\$&')}\\b`).test(description));
	if (named) broken.push(`names a field the model cannot see ("${named}")`);
	if (argument.isId && !ID_SOURCE.test(description)) broken.push('an ID that does not say where it comes from');
	if (argument.isTime && !TIME_EXAMPLE.test(description)) broken.push('a time without a format example');
	if (argument.isTime && !ZONE_READING.test(description)) broken.push('a time that does not say how its zone is read');
	return broken;
}

describe('every tool argument stands on its own (a model reads each description alone and sees no editor)', () => {
	it('the rules catch the kinds of description that fail a model', () => {
		const argument = (key: string, description: string, kind: Partial<ToolArgument> = {}): ToolArgument => ({ where: 'x', key, description, isId: false, isTime: false, hiddenFields: ['Time Zone', 'Start'], ...kind });
		expect(brokenRules(argument('Task', 'The task to change (its ID)', { isId: true }))).toEqual(['an ID that does not say where it comes from']);
		expect(brokenRules(argument('Event', 'Event ID exactly as the service gave it', { isId: true }))).toEqual([]);
		expect(brokenRules(argument('rangeEnd', 'End of the time to search, in the same format', { isTime: true }))).toEqual([
			'points elsewhere ("same format")',
			'a time without a format example',
			'a time that does not say how its zone is read',
		]);
		expect(brokenRules(argument('Description', 'Details (see Description Format)'))).toEqual(['points elsewhere ("see")']);
		expect(brokenRules(argument('Due', 'When it is due. A time without offset is read in the Time Zone field', { isTime: true }))).toEqual([
			'points elsewhere ("field")',
			'names a field the model cannot see ("Time Zone")',
			'a time without a format example',
		]);
		expect(brokenRules(argument('Repeat', 'The series (Recurrence above gives the same)'))).toEqual(['points elsewhere ("above")']);
		expect(brokenRules(argument('Start', 'New start, e.g. 2026-12-01T09:00:00, read in the Time Zone', { isTime: true }))).toEqual(['names a field the model cannot see ("Time Zone")']);
		expect(brokenRules(argument('End', 'End of the range. Start must be before it, e.g. 2026-12-01T09:00:00 (UTC)', { isTime: true }))).toEqual([]);
		expect(brokenRules(argument('Start', 'e.g. 2026-12-01T09:00:00; a time without offset is read in the workflow\'s time zone', { isTime: true }))).toEqual([]);
	});

	it('in the tools users build by adding a CTS node to an agent', () => {
		const all = nodeToolArguments();
		expect(all.filter((argument) => argument.isId).length).toBeGreaterThan(10);
		expect(all.filter((argument) => argument.isTime).length).toBeGreaterThan(8);
		const broken = all.flatMap((argument) => brokenRules(argument).map((rule) => `${argument.where} ${argument.key}: ${rule} — ${argument.description}`));
		expect(broken).toEqual([]);
	});

	it('in the example MCP server\'s tools', () => {
		const all = exampleToolArguments();
		expect(all.filter((argument) => argument.isId).length).toBeGreaterThan(8);
		expect(all.filter((argument) => argument.isTime).length).toBeGreaterThan(6);
		const broken = all.flatMap((argument) => brokenRules(argument).map((rule) => `${argument.where} ${argument.key}: ${rule} — ${argument.description}`));
		expect(broken).toEqual([]);
	});
});
