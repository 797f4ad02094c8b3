import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { accountsOf, calendarName, isWritable, providerName, type AccountInfo, type CalendarInfo } from '../../../shared/calendar/calendarLists';
import { LIST_REUSE_MS } from '../../../shared/transport/listCache';
import { limitRouting, returnAllAndLimitFields } from '../../../shared/fields/fields';
import { outputFields, outputShaper } from '../../../shared/output/outputShape';
import { maxWaitOnlyOptions } from '../../../shared/transport/transport';

const displayOptions = { show: { apiVersion: ['v3'], resource: ['calendar'], operation: ['getAll'] } };

/**
 * A calendar as a workflow or an agent uses it: the name the user gave it, its account's address,
 * whether events can be written to it, and whether its account is connected (with the reason
 * when it is not, as the accounts list says).
 */
function simplifyCalendar(calendar: CalendarInfo, account: AccountInfo | undefined): IDataObject {
	const connected = account ? account.shouldReconnect !== true : undefined;
	return {
		id: calendar.id,
		accountId: calendar.accountId,
		name: calendarName(calendar),
		accountEmail: account?.providerUserId,
		provider: providerName(calendar.integrationId),
		writable: isWritable(calendar) && connected !== false,
		connected,
		...(connected === false ? { connectionProblem: account?.lastCheckedError ?? 'the connection needs to be renewed: reconnect the account in the service' } : {}),
	};
}

const SIMPLIFIED_FIELDS = ['id', 'accountId', 'name', 'accountEmail', 'provider', 'writable', 'connected', 'connectionProblem'];

/** Shapes the listed calendars as the Output choice asks; the simplified shape reads the accounts list too. */
async function shapeCalendars(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const read = (name: string, fallback: unknown) => this.getNodeParameter(name, fallback);
	if (read('output', 'simplified') === 'raw') return items;
	const calendars = items.map((item) => item.json as CalendarInfo);
	// Read at most once a minute: whether an account is connected should be current.
	const accounts = await accountsOf(this, calendars, LIST_REUSE_MS);
	const shape = outputShaper(read, (calendar) => simplifyCalendar(calendar as CalendarInfo, accounts.get(String(calendar.accountId))));
	return items.map((item) => ({ ...item, json: shape(item.json) }));
}

/** The list call, and the calendars shaped as the Output choice asks. */
export const calendarGetAllRouting: INodeProperties['routing'] = {
	request: { method: 'GET', url: '/v3/calendars/list' },
	output: { postReceive: [{ type: 'rootProperty', properties: { property: 'data.calendars' } }, shapeCalendars] },
};

export const calendarGetAllDescription: INodeProperties[] = [
	...returnAllAndLimitFields(displayOptions, { routing: limitRouting('output') }),
	...outputFields(displayOptions, 'calendar', SIMPLIFIED_FIELDS),
	maxWaitOnlyOptions(displayOptions),
];
