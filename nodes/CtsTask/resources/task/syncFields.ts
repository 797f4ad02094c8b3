import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { optionsCollection, timeZoneField } from '../../../shared/fields/fields';
import { maxWaitOption } from '../../../shared/transport/transport';
import { priorityOptions } from '../../../shared/tasks/taskFilter';
import { TASK_RESOURCE } from '../../shared/taskFields';

export const SYNC = 'sync';
export const UPSERT = 'upsert';

const bothShown = { show: { resource: [TASK_RESOURCE], operation: [SYNC, UPSERT] } };
const syncShown = { show: { resource: [TASK_RESOURCE], operation: [SYNC] } };

const sourceDescription = 'Name of the tool the items come from. A sync touches only tasks it made for this source, never tasks of another source or made by hand.';

/** The fields of a source item, shared by Sync Tasks and Create or Update: each one mapped is kept in step, one left out is never touched. */
const mappedFields: INodeProperties[] = [
	{
		displayName: 'Source',
		name: 'source',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. github-issues',
		description: sourceDescription,
		hint: 'Name it first: the tool the items come from, e.g. github-issues (the node touches only the tasks it made for this source).',
		displayOptions: { show: { '@tool': [false] } },
	},
	// As a tool, the source is a setting of the tool, not the model's to choose: one model naming it
	// differently from call to call would make a second task for the same item.
	{
		displayName: 'Source',
		name: 'source',
		type: 'string',
		default: 'ai-agent',
		description: sourceDescription,
		displayOptions: { show: { '@tool': [true] } },
	},
	{
		displayName: 'Source Key',
		name: 'sourceKey',
		type: 'string',
		required: true,
		default: '={{ $json.id }}',
		placeholder: 'e.g. https://github.com/acme/app/issues/12',
		description: 'What identifies the item in its tool (an ID, an issue URL, a row number); it is written into the task\'s description, so the task is found again',
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '={{ $json.title }}',
		description: "The task's title, from the item",
	},
	{
		displayName: 'Fields',
		name: 'syncFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Fields kept in step with the item; a field not added here is never touched, so edits in the service stay',
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				description: 'Details of the task, as plain text; the key line is added after it',
			},
			{
				displayName: 'Done',
				name: 'done',
				type: 'boolean',
				default: false,
				description: "Whether the item is done, e.g. an expression testing its state: a done item completes its task, one no longer done reopens it",
			},
			{
				displayName: 'Due',
				name: 'due',
				type: 'dateTime',
				default: '',
				description: "When the task is due, e.g. 2026-12-01T17:00:00, read in the Time Zone (empty: the workflow's); an empty value removes the due date",
			},
			{
				displayName: 'Estimated Duration',
				name: 'estimatedDuration',
				type: 'string',
				default: '',
				placeholder: 'e.g. PT30M, PT1H30M',
				description: 'ISO 8601 duration; the service takes it when a task is created, not on later changes',
			},
			{
				displayName: 'Priority',
				name: 'priority',
				type: 'options',
				options: priorityOptions,
				default: 0,
				description: 'Priority from 1 (highest) to 9 (lowest); an expression may also give None, Highest, High, Medium, Low or Lowest',
			},
			{
				displayName: 'Tag Names',
				name: 'tags',
				type: 'string',
				default: '',
				placeholder: 'e.g. bug, frontend',
				description: 'Names of the tags, separated by commas or as a list: all of them, replacing the ones it has; a name without a tag creates the tag',
			},
			{
				displayName: 'Task List ID',
				name: 'taskListId',
				type: 'string',
				default: '',
				placeholder: 'e.g. groceries',
				description: 'ID of the task list that holds the task. Empty: the list with the ID "default", which every account has.',
			},
			timeZoneField({ description: 'IANA time zone of the due date, e.g. Europe/Berlin. Empty: the workflow\'s time zone.' }),
		],
	},
];

const previewDescription = 'Whether to output the plan (create, update, complete, reopen, delete, unchanged, with the fields that would change) without writing anything';

const syncOnly: INodeProperties[] = [
	{
		displayName: 'Tasks No Longer in the Input',
		name: 'missingTasks',
		type: 'options',
		options: [
			{ name: 'Keep', value: 'keep', description: 'Leave them as they are' },
			{ name: 'Complete', value: 'complete', description: 'Mark them completed' },
			{ name: 'Delete', value: 'delete', description: 'Delete them' },
		],
		default: 'keep',
		description: "What happens to this source's open tasks whose key none of the input items has: the input must then be the source's whole set",
		displayOptions: { show: { '@tool': [false] } },
	},
	// Preview is on by default for the tool variant: an agent shows the plan before it writes it.
	{ displayName: 'Preview', name: 'preview', type: 'boolean', default: false, description: previewDescription, displayOptions: { show: { '@tool': [false] } } },
	{ displayName: 'Preview', name: 'preview', type: 'boolean', default: true, description: previewDescription, displayOptions: { show: { '@tool': [true] } } },
];

export const taskSyncDescription: INodeProperties[] = [
	...updateDisplayOptions(bothShown, mappedFields),
	...updateDisplayOptions(syncShown, syncOnly),
	optionsCollection([maxWaitOption], bothShown),
];
