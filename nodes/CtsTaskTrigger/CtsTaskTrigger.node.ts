import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { taskFilter, taskFilterOptions } from '../CtsTask/shared/taskFields';
import { ctsApiTest } from '../shared/credentialTests';
import { getTags } from '../shared/tagLists';
import { TASK_PAGE_SIZE, type TaskCursor } from '../shared/taskPaging';
import { pendingPosition, redeliverOption, resolvePending, type PendingPosition } from '../shared/redelivery';
import { budgetShareOption, checkFitsBudget, DEFAULT_BUDGET_SHARE, TRIGGER_BUDGET_NOTICE } from '../shared/triggerBudget';
import { fetchTestTask, pollChanges, startCursor } from './poll';

export class CtsTaskTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Task Trigger',
		name: 'ctsTaskTrigger',
		icon: { light: 'file:../../icons/cts-task.svg', dark: 'file:../../icons/cts-task.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + $parameter["events"].join(" and ")}}',
		description: 'Starts the workflow when tasks are created or updated in the Calendar and Task Service',
		defaults: { name: 'CTS Task Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'ctsApi', required: true, testedBy: 'ctsApiTest' }],
		properties: [
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{ name: 'Task Created', value: 'created', description: 'A task was created since the previous check' },
					{ name: 'Task Updated', value: 'updated', description: 'An existing open task changed since the previous check' },
				],
				default: ['created', 'updated'],
			},
			{
				displayName: "Completed and deleted tasks leave the service's task list, so completing or deleting a task does not trigger.",
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: TRIGGER_BUDGET_NOTICE,
				name: 'budgetNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [
					...taskFilterOptions(),
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [budgetShareOption, redeliverOption],
			},
		],
	};

	methods = { loadOptions: { getTags }, credentialTest: { ctsApiTest } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const staticData = this.getWorkflowStaticData('node') as IDataObject & { cursor?: TaskCursor; pending?: PendingPosition<TaskCursor> };
		const events = this.getNodeParameter('events', []) as string[];
		const filters = this.getNodeParameter('filters', {}) as IDataObject;
		const matches = taskFilter(filters);

		if (this.getMode() === 'manual') {
			const sample = await fetchTestTask.call(this, staticData.cursor);
			if (!sample) {
				throw new NodeOperationError(this.getNode(), 'No open tasks in this account yet', {
					description: 'Create a task in the service (or with the CTS Task node), then fetch a test event again.',
				});
			}
			return [[{ json: sample }]];
		}

		const { budgetShare = DEFAULT_BUDGET_SHARE, redeliverAfterRestart = false } = this.getNodeParameter('options', {}) as {
			budgetShare?: number;
			redeliverAfterRestart?: boolean;
		};
		if (!staticData.cursor) {
			// First activation: start after the newest change, without firing for existing tasks.
			if (await checkFitsBudget(this, budgetShare)) staticData.cursor = await startCursor.call(this);
			return null;
		}

		const { position, redelivering } = resolvePending(staticData.cursor, staticData.pending);
		staticData.cursor = position;
		delete staticData.pending;
		if (redelivering) {
			this.logger.info(`${this.getNode().name}: n8n restarted after a check that delivered changes; delivering them again (Redeliver After a Restart).`);
		}
		const result = await pollChanges.call(this, staticData.cursor as TaskCursor, budgetShare);
		if (!result) return null;
		if (result.overflowedAt.length > 0) {
			this.logger.warn(
				`CTS Task Trigger: more than ${TASK_PAGE_SIZE} tasks share the "updated" time ${result.overflowedAt.join(', ')}; the service offers no way to page past them, so some of those changes were not delivered.`,
			);
		}
		const items = result.tasks
			.filter((task) => events.includes(String(task.triggerEvent)) && (matches?.(task) ?? true))
			.map((json) => ({ json }));
		// The cursor moves with each complete page read: a poll stopped by its allowance delivers what
		// it read, and the next goes on from there. With Redeliver After a Restart, a poll that
		// delivers moves it only once a later poll confirms it.
		if (redeliverAfterRestart && items.length > 0) staticData.pending = pendingPosition(result.cursor);
		else staticData.cursor = result.cursor;
		return items.length > 0 ? [items] : null;
	}
}
