import type { INodeProperties, NodeParameterValueType } from 'n8n-workflow';

/**
 * Inputs of the node as an AI tool ("CTS Task Tool" and the like, which n8n makes from any node
 * with `usableAsTool`). n8n shows a property only to the tool variant when its display options
 * say `'@tool': [true]` (n8n-workflow `getPropertyValues`: the node type's name ends in "Tool"),
 * so required value fields and the text fields of collections come twice: as they are for
 * workflows, and for the tool already "Defined automatically by the model", described and, when
 * optional, with a default.
 * Without this the editor's ✨ button writes `$fromAI('<Display Name>', ``, '<type>')`: no
 * description and no default, so the model sees every field as required and undescribed.
 */

/** The comment n8n's editor puts in front of `$fromAI` to show the field as "Defined automatically by the model". */
export const FROM_AI_MARKER = '/*n8n-auto-generated-fromAI-override*/';

/** Field types whose value a model can give; option lists, toggles and collections stay settings of the tool. */
const MODEL_TYPES = new Set<INodeProperties['type']>(['string', 'number', 'dateTime', 'resourceLocator', 'json']);

/** The `$fromAI` key the editor gives a field (its display name, other characters as `_`, at most 63 long). */
export function fromAIKey(displayName: string): string {
	const key = displayName.replace(/[^a-zA-Z0-9-]/g, '_');
	return key.length >= 64 ? key.slice(0, 63) : key;
}

/** Quotes text the way the editor does, so that it reads the description back when the ✨ button is toggled. */
function quote(text: string): string {
	const mark = text.includes('\n') || !text.includes('`') ? '`' : text.includes('"') ? "'" : '"';
	return `${mark}${text.replace(/\\/g, '\\\\').split(mark).join(`\\${mark}`)}${mark}`;
}

/**
 * The expression the editor writes for "Defined automatically by the model", with a description
 * and, for an optional value, a default (n8n then lists the input as optional).
 */
export function fromAI(key: string, description: string, type: 'string' | 'number' | 'boolean' | 'json', fallback?: string | number | boolean): string {
	const args = [`'${key}'`, quote(description), `'${type}'`];
	if (fallback !== undefined) args.push(typeof fallback === 'string' ? quote(fallback) : String(fallback));
	return `={{ ${FROM_AI_MARKER} $fromAI(${args.join(', ')}) }}`;
}

/** What the model reads for a field: its description for workflow users, unless a tool text is given. */
export type ToolTexts = Record<string, string>;

function toolDefault(property: INodeProperties, description: string): NodeParameterValueType {
	const type = property.type === 'number' ? 'number' : property.type === 'json' ? 'json' : 'string';
	const optional = !property.required;
	const plain = property.type === 'resourceLocator' ? '' : property.default;
	const fallback = optional && (typeof plain === 'string' || typeof plain === 'number') ? plain : undefined;
	const expression = fromAI(fromAIKey(property.displayName), description, type, fallback);
	return property.type === 'resourceLocator' ? { __rl: true, mode: 'id', value: expression } : expression;
}

function withTool(property: INodeProperties, tool: boolean): INodeProperties['displayOptions'] {
	return { ...property.displayOptions, show: { ...property.displayOptions?.show, '@tool': [tool] } };
}

/** Tool text of an optional field in a collection: an added but empty field is not sent (see `isLeftEmpty`). */
const LEFT_OUT = 'Empty string: left out.';

/** Drops hints about n8n expressions: a model sends values (and `}}` would end the `$fromAI` expression). */
function forModel(text: string): string {
	return text
		.replace(/\s*\(or a list from an expression\)/g, '')
		.split(/(?<=\.)\s+/)
		.filter((sentence) => !sentence.includes('{{'))
		.join(' ');
}

/**
 * How a model reads a time without offset in a tool whose Time Zone is a setting of the tool (the
 * model never sees it), for tool texts of date and time fields.
 */
export const TOOL_ZONE_READING = "a time without offset is read in the time zone set in this tool (by default the workflow's)";

/** Where an ID a model passes comes from; a model sees no "From List" mode and no other field. */
const ID_SOURCE = 'Give its ID exactly as the service returned it (case-sensitive, may contain + / =).';

function toolText(property: INodeProperties, texts: ToolTexts, operations: string[]): string {
	const text =
		operations.map((operation) => texts[`${operation}:${property.name}`]).find(Boolean) ??
		texts[property.name] ??
		property.description ??
		property.displayName;
	const needsSource = property.type === 'resourceLocator' && !/as the service (gave|returned) it/.test(text);
	return forModel(needsSource ? `${text.replace(/[\s.]*$/, '.')} ${ID_SOURCE}` : text);
}

/** The field for workflows and, from `tool` (the field as the model gives it), its tool variant. */
function pair(property: INodeProperties, text: string, tool: INodeProperties = property): INodeProperties[] {
	return [
		{ ...property, displayOptions: withTool(property, false) },
		{ ...tool, default: toolDefault(tool, text), displayOptions: withTool(property, true) },
	];
}

/**
 * Each required value field twice: unchanged for workflows, and for the tool with a described
 * `$fromAI` default; so are the text fields of collections, which the user adds to the tool as
 * needed (optional there: an empty default).
 * `texts` replaces the description the model reads, by field name (`name` or `operation:name`
 * for a field of one operation).
 */
export function withToolInputs(properties: INodeProperties[], texts: ToolTexts = {}): INodeProperties[] {
	return properties.flatMap((property) => {
		const operations = (property.displayOptions?.show?.operation ?? []) as string[];
		if (property.type === 'collection' && Array.isArray(property.options)) {
			const options = (property.options as INodeProperties[]).flatMap((option) =>
				['string', 'dateTime', 'resourceLocator'].includes(option.type) && !option.noDataExpression && !option.typeOptions?.password
					? pair(option, `${toolText(option, texts, operations).replace(/[\s.]*$/, '.')} ${LEFT_OUT}`, { ...option, required: false, default: '' })
					: [option],
			);
			return [{ ...property, options }];
		}
		// An optional field outside a collection is a setting with a working default (a limit,
		// working hours): the user decides whether the model sets it.
		if (!MODEL_TYPES.has(property.type) || !property.required || property.noDataExpression || property.displayOptions?.show?.['@tool']) {
			return [property];
		}
		return pair(property, toolText(property, texts, operations));
	});
}
