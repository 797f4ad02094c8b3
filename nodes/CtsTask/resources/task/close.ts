import type { INodeProperties } from 'n8n-workflow';

import { occurrenceStartField, returnTaskField, taskIdField } from '../../shared/taskFields';

export const taskCloseDescription: INodeProperties[] = [
	taskIdField('close', 'body', 'The task to mark as completed'),
	occurrenceStartField('close', 'For a recurring task: the start of the occurrence to complete'),
	returnTaskField('close'),
];
