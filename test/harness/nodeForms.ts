/** The forms of the action nodes as the editor shows them, resolved with n8n's own display rules (NodeHelpers). */
import { NodeHelpers, type INodeProperties, type INodePropertyOptions, type INodeType } from 'n8n-workflow';

const version = { typeVersion: 1 };

/** The top-level parameters the editor shows for a resource and operation, in form order. */
export function formOf(node: INodeType, resource: string, operation: string): INodeProperties[] {
	const { description } = node;
	const values = NodeHelpers.getNodeParameters(description.properties, { resource, operation }, true, false, version, description) ?? {};
	return description.properties.filter((property) => NodeHelpers.displayParameter(values, property, version, description));
}

/** Every resource and operation of a node, as its pickers list them. */
export function operationsOf(node: INodeType): Array<[string, string]> {
	const resources = node.description.properties.find((property) => property.name === 'resource')!.options as INodePropertyOptions[];
	return resources.flatMap((resource) => {
		const form = formOf(node, String(resource.value), '');
		const picker = form.find((property) => property.name === 'operation')!;
		return (picker.options as INodePropertyOptions[]).map((operation): [string, string] => [String(resource.value), String(operation.value)]);
	});
}
