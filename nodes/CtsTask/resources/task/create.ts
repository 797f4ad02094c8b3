import type { INodeProperties } from 'n8n-workflow';

import { descriptionFormatField, locatorValue, sendConverted } from '../../../shared/fields/fields';
import { estimatedDurationOption, returnTaskField, TASK_RESOURCE, taskFieldOptions, taskLocator } from '../../shared/taskFields';
import { showFor } from '../../../shared/fields/displayOptions';

const displayOptions = showFor(TASK_RESOURCE, ['create']);

/** Relation of a subtask to its parent: `relatedTo` maps the parent's ID to a parent Relation. */
function parentRelation(parentId: unknown) {
	const id = locatorValue(parentId).trim();
	// Added but left empty: not a subtask.
	if (!id) return undefined;
	return { [id]: { '@type': 'Relation', relation: { parent: true } } };
}

export const taskCreateDescription: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Send the quarterly report',
		description: 'Title of the task (at least 1 character)',
		displayOptions,
		routing: { send: { type: 'body', property: 'title' } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		options: ([
			...taskFieldOptions('additionalFields', ['needs-action', 'completed']).filter((field) => field.name !== 'title'),
			descriptionFormatField,
			estimatedDurationOption('additionalFields'),
			taskLocator('Parent Task', 'parentTaskId', 'Create the task as a subtask of this task', {
				required: false,
				routing: {
					send: { preSend: [sendConverted('additionalFields.parentTaskId', 'Parent Task', 'relatedTo', parentRelation)] },
				},
			}),
		] as INodeProperties[]).sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
	returnTaskField('create'),
];
