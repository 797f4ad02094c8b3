/**
 * The lists behind the pickers ("From List" of the Calendar, Task and Tag fields; the Account,
 * Calendars and Tags dropdowns), run as n8n's server runs them (LoadOptionsContext) against the
 * sandbox: what they offer, what they cost (the sandbox's request log), the one-minute reuse per
 * service user, local search, and the explanation when a deployment lacks a list (a proxy turns
 * the sandbox's answer into a 404), and what each says with the point budget used up. Then the
 * values the pickers store, run through the engine.
 */
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { AlteringProxy } from '../harness/alteringProxy';
import { Engine, PollHarness, type MethodRunOptions } from '../harness/engine';
import { ALICE_KEY, BOB_KEY, SandboxClient, timedEvent } from '../harness/sandboxClient';
import { UNAVAILABLE_OPTION } from '../../nodes/shared/transport/listCache';

const sandbox = new SandboxClient();
const engine = new Engine({
	ctsEvent: new CtsEvent(),
	ctsTask: new CtsTask(),
	ctsEventTrigger: new CtsEventTrigger(),
	ctsTaskTrigger: new CtsTaskTrigger(),
});

const MINUTE = 60_000;

// Lists are reused for a minute by the clock (accounts, for labels, an hour): only Date is faked,
// and each test starts more than an hour after the previous one, so no test sees another's lists.
jest.useFakeTimers({
	advanceTimers: true,
	doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'queueMicrotask', 'hrtime', 'performance'],
});
const later = (ms: number) => jest.setSystemTime(Date.now() + ms);

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => {
	later(2 * 60 * MINUTE);
	await sandbox.reset();
});

/** The node's current parameters and credential, as the editor sends them when it opens a list. */
function options(type: string, parameters: IDataObject = {}, key = ALICE_KEY, baseUrl = sandbox.url): MethodRunOptions {
	return { type, parameters, credentials: { ctsApi: { apiKey: key, baseUrl } } };
}

/** The list calls the sandbox answered since the last reset, with their points. */
async function listCalls() {
	return (await sandbox.requests()).map(({ method, path, points }) => ({ call: `${method} ${path}`, points }));
}

const searchCalendars = (extra: Partial<MethodRunOptions & { filter: string }> = {}, key = ALICE_KEY) =>
	engine.runListSearch('searchCalendars', { ...options('ctsEvent', { resource: 'event', operation: 'create' }, key), ...extra });

describe('Calendar, From List', () => {
	it('offers the calendars the user may write to, by their name with the account address and provider, each with its account', async () => {
		const { results } = await searchCalendars();
		expect(results).toEqual([
			{ name: 'Personal (alice@sandbox.example, Provider A)', value: 'acc-alice-a/cal-alice-a-primary' },
			{ name: 'Team Platform (alice@sandbox.example, Provider A)', value: 'acc-alice-a/cal-alice-a-team' },
			{ name: 'Calendar (alice@sandbox.example, Provider B)', value: 'acc-alice-b/cal-alice-b-primary' },
			{ name: 'Home (alice@sandbox.example, CalDAV)', value: 'acc-alice-c/cal-alice-c-home' },
			{ name: 'Side Project (alice@sandbox.example, Provider A; needs reconnecting)', value: 'acc-alice-expired/cal-alice-expired' },
			{ name: 'Former Employer (alice@sandbox.example, Provider B; needs reconnecting)', value: 'acc-alice-revoked/cal-alice-revoked' },
		]);
		// The read-only holiday calendar is not offered for writes.
		expect(results.map((result) => result.value)).not.toContain('acc-alice-a/cal-alice-a-holidays');
	});

	it('costs 10 points for the calendars and, the first time, 10 for the accounts; reopened within a minute, nothing', async () => {
		await searchCalendars();
		expect(await listCalls()).toEqual([
			{ call: 'GET /v3/calendars/list', points: 10 },
			{ call: 'GET /v3/integrations/accounts/list', points: 10 },
		]);
		await sandbox.clearRequests();
		later(50_000);
		await searchCalendars();
		expect(await listCalls()).toEqual([]);
		// A minute after reading, the calendars are read again; the accounts still label them.
		later(11_000);
		const { results } = await searchCalendars();
		expect(await listCalls()).toEqual([{ call: 'GET /v3/calendars/list', points: 10 }]);
		expect(results[0].name).toBe('Personal (alice@sandbox.example, Provider A)');
	});

	it('searches the list it read, without another call', async () => {
		await searchCalendars();
		await sandbox.clearRequests();
		expect((await searchCalendars({ filter: 'team' })).results).toEqual([
			{ name: 'Team Platform (alice@sandbox.example, Provider A)', value: 'acc-alice-a/cal-alice-a-team' },
		]);
		expect((await searchCalendars({ filter: 'caldav' })).results.map((result) => result.value)).toEqual(['acc-alice-c/cal-alice-c-home']);
		expect((await searchCalendars({ filter: 'cal-alice-b-primary' })).results.map((result) => result.value)).toEqual(['acc-alice-b/cal-alice-b-primary']);
		expect((await searchCalendars({ filter: 'nothing like this' })).results).toEqual([]);
		expect(await listCalls()).toEqual([]);
	});

	it('reuses lists per service user: another node of the same user reuses them, another user reads their own', async () => {
		await searchCalendars();
		await sandbox.clearRequests();
		const calendars = await engine.runLoadOptions('getAccountCalendars', options('ctsEventTrigger', { accountId: 'acc-alice-a' }));
		expect(calendars.map((calendar) => calendar.value)).toEqual(['cal-alice-a-primary', 'cal-alice-a-team', 'cal-alice-a-holidays']);
		expect(await listCalls()).toEqual([]);

		const { results } = await searchCalendars({}, BOB_KEY);
		expect(results).toEqual([{ name: 'bob@sandbox.example (bob@sandbox.example, Provider A)', value: 'acc-bob-a/cal-bob-a-primary' }]);
		expect((await listCalls()).map(({ call }) => call)).toEqual(['GET /v3/calendars/list', 'GET /v3/integrations/accounts/list']);
	});

	it('reads once for dropdowns opened at the same time', async () => {
		await Promise.all([searchCalendars(), searchCalendars(), engine.runLoadOptions('getAccounts', options('ctsEvent'))]);
		expect((await listCalls()).map(({ call }) => call).sort()).toEqual(['GET /v3/calendars/list', 'GET /v3/integrations/accounts/list']);
	});

	it('says in plain words that a deployment without the calendar list cannot list, and By ID still creates', async () => {
		const proxy = new AlteringProxy(sandbox.url, (_method, path, answer) =>
			path === '/v3/calendars/list' ? { ...answer, status: 404, body: Buffer.from('{"message":"Cannot GET /v3/calendars/list","errorRef":"x"}') } : answer,
		);
		await proxy.start();
		try {
			const failure = await engine
				.runListSearch('searchCalendars', options('ctsEvent', { resource: 'event', operation: 'create' }, ALICE_KEY, proxy.url))
				.catch((error: Error & { description?: string }) => error);
			expect(failure).toMatchObject({
				message: 'This service cannot list its calendars',
				description: expect.stringContaining('Choose "By ID" and enter the ID'),
			});
			const { items, error } = await engine.runNode({
				type: 'ctsEvent',
				parameters: createParameters({ __rl: true, mode: 'id', value: 'cal-alice-a-team' }, { accountId: 'acc-alice-a' }),
				credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: proxy.url } },
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' });
			// Without the list, an account cannot be looked up: the Account ID is asked for.
			const withoutAccount = await engine.runNode({
				type: 'ctsEvent',
				parameters: createParameters({ __rl: true, mode: 'id', value: 'cal-alice-a-team' }),
				credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: proxy.url } },
			});
			expect(withoutAccount.error?.message).toBe('Account ID: enter the account of the calendar');
		} finally {
			await proxy.stop();
		}
	});

	it('labels calendars without address when the deployment has no accounts list', async () => {
		const proxy = new AlteringProxy(sandbox.url, (_method, path, answer) =>
			path === '/v3/integrations/accounts/list' ? { ...answer, status: 404, body: Buffer.from('{"message":"Not found","errorRef":"x"}') } : answer,
		);
		await proxy.start();
		try {
			const { results } = await engine.runListSearch('searchCalendars', options('ctsEvent', {}, ALICE_KEY, proxy.url));
			expect(results[0]).toEqual({ name: 'Personal (Provider A)', value: 'acc-alice-a/cal-alice-a-primary' });
		} finally {
			await proxy.stop();
		}
	});
});

function createParameters(calendarId: IDataObject | string, extra: IDataObject = {}) {
	return {
		resource: 'event',
		operation: 'create',
		calendarId,
		title: 'Picked',
		start: '2026-12-01T09:00:00',
		endMode: 'duration',
		duration: 'PT30M',
		timeZone: 'Europe/Berlin',
		...extra,
	};
}

describe('Calendar, the values a run gets', () => {
	const runEvent = (parameters: IDataObject) =>
		engine.runNode({ type: 'ctsEvent', parameters, credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });

	it('"From List" carries the account: the event is created in the picked calendar with no list call', async () => {
		const picked = { __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-team', cachedResultName: 'Team Platform (alice@sandbox.example, Provider A)' };
		const { items, error } = await runEvent(createParameters(picked));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team', title: 'Picked' });
		expect((await listCalls()).map(({ call }) => call)).toEqual(['POST /v3/events/create']);
	});

	it('"By ID" takes the Account ID field, as the two fields did before', async () => {
		const { items, error } = await runEvent(createParameters({ __rl: true, mode: 'id', value: 'cal-alice-b-primary' }, { accountId: 'acc-alice-b' }));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' });
		expect(await listCalls()).toEqual([{ call: 'POST /v3/events/create', points: 1 }]);
	});

	it('a calendar ID alone (an expression, an AI agent) finds its account in the calendar list, read once a minute', async () => {
		const byExpression = { __rl: true, mode: 'id', value: '={{ "cal-alice-c-" + "home" }}' };
		const first = await runEvent(createParameters(byExpression));
		expect(first.error).toBeUndefined();
		expect(first.items[0].json).toMatchObject({ accountId: 'acc-alice-c', calendarId: 'cal-alice-c-home' });
		const second = await runEvent(createParameters({ __rl: true, mode: 'list', value: 'cal-alice-a-primary' }));
		expect(second.items[0].json).toMatchObject({ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' });
		expect(await listCalls()).toEqual([
			{ call: 'GET /v3/calendars/list', points: 10 },
			{ call: 'POST /v3/events/create', points: 1 },
			{ call: 'POST /v3/events/create', points: 1 },
		]);
	});

	it('a "From List" value the editor copied into "By ID" (switching modes keeps the value) still names account and calendar', async () => {
		const { items, error } = await runEvent(createParameters({ __rl: true, mode: 'id', value: 'acc-alice-a/cal-alice-a-team' }));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' });
	});

	it('a calendar ID the user does not have is refused naming the field, before any write', async () => {
		const { error } = await runEvent(createParameters({ __rl: true, mode: 'id', value: 'cal-bob-a-primary' }));
		expect(error?.message).toBe('Calendar: no calendar with ID "cal-bob-a-primary" in the accounts of this credential');
		expect((await listCalls()).map(({ call }) => call)).toEqual(['GET /v3/calendars/list']);
	});

	it('a calendar value saved as plain text (before the list existed) still works with its Account ID', async () => {
		const { items, error } = await runEvent(createParameters('cal-alice-a-team', { accountId: 'acc-alice-a' }));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' });
	});

	it('update and delete take the calendar the same way', async () => {
		const { body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' }) });
		const id = body.data.event.id as string;
		await sandbox.clearRequests();
		const calendarId = { __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-team' };
		const updated = await runEvent({ resource: 'event', operation: 'update', eventId: id, calendarId, updateFields: { title: 'Renamed' } });
		expect(updated.error).toBeUndefined();
		expect(updated.items[0].json).toMatchObject({ id, title: 'Renamed' });
		const deleted = await runEvent({ resource: 'event', operation: 'delete', eventId: id, calendarId });
		expect(deleted.items[0].json).toEqual({ id, deleted: true });
		const bodies = (await sandbox.requests()).map((call) => call.body as IDataObject);
		expect(bodies.map(({ accountId, calendarId: calendar }) => [accountId, calendar])).toEqual([
			['acc-alice-a', 'cal-alice-a-team'],
			['acc-alice-a', 'cal-alice-a-team'],
		]);
	});
});

describe('Event, From List (update and delete)', () => {
	const searchEvents = (calendarId: IDataObject, filter?: string, extra: IDataObject = {}) =>
		engine.runListSearch('searchEvents', { ...options('ctsEvent', { resource: 'event', operation: 'update', calendarId, ...extra }), filter });
	const team = { __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-team' };
	/** A local date-time in Europe/Berlin, `days` from now at `hour`:00. */
	const inDays = (days: number, hour: number) => {
		const date = new Date(Date.now() + days * 24 * 3600_000).toISOString().slice(0, 10);
		return `${date}T${String(hour).padStart(2, '0')}:00:00`;
	};
	const create = async (fields: IDataObject) => {
		const { body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ calendarId: 'cal-alice-a-team', ...fields }) });
		return body.data.event as IDataObject;
	};

	it('offers the events of the chosen calendar in the next four weeks, soonest first, each occurrence on its own', async () => {
		const retro = await create({ title: 'Retro', start: inDays(10, 15) });
		const sooner = await create({ title: 'Planning', start: inDays(3, 9) });
		await create({ title: 'Far away', start: inDays(40, 9) });
		await create({ title: 'Elsewhere', start: inDays(2, 9), calendarId: 'cal-alice-a-primary' });
		await sandbox.clearRequests();

		const { results } = await searchEvents(team);
		expect(results.map((result) => result.value)).toEqual([sooner.id, retro.id]);
		expect(results[0].name).toMatch(/^Planning \(\w{3} \d{1,2} \w{3} \d{4}, 09:00\)$/);
		expect((await searchEvents(team, 'retro')).results.map((result) => result.value)).toEqual([retro.id]);
		expect(await listCalls()).toEqual([{ call: 'GET /v3/events/list', points: 10 }]);
		const [listed] = await sandbox.requests();
		expect(listed.query).toMatchObject({ accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-team' });
		expect(Date.parse(listed.query.end) - Date.parse(listed.query.start)).toBe(28 * 24 * 3600_000);

		const series = await create({ title: 'Stand-up', start: inDays(1, 8), recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', count: 2 }] });
		later(MINUTE + 1000);
		const occurrences = (await searchEvents(team, 'stand')).results;
		expect(occurrences).toHaveLength(2);
		expect(occurrences.map((result) => result.value)).not.toContain(series.id);
	});

	it('"By ID" calendars work too, and without a calendar it asks for one', async () => {
		await create({ title: 'Planning', start: inDays(3, 9) });
		const byId = await searchEvents({ __rl: true, mode: 'id', value: 'cal-alice-a-team' }, undefined, { accountId: 'acc-alice-a' });
		expect(byId.results.map((result) => result.name)).toEqual([expect.stringMatching(/^Planning /)]);
		await expect(searchEvents({ __rl: true, mode: 'list', value: '' })).rejects.toThrow('Calendar: choose a calendar from the list or enter its ID');
	});

	it('update and delete take the event picked from the list', async () => {
		const event = await create({ title: 'Planning', start: inDays(3, 9) });
		const picked = { __rl: true, mode: 'list', value: event.id, cachedResultName: 'Planning' };
		const run = (parameters: IDataObject) =>
			engine.runNode({ type: 'ctsEvent', parameters: { resource: 'event', calendarId: team, eventId: picked, ...parameters }, credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });
		const updated = await run({ operation: 'update', updateFields: { title: 'Planning (moved)', start: inDays(4, 9) } });
		expect(updated.error).toBeUndefined();
		expect(updated.items[0].json).toMatchObject({ id: event.id, title: 'Planning (moved)', start: DateTime.fromISO(inDays(4, 9), { zone: String(event.timeZone) }).toISO({ suppressMilliseconds: true }) });
		const deleted = await run({ operation: 'delete' });
		expect(deleted.items[0].json).toEqual({ id: event.id, deleted: true });
		expect((await sandbox.api('GET', '/v3/events', { qs: { id: String(event.id) } })).status).toBe(404);
	});
});

describe('Account and Calendars dropdowns (Get Many, Event Trigger)', () => {
	it('lists the accounts by address and provider, and says which need reconnecting', async () => {
		const accounts = await engine.runLoadOptions('getAccounts', options('ctsEvent'));
		expect(accounts).toEqual([
			// The field's default, so the editor does not mark an empty Account as unsupported.
			{ name: 'Every Account', value: '', description: 'The calendars of every connected account' },
			{ name: 'alice@sandbox.example (Provider A)', value: 'acc-alice-a', description: undefined },
			{ name: 'alice@sandbox.example (Provider B)', value: 'acc-alice-b', description: undefined },
			{ name: 'alice@sandbox.example (CalDAV)', value: 'acc-alice-c', description: undefined },
			{
				name: 'alice@sandbox.example (Provider A)',
				value: 'acc-alice-expired',
				description: 'Needs reconnecting in the service: The access token has expired and could not be refreshed',
			},
			{
				name: 'alice@sandbox.example (Provider B)',
				value: 'acc-alice-revoked',
				description: 'Needs reconnecting in the service: Access to the calendar account was revoked at the provider',
			},
		]);
		expect(await listCalls()).toEqual([{ call: 'GET /v3/integrations/accounts/list', points: 10 }]);
	});

	it('lists the calendars of the chosen account, read-only ones marked', async () => {
		const calendars = await engine.runLoadOptions('getAccountCalendars', options('ctsEvent', { accountId: 'acc-alice-a' }));
		expect(calendars).toEqual([
			{ name: 'Personal', value: 'cal-alice-a-primary' },
			{ name: 'Team Platform', value: 'cal-alice-a-team' },
			{ name: 'Holidays in Germany (read-only)', value: 'cal-alice-a-holidays' },
		]);
	});

	it.each([
		['ctsEvent', { resource: 'event', operation: 'getAll' }],
		['ctsEventTrigger', {}],
	])('%s with its defaults (no Account): the first open lists every readable calendar of every account, each stored with its account', async (type, parameters) => {
		const calendars = await engine.runLoadOptions('getAccountCalendars', options(type, parameters));
		expect(calendars.map((calendar) => calendar.value)).toEqual(expect.arrayContaining(['acc-alice-a/cal-alice-a-primary', 'acc-alice-a/cal-alice-a-team', 'acc-alice-b/cal-alice-b-primary']));
		expect(calendars.find((calendar) => calendar.value === 'acc-alice-a/cal-alice-a-primary')?.name).toBe('Personal (alice@sandbox.example, Provider A)');
		expect(calendars.every((calendar) => /^[^/]+\/[^/]+$/.test(String(calendar.value)))).toBe(true);
	});

	it('explains a deployment without the accounts list', async () => {
		const proxy = new AlteringProxy(sandbox.url, (_method, path, answer) =>
			path === '/v3/integrations/accounts/list' ? { ...answer, status: 404, body: Buffer.from('{"message":"Not found","errorRef":"x"}') } : answer,
		);
		await proxy.start();
		try {
			await expect(engine.runLoadOptions('getAccounts', options('ctsEventTrigger', {}, ALICE_KEY, proxy.url))).rejects.toMatchObject({
				message: 'This service cannot list its accounts',
				description: expect.stringContaining('Enter the IDs with an expression instead'),
			});
		} finally {
			await proxy.stop();
		}
	});

	it('Get Many reads the calendars chosen in the dropdown', async () => {
		await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ calendarId: 'cal-alice-a-team', title: 'In team' }) });
		await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ title: 'In primary' }) });
		const { items, error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: {
				resource: 'event',
				operation: 'getAll',
				accountId: 'acc-alice-a',
				calendarIds: ['cal-alice-a-primary', 'cal-alice-a-team'],
				start: '2026-11-30T00:00:00Z',
				end: '2026-12-02T00:00:00Z',
				returnAll: true,
			},
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.title).sort()).toEqual(['In primary', 'In team']);
		expect((await sandbox.requests()).at(-1)!.query).toMatchObject({ calendarIds: 'cal-alice-a-primary,cal-alice-a-team' });
	});

	it('Get Many takes calendars of two accounts picked on first open (one pick, no Account): one list call per account, no calendar list', async () => {
		await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ calendarId: 'cal-alice-a-team', title: 'In team' }) });
		await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', title: 'In the other account' }) });
		await sandbox.clearRequests();
		const { items, error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'event', operation: 'getAll', calendarIds: ['acc-alice-a/cal-alice-a-team', 'acc-alice-b/cal-alice-b-primary'], start: '2026-11-30T00:00:00Z', end: '2026-12-02T00:00:00Z', returnAll: true },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.title).sort()).toEqual(['In team', 'In the other account']);
		expect((await sandbox.requests()).map((call) => [call.path, call.query?.accountId, call.query?.calendarIds])).toEqual([
			['/v3/events/list', 'acc-alice-a', 'cal-alice-a-team'],
			['/v3/events/list', 'acc-alice-b', 'cal-alice-b-primary'],
		]);
	});

	it('Get Many with its defaults (no Account, no Calendars) reads every readable calendar, leaving out accounts that need reconnecting', async () => {
		await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ calendarId: 'cal-alice-a-team', title: 'In team' }) });
		await sandbox.clearRequests();
		const { items, error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'event', operation: 'getAll', start: '2026-11-30T00:00:00Z', end: '2026-12-02T00:00:00Z', returnAll: true },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.title)).toContain('In team');
		const listed = (await sandbox.requests()).filter((call) => call.path === '/v3/events/list');
		expect(listed.map((call) => call.status)).toEqual(listed.map(() => 200));
		expect(listed.map((call) => call.query?.accountId)).not.toContain('acc-alice-expired');
		expect(listed.map((call) => call.query?.accountId)).not.toContain('acc-alice-revoked');
	});
});

describe('Triggers', () => {
	it('the Event Trigger watches the calendars chosen in the dropdown, and the Task Trigger filters by the tags chosen', async () => {
		const credentials = { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } };
		const events = new PollHarness(new CtsEventTrigger(), 'ctsEventTrigger', {
			accountId: 'acc-alice-a',
			calendarIds: ['cal-alice-a-primary', 'cal-alice-a-team'],
			events: ['created'],
			lookAheadDays: 30,
		}, credentials);
		const tasks = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created'], filters: { tags: ['tag-alice-urgent'] } }, credentials);
		expect(await events.poll()).toBeNull();
		expect(await tasks.poll()).toBeNull();

		const soon = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 19);
		await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ calendarId: 'cal-alice-a-team', title: 'Watched', start: soon, timeZone: 'UTC' }) });
		await sandbox.createTask({ title: 'Urgent one', tags: ['tag-alice-urgent'] });
		await sandbox.createTask({ title: 'Other one', tags: ['tag-alice-work'] });
		later(1000);
		expect((await events.poll())?.[0].map((item) => item.json.title)).toEqual(['Watched']);
		expect((await tasks.poll())?.[0].map((item) => item.json.title)).toEqual(['Urgent one']);
		const watched = (await sandbox.requests()).find((call) => call.path === '/v3/events/list')!;
		expect(watched.query).toMatchObject({ accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary,cal-alice-a-team' });
	});

	it("the Event Trigger's Fetch Test Event works with its defaults (every readable calendar), and reads the calendar list once an hour when it checks", async () => {
		const credentials = { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } };
		const soon = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 19);
		await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', title: 'In the other account', start: soon, timeZone: 'UTC' }) });
		const defaults = { events: ['created', 'updated', 'cancelled'] };
		const sample = await new PollHarness(new CtsEventTrigger(), 'ctsEventTrigger', defaults, credentials).poll('manual');
		expect(sample?.[0][0].json.title).toBe('In the other account');

		const watching = new PollHarness(new CtsEventTrigger(), 'ctsEventTrigger', defaults, credentials);
		await watching.poll();
		await sandbox.clearRequests();
		later(60_000);
		await watching.poll();
		expect((await sandbox.requests()).map((call) => call.path)).not.toContain('/v3/calendars/list');
	});
});

describe('Calendar resource', () => {
	it("Get Many outputs one item per calendar, simplified: the user's name for it, its account, whether it can be written to and is connected", async () => {
		const { items, error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'calendar', operation: 'getAll', returnAll: true },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ id: 'cal-alice-a-primary', accountId: 'acc-alice-a', name: 'Personal', accountEmail: 'alice@sandbox.example', provider: 'Provider A', writable: true, connected: true },
			expect.objectContaining({ id: 'cal-alice-a-team', writable: true, connected: true }),
			expect.objectContaining({ id: 'cal-alice-a-holidays', name: 'Holidays in Germany', writable: false, connected: true }),
			expect.objectContaining({ id: 'cal-alice-b-primary', provider: 'Provider B', connected: true }),
			expect.objectContaining({ id: 'cal-alice-c-home', provider: 'CalDAV', connected: true }),
			expect.objectContaining({ id: 'cal-alice-expired', writable: false, connected: false, connectionProblem: expect.any(String) }),
			expect.objectContaining({ id: 'cal-alice-revoked', writable: false, connected: false, connectionProblem: expect.any(String) }),
		]);
		expect(JSON.stringify(items.map((item) => item.json)).length).toBeLessThan(1500);
		expect(await listCalls()).toEqual([
			{ call: 'GET /v3/calendars/list', points: 10 },
			{ call: 'GET /v3/integrations/accounts/list', points: 10 },
		]);
	});

	it('Get Many with Output Raw gives the service\'s calendars, with their rights, for one list call', async () => {
		const { items, error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'calendar', operation: 'getAll', returnAll: true, output: 'raw' },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toEqual([
			'cal-alice-a-primary',
			'cal-alice-a-team',
			'cal-alice-a-holidays',
			'cal-alice-b-primary',
			'cal-alice-c-home',
			'cal-alice-expired',
			'cal-alice-revoked',
		]);
		expect(items[2].json).toMatchObject({ accountId: 'acc-alice-a', name: 'Holidays in Germany', myRights: { mayWriteAll: false, mayReadItems: true } });
		expect(await listCalls()).toEqual([{ call: 'GET /v3/calendars/list', points: 10 }]);
	});

	it('Get Many keeps to the Limit, and refuses a Limit that is not a whole number before the request', async () => {
		const run = (limit: number | string) =>
			engine.runNode({
				type: 'ctsEvent',
				parameters: { resource: 'calendar', operation: 'getAll', returnAll: false, limit },
				credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
			});
		expect((await run(2)).items.map((item) => item.json.id)).toEqual(['cal-alice-a-primary', 'cal-alice-a-team']);
		await sandbox.clearRequests();
		expect((await run('={{ 0 }}')).error?.message).toBe('Limit: "0" is not a whole number of 1 or more');
		expect(await listCalls()).toEqual([]);
	});
});

describe('Tags', () => {
	const runTask = (parameters: IDataObject) =>
		engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', ...parameters }, credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });

	it('a write names the tags picked from the dropdown in its output, from the list the dropdown read: no list call of its own', async () => {
		await engine.runLoadOptions('getTags', options('ctsTask'));
		await sandbox.clearRequests();
		const created = await runTask({ operation: 'create', title: 'Tagged', additionalFields: { tags: ['tag-alice-work', 'tag-alice-urgent'] } });
		expect(created.error).toBeUndefined();
		expect(created.items[0].json).toEqual({
			id: expect.any(String),
			title: 'Tagged',
			tags: ['tag-alice-work', 'tag-alice-urgent'],
			tagNames: ['Work', 'Urgent'],
			success: true,
		});
		const read = await runTask({ operation: 'update', taskId: created.items[0].json.id, updateFields: { priority: 1 }, returnTask: true });
		expect(read.items[0].json).toMatchObject({ tags: ['tag-alice-work', 'tag-alice-urgent'], tagNames: ['Work', 'Urgent'] });
		expect((await listCalls()).map(({ call }) => call)).toEqual(['POST /v3/tasks/create', 'POST /v3/tasks/update', 'GET /v3/tasks']);
	});

	it('without the tag list at hand (or a minute after it was read), the output has the tag IDs only, and no list is read for names', async () => {
		const created = await runTask({ operation: 'create', title: 'Tagged', additionalFields: { tags: ['tag-alice-work'] } });
		expect(created.items[0].json).toEqual({ id: expect.any(String), title: 'Tagged', tags: ['tag-alice-work'], success: true });
		await engine.runLoadOptions('getTags', options('ctsTask'));
		later(MINUTE + 1);
		await sandbox.clearRequests();
		const read = await runTask({ operation: 'get', taskId: created.items[0].json.id });
		expect(read.items[0].json.tags).toEqual(['tag-alice-work']);
		expect(read.items[0].json).not.toHaveProperty('tagNames');
		expect((await listCalls()).map(({ call }) => call)).toEqual(['GET /v3/tasks']);
	});

	it('the dropdown lists the tags by name (Task node and Task Trigger alike), once a minute', async () => {
		const tags = await engine.runLoadOptions('getTags', options('ctsTask'));
		expect(tags).toEqual([
			{ name: 'Errands', value: 'tag-alice-errands' },
			{ name: 'Urgent', value: 'tag-alice-urgent' },
			{ name: 'Work', value: 'tag-alice-work' },
		]);
		expect(await engine.runLoadOptions('getTags', options('ctsTaskTrigger'))).toEqual(tags);
		expect(await listCalls()).toEqual([{ call: 'GET /v3/tags/list', points: 10 }]);
	});

	it('the Tag field searches by name in the list it read', async () => {
		expect((await engine.runListSearch('searchTags', { ...options('ctsTask'), filter: 'ur' })).results).toEqual([{ name: 'Urgent', value: 'tag-alice-urgent' }]);
		expect((await engine.runListSearch('searchTags', options('ctsTask'))).results.map((tag) => tag.name)).toEqual(['Errands', 'Urgent', 'Work']);
		expect(await listCalls()).toEqual([{ call: 'GET /v3/tags/list', points: 10 }]);
	});

	it('explains a deployment without tags', async () => {
		const proxy = new AlteringProxy(sandbox.url, (_method, path, answer) =>
			path === '/v3/tags/list' ? { ...answer, status: 404, body: Buffer.from('{"message":"Not found","errorRef":"x"}') } : answer,
		);
		await proxy.start();
		try {
			await expect(engine.runLoadOptions('getTags', options('ctsTask', {}, ALICE_KEY, proxy.url))).rejects.toThrow('This service cannot list its tags');
		} finally {
			await proxy.stop();
		}
	});

	it('a task gets the tags picked in the dropdown', async () => {
		const { items, error } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'create', title: 'Tagged', additionalFields: { tags: ['tag-alice-work', 'tag-alice-urgent'] } },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		expect(error).toBeUndefined();
		expect(items[0].json.tags).toEqual(['tag-alice-work', 'tag-alice-urgent']);
	});
});

describe('Task, From List', () => {
	const searchTasks = (filter?: string) => engine.runListSearch('searchTasks', { ...options('ctsTask', { resource: 'task', operation: 'get' }), filter });

	it('offers the open tasks newest first, searchable by title, completed tasks left out', async () => {
		await sandbox.control('clock', { now: '2026-03-01T09:00:00.000Z' });
		const older = await sandbox.createTask({ title: 'Write the report', due: '2026-03-05T17:00:00', timeZone: 'Europe/Berlin' });
		await sandbox.control('clock', { advanceSeconds: 60 });
		const done = await sandbox.createTask({ title: 'Already done' });
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: done } });
		await sandbox.control('clock', { advanceSeconds: 60 });
		const newer = await sandbox.createTask({ title: 'Review the report' });
		await sandbox.clearRequests();

		// Beside each title its due date, or the start of its ID: tasks with the same title can be told apart.
		expect((await searchTasks()).results).toEqual([
			{ name: `Review the report (ID ${newer.slice(0, 8)})`, value: newer },
			{ name: 'Write the report (due 2026-03-05 17:00)', value: older },
		]);
		expect((await searchTasks('write')).results).toEqual([{ name: 'Write the report (due 2026-03-05 17:00)', value: older }]);
		expect(await listCalls()).toEqual([{ call: 'GET /v3/tasks/list', points: 10 }]);
	});

	it('costs 10 points per 100 open tasks', async () => {
		await sandbox.control('limits', { points: null });
		for (let index = 0; index < 150; index++) await sandbox.createTask({ title: `Task ${index}` });
		await sandbox.clearRequests();
		const { results } = await searchTasks();
		expect(results).toHaveLength(150);
		expect(await listCalls()).toEqual([
			{ call: 'GET /v3/tasks/list', points: 10 },
			{ call: 'GET /v3/tasks/list', points: 10 },
		]);
	});

	it('operations take the picked task, and Move its Previous and Parent Task', async () => {
		const first = await sandbox.createTask({ title: 'First' });
		const second = await sandbox.createTask({ title: 'Second' });
		const third = await sandbox.createTask({ title: 'Third' });
		const picked = (id: string) => ({ __rl: true, mode: 'list', value: id, cachedResultName: 'a task' });
		const runTask = (parameters: IDataObject) =>
			engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', output: 'raw', ...parameters }, credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });

		const got = await runTask({ operation: 'get', taskId: picked(first) });
		expect(got.items[0].json).toMatchObject({ id: first, title: 'First' });
		const moved = await runTask({ operation: 'move', returnTask: false, taskId: picked(third), position: 'after', previousTaskId: picked(first), parent: 'under', parentTaskId: picked(second) });
		expect(moved.error).toBeUndefined();
		expect(moved.items[0].json).toEqual({ id: third, previousId: first, parentId: second, success: true });
		expect((await sandbox.requests()).at(-1)!.body).toEqual({ id: third, previousId: first, parentId: second });
		const child = await runTask({ operation: 'create', title: 'Child', additionalFields: { parentTaskId: { __rl: true, mode: 'id', value: first } } });
		expect(child.items[0].json.parentTaskId).toBe(first);
		expect((await sandbox.getTask(child.items[0].json.id as string))!.relatedTo).toEqual({ [first]: { '@type': 'Relation', relation: { parent: true } } });
		const updated = await runTask({ operation: 'update', taskId: { __rl: true, mode: 'id', value: second }, updateFields: { title: 'Second (renamed)' } });
		expect(updated.items[0].json).toMatchObject({ id: second, title: 'Second (renamed)' });
	});
});

describe('Tag resource', () => {
	const runTag = (parameters: IDataObject) =>
		engine.runNode({ type: 'ctsTask', parameters: { resource: 'tag', ...parameters }, credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });

	it('creates, reads, lists, renames and deletes a tag', async () => {
		const created = await runTag({ operation: 'create', name: 'Follow-up', color: '#123abc' });
		expect(created.error).toBeUndefined();
		const id = created.items[0].json.id as string;
		expect(created.items[0].json).toEqual({ id, name: 'Follow-up', color: '#123abc' });

		const got = await runTag({ operation: 'get', tagId: { __rl: true, mode: 'list', value: id, cachedResultName: 'Follow-up' } });
		expect(got.items[0].json).toMatchObject({ id, name: 'Follow-up', color: '#123abc' });

		const listed = await runTag({ operation: 'getAll', returnAll: true });
		expect(listed.items.map((item) => item.json.name)).toEqual(['Follow-up', 'Errands', 'Urgent', 'Work']);
		const limited = await runTag({ operation: 'getAll', returnAll: false, limit: 2 });
		expect(limited.items.map((item) => item.json.name)).toEqual(['Follow-up', 'Errands']);
		expect((await sandbox.requests()).at(-1)!.query).toEqual({ limit: '2' });

		const updated = await runTag({ operation: 'update', tagId: { __rl: true, mode: 'id', value: id }, updateFields: { name: 'Follow up' } });
		expect(updated.items[0].json).toEqual({ id, name: 'Follow up', success: true });
		expect((await sandbox.api('GET', '/v3/tags', { qs: { id } })).body).toMatchObject({ name: 'Follow up', color: '#123abc' });

		const deleted = await runTag({ operation: 'delete', tagId: { __rl: true, mode: 'id', value: id } });
		expect(deleted.items[0].json).toEqual({ id, deleted: true });
		expect((await sandbox.api('GET', '/v3/tags', { qs: { id } })).status).toBe(404);
		const gone = await runTag({ operation: 'get', tagId: { __rl: true, mode: 'id', value: id } });
		expect(gone.error?.message).toBe('Tag not found');
		expect(gone.error?.description).toMatch(/Check the Tag ID: choose the tag from the list/);
	});

	it.each([
		['an empty name', { operation: 'create', name: '={{ "" }}', color: '#123abc' }, 'Name: must not be empty'],
		['a colour that is not #rrggbb', { operation: 'create', name: 'x', color: '={{ "red" }}' }, 'Color: "red" is not a colour of the form #rrggbb'],
		['an update with no field', { operation: 'update', tagId: { __rl: true, mode: 'id', value: 'tag-alice-work' }, updateFields: {} }, 'Update Fields: add Name or Color'],
		['a Limit above what one list call gives', { operation: 'getAll', returnAll: false, limit: 1001 }, 'Limit: must not be greater than 1000'],
	])('refuses %s before any request', async (_name, parameters, message) => {
		const { error } = await runTag(parameters);
		expect(error?.message).toBe(message);
		expect(await listCalls()).toEqual([]);
	});
});

describe('a freshly added node, before the editor has set its credential', () => {
	// n8n's editor asks for a new node's lists before it sets the node's credential, then again after.
	it.each([
		['ctsEvent', 'loadOptions', 'getReadableCalendars', { resource: 'calendar', operation: 'findFreeTime' }],
		['ctsEvent', 'loadOptions', 'getAccounts', { resource: 'event', operation: 'getAll' }],
		['ctsEvent', 'loadOptions', 'getAccountCalendars', { resource: 'event', operation: 'getAll', accountId: 'acc-alice-a' }],
		['ctsEvent', 'loadOptions', 'getAccountCalendars', { resource: 'event', operation: 'getAll' }],
		['ctsEventTrigger', 'loadOptions', 'getAccountCalendars', {}],
		['ctsTask', 'loadOptions', 'getTags', { resource: 'task', operation: 'create' }],
		['ctsEvent', 'listSearch', 'searchCalendars', { resource: 'event', operation: 'create' }],
		['ctsTask', 'listSearch', 'searchTasks', { resource: 'task', operation: 'update' }],
		['ctsTask', 'listSearch', 'searchTags', { resource: 'tag', operation: 'get' }],
	])('%s %s %s: an empty list (Account: its default only), no error and no request', async (type, kind, method, parameters) => {
		const run = { type, parameters, credentials: {} };
		const answer = kind === 'loadOptions' ? await engine.runLoadOptions(method, run) : (await engine.runListSearch(method, run)).results;
		// The Account list offers its default (every account) even then.
		expect(answer).toEqual(method === 'getAccounts' ? [{ name: 'Every Account', value: '', description: 'The calendars of every connected account' }] : []);
		expect(await listCalls()).toEqual([]);
	});

	it('with the credential set, the same list is read', async () => {
		const calendars = await engine.runLoadOptions('getReadableCalendars', options('ctsEvent', { resource: 'calendar', operation: 'findFreeTime' }));
		expect(calendars.map((calendar) => calendar.value)).toContain('acc-alice-a/cal-alice-a-primary');
	});
});

describe('with the point budget used up', () => {
	const team = { __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-team' };
	/** The reason and what to do meanwhile, in one line without dashes: n8n splits a list's error message at dashes, and shows no description. */
	const REASON = /^The point budget is used up \(\d+ of 10 points left\): this list loads again in \d+(\.\d)? (s|min)\. /;

	beforeEach(async () => {
		await sandbox.control('limits', { points: 10 });
		// Another client of the account spent the window's points: the nodes learn it from the refusal.
		expect((await sandbox.api('GET', '/v3/tasks/list')).status).toBe(200);
	});

	it.each([
		['searchCalendars', ['ctsEvent', { resource: 'event', operation: 'create' }]],
		['searchEvents', ['ctsEvent', { resource: 'event', operation: 'update', calendarId: team }]],
		['searchTasks', ['ctsTask', { resource: 'task', operation: 'get' }]],
		['searchTags', ['ctsTask', { resource: 'tag', operation: 'get' }]],
	])('"From List" (%s) fails with the reason, which n8n shows in the open list, and says to use By ID meanwhile', async (method, [type, parameters]) => {
		const failure = await engine.runListSearch(method as string, options(type as string, parameters as IDataObject)).then(
			() => undefined,
			(error: Error & { description?: string }) => error,
		);
		expect(failure?.message).toMatch(REASON);
		expect(failure?.message.replace(REASON, '')).toBe('Meanwhile choose "By ID" and enter the ID.');
		expect(failure?.message).not.toMatch(/-/);
	});

	it.each([
		['getTags', ['ctsTask', { resource: 'task', operation: 'create' }], []],
		['getReadableCalendars', ['ctsEvent', { resource: 'calendar', operation: 'findFreeTime' }], []],
		['getAccounts', ['ctsEventTrigger', {}], ['Every Account']],
		['getAccountCalendars', ['ctsEventTrigger', {}], []],
		['getAccountCalendars', ['ctsEventTrigger', { accountId: 'acc-alice-a' }], []],
	])('a dropdown (%s) offers the reason as its one option, which cannot be picked, instead of "Error fetching options"', async (method, [type, parameters], first) => {
		const offered = await engine.runLoadOptions(method as string, options(type as string, parameters as IDataObject));
		expect(offered.slice(0, first.length).map((option) => option.name)).toEqual(first);
		const [reason, ...rest] = offered.slice(first.length);
		expect(rest).toEqual([]);
		expect(reason).toMatchObject({ disabled: true, value: UNAVAILABLE_OPTION });
		expect(reason.name).toMatch(/^The point budget is used up \(\d+ of 10 points left\): this list loads again in [^-]+\. Meanwhile enter the IDs with an expression \(switch the field to Expression\)\.$/);
	});
});
