/**
 * Conformance of `GET /v3/calendars/list` and `GET /v3/integrations/accounts/list`, and of the
 * calendar rights the event endpoints enforce. Over real HTTP against an in-process sandbox.
 */
import {
	ACC_A,
	ACC_B,
	ACC_BOB,
	ACC_C,
	ACC_EXPIRED,
	ACC_REVOKED,
	ALICE_EMAIL,
	CAL_A,
	CAL_A_HOLIDAYS,
	CAL_A_TEAM,
	CAL_B,
	CAL_BOB,
	CAL_C,
	CAL_EXPIRED,
	CAL_REVOKED,
	Events,
	b64,
	eventBody,
	timed,
} from './support/events';
import {
	BOB,
	expectApiKeyAuthentication,
	expectErrorBody,
	expectValidation,
	remainingPoints,
	useSandbox,
	type Response,
} from './support/http';

const ctx = useSandbox({ points: 300 });
const api = () => ctx.client;
const ev = new Events(api);

const CALENDARS = '/v3/calendars/list';
const ACCOUNTS = '/v3/integrations/accounts/list';

async function listed(path: string, field: string, key?: string): Promise<any[]> {
	const res = await api().get(path, {}, { key });
	expect(res.status).toBe(200);
	return res.body.data[field];
}

const calendars = (key?: string) => listed(CALENDARS, 'calendars', key);
const accounts = (key?: string) => listed(ACCOUNTS, 'accounts', key);

const HEX = /^#[0-9a-f]{6}$/;
const RIGHTS = ['mayReadFreeBusy', 'mayReadItems', 'mayWriteAll', 'mayWriteOwn', 'mayUpdatePrivate', 'mayRSVP', 'mayAdmin', 'mayDelete'];
const alertOf = (offset: string) => ({ '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset, relativeTo: 'start' }, action: 'display' });
const alertId = (offset: string) => b64(`{"a":"display","to":"${offset}"}`);

describe('calendars list', () => {
	it('calendars: answers 200 { data: { calendars } } with the calendars of every account of the user, expired and revoked connections included, account by account in sortOrder', async () => {
		const res = await api().get(CALENDARS);
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['data']);
		expect(Object.keys(res.body.data)).toEqual(['calendars']);
		expect(res.body.data.calendars.map((c: any) => [c.accountId, c.id, c.sortOrder])).toEqual([
			[ACC_A, CAL_A, 0],
			[ACC_A, CAL_A_TEAM, 1],
			[ACC_A, CAL_A_HOLIDAYS, 2],
			[ACC_B, CAL_B, 0],
			[ACC_C, CAL_C, 0],
			[ACC_EXPIRED, CAL_EXPIRED, 0],
			[ACC_REVOKED, CAL_REVOKED, 0],
		]);
	});

	it('calendars: every calendar carries every documented field with its type, and no field is null', async () => {
		const res = await api().get(CALENDARS);
		expect(res.text).not.toContain('null');
		const integrations = new Map((await accounts()).map((a) => [a.id, a.integrationId]));
		const allMetadata = res.body.data.calendars.map((calendar: any) => calendar['service.example:metadata']);
		for (const key of ['overrideColor', 'overrideName']) expect(allMetadata.filter((metadata: object) => key in metadata).length).toBeGreaterThan(0);
		for (const calendar of res.body.data.calendars) {
			expect(calendar['@type']).toBe('Calendar');
			expect(typeof calendar.id).toBe('string');
			expect(calendar.integrationId).toBe(integrations.get(calendar.accountId));
			expect(typeof calendar.name).toBe('string');
			expect(calendar.name.length).toBeGreaterThan(0);
			expect(calendar.color).toMatch(HEX);
			expect(Number.isInteger(calendar.sortOrder)).toBe(true);
			expect(Object.keys(calendar.myRights)).toEqual(RIGHTS);
			for (const right of RIGHTS) expect(typeof calendar.myRights[right]).toBe('boolean');
			for (const field of ['defaultAlertsWithTime', 'defaultAlertsWithoutTime']) {
				for (const [id, alert] of Object.entries<any>(calendar[field])) {
					expect(alert).toEqual(alertOf(alert.trigger.offset));
					expect(id).toBe(alertId(alert.trigger.offset));
				}
			}
			const metadata = calendar['service.example:metadata'];
			expect(typeof metadata.busy).toBe('boolean');
			// Optional: a color and a name the user chose over the calendar's own.
			expect(metadata.overrideColor ?? '#000000').toMatch(HEX);
			expect(metadata.overrideName ?? 'none chosen').not.toBe('');
			expect(Object.keys(calendar)).toEqual([
				'@type',
				'id',
				'accountId',
				'integrationId',
				'name',
				'color',
				'sortOrder',
				'myRights',
				'defaultAlertsWithTime',
				'defaultAlertsWithoutTime',
				'service.example:metadata',
			]);
		}
	});

	it('calendars: the fixture calendars have real names, colours, overrides and default alerts', async () => {
		const byId = new Map((await calendars()).map((c) => [c.id, c]));
		expect(byId.get(CAL_A)).toEqual({
			'@type': 'Calendar',
			id: CAL_A,
			accountId: ACC_A,
			integrationId: 'providerA',
			name: ALICE_EMAIL,
			color: '#039be5',
			sortOrder: 0,
			myRights: Object.fromEntries(RIGHTS.map((right) => [right, true])),
			defaultAlertsWithTime: { [alertId('-PT10M')]: alertOf('-PT10M') },
			defaultAlertsWithoutTime: { [alertId('-PT15H')]: alertOf('-PT15H') },
			'service.example:metadata': { busy: true, overrideName: 'Personal' },
		});
		expect(byId.get(CAL_A_TEAM)['service.example:metadata']).toEqual({ busy: true, overrideColor: '#33b679' });
		expect(byId.get(CAL_B).defaultAlertsWithTime).toEqual({ [alertId('-PT15M')]: alertOf('-PT15M') });
		// An empty map is a value and is returned as is.
		expect(byId.get(CAL_C).defaultAlertsWithTime).toEqual({});
		expect(byId.get(CAL_C).defaultAlertsWithoutTime).toEqual({});
		expect([...byId.values()].map((c) => c.name)).toEqual([
			ALICE_EMAIL,
			'Team Platform',
			'Holidays in Germany',
			'Calendar',
			'Home',
			'Side Project',
			'Former Employer',
		]);
	});

	it('calendars: the holiday calendar is read-only: its events can be read, not written, and it does not count as busy', async () => {
		const holidays = (await calendars()).find((c) => c.id === CAL_A_HOLIDAYS);
		expect(holidays.myRights).toEqual({
			mayReadFreeBusy: true,
			mayReadItems: true,
			mayWriteAll: false,
			mayWriteOwn: false,
			mayUpdatePrivate: false,
			mayRSVP: false,
			mayAdmin: false,
			mayDelete: false,
		});
		expect(holidays['service.example:metadata']).toEqual({ busy: false });
		// Every other calendar may be written to.
		const others = (await calendars()).filter((calendar) => calendar.id !== CAL_A_HOLIDAYS);
		expect(others.length).toBeGreaterThan(0);
		for (const calendar of others) expect(calendar.myRights.mayWriteAll).toBe(true);
	});

	it('calendars: the default alerts have the ids event alerts have: an event given the same alert stores it under the same key', async () => {
		const calendar = (await calendars()).find((c) => c.id === CAL_A);
		const event = await ev.create({ alerts: { mine: { trigger: { offset: '-PT10M' } } } });
		expect(Object.keys(event.alerts)).toEqual(Object.keys(calendar.defaultAlertsWithTime));
		expect(Object.values(event.alerts)).toEqual(Object.values(calendar.defaultAlertsWithTime));
	});

	it('calendars: each user sees only their own calendars', async () => {
		expect((await calendars(BOB)).map((c) => [c.id, c.accountId, c.integrationId])).toEqual([[CAL_BOB, ACC_BOB, 'providerA']]);
	});

	it('calendars: the list takes no query parameters', async () => {
		expectValidation(await api().get(CALENDARS, { accountId: ACC_A }), ['property accountId should not exist']);
	});
});

describe('accounts list', () => {
	it('accounts: answers 200 { data: { accounts } } with every connected account of the user, its provider e-mail and display name', async () => {
		const res = await api().get(ACCOUNTS);
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['data']);
		expect(Object.keys(res.body.data)).toEqual(['accounts']);
		expect(res.text).not.toContain('null');
		const active = (id: string, integrationId: string) => ({
			id,
			integrationId,
			providerUserId: ALICE_EMAIL,
			providerUserDisplayName: 'Alice Martin',
			shouldReconnect: false,
		});
		expect(res.body.data.accounts).toEqual([
			active(ACC_A, 'providerA'),
			active(ACC_B, 'providerB'),
			active(ACC_C, 'caldav'),
			{
				...active(ACC_EXPIRED, 'providerA'),
				shouldReconnect: true,
				lastCheckedError: 'The access token has expired and could not be refreshed',
			},
			{
				...active(ACC_REVOKED, 'providerB'),
				shouldReconnect: true,
				lastCheckedError: 'Access to the calendar account was revoked at the provider',
			},
		]);
	});

	it('accounts: shouldReconnect marks exactly the accounts whose event calls answer 401 or 403', async () => {
		const byAccount = new Map<string, string[]>();
		for (const calendar of await calendars()) byAccount.set(calendar.accountId, [...(byAccount.get(calendar.accountId) ?? []), calendar.id]);
		const all = await accounts();
		const flagged = all.filter((account) => account.shouldReconnect);
		const fine = all.filter((account) => !account.shouldReconnect);
		expect([flagged.length, fine.length]).toEqual([2, all.length - 2]);
		const list = async (account: any) => (await ev.list({ accountId: account.id, calendarIds: byAccount.get(account.id)!.join(',') })).status;
		for (const account of flagged) {
			expect([401, 403]).toContain(await list(account));
			expect(typeof account.lastCheckedError).toBe('string');
		}
		for (const account of fine) {
			expect(await list(account)).toBe(200);
			expect(account).not.toHaveProperty('lastCheckedError');
		}
	});

	it('accounts: a connection that expires or is revoked later is flagged from then on', async () => {
		api().sandbox.store.accounts.get(ACC_B)!.connection = 'revoked';
		const account = (await accounts()).find((a) => a.id === ACC_B);
		expect(account.shouldReconnect).toBe(true);
		expect(account.lastCheckedError).toBe('Access to the calendar account was revoked at the provider');
	});

	it('accounts: every calendar belongs to a listed account, and every account has a calendar', async () => {
		const accountIds = (await accounts()).map((a) => a.id);
		const calendarAccounts = [...new Set((await calendars()).map((c) => c.accountId))];
		expect(calendarAccounts).toEqual(accountIds);
	});

	it('accounts: each user sees only their own accounts', async () => {
		expect(await accounts(BOB)).toEqual([
			{ id: ACC_BOB, integrationId: 'providerA', providerUserId: 'bob@sandbox.example', providerUserDisplayName: 'Bob Keller', shouldReconnect: false },
		]);
	});

	it('accounts: the list takes no query parameters', async () => {
		expectValidation(await api().get(ACCOUNTS, { limit: '10', x: '' }), ['property limit should not exist', 'property x should not exist']);
	});
});

describe('authentication and points', () => {
	it.each([[CALENDARS], [ACCOUNTS]])('auth: %s answers 401 without a valid API key (a v1 bearer token included) and 403 for a plan without API access', async (path) => {
		await expectApiKeyAuthentication(api(), 'GET', path);
	});

	it.each([[CALENDARS], [ACCOUNTS]])('points: %s costs 10 points', async (path) => {
		expect(remainingPoints(await api().get(path))).toBe(290);
		expect(remainingPoints(await api().get(path))).toBe(280);
	});

	it.each([[CALENDARS], [ACCOUNTS]])('points: %s is refused with 429 when fewer than 10 points remain; the refusal is not charged', async (path) => {
		await api().control('POST', 'limits', { points: 15 });
		expect(remainingPoints(await api().get(path))).toBe(5);
		const refused = await api().get(path);
		expectErrorBody(refused, 429);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(remainingPoints(await api().get('/v3/tasks', { id: 'x' }))).toBe(4);
	});
});

describe('calendar rights on the event endpoints', () => {
	const READ_ONLY = `calendar ${CAL_A_HOLIDAYS} is read-only: events cannot be created, changed or deleted in it`;
	const IN_HOLIDAYS = { accountId: ACC_A, calendarId: CAL_A_HOLIDAYS };

	const expectReadOnly = (res: Response, message = READ_ONLY) => {
		expectErrorBody(res, 403, message);
		expect(res.body.context).toEqual(IN_HOLIDAYS);
	};

	/** Gives the user write rights on a calendar (or takes them away) in the store. */
	const setWritable = (calendarId: string, writable: boolean) => {
		const rights = api().sandbox.store.calendars.get(calendarId)!.myRights;
		rights.mayWriteAll = writable;
		rights.mayWriteOwn = writable;
		rights.mayRSVP = writable;
	};

	const v1 = async (path: string, body: Record<string, unknown>) => {
		const token = (await api().control('POST', 'token', { user: 'alice' })).body.token as string;
		return api().call('POST', `/v1/events/${path}`, { body, authorization: `Bearer ${token}` });
	};

	it('rights: a read-only calendar can be listed (it is empty) but refuses a create with 403, in v3 and v1, and stores nothing', async () => {
		expect(await ev.listEvents({ calendarIds: CAL_A_HOLIDAYS })).toEqual([]);
		expectReadOnly(await api().post('/v3/events/create', eventBody(IN_HOLIDAYS)));
		expectReadOnly(await v1('create', { calendarId: CAL_A_HOLIDAYS, title: 'Holiday', ...timed() }));
		expect(api().sandbox.store.eventsOf('alice').size).toBe(0);
	});

	it('rights: update and delete naming a read-only calendar answer 403 before looking for the event', async () => {
		expectReadOnly(await api().post('/v3/events/update', { id: 'no-such-event', ...IN_HOLIDAYS, title: 'x' }));
		expectReadOnly(await api().post('/v3/events/delete', { id: 'no-such-event', ...IN_HOLIDAYS }));
	});

	it('rights: the checks before it still come first (account 400, calendar of the account 400)', async () => {
		expectErrorBody(await api().post('/v3/events/create', eventBody({ accountId: ACC_B, calendarId: CAL_A_HOLIDAYS })), 400);
		expectErrorBody(await api().post('/v3/events/create', eventBody({ accountId: ACC_BOB, calendarId: CAL_A_HOLIDAYS })), 400);
	});

	it('rights: an event in a calendar that became read-only can be read but not changed, deleted or answered (v3 and v1)', async () => {
		setWritable(CAL_A_HOLIDAYS, true);
		const participants = { [b64(ALICE_EMAIL)]: { email: ALICE_EMAIL } };
		const event = await ev.create({ ...IN_HOLIDAYS, title: 'Public holiday', participants });
		setWritable(CAL_A_HOLIDAYS, false);

		expect((await ev.getEvent(event.id)).title).toBe('Public holiday');
		expect((await ev.listEvents({ calendarIds: CAL_A_HOLIDAYS })).map((e) => e.id)).toEqual([event.id]);
		expectReadOnly(await ev.update({ id: event.id, ...IN_HOLIDAYS, title: 'Changed' }));
		expectReadOnly(await ev.delete(event.id, undefined, IN_HOLIDAYS));
		expectReadOnly(await v1('update', { id: event.id, title: 'Changed' }));
		expectReadOnly(await v1('delete', { id: event.id }));
		expectReadOnly(
			await v1('accept', { id: event.id }),
			`calendar ${CAL_A_HOLIDAYS} does not allow answering invitations (myRights.mayRSVP is false)`,
		);
		expect(await ev.getEvent(event.id)).toEqual(event);
	});

	it('rights: the rights are what the calendars list shows: taking them away from a calendar makes it read-only', async () => {
		setWritable(CAL_A, false);
		const listed = (await calendars()).find((c) => c.id === CAL_A);
		expect([listed.myRights.mayWriteAll, listed.myRights.mayWriteOwn]).toEqual([false, false]);
		const res = await api().post('/v3/events/create', eventBody());
		expectErrorBody(res, 403, `calendar ${CAL_A} is read-only: events cannot be created, changed or deleted in it`);
		setWritable(CAL_A, true);
		expect((await api().post('/v3/events/create', eventBody())).status).toBe(200);
	});
});
