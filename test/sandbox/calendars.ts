/**
 * v3 calendars and connected accounts: `GET /v3/calendars/list` and
 * `GET /v3/integrations/accounts/list` (10 points each, no parameters).
 *
 * Both list every calendar account of the caller, including connections that have expired or
 * were revoked (which answer 401 / 403 on event calls): the account then says
 * `shouldReconnect: true` with a `lastCheckedError`, so a client can tell the user to reconnect.
 * A calendar's `myRights` is enforced by the event endpoints: a calendar the user may not write to
 * refuses creates, updates, deletes and RSVPs (see {@link writableCalendar}).
 */
import { ApiError, validate } from './errors';
import { alertId } from './eventBuild';
import { type Alert } from './eventModel';
import { noQuery } from './eventSchemas';
import { LIST_POINTS } from './limits';
import type { Reply, RequestContext, Route } from './router';
import type { Account, Calendar, Store } from './store';

/** What the service last saw when it checked a connection that needs attention. */
const CONNECTION_ERRORS: Record<Exclude<Account['connection'], 'active'>, string> = {
	expired: 'The access token has expired and could not be refreshed',
	revoked: 'Access to the calendar account was revoked at the provider',
};

/** Alerts keyed by their ids, in the shape and with the ids event alerts have. */
function alertMap(offsets: string[]): Record<string, Alert> {
	const out: Record<string, Alert> = {};
	for (const offset of offsets) {
		const alert: Alert = { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset, relativeTo: 'start' }, action: 'display' };
		out[alertId(alert)] = alert;
	}
	return out;
}

export function presentCalendar(store: Store, calendar: Calendar): Record<string, unknown> {
	const metadata: Record<string, unknown> = { busy: calendar.busy };
	if (calendar.overrideColor !== undefined) metadata.overrideColor = calendar.overrideColor;
	if (calendar.overrideName !== undefined) metadata.overrideName = calendar.overrideName;
	return {
		'@type': 'Calendar',
		id: calendar.id,
		accountId: calendar.accountId,
		integrationId: store.accounts.get(calendar.accountId)!.integrationId,
		name: calendar.name,
		color: calendar.color,
		sortOrder: calendar.sortOrder,
		myRights: { ...calendar.myRights },
		defaultAlertsWithTime: alertMap(calendar.defaultAlertOffsets.withTime),
		defaultAlertsWithoutTime: alertMap(calendar.defaultAlertOffsets.withoutTime),
		'service.example:metadata': metadata,
	};
}

export function presentAccount(account: Account): Record<string, unknown> {
	const out: Record<string, unknown> = {
		id: account.id,
		integrationId: account.integrationId,
		providerUserId: account.ownerEmail,
		providerUserDisplayName: account.displayName,
		shouldReconnect: account.connection !== 'active',
	};
	if (account.connection !== 'active') out.lastCheckedError = CONNECTION_ERRORS[account.connection];
	return out;
}

/**
 * The calendar an event write goes to, or 403 when the user may not write to it (neither
 * `mayWriteAll` nor `mayWriteOwn`; for an RSVP, not `mayRSVP`).
 */
export function writableCalendar(store: Store, calendarId: string, action: 'write' | 'rsvp' = 'write'): Calendar {
	const calendar = store.calendars.get(calendarId)!;
	const rights = calendar.myRights;
	const allowed = action === 'rsvp' ? rights.mayRSVP : rights.mayWriteAll || rights.mayWriteOwn;
	if (!allowed) {
		throw new ApiError(
			403,
			action === 'rsvp'
				? `calendar ${calendar.id} does not allow answering invitations (myRights.mayRSVP is false)`
				: `calendar ${calendar.id} is read-only: events cannot be created, changed or deleted in it`,
			{ context: { accountId: calendar.accountId, calendarId: calendar.id } },
		);
	}
	return calendar;
}

function listCalendars(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const calendars = [...ctx.store.calendars.values()]
		.filter((calendar) => calendar.userId === ctx.user.id)
		.map((calendar) => presentCalendar(ctx.store, calendar));
	return { status: 200, body: { data: { calendars } } };
}

function listAccounts(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const accounts = [...ctx.store.accounts.values()].filter((account) => account.userId === ctx.user.id).map(presentAccount);
	return { status: 200, body: { data: { accounts } } };
}

export const calendarRoutes: Route[] = [
	{ method: 'GET', path: '/v3/calendars/list', auth: 'apiKey', points: LIST_POINTS, handler: listCalendars },
	{ method: 'GET', path: '/v3/integrations/accounts/list', auth: 'apiKey', points: LIST_POINTS, handler: listAccounts },
];
