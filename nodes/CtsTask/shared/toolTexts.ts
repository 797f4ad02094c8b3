import { TOOL_ZONE_READING, type ToolTexts } from '../../shared/fields/toolInputs';

const TASK_LIST_SOURCE = 'the taskListId of a task as the service returned it, or "default" (the list every account has)';

/**
 * What a model reads for the Task node's fields when the node is an AI tool, where the editor's
 * description would point at fields the model never sees (Time Zone, Description Format, the
 * length options of Schedule in Calendar). Each text stands on its own: an ID says where it comes
 * from, a time gives an example and its zone.
 */
export const TASK_TOOL_TEXTS: ToolTexts = {
	'create:name': 'Name of the tag',
	'update:name': 'New name of the tag',
	'plan:taskIds': 'IDs of the tasks to plan, separated by commas, e.g. "7f3c2a9e, 0b41d7c2"; give each ID exactly as the service returned it',
	'reopen:taskId': 'The completed task to reopen (it returns to "needs action")',
	'schedule:taskId':
		"The task to find time for: its title names the block, and its estimated duration and due date set the block's length and latest end (unless this tool is set otherwise)",
	'sync:description': 'Details of the task, as plain text',
	description: 'Details of the task, as plain text (or HTML, when this tool is set to send HTML)',
	due: `When the task is due, e.g. 2026-12-01T17:00:00: ${TOOL_ZONE_READING}, which is sent as the task's time zone; a time with an offset, e.g. 2026-12-01T17:00:00+01:00, is converted into that zone. A date alone, e.g. 2026-12-01, means midnight.`,
	taskListId: `ID of the task list that holds the task: ${TASK_LIST_SOURCE}`,
	'getAll:taskListId': `Only tasks in this task list: its ID, ${TASK_LIST_SOURCE}`,
	updatedAfter: `Only tasks created or changed after this moment, e.g. 2026-12-01T09:00:00: a time without offset is read in the workflow's time zone; one with an offset, e.g. 2026-12-01T09:00:00+01:00, or in UTC, e.g. 2026-12-01T08:00:00Z, is taken as it is.`,
};
