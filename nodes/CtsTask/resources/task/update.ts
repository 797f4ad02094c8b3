import type { INodeProperties } from 'n8n-workflow';

import { returnTaskField, TASK_RESOURCE, taskFieldOptions, taskIdField } from '../../shared/taskFields';
import { showFor } from '../../../shared/fields/displayOptions';

const displayOptions = showFor(TASK_RESOURCE, ['update']);

export const taskUpdateDescription: INodeProperties[] = [
	taskIdField('update', 'body', 'The task to change'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are changed; everything else stays as it is',
		displayOptions,
		options: taskFieldOptions('updateFields', ['needs-action', 'in-process', 'completed', 'failed', 'cancelled']).sort(
			(a, b) => a.displayName.localeCompare(b.displayName),
		),
	},
	returnTaskField('update'),
];
