import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { ctsApiTest } from '../shared/credentialTests';
import { getTimeZones } from '../shared/timeZones';
import { pointBudgetOption, transportProperty } from '../shared/transport';
import { taskDescription } from './resources/task';
import { getManyTasks } from './resources/task/getAll';

export class CtsTask implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Task',
		name: 'ctsTask',
		icon: { light: 'file:../../icons/cts.svg', dark: 'file:../../icons/cts.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create, read, update, move, complete and delete tasks in the Calendar and Task Service',
		defaults: { name: 'CTS Task' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'ctsApi', required: true, testedBy: 'ctsApiTest' }],
		// The credential adds the base URL and the Authorization header (see its `authenticate`).
		requestDefaults: {
			headers: { Accept: 'application/json' },
			json: true,
			ignoreHttpStatusErrors: true,
		},
		properties: [
			transportProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Task', value: 'task' }],
				default: 'task',
			},
			...taskDescription,
			pointBudgetOption,
		],
	};

	methods = { loadOptions: { getTimeZones }, credentialTest: { ctsApiTest } };

	customOperations = { task: { getAll: getManyTasks } };
}
