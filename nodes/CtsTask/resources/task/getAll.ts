import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { DATE_TIME_HINT, parseDateInput } from '../../../shared/time/dates';
import { invalidField, quoted } from '../../../shared/transport/errors';
import { resultLimit, returnAllAndLimitFields } from '../../../shared/fields/fields';
import { listTaskPage, TASK_PAGE_SIZE, walkTasks } from '../../../shared/tasks/taskPaging';
import type { OperationItem } from '../../../shared/transport/itemOperation';
import { outputShaper } from '../../../shared/output/outputShape';
import { simplifyTask } from '../../../shared/output/simplifyTask';
import { TASK_RESOURCE } from '../../shared/taskFields';
import { taskFilter, taskFilterOptions } from '../../../shared/tasks/taskFilter';
import { showFor } from '../../../shared/fields/displayOptions';

const displayOptions = showFor(TASK_RESOURCE, ['getAll']);

export const taskGetManyDescription: INodeProperties[] = [
	...returnAllAndLimitFields(displayOptions),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions,
		options: [
			...taskFilterOptions(),
			{
				displayName: 'Updated After',
				name: 'updatedAfter',
				type: 'dateTime',
				default: '',
				description:
					'Only tasks created or changed after this moment. A time without offset is read in the workflow\'s time zone.',
			},
		],
	},
];

/**
 * Get Many for one item: the open tasks (completed and deleted tasks are not listed by the
 * service), read in pages of up to 100, advancing on `updated`. When the interface cannot page
 * further, the first output item says so in its `notices` (as every notice of the package goes,
 * in a workflow and in a tool call alike) and n8n's log has it too.
 */
export async function listTasks(item: OperationItem): Promise<IDataObject[]> {
	const { context, itemIndex, parameter } = item;
	const limit = resultLimit(item);
	const filters = parameter('filters', {}) as IDataObject;
	let updatedAfter: string | undefined;
	if (filters.updatedAfter) {
		const date = parseDateInput(filters.updatedAfter, context.getTimezone());
		if (!date) {
			throw invalidField(context.getNode(), 'Updated After', `${quoted(filters.updatedAfter)} is not a date and time`, itemIndex, DATE_TIME_HINT);
		}
		updatedAfter = date.toUTC().toISO() ?? undefined;
	}

	// The service filters by time only: with other filters every open task is read (10 points per 100).
	// Each page is filtered and shaped as it arrives, so its raw tasks are not held to the end.
	const matches = taskFilter(filters);
	const shape = outputShaper(parameter, simplifyTask);
	const result = await walkTasks(
		async (after, pageLimit) => await listTaskPage(context, after, pageLimit, itemIndex),
		{ updated: updatedAfter, idsAtUpdated: [] },
		matches ? Number.POSITIVE_INFINITY : limit,
		{ keep: matches ? (task) => (matches(task) ? shape(task) : undefined) : shape },
	);
	// A newer version that no longer matches dropped the older one, as filtering the newest versions would.
	const tasks = matches && result.tasks.length > limit ? result.tasks.slice(0, limit) : result.tasks;
	if (result.overflowedAt.length > 0) {
		const notice = `More than ${TASK_PAGE_SIZE} tasks share the same "updated" time (${result.overflowedAt.join(', ')}). The service offers no way to page past them, so some of those tasks are missing from the output.`;
		context.logger.warn(`${context.getNode().name}: ${notice}`);
		if (tasks.length > 0) tasks[0] = { ...tasks[0], notices: [notice] };
	}
	return tasks;
}
