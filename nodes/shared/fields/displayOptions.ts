import type { INodeProperties } from 'n8n-workflow';

/**
 * displayOptions that show one field for some operations of a resource, plus further conditions
 * (the event nodes' `apiVersion`). A whole operation's fields take theirs from n8n's
 * `updateDisplayOptions` instead.
 */
export function showFor(
	resource: string,
	operations: string[],
	conditions: Record<string, string[]> = {},
): INodeProperties['displayOptions'] {
	return { show: { ...conditions, resource: [resource], operation: operations } };
}
