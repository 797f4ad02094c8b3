import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { ctsApiTest } from '../shared/credentials/connectionTests';
import { getTags } from '../shared/tasks/tagLists';
import { getTimeZones } from '../shared/time/timeZones';
import { withToolInputs } from '../shared/fields/toolInputs';
import { SEND_THROUGH_TRANSPORT, SERVICE_REQUEST_DEFAULTS, SERVICE_REQUEST_OPERATIONS } from '../shared/transport/transport';
import { getReadableCalendars } from '../shared/calendar/readableCalendars';
import { searchCalendars } from '../shared/calendar/searchCalendars';
import { searchTags } from './listSearch/searchTags';
import { TASK_TOOL_TEXTS } from './shared/toolTexts';
import { searchTasks } from './listSearch/searchTasks';
import { tagDescription, TAG_RESOURCE } from './resources/tag';
import { taskDescription } from './resources/task';
import { planTasks } from './resources/task/plan';
import { PLAN } from './resources/task/planFields';
import { syncTasks } from './resources/task/sync';
import { SYNC } from './resources/task/syncFields';
import { TASK_RESOURCE } from './shared/taskFields';

export class CtsTask implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Task',
		name: 'ctsTask',
		icon: { light: 'file:../../icons/cts-task.svg', dark: 'file:../../icons/cts-task.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create, read, update, move, complete and delete tasks, keep them in step with other tools, schedule them in a calendar, and manage tags, in the Calendar and Task Service',
		defaults: { name: 'CTS Task' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'ctsApi', required: true, testedBy: 'ctsApiTest' }],
		// The credential adds the base URL and the Authorization header (see its `authenticate`).
		requestDefaults: SERVICE_REQUEST_DEFAULTS,
		// Every routed request goes through the transport layer: point budget, retries, service errors.
		requestOperations: SERVICE_REQUEST_OPERATIONS,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				routing: SEND_THROUGH_TRANSPORT,
				options: [
					// "Task Tag" sorts after "Task", so the node panel lists the task actions first.
					{ name: 'Task', value: TASK_RESOURCE },
					{ name: 'Task Tag', value: TAG_RESOURCE },
				],
				default: TASK_RESOURCE,
			},
			...withToolInputs([...taskDescription, ...tagDescription], TASK_TOOL_TEXTS),
		],
	};

	methods = {
		loadOptions: { getTimeZones, getTags, getReadableCalendars },
		listSearch: { searchTasks, searchTags, searchCalendars },
		credentialTest: { ctsApiTest },
	};

	// Plan Tasks and Sync Tasks take all input items of a workflow at once (see planTasks, syncTasks):
	// RoutingNode runs a routed operation once per item, each in its own context. Tools run their
	// routing, one call at a time.
	customOperations = { task: { [PLAN]: planTasks, [SYNC]: syncTasks } };
}
