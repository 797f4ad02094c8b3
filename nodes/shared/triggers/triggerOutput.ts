import type { IDataObject, INodeExecutionData, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { outputFields, outputShaper, pick } from '../output/outputShape';

/**
 * Keys a trigger adds to the service's object, kept whatever the Output choice: what happened
 * (`triggerEvent`) and, for an occurrence that replaced another, the ID it replaced (`previousId`).
 */
const TRIGGER_KEYS = ['triggerEvent', 'previousId', 'changedBySync'];

/** The Output choice of a trigger, as the action nodes' Get offers it (Simplified by default). */
export function triggerOutputFields(object: string, fieldNames: string[]): INodeProperties[] {
	return outputFields(undefined, object, fieldNames);
}

/** A poll's items shaped as the trigger's Output choice asks, `triggerEvent` kept on every item. */
export function shapeTriggerOutput(
	context: IPollFunctions,
	simplify: (raw: IDataObject) => IDataObject,
	result: INodeExecutionData[][] | null,
): INodeExecutionData[][] | null {
	if (!result) return result;
	const shape = outputShaper((name, fallback) => context.getNodeParameter(name, fallback), simplify);
	return result.map((items) => items.map((item) => ({ ...item, json: { ...shape(item.json), ...pick(item.json, TRIGGER_KEYS) } })));
}
