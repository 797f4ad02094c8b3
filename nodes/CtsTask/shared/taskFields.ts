import type { INodeProperties } from 'n8n-workflow';

import { isIsoDuration, parseDateInput } from '../../shared/time/dates';
import { quoted } from '../../shared/transport/errors';
import { isEmptyValue, listOrIdField, sendConverted, sendLocalDateTime, sendTimeZone, sendUnlessEmpty, timeZoneField, toStringList } from '../../shared/fields/fields';
import { tagsField } from '../../shared/tasks/tagLists';
import { priorityOptions } from '../../shared/tasks/taskFilter';
import { showFor } from '../../shared/fields/displayOptions';
import { recordSentFields } from './taskWrites';

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
