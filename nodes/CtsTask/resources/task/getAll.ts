import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { DATE_TIME_HINT, parseDateInput } from '../../../shared/dates';
import { invalidField, quoted } from '../../../shared/errors';
import { resultLimit, returnAllAndLimitFields } from '../../../shared/fields';
import { listTaskPage, TASK_PAGE_SIZE, walkTasks } from '../../../shared/taskPaging';
import { forEachItem } from '../../../shared/transport';
import { outputShaper } from '../../../shared/output';
import { simplifyTask } from '../../shared/simplify';
import { showFor, taskFilter, taskFilterOptions } from '../../shared/taskFields';

const displayOptions = showFor('getAll');

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
 * Get Many: the open tasks (completed and deleted tasks are not listed by the service), read
 * in pages of up to 100, advancing on `updated`. Written as a custom operation because it needs
 * several requests per item and an output notice when the interface cannot page further.
 */
export async function getManyTasks(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await forEachItem(this, async (itemIndex) => {
		const limit = resultLimit(this, itemIndex);
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		let updatedAfter: string | undefined;
		if (filters.updatedAfter) {
			const date = parseDateInput(filters.updatedAfter, this.getTimezone());
			if (!date) {
				throw invalidField(this.getNode(), 'Updated After', `${quoted(filters.updatedAfter)} is not a date and time`, itemIndex, DATE_TIME_HINT);
			}
			updatedAfter = date.toUTC().toISO() ?? undefined;
		}

		// The service filters by time only: with other filters every open task is read (10 points per 100).
		const matches = taskFilter(filters);
		const result = await walkTasks(
			async (after, pageLimit) => await listTaskPage(this, after, pageLimit, itemIndex),
			{ updated: updatedAfter, idsAtUpdated: [] },
			matches ? Number.POSITIVE_INFINITY : limit,
		);
		if (result.overflowedAt.length > 0) {
			this.addExecutionHints({
				message: `More than ${TASK_PAGE_SIZE} tasks share the same "updated" time (${result.overflowedAt.join(', ')}). The service offers no way to page past them, so some of those tasks are missing from the output.`,
				type: 'warning',
				location: 'outputPane',
			});
		}
		const tasks = matches ? result.tasks.filter(matches).slice(0, limit) : result.tasks;
		return tasks.map(outputShaper((name, fallback) => this.getNodeParameter(name, itemIndex, fallback), simplifyTask));
	});
}
