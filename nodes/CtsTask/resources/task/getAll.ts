import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { DATE_TIME_HINT, parseDateInput } from '../../../shared/time/dates';
import { invalidField, quoted } from '../../../shared/transport/errors';
import { resultLimit, returnAllAndLimitFields } from '../../../shared/fields/fields';
import { listTaskPage, TASK_PAGE_SIZE, walkTasks } from '../../../shared/tasks/taskPaging';
import { pairedOutput, type OperationItem } from '../../../shared/transport/itemOperation';
import { outputShaper, type ParameterReader } from '../../../shared/output/outputShape';
import { simplifyTask } from '../../../shared/output/simplifyTask';
import { showFor } from '../../shared/taskFields';
import { taskFilter, taskFilterOptions } from '../../../shared/tasks/taskFilter';

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
 * Get Many for one item: the open tasks (completed and deleted tasks are not listed by the
 * service), read in pages of up to 100, advancing on `updated`. `warn` hears when the interface
 * cannot page further (without one, as a tool runs it, n8n's log does).
 */
export async function listTasks(item: OperationItem, warn?: (message: string) => void): Promise<IDataObject[]> {
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
	if (result.overflowedAt.length > 0) {
		const notify = warn ?? ((message: string) => context.logger.warn(`${context.getNode().name}: ${message}`));
		notify(
			`More than ${TASK_PAGE_SIZE} tasks share the same "updated" time (${result.overflowedAt.join(', ')}). The service offers no way to page past them, so some of those tasks are missing from the output.`,
		);
	}
	// A newer version that no longer matches dropped the older one, as filtering the newest versions would.
	return matches && result.tasks.length > limit ? result.tasks.slice(0, limit) : result.tasks;
}

/**
 * Get Many in a workflow: {@link listTasks} for each item, as the operation's routing runs it
 * for a tool call, plus its warning as an execution hint in the output pane. n8n shows hints of
 * a node's `execute` context only, which routed operations (RoutingNode) cannot reach.
 */
export async function getManyTasks(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	const warn = (message: string) => this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		const parameter: ParameterReader = (name, fallback) => this.getNodeParameter(name, itemIndex, fallback);
		output.push(...(await pairedOutput(this, itemIndex, async () => (await listTasks({ context: this, itemIndex, parameter }, warn)).map((json) => ({ json })))));
	}
	return [output];
}
