import type { INodeProperties } from 'n8n-workflow';

import { taskIdField } from '../../shared/taskFields';

export const taskDeleteDescription: INodeProperties[] = [
	taskIdField(
		'delete',
		'body',
		'The task to delete. Its subtasks are deleted too. Deleting an already deleted task succeeds again.',
	),
];
