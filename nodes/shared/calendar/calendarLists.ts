import {
	type NodeApiError,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import type { ServiceContext } from '../transport/credentialUser';
import { serviceStatus } from '../transport/errors';
import { cachedList, listIfCached, LIST_REUSE_MS, pickerOptions, readForPicker } from '../transport/listCache';
import { ctsRequest } from '../transport/transport';

/** A calendar as `GET /v3/calendars/list` gives it (the fields the nodes use). */
export interface CalendarInfo extends IDataObject {
	id: string;
	accountId: string;
	integrationId?: string;
	name?: string;
	myRights?: { mayWriteAll?: boolean; mayWriteOwn?: boolean };
	'service.example:metadata'?: { overrideName?: string };
}

/** A connected account as `GET /v3/integrations/accounts/list` gives it. */
export interface AccountInfo extends IDataObject {
	id: string;
	integrationId?: string;
	providerUserId?: string;
	shouldReconnect?: boolean;
	lastCheckedError?: string;
}

/**
 * How long an accounts list serves to label calendars: an account's address and provider do not
 * change, and a calendar of an account the list lacks makes it read again.
 */
const ACCOUNT_LABELS_REUSE_MS = 3600_000;

const PROVIDER_NAMES: Record<string, string> = { providerA: 'Provider A', providerB: 'Provider B', caldav: 'CalDAV' };

/** The calendars of every account of the credential's user (10 points, reused for a minute). */
export async function listCalendars(context: ServiceContext): Promise<CalendarInfo[]> {
	return await cachedList(context, 'ctsApi', 'calendars', async () => {
		const answer = await ctsRequest.call(context, 'ctsApi', { method: 'GET', url: '/v3/calendars/list' });
		return ((answer.data as IDataObject | undefined)?.calendars as CalendarInfo[] | undefined) ?? [];
	});
}

/** The connected accounts of the credential's user (10 points), reused while younger than `maxAgeMs`. */
async function listAccounts(context: ServiceContext, maxAgeMs: number): Promise<AccountInfo[]> {
	return await cachedList(
		context,
		'ctsApi',
		'accounts',
		async () => {
			const answer = await ctsRequest.call(context, 'ctsApi', { method: 'GET', url: '/v3/integrations/accounts/list' });
			return ((answer.data as IDataObject | undefined)?.accounts as AccountInfo[] | undefined) ?? [];
		},
		maxAgeMs,
	);
}

/** The name the user sees for a calendar: their own name for it, else the provider's. */
export function calendarName(calendar: CalendarInfo): string {
	return calendar['service.example:metadata']?.overrideName || calendar.name || calendar.id;
}

export function providerName(integrationId: unknown): string {
	return PROVIDER_NAMES[String(integrationId)] ?? String(integrationId ?? 'unknown provider');
}

/** Whether the user may create, change and delete events in the calendar. */
export function isWritable(calendar: CalendarInfo): boolean {
	const rights = calendar.myRights;
	return rights === undefined || rights.mayWriteAll === true || rights.mayWriteOwn === true;
}

/**
 * Calendars labelled with their account's address and provider: "Team (alice@example.com,
 * Provider A)", and "; needs reconnecting" for an account whose connection was lost (as the
 * accounts list last said). A deployment without the accounts list still gets its calendars,
 * labelled without address.
 */
export async function labelledCalendars(context: ServiceContext): Promise<Array<{ calendar: CalendarInfo; label: string }>> {
	const calendars = await listCalendars(context);
	const accounts = await accountsOf(context, calendars);
	return calendars.map((calendar) => {
		const account = accounts.get(calendar.accountId);
		const owner = [account?.providerUserId, providerName(calendar.integrationId)].filter(Boolean).join(', ');
		return { calendar, label: `${calendarName(calendar)} (${owner}${account?.shouldReconnect ? '; needs reconnecting' : ''})` };
	});
}

/**
 * The accounts of these calendars by ID (the list reused for `maxAgeMs`, by default an hour, and
 * read again when it lacks one of them); empty for a deployment without the accounts list.
 */
export async function accountsOf(
	context: ServiceContext,
	calendars: CalendarInfo[],
	maxAgeMs = ACCOUNT_LABELS_REUSE_MS,
): Promise<Map<string, AccountInfo>> {
	let accounts: AccountInfo[] = [];
	try {
		accounts = await listAccounts(context, maxAgeMs);
		if (calendars.some((calendar) => !accounts.some((account) => account.id === calendar.accountId))) {
			accounts = await listAccounts(context, LIST_REUSE_MS);
		}
	} catch (error) {
		if (serviceStatus(error) !== 404) throw error as NodeApiError;
	}
	return new Map(accounts.map((account) => [account.id, account]));
}

/**
 * The accounts of these calendars that need reconnecting, by ID: the one rule of every operation
 * and trigger that reads calendars across accounts (their calendars are not read: they would
 * answer 401 or 403 for 10 points). `mayRead`: the accounts list is read (reused for an hour, and
 * read again when older than `recheckAfterMs` and it marks one of them, so that a reconnected
 * account is read again soon); else only a list read within the minute is used, at no cost.
 */
export async function accountsToReconnect(
	context: ServiceContext,
	calendars: CalendarInfo[],
	{ mayRead, recheckAfterMs = LIST_REUSE_MS }: { mayRead: boolean; recheckAfterMs?: number },
): Promise<Map<string, AccountInfo>> {
	let accounts: Map<string, AccountInfo>;
	if (mayRead) {
		accounts = await accountsOf(context, calendars);
		if (calendars.some((calendar) => accounts.get(calendar.accountId)?.shouldReconnect === true)) accounts = await accountsOf(context, calendars, recheckAfterMs);
	} else {
		const cached = (await listIfCached<AccountInfo[]>(context, 'ctsApi', 'accounts')) ?? [];
		accounts = new Map(cached.map((account) => [account.id, account]));
	}
	return new Map([...accounts].filter(([, account]) => account.shouldReconnect === true));
}

/**
 * The value "From List" stores for a calendar: its account and its ID, each percent-encoded,
 * joined by "/", so a run needs no lookup to know the account (event IDs and writes need both).
 */
export function calendarRef(accountId: string, calendarId: string): string {
	return `${encodeURIComponent(accountId)}/${encodeURIComponent(calendarId)}`;
}

/** The account and calendar of a {@link calendarRef} value, or undefined for anything else. */
export function parseCalendarRef(value: string): { accountId: string; calendarId: string } | undefined {
	const match = /^([^/]+)\/([^/]+)$/.exec(value);
	if (!match) return undefined;
	try {
		return { accountId: decodeURIComponent(match[1]), calendarId: decodeURIComponent(match[2]) };
	} catch {
		return undefined;
	}
}

// ---------------------------------------------------------------------------------------------
// Account and calendars dropdowns (Event node Get Many, Event Trigger)

/** The Account dropdown's first choice: no account, every account's calendars. */
export const EVERY_ACCOUNT: INodePropertyOptions = { name: 'Every Account', value: '', description: 'The calendars of every connected account' };

/** Dropdown of the connected accounts: address and provider, and whether it needs reconnecting. */
export async function getAccounts(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	// The field's default (empty: every account) is one of the choices, so the editor does not flag it as unsupported.
	return await pickerOptions(async () => {
		const accounts = await readForPicker(this, 'its accounts', 'expression', async () => await listAccounts(this, LIST_REUSE_MS));
		return accounts.map((account) => ({
			name: `${account.providerUserId ?? account.id} (${providerName(account.integrationId)})`,
			value: account.id,
			description: account.shouldReconnect ? `Needs reconnecting in the service: ${account.lastCheckedError ?? 'connection lost'}` : undefined,
		}));
	}, [EVERY_ACCOUNT]);
}

/**
 * Account and Calendars of operations that list the events of several calendars (Event Get Many,
 * the Event Trigger). Neither is required: the Calendars list works on first open, offering every
 * readable calendar of every account (each stored with its account), and empty means every
 * readable calendar (see `watchedCalendars`). Account narrows both to one account.
 */
export function accountAndCalendarsFields(displayOptions: INodeProperties['displayOptions'], purpose: string): INodeProperties[] {
	return [
		{
			displayName: 'Calendar Names or IDs',
			name: 'calendarIds',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getAccountCalendars', loadOptionsDependsOn: ['accountId'] },
			default: [],
			description: `Calendars ${purpose}, from any of the accounts. Empty: all readable calendars. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
			displayOptions,
		},
		{
			displayName: 'Account Name or ID',
			name: 'accountId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getAccounts' },
			default: '',
			description:
				'Only this account\'s calendars (empty: every account). Needed only for calendar IDs given by expression without their account. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			displayOptions,
		},
	];
}
