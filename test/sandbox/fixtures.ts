/**
 * The sandbox's fixtures: the users, API keys, calendar accounts (one per provider kind, plus an
 * expired and a revoked connection), calendars (with their rights and the provider's default
 * alerts) and tags that every start and every reset begins from.
 */
import type {
	Account,
	ApiKeyRecord,
	Calendar,
	CalendarRights,
	ConnectionState,
	IntegrationId,
	TagRecord,
	User,
} from './store';

export interface Fixtures {
	users: User[];
	apiKeys: ApiKeyRecord[];
	accounts: Account[];
	calendars: Calendar[];
	tags: Record<string, TagRecord[]>;
}

const FULL_RIGHTS: CalendarRights = {
	mayReadFreeBusy: true,
	mayReadItems: true,
	mayWriteAll: true,
	mayWriteOwn: true,
	mayUpdatePrivate: true,
	mayRSVP: true,
	mayAdmin: true,
	mayDelete: true,
};

/** A subscribed calendar: its events can be read, nothing can be written. */
const READ_ONLY_RIGHTS: CalendarRights = {
	mayReadFreeBusy: true,
	mayReadItems: true,
	mayWriteAll: false,
	mayWriteOwn: false,
	mayUpdatePrivate: false,
	mayRSVP: false,
	mayAdmin: false,
	mayDelete: false,
};

/** Default alerts as each kind of provider sets them up for a new calendar. */
const DEFAULT_ALERTS: Record<IntegrationId, Calendar['defaultAlertOffsets']> = {
	providerA: { withTime: ['-PT10M'], withoutTime: ['-PT15H'] },
	providerB: { withTime: ['-PT15M'], withoutTime: ['-PT18H'] },
	caldav: { withTime: [], withoutTime: [] },
};

/** The fixtures after start and after reset. */
export function fixtures(): Fixtures {
	const accounts = [
		account('acc-alice-a', 'alice', 'providerA', 'active', 'alice@sandbox.example', 'Alice Martin'),
		account('acc-alice-b', 'alice', 'providerB', 'active', 'alice@sandbox.example', 'Alice Martin'),
		account('acc-alice-c', 'alice', 'caldav', 'active', 'alice@sandbox.example', 'Alice Martin'),
		account('acc-alice-expired', 'alice', 'providerA', 'expired', 'alice@sandbox.example', 'Alice Martin'),
		account('acc-alice-revoked', 'alice', 'providerB', 'revoked', 'alice@sandbox.example', 'Alice Martin'),
		account('acc-bob-a', 'bob', 'providerA', 'active', 'bob@sandbox.example', 'Bob Keller'),
	];
	const byId = new Map(accounts.map((a) => [a.id, a]));
	const sortOrders = new Map<string, number>();
	/** A calendar of an account, ordered after the account's calendars listed before it (the first is its primary). */
	const calendar = (
		id: string,
		accountId: string,
		name: string,
		color: string,
		extra: Partial<Pick<Calendar, 'myRights' | 'defaultAlertOffsets' | 'busy' | 'overrideColor' | 'overrideName'>> = {},
	): Calendar => {
		const owner = byId.get(accountId)!;
		const sortOrder = sortOrders.get(accountId) ?? 0;
		sortOrders.set(accountId, sortOrder + 1);
		// A copy: a test may change one calendar's rights without touching the shared defaults.
		return structuredClone({
			id,
			accountId,
			userId: owner.userId,
			name,
			primary: sortOrder === 0,
			color,
			sortOrder,
			myRights: FULL_RIGHTS,
			defaultAlertOffsets: DEFAULT_ALERTS[owner.integrationId],
			busy: true,
			...extra,
		});
	};
	return {
		users: [
			{ id: 'alice', email: 'alice@sandbox.example', apiAccess: true, taskAccountId: 'acc-alice-service' },
			{ id: 'bob', email: 'bob@sandbox.example', apiAccess: true, taskAccountId: 'acc-bob-service' },
			{ id: 'noplan', email: 'noplan@sandbox.example', apiAccess: false, taskAccountId: 'acc-noplan-service' },
		],
		apiKeys: [
			{ key: 'sandbox-alice-key', userId: 'alice' },
			{ key: 'sandbox-bob-key', userId: 'bob' },
			{ key: 'sandbox-noplan-key', userId: 'noplan' },
		],
		accounts,
		calendars: [
			calendar('cal-alice-a-primary', 'acc-alice-a', 'alice@sandbox.example', '#039be5', { overrideName: 'Personal' }),
			calendar('cal-alice-a-team', 'acc-alice-a', 'Team Platform', '#7986cb', { overrideColor: '#33b679' }),
			calendar('cal-alice-a-holidays', 'acc-alice-a', 'Holidays in Germany', '#0b8043', {
				myRights: READ_ONLY_RIGHTS,
				defaultAlertOffsets: { withTime: [], withoutTime: [] },
				busy: false,
			}),
			calendar('cal-alice-b-primary', 'acc-alice-b', 'Calendar', '#a4bdfc'),
			calendar('cal-alice-c-home', 'acc-alice-c', 'Home', '#f691b2'),
			calendar('cal-alice-expired', 'acc-alice-expired', 'Side Project', '#ff887c'),
			calendar('cal-alice-revoked', 'acc-alice-revoked', 'Former Employer', '#dbadff'),
			calendar('cal-bob-a-primary', 'acc-bob-a', 'bob@sandbox.example', '#9fe1e7'),
		],
		tags: {
			alice: [
				tag('tag-alice-work', 'Work', '#4285f4', '2026-01-05T09:00:00.000Z'),
				tag('tag-alice-urgent', 'Urgent', '#ea4335', '2026-01-05T09:01:00.000Z'),
				tag('tag-alice-errands', 'Errands', '#34a853', '2026-01-05T09:02:00.000Z'),
			],
			bob: [tag('tag-bob-reading', 'Reading', '#fbbc04', '2026-01-06T18:30:00.000Z')],
		},
	};
}

function account(
	id: string,
	userId: string,
	integrationId: IntegrationId,
	connection: ConnectionState,
	ownerEmail: string,
	displayName: string,
): Account {
	return { id, userId, integrationId, connection, ownerEmail, displayName };
}

function tag(id: string, name: string, color: string, updated: string): TagRecord {
	return { id, name, color, updated };
}
