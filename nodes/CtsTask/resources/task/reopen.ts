import type { INodeProperties } from 'n8n-workflow';

import { occurrenceStartField, returnTaskField, taskIdField } from '../../shared/taskFields';

export const taskReopenDescription: INodeProperties[] = [
	taskIdField('reopen', 'body', 'ID of the completed task to reopen (it returns to "needs action")'),
	occurrenceStartField('reopen', 'For a recurring task: the start of the occurrence to reopen'),
	returnTaskField('reopen'),
];
