import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { SIMPLIFIED_TASK_FIELDS, simplifyTask } from '../shared/output/simplifyTask';
import { taskFilter, taskFilterOptions } from '../shared/tasks/taskFilter';
import { ctsApiTest } from '../shared/credentials/connectionTests';
import { getTags } from '../shared/tasks/tagLists';
import { TASK_PAGE_SIZE, type TaskCursor } from '../shared/tasks/taskPaging';
import { pendingPosition, positionAfterRestart, redeliverOption, type PendingPosition } from '../shared/triggers/redelivery';
import { shapeTriggerOutput, triggerOutputFields } from '../shared/triggers/triggerOutput';
import { noSampleItem } from '../shared/triggers/triggerSample';
import { DEFAULT_BUDGET_SHARE } from '../shared/pacing/costModel';
import { budgetShareOption, checkFrequencyHints, PollPurse, TRIGGER_BUDGET_NOTICE } from '../shared/pacing/triggerPacing';
import { fetchTestTask, noTaskSample, pollChanges, startCursor } from './poll';
import { pollOpenTasks, type OpenTaskState } from './openTasks';
import { optionsCollection } from '../shared/fields/fields';
import { isSyncEcho, readSyncMarker } from '../shared/tasks/syncMarker';

type TaskTriggerData = IDataObject & {
	cursor?: TaskCursor;
	pending?: PendingPosition<TaskCursor>;
	openTasks?: OpenTaskState;
	openTasksPending?: PendingPosition<OpenTaskState>;
};

export class CtsTaskTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Task Trigger',
		name: 'ctsTaskTrigger',
		icon: { light: 'file:../../icons/cts-task.svg', dark: 'file:../../icons/cts-task.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + $parameter["events"].join(" and ")}}',
		description: 'Starts the workflow when tasks are created, updated, completed or deleted in the Calendar and Task Service',
		defaults: { name: 'CTS Task Trigger' },
		polling: true,
		hints: checkFrequencyHints(),
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
					{ name: 'Task Completed', value: 'completed', description: 'An open task was completed since the previous check (each check then reads all open tasks: 10 points per 100)' },
					{ name: 'Task Created', value: 'created', description: 'A task was created since the previous check' },
					{ name: 'Task Deleted', value: 'deleted', description: 'An open task (or its parent) was deleted since the previous check (each check then reads all open tasks: 10 points per 100)' },
					{ name: 'Task Updated', value: 'updated', description: 'An existing open task changed since the previous check (a reopened task comes back as updated)' },
				],
				default: ['created', 'updated'],
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
					{
						displayName: "Leave Out Sync Tasks' Own Changes",
						name: 'ignoreSyncChanges',
						type: 'boolean',
						default: true,
						description:
							"Whether to leave out the changes Sync Tasks or Create or Update made themselves, so a two-way sync gets no echoes. Without this filter they come out with changedBySync: true.",
					},
				],
			},
			...triggerOutputFields('task', SIMPLIFIED_TASK_FIELDS),
			optionsCollection([budgetShareOption, redeliverOption]),
		],
	};

	methods = { loadOptions: { getTags }, credentialTest: { ctsApiTest } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const staticData = this.getWorkflowStaticData('node') as TaskTriggerData;
		const events = this.getNodeParameter('events', []) as string[];
		const filters = this.getNodeParameter('filters', {}) as IDataObject;
		const matches = taskFilter(filters);
		const wanted = (task: IDataObject) => events.includes(String(task.triggerEvent)) && (matches?.(task) ?? true) && !(filters.ignoreSyncChanges === true && isSyncEcho(task));

		const readsOpenTasks = events.includes('completed') || events.includes('deleted');
		if (this.getMode() === 'manual') {
			const sample = await fetchTestTask.call(this, events, staticData.cursor, staticData.openTasks);
			return sample ? shapeTriggerOutput(this, simplifyTask, [[{ json: sample }]]) : noSampleItem(noTaskSample(events));
		}

		const { budgetShare = DEFAULT_BUDGET_SHARE, redeliverAfterRestart = false } = this.getNodeParameter('options', {}) as {
			budgetShare?: number;
			redeliverAfterRestart?: boolean;
		};
		if (readsOpenTasks) return shapeTriggerOutput(this, simplifyTask, await pollOpenTaskEvents.call(this, staticData, budgetShare, redeliverAfterRestart, wanted));
		delete staticData.openTasks;
		delete staticData.openTasksPending;
		if (!staticData.cursor) {
			// First activation: start after the newest change, without firing for existing tasks.
			const purse = await PollPurse.open(this, budgetShare);
			if (purse.mayCheck()) staticData.cursor = await startCursor.call(this, purse);
			return null;
		}

		staticData.cursor = positionAfterRestart(this, staticData.cursor, staticData.pending).position;
		delete staticData.pending;
		const result = await pollChanges.call(this, staticData.cursor as TaskCursor, budgetShare);
		if (!result) return null;
		if (result.overflowedAt.length > 0) {
			this.logger.warn(
				`CTS Task Trigger: more than ${TASK_PAGE_SIZE} tasks share the "updated" time ${result.overflowedAt.join(', ')}; the service offers no way to page past them, so some of those changes were not delivered.`,
			);
		}
		const items = result.tasks.filter(wanted).map((json) => ({ json: markedSyncChange(json) }));
		// The cursor moves with each complete page read: a poll stopped by its allowance delivers what
		// it read, and the next goes on from there. With Redeliver After a Restart, a poll that
		// delivers moves it only once a later poll confirms it.
		if (redeliverAfterRestart && items.length > 0) staticData.pending = pendingPosition(result.cursor);
		else staticData.cursor = result.cursor;
		return shapeTriggerOutput(this, simplifyTask, items.length > 0 ? [items] : null);
	}
}

/**
 * A check with Task Completed or Task Deleted chosen: all four events come from the read of the
 * open tasks (see openTasks.ts). Its state is stored only with what it delivers, as the cursor is.
 */
async function pollOpenTaskEvents(
	this: IPollFunctions,
	staticData: TaskTriggerData,
	budgetShare: number,
	redeliverAfterRestart: boolean,
	wanted: (task: IDataObject) => boolean,
): Promise<INodeExecutionData[][] | null> {
	// The created/updated cursor would be stale when those events are read the other way again.
	delete staticData.cursor;
	delete staticData.pending;
	const { position } = positionAfterRestart(this, staticData.openTasks, staticData.openTasksPending);
	delete staticData.openTasksPending;
	const result = await pollOpenTasks.call(this, position, budgetShare);
	const items = result.tasks.filter(wanted).map((json) => ({ json: markedSyncChange(json) }));
	if (redeliverAfterRestart && items.length > 0) {
		staticData.openTasks = position;
		staticData.openTasksPending = pendingPosition(result.state);
	} else {
		staticData.openTasks = result.state;
	}
	return items.length > 0 ? [items] : null;
}

/** A task kept in step by a sync says whether its change was the sync's own write (`changedBySync`). */
function markedSyncChange(task: IDataObject): IDataObject {
	return readSyncMarker(task) ? { ...task, changedBySync: isSyncEcho(task) } : task;
}
