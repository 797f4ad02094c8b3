import {
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { locatorValue } from '../../../shared/fields/fields';
import { shapeOutput } from '../../../shared/output/outputShape';
import { simplifyTask } from '../../../shared/output/simplifyTask';
import { taskIdField } from '../../shared/taskFields';
import { withTagNames } from '../../shared/taskWrites';
import { quoted } from '../../../shared/transport/errors';

/**
 * The service answers 200 with `task: null` for an unknown (or another user's) ID: that is
 * "not found" for the user. A deleted task is output as it is, with `deleted: true`.
 */
export async function unwrapTaskOrFail(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const task = ((response.body as IDataObject)?.data as IDataObject | undefined)?.task as IDataObject | null;
	if (!task) {
		const id = locatorValue(this.getNodeParameter('taskId', ''));
		throw new NodeOperationError(this.getNode(), `Task not found: no task with ID ${quoted(id)} exists in this account`, {
			itemIndex: this.getItemIndex(),
			description: 'Check the task ID, or pick the task from the list. Tasks of other accounts are not visible.',
		});
	}
	const shaped = shapeOutput((name, fallback) => this.getNodeParameter(name, fallback), task, simplifyTask);
	// Raw output stays the service's task; the simplified one names the tags where the node knows them.
	return [{ json: this.getNodeParameter('output', 'simplified') === 'raw' ? shaped : await withTagNames(this, shaped) }];
}

export const taskGetDescription: INodeProperties[] = [
	taskIdField('get', 'query', 'The task to read. Deleted tasks are returned with "deleted": true.'),
];
