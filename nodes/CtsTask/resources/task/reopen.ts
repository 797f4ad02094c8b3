import type { INodeProperties } from 'n8n-workflow';

import { occurrenceStartField, returnTaskField, taskIdField } from '../../shared/taskFields';

export const taskReopenDescription: INodeProperties[] = [
	// The service lists open tasks only, so a completed task is given by its ID.
	taskIdField('reopen', 'body', 'The completed task to reopen (it returns to "needs action"). Completed tasks are not in the list: give the ID.', 'id'),
	occurrenceStartField('reopen', 'For a recurring task: the start of the occurrence to reopen'),
	returnTaskField('reopen'),
];
