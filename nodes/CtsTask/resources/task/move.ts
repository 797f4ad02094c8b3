import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { invalidField } from '../../../shared/transport/errors';
import { locatorValue } from '../../../shared/fields/fields';
import { returnTaskField, TASK_RESOURCE, taskIdField, taskLocator } from '../../shared/taskFields';
import { showFor } from '../../../shared/fields/displayOptions';

const displayOptions = showFor(TASK_RESOURCE, ['move']);

/**
 * `previousId` and `parentId` each have three meanings: a task ID, null (first position /
 * root level), or absent (unchanged). The two choices below map onto them explicitly.
 */
export async function sendMoveTargets(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body: IDataObject = { ...(requestOptions.body as IDataObject) };
	const target = (choice: string, idParameter: string, label: string, whenNull: string) => {
		if (choice === whenNull) return null;
		const id = locatorValue(this.getNodeParameter(idParameter, '')).trim();
		if (!id) throw invalidField(this.getNode(), label, 'choose a task from the list or enter its ID', this.getItemIndex());
		return id;
	};
	const position = this.getNodeParameter('position', 'first') as string;
	const parent = this.getNodeParameter('parent', 'keep') as string;
	if (position !== 'keep') body.previousId = target(position, 'previousTaskId', 'Previous Task', 'first');
	if (parent !== 'keep') body.parentId = target(parent, 'parentTaskId', 'Parent Task', 'root');
	if (position === 'keep' && parent === 'keep') {
		throw invalidField(this.getNode(), 'Position', 'choose a new position or a new parent: both are set to keep the current one', this.getItemIndex());
	}
	requestOptions.body = body;
	return requestOptions;
}

export const taskMoveDescription: INodeProperties[] = [
	taskIdField('move', 'body', 'The task to move'),
	{
		displayName: 'Position',
		name: 'position',
		type: 'options',
		options: [
			{ name: 'First Position', value: 'first', description: 'Place the task before all others' },
			{ name: 'After a Task', value: 'after', description: 'Place the task right after another task' },
			{ name: 'Keep Current Position', value: 'keep' },
		],
		default: 'first',
		displayOptions,
	},
	taskLocator('Previous Task', 'previousTaskId', 'The task the moved task should follow', {
		displayOptions: { show: { ...displayOptions?.show, position: ['after'] } },
	}),
	{
		displayName: 'Parent',
		name: 'parent',
		type: 'options',
		options: [
			{ name: 'Keep Current Parent', value: 'keep' },
			{ name: 'Root Level', value: 'root', description: 'Make it a top-level task' },
			{ name: 'Under a Task', value: 'under', description: 'Make it a subtask of another task' },
		],
		default: 'keep',
		displayOptions,
	},
	taskLocator('Parent Task', 'parentTaskId', 'The new parent task', {
		displayOptions: { show: { ...displayOptions?.show, parent: ['under'] } },
	}),
	returnTaskField('move'),
];
