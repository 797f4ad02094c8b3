import {
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type INodeProperties,
	type PostReceiveAction,
} from 'n8n-workflow';

import { isIsoDuration, parseDateInput } from '../../shared/time/dates';
import { invalidField, isToolNode, quoted } from '../../shared/transport/errors';
import {
	listOrIdField,
	sendUnlessEmpty,
	locatorValue,
	sendConverted,
	isEmptyValue,
	refuseBlankTitle,
	sendLocalDateTime,
	sendTimeZone,
	timeZoneField,
	toStringList,
} from '../../shared/fields/fields';
import { itemState, withNotices } from '../../shared/transport/itemState';
import { shapeOutput } from '../../shared/output/outputShape';
import { simplifyTask } from '../../shared/output/simplifyTask';
import { tagNamesIfKnown, tagsField } from '../../shared/tasks/tagLists';
import { priorityOptions } from '../../shared/tasks/taskFilter';
import { ctsRequest } from '../../shared/transport/transport';
import { showFor } from '../../shared/fields/displayOptions';

export const TASK_RESOURCE = 'task';


/** A task picked from the open tasks ("From List", newest first) or given by its ID. */
export function taskLocator(
	displayName: string,
	name: string,
	description: string,
	overrides: Partial<INodeProperties> = {},
	defaultMode: 'list' | 'id' = 'list',
): INodeProperties {
	return listOrIdField(
		{ displayName, name, required: true, description, ...overrides },
		{ searchListMethod: 'searchTasks', placeholder: 'Select a task...' },
		'e.g. 7f3c2a9e-…',
		defaultMode,
	);
}

/** The Task field of an operation, sent as `id` where the operation expects it. */
export function taskIdField(operation: string, send: 'body' | 'query', description: string, defaultMode: 'list' | 'id' = 'list'): INodeProperties {
	return taskLocator('Task', 'taskId', description, { displayOptions: showFor(TASK_RESOURCE, [operation]), routing: { send: { type: send, property: 'id' } } }, defaultMode);
}

/**
 * The writable task fields shared by Create ("Additional Fields") and Update ("Update Fields"),
 * each with how it maps to the request body. `collection` is the parameter that holds them.
 */
export function taskFieldOptions(collection: string, progressValues: string[]): INodeProperties[] {
	const progressNames: Record<string, string> = {
		'needs-action': 'Needs Action',
		'in-process': 'In Process',
		completed: 'Completed',
		failed: 'Failed',
		cancelled: 'Cancelled',
	};
	return [
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: 'Details of the task, as plain text or HTML (see Description Format)',
			routing: sendUnlessEmpty('description'),
		},
		{
			displayName: 'Due',
			name: 'due',
			type: 'dateTime',
			default: '',
			description:
				'When the task is due, e.g. 2026-12-01T17:00:00, read in the Time Zone field (empty: the workflow\'s time zone). A date alone means midnight; a time a daylight-saving change skips moves forward, and the output\'s notices say so.',
			routing: { send: { preSend: [sendLocalDateTime(collection, 'due', 'timeZone', 'Due')] } },
		},
		tagsField('Tags of the task (on update: all of them, replacing the ones it has)', {
			routing: { send: { preSend: [sendConverted(`${collection}.tags`, 'Tags', 'tags', toStringList)] } },
		}),
		{
			displayName: 'Priority',
			name: 'priority',
			type: 'options',
			options: priorityOptions,
			default: 0,
			description: 'Priority from 1 (highest) to 9 (lowest); None leaves it undefined',
			routing: {
				send: {
					preSend: [
						sendConverted(`${collection}.priority`, 'Priority', 'priority', (value) => {
							// Added but left empty (or an empty string from an AI agent): nothing to change.
							if (isEmptyValue(value)) return undefined;
							const priority = Number(value);
							if (!Number.isInteger(priority)) throw new Error(`${quoted(value)} is not a whole number from 0 to 9`);
							if (priority > 9 || priority < 0) throw new Error('must be a whole number from 0 to 9');
							return priority;
						}),
					],
				},
			},
		},
		{
			displayName: 'Progress',
			name: 'progress',
			type: 'options',
			options: progressValues.map((value) => ({ name: progressNames[value], value })),
			default: 'needs-action',
			description: 'State of the task',
			routing: { send: { type: 'body', property: 'progress' } },
		},
		{
			displayName: 'Task List ID',
			name: 'taskListId',
			type: 'string',
			default: '',
			placeholder: 'e.g. groceries',
			description: 'ID of the task list that holds the task. Empty: the list with the ID "default", which every account has.',
			routing: sendUnlessEmpty('taskListId'),
		},
		timeZoneField({
			description:
				'IANA time zone of the due date, e.g. Europe/Berlin. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			routing: { send: { preSend: [sendTimeZone(`${collection}.timeZone`, 'Time Zone')] } },
		}),
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: 'New title of the task (at least 1 character)',
			routing: sendUnlessEmpty('title'),
		},
	];
}

/** The estimated duration as an ISO 8601 duration, written like the Event node's Duration. */
export function estimatedDurationOption(collection: string): INodeProperties {
	return {
		displayName: 'Estimated Duration',
		name: 'estimatedDuration',
		type: 'string',
		default: '',
		placeholder: 'e.g. PT30M, PT1H30M, P1D',
		description: 'How long the task is expected to take, as an ISO 8601 duration (PT1H30M is an hour and a half)',
		routing: {
			send: {
				preSend: [
					sendConverted(`${collection}.estimatedDuration`, 'Estimated Duration', 'estimatedDuration', (value) => {
						if (isEmptyValue(value)) return undefined;
						if (!isIsoDuration(value)) throw new Error(`${quoted(value)} is not an ISO 8601 duration: write it like PT30M, PT1H30M or P1D`);
						return value;
					}),
				],
			},
		},
	};
}

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

/** Reads a task by ID (1 point). */
export async function readTask(context: IExecuteSingleFunctions, id: string): Promise<IDataObject | null> {
	const response = await ctsRequest.call(context, 'ctsApi', { method: 'GET', url: '/v3/tasks', qs: { id } });
	return ((response.data as IDataObject | undefined)?.task as IDataObject | null) ?? null;
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
			task = await readTask(this, id);
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
async function recordSentFields(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
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

/**
 * Option of every write the service answers without the task (create: its ID; update, move,
 * complete, reopen: nothing): read the task back and output it. Off by default: the write alone
 * costs 1 point, the read-back doubles that, and the account's point budget is what large runs
 * use up.
 */
export function returnTaskField(operation: string): INodeProperties {
	return {
		displayName: 'Return Task',
		name: 'returnTask',
		type: 'boolean',
		default: false,
		description: 'Whether to read the task after the change and output it whole, for 1 more point per item. Off: the output is its ID, the fields sent and success: true.',
		displayOptions: showFor(TASK_RESOURCE, [operation]),
		// Runs after the fields' steps (it is the operation's last field), so the body is complete.
		routing: { send: { preSend: [recordSentFields] } },
	};
}

/** Occurrence of a recurring task (close and reopen), sent as an ISO 8601 date-time with offset. */
export function occurrenceStartField(operation: string, description: string): INodeProperties {
	return {
		displayName: 'Occurrence Start',
		name: 'occurrenceStart',
		type: 'dateTime',
		default: '',
		description: `${description}. Leave empty for a task that does not repeat. A time without offset is read in the workflow's time zone.`,
		displayOptions: showFor(TASK_RESOURCE, [operation]),
		routing: {
			send: {
				preSend: [
					sendConverted('occurrenceStart', 'Occurrence Start', 'occurrenceStart', (value, context) => {
						if (value === '' || value === undefined || value === null) return undefined;
						const date = parseDateInput(value, context.getTimezone());
						if (!date) throw new Error(`${quoted(value)} is not a date and time`);
						return date.toISO({ suppressMilliseconds: true });
					}),
				],
			},
		},
	};
}
