import type { INodeProperties } from 'n8n-workflow';

import { customOperationRouting } from '../../../shared/transport';
import { findFreeTime } from './findFreeTime';
import { FIND_FREE_TIME, findFreeTimeDescription } from './findFreeTimeFields';
import { calendarGetAllDescription, calendarGetAllOperation } from './getAll';

export const CALENDAR_RESOURCE = 'calendar';

/** Calendars of every connected account (one item per calendar), and their free time. */
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
			calendarGetAllOperation,
		],
		default: 'getAll',
	},
	...calendarGetAllDescription,
	...findFreeTimeDescription,
];
