import type { INodeProperties } from 'n8n-workflow';

import { limitRouting, returnAllAndLimitFields } from '../../../shared/fields';
import { customOperationRouting } from '../../../shared/transport';
import { findFreeTime } from './findFreeTime';
import { FIND_FREE_TIME, findFreeTimeDescription } from './findFreeTimeFields';

export const CALENDAR_RESOURCE = 'calendar';

const displayOptions = { show: { apiVersion: ['v3'], resource: [CALENDAR_RESOURCE], operation: ['getAll'] } };

/** Calendars of every connected account (one item per calendar, with its rights and default alerts), and their free time. */
export const calendarDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { apiVersion: ['v3'], resource: [CALENDAR_RESOURCE] } },
		options: [
			{
				name: 'Find Free Time',
				value: FIND_FREE_TIME,
				action: 'Find free time in calendars',
				description:
					'Free slots, busy blocks or whether a range is free, across the calendars of every account, within working hours (10 points for the calendar list, plus 10 per account per started 2 months of the range)',
				routing: customOperationRouting(findFreeTime),
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many calendars',
				description: 'List the calendars of every connected account, with the rights the user has in each (one list call, 10 points)',
				routing: {
					request: { method: 'GET', url: '/v3/calendars/list' },
					output: { postReceive: [{ type: 'rootProperty', properties: { property: 'data.calendars' } }] },
				},
			},
		],
		default: 'getAll',
	},
	...returnAllAndLimitFields(displayOptions, { routing: limitRouting('output') }),
	...findFreeTimeDescription,
];
