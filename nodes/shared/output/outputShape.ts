import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** What an operation outputs: the simplified object, the service's object, or some simplified fields. */
type OutputMode = 'simplified' | 'raw' | 'fields';

/**
 * The Output choice n8n recommends for nodes an AI agent can use: "Simplified" (the default, a
 * flat object with the fields people use), "Raw" (the service's object untouched) or "Selected
 * Fields" of the simplified object.
 */
export function outputFields(displayOptions: INodeProperties['displayOptions'], object: string, fieldNames: string[]): INodeProperties[] {
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{ name: 'Simplified', value: 'simplified', description: `The ${object}'s main fields, flat: lists as arrays, no service prefixes` },
				{ name: 'Raw', value: 'raw', description: `The ${object} exactly as the service returns it` },
				{ name: 'Selected Fields', value: 'fields', description: 'Only the fields you choose, of the simplified output' },
			],
			default: 'simplified',
			displayOptions,
		},
		{
			displayName: 'Fields',
			name: 'outputFields',
			type: 'multiOptions',
			options: fieldNames.map((name) => ({ name, value: name })),
			default: [],
			description: 'Fields of the simplified output to keep',
			displayOptions: { show: { ...displayOptions?.show, output: ['fields'] } },
		},
	];
}

/** Reads a node parameter of the current item (`name`, `fallback`). */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

/**
 * Shapes objects as the Output choice asks; `notices` (how a value was read) are always kept. The
 * choice is read once, so a list of thousands of objects costs two parameter reads, not thousands.
 */
export function outputShaper(read: ParameterReader, simplify: (raw: IDataObject) => IDataObject): (raw: IDataObject) => IDataObject {
	const mode = read('output', 'simplified') as OutputMode;
	if (mode === 'raw') return (raw) => raw;
	if (mode !== 'fields') return simplify;
	const wanted = new Set([...((read('outputFields', []) as string[]) ?? []), 'notices']);
	return (raw) => Object.fromEntries(Object.entries(simplify(raw)).filter(([key]) => wanted.has(key)));
}

/** The output of one object as the Output choice asks. */
export function shapeOutput(read: ParameterReader, raw: IDataObject, simplify: (raw: IDataObject) => IDataObject): IDataObject {
	return outputShaper(read, simplify)(raw);
}

/** The given keys of an object, in that order, where it has them. */
export function pick(object: IDataObject, keys: string[]): IDataObject {
	return Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));
}

/** Drops keys whose value is undefined (the service omits fields that have no value). */
export function compact(object: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
