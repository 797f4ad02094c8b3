import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { priorityOptions } from '../CtsTask/shared/taskFields';
import { ctsApiTest } from '../shared/credentialTests';
import { toStringList } from '../shared/fields';
import { getTags, tagsField } from '../shared/tagLists';
import { TASK_PAGE_SIZE, type TaskCursor } from '../shared/taskPaging';
import { budgetShareOption, checkFitsBudget, DEFAULT_BUDGET_SHARE, TRIGGER_BUDGET_NOTICE } from '../shared/triggerBudget';
import { fetchTestTask, pollChanges, startCursor } from './poll';

export class CtsTaskTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Task Trigger',
		name: 'ctsTaskTrigger',
		icon: { light: 'file:../../icons/cts.svg', dark: 'file:../../icons/cts.dark.svg' },
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
					{
						displayName: 'Priorities',
						name: 'priorities',
						type: 'multiOptions',
						options: priorityOptions,
						default: [],
						description: 'Only tasks with one of these priorities',
					},
					tagsField('Only tasks that carry at least one of these tags'),
					{
						displayName: 'Task List ID',
						name: 'taskListId',
						type: 'string',
						default: '',
						description: 'Only tasks in this task list',
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [budgetShareOption],
			},
		],
	};

	methods = { loadOptions: { getTags }, credentialTest: { ctsApiTest } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const staticData = this.getWorkflowStaticData('node') as IDataObject & { cursor?: TaskCursor };
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

		const { budgetShare = DEFAULT_BUDGET_SHARE } = this.getNodeParameter('options', {}) as { budgetShare?: number };
		if (!(await checkFitsBudget(this, budgetShare))) return null;

		if (!staticData.cursor) {
			// First activation: start after the newest change, without firing for existing tasks.
			staticData.cursor = await startCursor.call(this);
			return null;
		}

		const previous = staticData.cursor;
		const result = await pollChanges.call(this, previous);
		if (result.overflowedAt.length > 0) {
			this.logger.warn(
				`CTS Task Trigger: more than ${TASK_PAGE_SIZE} tasks share the "updated" time ${result.overflowedAt.join(', ')}; the service offers no way to page past them, so some of those changes were not delivered.`,
			);
		}
		const items = result.tasks
			.filter((task) => events.includes(String(task.triggerEvent)) && matches(task))
			.map((json) => ({ json }));
		// The cursor moves only once every page was read: a failed poll is repeated in full.
		staticData.cursor = result.cursor;
		return items.length > 0 ? [items] : null;
	}
}

/** The optional filters, applied to the tasks the service returned. */
function taskFilter(filters: IDataObject): (task: IDataObject) => boolean {
	const taskListId = String(filters.taskListId ?? '').trim();
	const tags = toStringList(filters.tags ?? '');
	const priorities = ((filters.priorities as number[] | undefined) ?? []).map(Number);
	return (task) =>
		(!taskListId || task.taskListId === taskListId) &&
		(tags.length === 0 || ((task.tags as string[] | undefined) ?? []).some((tag) => tags.includes(tag))) &&
		(priorities.length === 0 || priorities.includes(Number(task.priority ?? 0)));
}
