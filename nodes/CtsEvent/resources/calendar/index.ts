import type { INodeProperties } from 'n8n-workflow';

import { limitRouting, returnAllAndLimitFields } from '../../../shared/fields';

export const CALENDAR_RESOURCE = 'calendar';

const displayOptions = { show: { authentication: ['v3'], resource: [CALENDAR_RESOURCE], operation: ['getAll'] } };

/** Calendars of every connected account: one item per calendar, with its rights and default alerts. */
export const calendarDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { authentication: ['v3'], resource: [CALENDAR_RESOURCE] } },
		options: [
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
];
