/**
 * Conformance of the sandbox's control endpoints (`/_sandbox/*`).
 */
import { Faults, RequestLog } from './control';
import { ALICE, BOB, NOPLAN, expectErrorBody, expectValidation, useSandbox } from './support/http';

const ctx = useSandbox({ points: 300 });
const api = () => ctx.client;

describe('fixtures', () => {
	it('fixtures: alice, bob and the no-plan key after start', async () => {
		expect((await api().get('/v3/tasks/list', {}, { key: ALICE })).status).toBe(200);
		expect((await api().get('/v3/tasks/list', {}, { key: BOB })).status).toBe(200);
		expect((await api().get('/v3/tasks/list', {}, { key: NOPLAN })).status).toBe(403);
	});

	it('fixtures: users, e-mails, accounts, integrations, connection states and calendars are as the contract lists them', () => {
		const { store } = api().sandbox;
		expect(store.users.get('alice')?.email).toBe('alice@sandbox.example');
		expect(store.users.get('bob')?.email).toBe('bob@sandbox.example');
		const accounts = [...store.accounts.values()].map((a) => [a.id, a.userId, a.integrationId, a.connection]);
		expect(accounts).toEqual([
			['acc-alice-a', 'alice', 'providerA', 'active'],
			['acc-alice-b', 'alice', 'providerB', 'active'],
			['acc-alice-c', 'alice', 'caldav', 'active'],
			['acc-alice-expired', 'alice', 'providerA', 'expired'],
			['acc-alice-revoked', 'alice', 'providerB', 'revoked'],
			['acc-bob-a', 'bob', 'providerA', 'active'],
		]);
		const calendars = [...store.calendars.values()].map((c) => [c.id, c.accountId]);
		expect(calendars).toEqual([
			['cal-alice-a-primary', 'acc-alice-a'],
			['cal-alice-a-team', 'acc-alice-a'],
			['cal-alice-a-holidays', 'acc-alice-a'],
			['cal-alice-b-primary', 'acc-alice-b'],
			['cal-alice-c-home', 'acc-alice-c'],
			['cal-alice-expired', 'acc-alice-expired'],
			['cal-alice-revoked', 'acc-alice-revoked'],
			['cal-bob-a-primary', 'acc-bob-a'],
		]);
		expect(store.tasks.size).toBe(0);
		expect(store.events.size).toBe(0);
		const tags = [...store.tags].map(([userId, byId]) => [userId, [...byId.keys()]]);
		expect(tags).toEqual([
			['alice', ['tag-alice-work', 'tag-alice-urgent', 'tag-alice-errands']],
			['bob', ['tag-bob-reading']],
		]);
	});
});

describe('reset', () => {
	it('reset: removes every task and event, restores budgets, limits, clock and faults, and clears the request log', async () => {
		const { sandbox } = api();
		await api().createTask();
		sandbox.store.eventsOf('alice').set('e1', { id: 'e1' });
		await api().control('POST', 'limits', { points: 20, windowSeconds: 60 });
		await api().get('/v3/tasks/list');
		await api().control('POST', 'clock', { now: '2030-01-01T00:00:00Z' });
		await api().control('POST', 'faults', { status: 503, count: 5 });

		const res = await api().reset();
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ ok: true });
		expect(sandbox.store.tasks.size).toBe(0);
		expect(sandbox.store.events.size).toBe(0);
		expect((await api().control('GET', 'requests')).body).toEqual({ requests: [] });
		expect((await api().control('GET', 'clock')).body.frozen).toBe(false);
		expect((await api().control('GET', 'faults')).body).toEqual({});
		expect((await api().control('GET', 'limits')).body).toEqual({ points: 300, windowSeconds: 900 });
		const list = await api().get('/v3/tasks/list');
		expect(list.status).toBe(200);
		expect(list.body.data.tasks).toEqual([]);
		expect(list.headers.get('ratelimit-remaining')).toBe('290');
	});

	it('control: endpoints need no authentication and ignore any credential', async () => {
		expect((await api().call('POST', '/_sandbox/reset', { key: 'whatever' })).status).toBe(200);
		expect((await api().call('GET', '/_sandbox/health', { authorization: null })).body).toEqual({ ok: true });
	});

	it('control: unknown control paths answer 404 and other methods 405', async () => {
		expectErrorBody(await api().control('GET', 'nothing'), 404);
		const res = await api().control('GET', 'reset');
		expectErrorBody(res, 405);
		expect(res.headers.get('allow')).toBe('POST');
	});
});

describe('token', () => {
	it('token: POST /_sandbox/token {user, ttlSeconds} answers { token } with a JWT', async () => {
		const res = await api().control('POST', 'token', { user: 'alice', ttlSeconds: 3600 });
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['token']);
		expect(res.body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
	});

	it('token: ttlSeconds defaults to 3600 and may be negative for an expired token', async () => {
		const exp = (t: string) => JSON.parse(Buffer.from(t.split('.')[1], 'base64url').toString()).exp as number;
		await api().control('POST', 'clock', { now: '2026-03-01T09:00:00Z' });
		const base = Date.UTC(2026, 2, 1, 9) / 1000;
		expect(exp((await api().control('POST', 'token', { user: 'bob' })).body.token)).toBe(base + 3600);
		expect(exp((await api().control('POST', 'token', { user: 'bob', ttlSeconds: -60 })).body.token)).toBe(base - 60);
	});

	it('token: an unknown user or a malformed body answers 400', async () => {
		expectValidation(await api().control('POST', 'token', { user: 'mallory' }), ['user must be a known user']);
		expectValidation(await api().control('POST', 'token', {}), ['user must be a string']);
		expectValidation(await api().control('POST', 'token', { user: 'alice', ttlSeconds: 'long' }), [
			'ttlSeconds must be a number',
		]);
	});
});

describe('clock', () => {
	it('clock: {"now": instant} freezes the clock there and answers the current time', async () => {
		const res = await api().control('POST', 'clock', { now: '2026-03-01T09:00:00Z' });
		expect(res.body).toEqual({ now: '2026-03-01T09:00:00.000Z', frozen: true });
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect((await api().control('GET', 'clock')).body.now).toBe('2026-03-01T09:00:00.000Z');
		const task = await api().getTask(await api().createTask());
		expect(task.created).toBe('2026-03-01T09:00:00.000Z');
	});

	it('clock: {"advanceSeconds": n} moves a frozen clock', async () => {
		await api().control('POST', 'clock', { now: '2026-03-01T09:00:00Z' });
		expect((await api().control('POST', 'clock', { advanceSeconds: 90 })).body).toEqual({
			now: '2026-03-01T09:01:30.000Z',
			frozen: true,
		});
	});

	it('clock: {"advanceSeconds": n} moves a running clock', async () => {
		const res = await api().control('POST', 'clock', { advanceSeconds: 86_400 });
		expect(res.body.frozen).toBe(false);
		const shift = Date.parse(res.body.now) - Date.now();
		expect(shift).toBeGreaterThan(86_400_000 - 5000);
		expect(shift).toBeLessThan(86_400_000 + 5000);
	});

	it('clock: {"now": null} returns to real time', async () => {
		await api().control('POST', 'clock', { now: '2020-01-01T00:00:00Z' });
		const res = await api().control('POST', 'clock', { now: null });
		expect(res.body.frozen).toBe(false);
		expect(Math.abs(Date.parse(res.body.now) - Date.now())).toBeLessThan(5000);
	});

	it('clock: an instant with an offset is accepted', async () => {
		expect((await api().control('POST', 'clock', { now: '2026-03-01T10:00:00.250+01:00' })).body.now).toBe(
			'2026-03-01T09:00:00.250Z',
		);
	});

	it('clock: an invalid time answers 400', async () => {
		for (const now of ['2026-03-01', '2026-03-01T09:00:00', 'soon', 5]) {
			expect((await api().control('POST', 'clock', { now })).status).toBe(400);
		}
		expect((await api().control('POST', 'clock', { advanceSeconds: '90' })).status).toBe(400);
		expect((await api().control('POST', 'clock', { speed: 2 })).status).toBe(400);
	});
});

describe('limits', () => {
	it('limits: GET /_sandbox/limits answers the budget; invalid settings answer 400', async () => {
		expect((await api().control('GET', 'limits')).body).toEqual({ points: 300, windowSeconds: 900 });
		expect((await api().control('POST', 'limits', { points: -1 })).status).toBe(400);
		expect((await api().control('POST', 'limits', { points: 10, windowSeconds: 0 })).status).toBe(400);
		expect((await api().control('POST', 'limits', {})).status).toBe(400);
	});

	it('limits: a new budget keeps the current window length when windowSeconds is omitted', async () => {
		await api().control('POST', 'limits', { points: 10, windowSeconds: 60 });
		expect((await api().control('POST', 'limits', { points: 20 })).body).toEqual({ points: 20, windowSeconds: 60 });
		expect((await api().control('POST', 'limits', { points: null })).body).toEqual({ points: null });
	});
});

describe('faults', () => {
	it('faults: {"status":503,"count":2} fails the next two API calls with the error body, then calls succeed', async () => {
		expect((await api().control('POST', 'faults', { status: 503, count: 2 })).body).toEqual({ status: 503, statusCount: 2 });
		expectErrorBody(await api().get('/v3/tasks', { id: 'x' }), 503);
		expectErrorBody(await api().post('/v3/tasks/create', { title: 'x' }), 503);
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(200);
		expect(await api().listTasks()).toEqual([]);
	});

	it('faults: count defaults to 1 and any 4xx or 5xx status can be injected', async () => {
		await api().control('POST', 'faults', { status: 404 });
		expectErrorBody(await api().get('/v3/tasks', { id: 'x' }), 404);
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(200);
	});

	it('faults: a 429 fault carries Retry-After', async () => {
		await api().control('POST', 'faults', { status: 429, retryAfterSeconds: 3 });
		const res = await api().get('/v3/tasks', { id: 'x' });
		expectErrorBody(res, 429);
		expect(res.headers.get('retry-after')).toBe('3');
	});

	it('faults: injected failures are not charged but carry the RateLimit headers', async () => {
		await api().control('POST', 'faults', { status: 500 });
		const res = await api().get('/v3/tasks', { id: 'x' });
		expect(res.status).toBe(500);
		expect(res.headers.get('ratelimit-remaining')).toBe('300');
	});

	it('faults: {"delayMs":n,"count":k} delays the next k API calls', async () => {
		await api().control('POST', 'faults', { delayMs: 150, count: 1 });
		const started = Date.now();
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		// The delay was used up: nothing is pending for the next call. (How long the next call
		// takes is a benchmark figure: npm run bench:sandbox.)
		expect((await api().control('GET', 'faults')).body).toEqual({});
	});

	it('faults: a delayed write still reads its body and succeeds', async () => {
		await api().control('POST', 'faults', { delayMs: 50 });
		const res = await api().post('/v3/tasks/create', { title: 'Late' });
		expect(res.status).toBe(200);
		expect((await api().getTask(res.body.data.id)).title).toBe('Late');
	});

	it('faults: a delay and a status combine', async () => {
		await api().control('POST', 'faults', { status: 502, delayMs: 100, count: 1 });
		const started = Date.now();
		expectErrorBody(await api().get('/v3/tasks', { id: 'x' }), 502);
		expect(Date.now() - started).toBeGreaterThanOrEqual(90);
	});

	it('faults: {"path": p} limits the faults to API calls of that path', async () => {
		expect((await api().control('POST', 'faults', { status: 503, count: 2, path: '/v3/tasks' })).body).toEqual({
			status: 503,
			statusCount: 2,
			path: '/v3/tasks',
		});
		expect((await api().post('/v3/tasks/create', { title: 'Unharmed' })).status).toBe(200);
		expectErrorBody(await api().get('/v3/tasks', { id: 'x' }), 503);
		expect(await api().listTasks()).toHaveLength(1);
		expectErrorBody(await api().get('/v3/tasks', { id: 'x' }), 503);
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(200);
		expect((await api().control('GET', 'faults')).body).toEqual({});
		expectValidation(await api().control('POST', 'faults', { status: 503, path: 'v3/tasks' }), ['path must start with /']);
	});

	it('faults: control calls and unauthenticated calls do not use up faults', async () => {
		await api().control('POST', 'faults', { status: 503, count: 1 });
		await api().control('GET', 'requests');
		expect((await api().get('/v3/tasks', { id: 'x' }, { authorization: null })).status).toBe(401);
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(503);
	});

	it('faults: DELETE /_sandbox/faults clears them; invalid settings answer 400', async () => {
		await api().control('POST', 'faults', { status: 503, count: 3 });
		expect((await api().control('DELETE', 'faults')).status).toBe(204);
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(200);
		expect((await api().control('POST', 'faults', { status: 200 })).status).toBe(400);
		expect((await api().control('POST', 'faults', { count: 2 })).status).toBe(400);
	});
});

describe('requests', () => {
	it('requests: GET /_sandbox/requests lists the API calls oldest first with method, path, query, status, points and body', async () => {
		await api().post('/v3/tasks/create', { title: 'Logged' });
		await api().get('/v3/tasks/list', { limit: '5' });
		await api().get('/v3/tasks', { id: 'x' }, { key: 'bad' });
		const res = await api().control('GET', 'requests');
		expect(res.status).toBe(200);
		expect(res.body.requests).toEqual([
			{ time: expect.any(String), method: 'POST', path: '/v3/tasks/create', query: {}, status: 200, points: 1, user: 'alice', body: { title: 'Logged' } },
			{ time: expect.any(String), method: 'GET', path: '/v3/tasks/list', query: { limit: '5' }, status: 200, points: 10, user: 'alice' },
			{ time: expect.any(String), method: 'GET', path: '/v3/tasks', query: { id: 'x' }, status: 401, points: 0 },
		]);
	});

	it('requests: control calls are not logged', async () => {
		await api().control('POST', 'clock', {});
		expect((await api().control('GET', 'requests')).body.requests).toEqual([]);
	});

	it('requests: refused calls are logged with the points they cost', async () => {
		await api().control('POST', 'limits', { points: 1 });
		await api().post('/v3/tasks/create', { title: '' });
		await api().post('/v3/tasks/create', { title: 'x' });
		const log = (await api().control('GET', 'requests')).body.requests;
		expect(log.map((r: { status: number; points: number }) => [r.status, r.points])).toEqual([
			[400, 1],
			[429, 0],
		]);
	});

	it('requests: bodies over 16 KiB or nested deeper than 64 levels are left out of the log, with the reason', async () => {
		await api().post('/v3/tasks/create', { title: 'x'.repeat(20_000) });
		await api().call('POST', '/v3/tasks/create', { raw: `${'['.repeat(100)}${']'.repeat(100)}` });
		const log = (await api().control('GET', 'requests')).body.requests;
		expect(log.map((r: { body?: unknown; bodyOmitted?: string }) => [r.body, r.bodyOmitted])).toEqual([
			[undefined, 'larger than 16 KiB'],
			[undefined, 'nested deeper than 64 levels'],
		]);
	});

	it('requests: DELETE /_sandbox/requests clears the log', async () => {
		await api().get('/v3/tasks', { id: 'x' });
		expect((await api().control('DELETE', 'requests')).status).toBe(204);
		expect((await api().control('GET', 'requests')).body.requests).toEqual([]);
	});

	it('requests: the log keeps only the most recent entries', () => {
		const log = new RequestLog(100);
		for (let i = 0; i < 1234; i++) log.add({ time: '', method: 'GET', path: `/${i}`, query: {}, status: 200, points: 1 });
		const entries = log.list();
		expect(entries).toHaveLength(100);
		expect(entries[0].path).toBe('/1134');
		expect(entries[99].path).toBe('/1233');
	});
});

describe('fault bookkeeping', () => {
	it('faults: status and delay counts run down independently', () => {
		const faults = new Faults();
		faults.failStatus = 503;
		faults.failRemaining = 1;
		faults.delayMs = 10;
		faults.delayRemaining = 2;
		expect(faults.take()).toEqual({ delayMs: 10, status: 503, retryAfterSeconds: 1 });
		expect(faults.take()).toEqual({ delayMs: 10, status: 0, retryAfterSeconds: 1 });
		expect(faults.pending).toBe(false);
	});
});
