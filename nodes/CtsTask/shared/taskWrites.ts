import {
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type PostReceiveAction,
} from 'n8n-workflow';

import { invalidField, isToolNode } from '../../shared/transport/errors';
import { locatorValue, refuseBlankTitle } from '../../shared/fields/fields';
import { itemState, withNotices } from '../../shared/transport/itemState';
import { shapeOutput } from '../../shared/output/outputShape';
import { simplifyTask } from '../../shared/output/simplifyTask';
import { withOffset } from '../../shared/time/dates';
import { tagNamesIfKnown } from '../../shared/tasks/tagLists';
import { readTaskById } from '../../shared/tasks/taskPaging';

/**
 * What the task writes do around their request: refusing what would fail or change nothing before
 * it is sent, and the output after the write (the fields sent, or the task read back).
 */

/**
 * Refuses an empty title before any request ({@link refuseBlankTitle}). As a tool, an empty title
 * on an update means "keep it", as tool descriptions tell an agent for optional values.
 */
export async function checkTitle(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = requestOptions.body as IDataObject;
	if ('title' in body && body.title === undefined && isToolNode(this.getNode()) && this.getNodeParameter('operation', '') === 'update') delete body.title;
	return await refuseBlankTitle.call(this, requestOptions);
}

/** Refuses an update that would change nothing. */
export async function requireUpdateFields(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	// Reads the collection, not the body: some fields are written by preSend steps that run later.
	if (Object.keys(this.getNodeParameter('updateFields', {}) as IDataObject).length === 0) {
		throw invalidField(this.getNode(), 'Update Fields', 'add at least one field to change', this.getItemIndex());
	}
	return requestOptions;
}

/**
 * Output of a write the service answers without the task (204, or `{ id }` on create): by
 * default `{ id, ...the fields sent, ...extra }` at no further cost; the task as it is after the
 * change (one more call, 1 point) when `readBackParameter` is on. A failed read-back does not
 * fail silently, but it never re-sends the write either.
 */
export function outputAfterWrite(readBackParameter: string | undefined, extra: IDataObject): PostReceiveAction {
	return async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const id = this.getNodeParameter('operation', '') === 'create' ? createdTaskId(this, response) : locatorValue(this.getNodeParameter('taskId', ''));
		if (!readBackParameter || !this.getNodeParameter(readBackParameter, false)) {
			return [{ json: withNotices(this, await withTagNames(this, { id, ...sentFields(this), ...extra })) }];
		}
		let task: IDataObject | null;
		try {
			task = await readTaskById(this, id);
		} catch (error) {
			throw new NodeOperationError(this.getNode(), `The change to task ${id} was made, but reading the task back failed: ${(error as Error).message}`, {
				itemIndex: this.getItemIndex(),
				description: `Turn off Return Task, or read the task with the Get operation. ${(error as { description?: string }).description ?? ''}`.trim(),
			});
		}
		if (!task) {
			throw new NodeOperationError(this.getNode(), `The change to task ${id} was made, but the task could not be read back`, {
				itemIndex: this.getItemIndex(),
			});
		}
		const shaped = shapeOutput((name, fallback) => this.getNodeParameter(name, fallback), withNotices(this, task), simplifyTask);
		// Raw output stays the service's task; the simplified one names the tags where the node knows them.
		return [{ json: this.getNodeParameter('output', 'simplified') === 'raw' ? shaped : await withTagNames(this, shaped) }];
	};
}

/** Keeps the write's request, so its output can show the fields sent (see {@link outputAfterWrite}). */
export async function recordSentFields(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	itemState(this).sentRequest = requestOptions;
	return requestOptions;
}

/**
 * The fields a write sent, as a task shows them: the parent task's ID instead of the relation map
 * (as the simplified task has it); `id` is the task's and comes first in the output.
 */
function sentFields(context: IExecuteSingleFunctions): IDataObject {
	const body = itemState(context).sentRequest?.body;
	if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
	const { relatedTo, ...fields } = body as IDataObject;
	delete fields.id;
	// The due date as the simplified task gives it: with its offset (the zone is always sent with it).
	if (fields.due !== undefined) fields.due = withOffset(fields.due, fields.timeZone) as string;
	if (relatedTo && typeof relatedTo === 'object') {
		const parent = Object.entries(relatedTo as Record<string, IDataObject>).find(([, relation]) => (relation?.relation as IDataObject | undefined)?.parent === true);
		if (parent) fields.parentTaskId = parent[0];
	}
	return fields;
}

/** Adds `tagNames` beside the tag IDs when the tag list is at hand (never a list call for it). */
export async function withTagNames(context: IExecuteSingleFunctions, json: IDataObject): Promise<IDataObject> {
	if (!('tags' in json)) return json;
	const tagNames = await tagNamesIfKnown(context, json.tags);
	if (!tagNames) return json;
	const named: IDataObject = {};
	for (const [key, value] of Object.entries(json)) {
		named[key] = value;
		if (key === 'tags') named.tagNames = tagNames;
	}
	return named;
}

/** The ID the service gave a created task (`{ data: { id } }`); an answer without one is an error, not `{ id: '' }`. */
function createdTaskId(context: IExecuteSingleFunctions, response: IN8nHttpFullResponse): string {
	const id = ((response.body as IDataObject | undefined)?.data as IDataObject | undefined)?.id;
	if (typeof id !== 'string' || id === '') {
		throw new NodeOperationError(context.getNode(), 'The service answered the create request without a task ID', {
			itemIndex: context.getItemIndex(),
			description: `It answered HTTP ${response.statusCode} with ${JSON.stringify(response.body ?? null).slice(0, 200)}. The task may have been created: check the task list before running the workflow again.`,
		});
	}
	return id;
}
