import type { INodeProperties } from 'n8n-workflow';

import { multiRequestRouting } from '../../../shared/transport/itemOperation';
import { findFreeTime } from './findFreeTime';
import { getAgenda } from './getAgenda';
import { GET_AGENDA, getAgendaDescription } from './getAgendaFields';
import { FIND_FREE_TIME, findFreeTimeDescription } from './findFreeTimeFields';
import { calendarGetAllDescription, calendarGetAllRouting } from './getAll';
import { mirrorBusyTime } from './mirrorBusyTime';
import { MIRROR_BUSY_TIME, mirrorBusyTimeDescription } from './mirrorBusyTimeFields';

export const CALENDAR_RESOURCE = 'calendar';

/** Calendars of every connected account (one item per calendar), their free time, the agenda of a day, and busy time mirrored between them. */
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
					'Free slots, busy blocks or whether a range is free, across the calendars of every account, within working hours',
				routing: multiRequestRouting(findFreeTime),
			},
			{
				name: 'Get Agenda',
				value: GET_AGENDA,
				action: 'Get the agenda of a day',
				description:
					'The events of a day or range across calendars, with the open tasks due and the time blocks of tasks, in time order or as one digest ready to send',
				routing: multiRequestRouting(getAgenda),
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many calendars',
				description:
					"List the calendars of every connected account: the user's name for each, its account, whether events can be written to it and whether its account is connected",
				routing: calendarGetAllRouting,
			},
			{
				name: 'Mirror Busy Time',
				value: MIRROR_BUSY_TIME,
				action: 'Mirror busy time into a calendar',
				description:
					'Copy the busy events of calendars of any accounts into one calendar as busy blocks without their details or alerts, kept in step on every run',
				routing: multiRequestRouting(mirrorBusyTime, { writes: true }),
			},
		],
		default: 'getAll',
	},
	...calendarGetAllDescription,
	...findFreeTimeDescription,
	...getAgendaDescription,
	...mirrorBusyTimeDescription,
];
