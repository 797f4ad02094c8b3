import type { INodeProperties } from 'n8n-workflow';

import { outputFields } from '../../../shared/output/outputShape';
import { maxWaitOnlyOptions } from '../../../shared/transport/transport';
import { multiRequestRouting } from '../../../shared/transport/itemOperation';
import { SIMPLIFIED_TASK_FIELDS } from '../../../shared/output/simplifyTask';
import { TASK_RESOURCE } from '../../shared/taskFields';
import { checkTitle, outputAfterWrite, requireUpdateFields } from '../../shared/taskWrites';
import { taskCloseDescription } from './close';
import { taskCreateDescription } from './create';
import { taskDeleteDescription } from './delete';
import { taskGetDescription, unwrapTaskOrFail } from './get';
import { listTasks, taskGetManyDescription } from './getAll';
import { taskMoveDescription, sendMoveTargets } from './move';
import { planOneItem } from './plan';
import { PLAN, taskPlanDescription } from './planFields';
import { taskReopenDescription } from './reopen';
import { scheduleTask } from './schedule';
import { SCHEDULE, taskScheduleDescription } from './scheduleFields';
import { syncOneItem } from './sync';
import { SYNC, taskSyncDescription, UPSERT } from './syncFields';
import { upsertOneItem } from './upsert';
import { taskUpdateDescription } from './update';

const afterChange = outputAfterWrite('returnTask', { success: true });

export const taskDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [TASK_RESOURCE] } },
		options: [
			{
				name: 'Complete',
				value: 'close',
				action: 'Complete a task',
				description: 'Mark a task (or one occurrence of a recurring task) as completed',
				routing: {
					request: { method: 'POST', url: '/v3/tasks/close' },
					output: { postReceive: [afterChange] },
				},
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create a task',
				description: 'Create a task, optionally as a subtask of another task',
				routing: {
					request: { method: 'POST', url: '/v3/tasks/create' },
					send: { preSend: [checkTitle] },
					output: { postReceive: [afterChange] },
				},
			},
			{
				name: 'Create or Update',
				value: UPSERT,
				action: 'Create or update a task by its source key',
				description:
					'Find the open task that carries the Source Key and change only the fields that differ (no write when none does), or create the task: a workflow or an agent that runs twice makes no second task',
				routing: multiRequestRouting(upsertOneItem, { writes: true }),
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a task',
				description: 'Delete a task and its subtasks',
				routing: {
					request: { method: 'POST', url: '/v3/tasks/delete' },
					output: { postReceive: [outputAfterWrite(undefined, { deleted: true })] },
				},
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a task',
				description: 'Read one task by its ID, including a deleted one',
				routing: {
					request: { method: 'GET', url: '/v3/tasks' },
					output: { postReceive: [unwrapTaskOrFail] },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many tasks',
				description: 'List open tasks, optionally only those changed after a given time',
				routing: multiRequestRouting(listTasks),
			},
			{
				name: 'Move',
				value: 'move',
				action: 'Move a task',
				description: 'Change the position of a task in its list, or its parent task',
				routing: {
					request: { method: 'POST', url: '/v3/tasks/move' },
					send: { preSend: [sendMoveTargets] },
					output: { postReceive: [afterChange] },
				},
			},
			{
				name: 'Plan Tasks',
				value: PLAN,
				action: 'Plan tasks in a calendar',
				description:
					'Time-block many tasks at once: by priority, then due date, each gets the first free slot of its estimated duration in working hours before its due, with one read of the tasks and calendars for all of them; run again, it keeps the blocks that are still free. Preview outputs the plan without writing.',
				routing: multiRequestRouting(planOneItem, { writes: true }),
			},
			{
				name: 'Reopen',
				value: 'reopen',
				action: 'Reopen a task',
				description: 'Mark a completed task (or occurrence) as not completed again',
				routing: {
					request: { method: 'POST', url: '/v3/tasks/reopen' },
					output: { postReceive: [afterChange] },
				},
			},
			{
				name: 'Schedule in Calendar',
				value: SCHEDULE,
				action: 'Schedule a task in a calendar',
				description:
					'Book the first free slot for a task as an event in a calendar (time-blocking), within working hours and before its due date; run again, it keeps the block while it is free and moves it when not',
				routing: multiRequestRouting(scheduleTask, { writes: true }),
			},
			{
				name: 'Sync Tasks',
				value: SYNC,
				action: 'Sync tasks with another tool',
				description:
					"Keep the tasks of a source in step with its items, the input being the source's whole set: creates what is new, updates what changed, completes what is done, leaves the rest, never twice; a published workflow reads only what changed since its last run. Preview outputs the plan without writing.",
				routing: multiRequestRouting(syncOneItem, { writes: true }),
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a task',
				description: 'Change only the fields you set on a task',
				routing: {
					request: { method: 'POST', url: '/v3/tasks/update' },
					send: { preSend: [checkTitle, requireUpdateFields] },
					output: { postReceive: [afterChange] },
				},
			},
		],
		default: 'create',
	},
	...taskCreateDescription,
	...taskGetDescription,
	...taskGetManyDescription,
	...taskUpdateDescription,
	...taskMoveDescription,
	...taskDeleteDescription,
	...taskCloseDescription,
	...taskReopenDescription,
	...taskScheduleDescription,
	...taskPlanDescription,
	...taskSyncDescription,
	// The task is output where an operation has it: read, listed, or read back after a write.
	...outputFields({ show: { resource: [TASK_RESOURCE], operation: ['get', 'getAll'] } }, 'task', SIMPLIFIED_TASK_FIELDS),
	...outputFields(
		{ show: { resource: [TASK_RESOURCE], operation: ['create', 'update', 'move', 'close', 'reopen'], returnTask: [true] } },
		'task',
		SIMPLIFIED_TASK_FIELDS,
	),
	maxWaitOnlyOptions({ show: { resource: [TASK_RESOURCE], operation: ['close', 'create', 'delete', 'get', 'getAll', 'move', 'reopen', 'update'] } }),
];
