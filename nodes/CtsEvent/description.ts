import { NodeConnectionTypes, type INodeProperties, type INodeTypeDescription } from 'n8n-workflow';

import { withToolInputs } from '../shared/fields/toolInputs';
import { SEND_THROUGH_TRANSPORT, SERVICE_REQUEST_DEFAULTS, SERVICE_REQUEST_OPERATIONS } from '../shared/transport/transport';
import { calendarDescription, CALENDAR_RESOURCE } from './resources/calendar';
import { eventDescription } from './resources/event';
import { EVENT_RESOURCE, type ApiVersion } from './shared/eventFields';
import { EVENT_TOOL_TEXTS } from './shared/toolTexts';

/**
 * Keeps the fields of one interface version and drops the `apiVersion` condition from them.
 * The fields are written once for both versions (`showFor(resource, operations, { apiVersion })`); each node
 * shows only its own, so the node panel lists exactly the actions it has.
 */
function forApiVersion(properties: INodeProperties[], version: ApiVersion): INodeProperties[] {
	return properties.flatMap((property) => {
		const show = property.displayOptions?.show;
		const versions = (show?.apiVersion ?? show?.['/apiVersion']) as string[] | undefined;
		if (versions && !versions.includes(version)) return [];
		let result = property;
		if (versions) {
			const rest = Object.fromEntries(Object.entries(show ?? {}).filter(([key]) => key !== 'apiVersion' && key !== '/apiVersion'));
			const displayOptions = { ...property.displayOptions, show: rest };
			if (Object.keys(rest).length === 0) delete (displayOptions as { show?: unknown }).show;
			result = { ...property, displayOptions };
			if (Object.keys(displayOptions).length === 0) delete (result as { displayOptions?: unknown }).displayOptions;
		}
		if (Array.isArray(result.options) && result.options.some((option) => typeof option === 'object' && option !== null && 'type' in option)) {
			result = { ...result, options: forApiVersion(result.options as INodeProperties[], version) };
		}
		return [result];
	});
}

/** What both event nodes share; `version` picks the interface and its operations (each node names its one credential). */
export function eventNodeDescription(
	version: ApiVersion,
): Omit<INodeTypeDescription, 'displayName' | 'name' | 'description' | 'defaults' | 'icon' | 'subtitle' | 'usableAsTool' | 'credentials'> {
	return {
		group: ['transform'],
		version: 1,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// The credential adds the base URL and the Authorization header (see its `authenticate`).
		requestDefaults: SERVICE_REQUEST_DEFAULTS,
		// Every routed request goes through the transport layer: point budget, retries, service errors.
		requestOperations: SERVICE_REQUEST_OPERATIONS,
		properties: [
			{
				// Which interface the shared operation code talks to (and with which credential).
				displayName: 'API Version',
				name: 'apiVersion',
				type: 'hidden',
				default: version,
			},
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				routing: SEND_THROUGH_TRANSPORT,
				// V1 cannot list calendars.
				options: version === 'v3'
					? [
							{ name: 'Calendar', value: CALENDAR_RESOURCE },
							{ name: 'Event', value: EVENT_RESOURCE },
						]
					: [{ name: 'Event', value: EVENT_RESOURCE }],
				default: EVENT_RESOURCE,
			},
			...withToolInputs(forApiVersion([...eventDescription, ...calendarDescription], version), EVENT_TOOL_TEXTS),
		],
	};
}
