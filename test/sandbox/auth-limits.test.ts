/**
 * Conformance of authentication, rate limits and the shared error handler.
 */
import { createHmac } from 'node:crypto';

import { TOKEN_SECRET } from './auth';
import type { Route } from './router';
import { ALICE, BOB, NOPLAN, expectErrorBody, expectShortBody, useSandbox } from './support/http';

/** Extra routes for this suite: a bearer-authenticated route (v1 has no routes of its own yet) and a failing one. */
const testRoutes: Route[] = [
	{ method: 'GET', path: '/v1/test/whoami', auth: 'bearer', handler: (ctx) => ({ status: 200, body: { user: ctx.user.id } }) },
	{
		method: 'GET',
		path: '/v3/test/explode',
		auth: 'apiKey',
		handler: () => {
			throw new TypeError('boom');
		},
	},
];

const ctx = useSandbox({ routes: testRoutes, points: 300 });
const api = () => ctx.client;

const token = async (user: string, ttlSeconds?: number): Promise<string> =>
	(await api().control('POST', 'token', ttlSeconds === undefined ? { user } : { user, ttlSeconds })).body.token;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function forge(claims: Record<string, unknown>, secret = TOKEN_SECRET, alg = 'HS256'): string {
	const input = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
	return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

describe('authentication (v3 ApiKey)', () => {
	it('auth: a valid key in "Authorization: ApiKey <key>" is accepted', async () => {
		expect((await api().get('/v3/tasks/list', {}, { key: ALICE })).status).toBe(200);
		expect((await api().get('/v3/tasks/list', {}, { key: BOB })).status).toBe(200);
	});

	it('auth: a missing Authorization header answers 401 with the error body', async () => {
		expectErrorBody(await api().get('/v3/tasks/list', {}, { authorization: null }), 401, 'Missing Authorization header');
	});

	it.each([
		['another scheme', 'Basic c2FuZGJveA=='],
		['a scheme without key', 'ApiKey'],
		['a bare key', 'sandbox-alice-key'],
		['a bearer token on v3', 'Bearer sandbox-alice-key'],
		['two keys', 'ApiKey sandbox-alice-key sandbox-bob-key'],
	])('auth: a malformed header (%s) answers 401', async (_case, authorization) => {
		expectErrorBody(await api().get('/v3/tasks/list', {}, { authorization }), 401);
	});

	it('auth: an unknown key answers 401 "Invalid API key"', async () => {
		expectErrorBody(await api().get('/v3/tasks/list', {}, { key: 'sandbox-mallory-key' }), 401, 'Invalid API key');
	});

	it('auth: the key is case-sensitive, the scheme name is not', async () => {
		expectErrorBody(await api().get('/v3/tasks/list', {}, { key: 'SANDBOX-ALICE-KEY' }), 401, 'Invalid API key');
		expect((await api().get('/v3/tasks/list', {}, { authorization: 'apikey sandbox-alice-key' })).status).toBe(200);
	});

	it('auth: a valid key whose plan lacks API access answers 403', async () => {
		expectErrorBody(
			await api().get('/v3/tasks/list', {}, { key: NOPLAN }),
			403,
			'The plan of this account does not include API access',
		);
		expectErrorBody(await api().post('/v3/tasks/create', { title: 'x' }, { key: NOPLAN }), 403);
	});

	it('auth: authentication comes before validation (401 for a bad body without credentials)', async () => {
		expectErrorBody(await api().post('/v3/tasks/create', { title: '' }, { authorization: null }), 401);
	});
});

describe('authentication (v1 Bearer JWT)', () => {
	const whoami = (authorization: string | null) => api().get('/v1/test/whoami', {}, { authorization });

	it('auth: a token from /_sandbox/token is accepted as "Authorization: Bearer <JWT>" and names its user', async () => {
		const res = await whoami(`Bearer ${await token('alice')}`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ user: 'alice' });
		expect((await whoami(`Bearer ${await token('bob')}`)).body).toEqual({ user: 'bob' });
	});

	it('auth: the token is an HS256 JWT with claims sub and exp', async () => {
		const [header, payload] = (await token('alice', 3600)).split('.');
		expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'HS256', typ: 'JWT' });
		const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
		expect(claims.sub).toBe('alice');
		expect(claims.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(3590);
	});

	it('auth: an expired token answers 401', async () => {
		expectErrorBody(await whoami(`Bearer ${await token('alice', -1)}`), 401, 'Token expired');
	});

	it('auth: a token expires on the sandbox clock', async () => {
		const t = await token('alice', 60);
		expect((await whoami(`Bearer ${t}`)).status).toBe(200);
		await api().control('POST', 'clock', { advanceSeconds: 61 });
		expectErrorBody(await whoami(`Bearer ${t}`), 401, 'Token expired');
	});

	it('auth: a token with a bad signature answers 401', async () => {
		const now = Math.floor(Date.now() / 1000);
		expectErrorBody(await whoami(`Bearer ${forge({ sub: 'alice', exp: now + 60 }, 'wrong-secret')}`), 401, 'Invalid token signature');
		const [h, , s] = (await token('alice')).split('.');
		expectErrorBody(await whoami(`Bearer ${h}.${b64({ sub: 'bob', exp: now + 60 })}.${s}`), 401, 'Invalid token signature');
	});

	it('auth: an unsigned token (alg none) answers 401', async () => {
		const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'alice', exp: 9999999999 })}.`;
		expectErrorBody(await whoami(`Bearer ${unsigned}`), 401);
	});

	it('auth: a token without exp or for an unknown user answers 401', async () => {
		expectErrorBody(await whoami(`Bearer ${forge({ sub: 'alice' })}`), 401, 'Token has no expiry');
		expectErrorBody(await whoami(`Bearer ${forge({ sub: 'mallory', exp: 9999999999 })}`), 401);
	});

	it('auth: a malformed bearer header or an API key on v1 answers 401', async () => {
		expectErrorBody(await whoami('Bearer not-a-jwt'), 401, 'Malformed bearer token');
		expectErrorBody(await whoami('ApiKey sandbox-alice-key'), 401);
		expectErrorBody(await whoami(null), 401, 'Missing Authorization header');
	});

	it('auth: a token of a user whose plan lacks API access answers 403', async () => {
		expectErrorBody(await whoami(`Bearer ${await token('noplan')}`), 403);
	});
});

describe('rate limits', () => {
	const remaining = (res: { headers: Headers }) => Number(res.headers.get('ratelimit-remaining'));

	it('limits: every authenticated response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset', async () => {
		const ok = await api().get('/v3/tasks', { id: 'x' });
		const bad = await api().post('/v3/tasks/create', {});
		const created = await api().createTask();
		const noContent = await api().post('/v3/tasks/close', { id: created });
		for (const res of [ok, bad, noContent]) {
			expect(res.headers.get('ratelimit-limit')).toBe('300');
			expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
			expect(res.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
		}
	});

	it('limits: the default budget is 300 points per 900-second window', async () => {
		const res = await api().get('/v3/tasks', { id: 'x' });
		expect(res.headers.get('ratelimit-limit')).toBe('300');
		expect(remaining(res)).toBe(299);
		expect(res.headers.get('ratelimit-reset')).toBe('900');
	});

	it('limits: a /list call costs 10 points, every other call 1', async () => {
		expect(remaining(await api().get('/v3/tasks/list'))).toBe(290);
		expect(remaining(await api().get('/v3/tasks', { id: 'x' }))).toBe(289);
		expect(remaining(await api().post('/v3/tasks/create', { title: 'x' }))).toBe(288);
	});

	it('limits: RateLimit-Reset counts down the seconds to the end of the window', async () => {
		await api().control('POST', 'clock', { now: '2026-03-01T09:00:00Z' });
		await api().get('/v3/tasks', { id: 'x' });
		await api().control('POST', 'clock', { advanceSeconds: 100.5 });
		expect((await api().get('/v3/tasks', { id: 'x' })).headers.get('ratelimit-reset')).toBe('800');
	});

	it('limits: an exhausted budget answers 429 with Retry-After and the error body with status 429', async () => {
		await api().control('POST', 'clock', { now: '2026-03-01T09:00:00Z' });
		for (let i = 0; i < 30; i++) expect((await api().get('/v3/tasks/list')).status).toBe(200);
		await api().control('POST', 'clock', { advanceSeconds: 60 });
		const res = await api().get('/v3/tasks', { id: 'x' });
		expectErrorBody(res, 429);
		expect(res.headers.get('retry-after')).toBe('840');
		expect(res.headers.get('ratelimit-remaining')).toBe('0');
		expect(res.headers.get('ratelimit-reset')).toBe('840');
	});

	it('limits: the message of a 429 says it comes from the sandbox, its budget, and how to change or refill it', async () => {
		await api().control('POST', 'limits', { points: 2, windowSeconds: 60 });
		await api().get('/v3/tasks', { id: 'x' });
		await api().get('/v3/tasks', { id: 'x' });
		const refused = await api().get('/v3/tasks', { id: 'x' });
		expect(refused.body.message).toBe(
			'Rate limit exceeded: not enough points left in this window. This is the sandbox, with a budget of 2 points per 60 s: restart it (npm start or npm run sandbox) to begin with a full budget, set another one with SANDBOX_POINTS=<points> when it starts, or POST /_sandbox/limits while it runs',
		);
		await api().control('POST', 'limits', { points: 1, counting: 'requests' });
		await api().get('/v3/tasks', { id: 'x' });
		expect((await api().get('/v3/tasks', { id: 'x' })).body.message).toMatch(/^Rate limit exceeded: not enough requests left in this window\. This is the sandbox, with a budget of 1 request per 60 s: /);
	});

	it('limits: Retry-After is a whole number of seconds, at least 1', async () => {
		await api().control('POST', 'limits', { points: 1, windowSeconds: 900 });
		await api().control('POST', 'clock', { now: '2026-03-01T09:00:00Z' });
		await api().get('/v3/tasks', { id: 'x' });
		await api().control('POST', 'clock', { advanceSeconds: 899.9 });
		const res = await api().get('/v3/tasks', { id: 'x' });
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toBe('1');
	});

	it('limits: a call refused with 429 is not charged', async () => {
		await api().control('POST', 'limits', { points: 15 });
		expect(remaining(await api().get('/v3/tasks/list'))).toBe(5);
		expect((await api().get('/v3/tasks/list')).status).toBe(429);
		const res = await api().get('/v3/tasks', { id: 'x' });
		expect(res.status).toBe(200);
		expect(remaining(res)).toBe(4);
	});

	it('limits: a list call is refused when fewer than 10 points remain while a cheaper call still fits', async () => {
		await api().control('POST', 'limits', { points: 9 });
		expectErrorBody(await api().get('/v3/tasks/list'), 429);
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(200);
	});

	it('limits: rejected calls (400) are charged once authenticated', async () => {
		const res = await api().post('/v3/tasks/create', { title: '' });
		expect(res.status).toBe(400);
		expect(remaining(res)).toBe(299);
		const badList = await api().get('/v3/tasks/list', { limit: '0' });
		expect(badList.status).toBe(400);
		expect(remaining(badList)).toBe(289);
	});

	it('limits: 401 and 403 answers are not charged and carry no RateLimit headers', async () => {
		const unauthorized = await api().get('/v3/tasks/list', {}, { key: 'nope' });
		const forbidden = await api().get('/v3/tasks/list', {}, { key: NOPLAN });
		for (const res of [unauthorized, forbidden]) expect(res.headers.get('ratelimit-limit')).toBeNull();
		expect(remaining(await api().get('/v3/tasks', { id: 'x' }))).toBe(299);
	});

	it('limits: the budget is full again when the window ends', async () => {
		await api().control('POST', 'limits', { points: 2, windowSeconds: 60 });
		await api().control('POST', 'clock', { now: '2026-03-01T09:00:00Z' });
		await api().get('/v3/tasks', { id: 'x' });
		await api().get('/v3/tasks', { id: 'x' });
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(429);
		await api().control('POST', 'clock', { advanceSeconds: 60 });
		const res = await api().get('/v3/tasks', { id: 'x' });
		expect(res.status).toBe(200);
		expect(remaining(res)).toBe(1);
	});

	it('limits: each user has their own budget', async () => {
		await api().control('POST', 'limits', { points: 10 });
		await api().get('/v3/tasks/list', {}, { key: ALICE });
		expect((await api().get('/v3/tasks/list', {}, { key: ALICE })).status).toBe(429);
		const bob = await api().get('/v3/tasks/list', {}, { key: BOB });
		expect(bob.status).toBe(200);
		expect(remaining(bob)).toBe(0);
	});

	it('limits: the v1 interface shares the user\'s budget', async () => {
		await api().get('/v3/tasks/list');
		const res = await api().get('/v1/test/whoami', {}, { authorization: `Bearer ${await token('alice')}` });
		expect(remaining(res)).toBe(289);
	});

	it('limits: a budget for bearer tokens, counted in requests, is kept apart from the API key\'s', async () => {
		const set = await api().control('POST', 'limits', { points: 300, windowSeconds: 900, counting: 'requests', credential: 'bearer' });
		expect(set.body).toEqual({ points: 300, windowSeconds: 900, scoped: [{ credential: 'bearer', points: 300, windowSeconds: 900, counting: 'requests' }] });
		const bearer = { authorization: `Bearer ${await token('alice')}` };
		await api().get('/v3/tasks/list');
		const v1 = await api().get('/v1/test/whoami', {}, bearer);
		expect(v1.headers.get('ratelimit-limit')).toBe('300');
		expect(remaining(v1)).toBe(299);
		expect(remaining(await api().get('/v3/tasks', { id: 'x' }))).toBe(289);
		const logged = (await api().control('GET', 'requests')).body.requests as Array<{ path: string; points: number }>;
		expect(logged.map((entry) => entry.points)).toEqual([10, 1, 1]);
	});

	it('limits: a list call costs 1 in a budget counted in requests', async () => {
		await api().control('POST', 'limits', { points: 5, counting: 'requests' });
		for (let call = 0; call < 5; call++) expect((await api().get('/v3/tasks/list')).status).toBe(200);
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(429);
	});

	it('limits: a budget for one user applies to that user only; a budget for everyone drops it', async () => {
		await api().control('POST', 'limits', { points: 100, windowSeconds: 900, user: 'alice' });
		expect((await api().get('/v3/tasks/list', {}, { key: ALICE })).headers.get('ratelimit-limit')).toBe('100');
		expect((await api().get('/v3/tasks/list', {}, { key: BOB })).headers.get('ratelimit-limit')).toBe('300');
		await api().control('POST', 'limits', { points: 500 });
		expect((await api().get('/v3/tasks/list', {}, { key: ALICE })).headers.get('ratelimit-limit')).toBe('500');
		expectErrorBody(await api().control('POST', 'limits', { points: 5, user: 'nobody' }), 400, ['user must be a known user']);
		expectErrorBody(await api().control('POST', 'limits', { points: 5, credential: 'cookie' }), 400, ['credential must be "apiKey" or "bearer"']);
	});

	it('limits: the budget the sandbox started with (SANDBOX_POINTS) is what a reset restores', async () => {
		api().sandbox.limiter.startWith({ points: 100, windowSeconds: 900 });
		try {
			await api().control('POST', 'limits', { points: 7 });
			await api().reset();
			expect((await api().control('GET', 'limits')).body).toEqual({ points: 100, windowSeconds: 900 });
			expect((await api().get('/v3/tasks/list')).headers.get('ratelimit-limit')).toBe('100');
		} finally {
			api().sandbox.limiter.startWith({ points: 300, windowSeconds: 900 });
		}
	});

	it('limits: POST /_sandbox/limits sets the budget and refills it', async () => {
		await api().get('/v3/tasks/list');
		const set = await api().control('POST', 'limits', { points: 50, windowSeconds: 60 });
		expect(set.body).toEqual({ points: 50, windowSeconds: 60 });
		const res = await api().get('/v3/tasks', { id: 'x' });
		expect(res.headers.get('ratelimit-limit')).toBe('50');
		expect(remaining(res)).toBe(49);
		expect(res.headers.get('ratelimit-reset')).toBe('60');
	});

	it('limits: points null turns limiting off (no 429, no RateLimit headers)', async () => {
		await api().control('POST', 'limits', { points: null });
		for (let i = 0; i < 35; i++) expect((await api().get('/v3/tasks/list')).status).toBe(200);
		expect((await api().get('/v3/tasks/list')).headers.get('ratelimit-limit')).toBeNull();
	});

	it('limits: control endpoints are never charged', async () => {
		for (let i = 0; i < 5; i++) await api().control('GET', 'requests');
		await api().control('POST', 'clock', {});
		expect(remaining(await api().get('/v3/tasks', { id: 'x' }))).toBe(299);
	});
});

describe('errors', () => {
	it('errors: errorRef is fresh on every error', async () => {
		const refs = new Set<string>();
		for (let i = 0; i < 10; i++) refs.add((await api().post('/v3/tasks/delete', { id: 'no-such-task' })).body.errorRef);
		expect(refs.size).toBe(10);
	});

	it('errors: absent values are omitted from error bodies, never null', async () => {
		const res = await api().post('/v3/tasks/delete', { id: 'no-such-task' });
		expect(Object.keys(res.body).sort()).toEqual(['errorRef', 'message', 'status']);
		expect(res.text).not.toContain('null');
	});

	it('errors: an unknown route answers 404 with the error body', async () => {
		expectErrorBody(await api().get('/v3/nothing'), 404, 'Cannot GET /v3/nothing');
		expectErrorBody(await api().get('/v3/tasks/'), 404);
		expectErrorBody(await api().get('/', {}, { authorization: null }), 404);
	});

	it('errors: a known route with another method answers 405 with the error body and Allow', async () => {
		const res = await api().call('GET', '/v3/tasks/create');
		expectErrorBody(res, 405);
		expect(res.headers.get('allow')).toBe('POST');
		expectErrorBody(await api().call('PUT', '/v3/tasks'), 405);
		expectErrorBody(await api().call('DELETE', '/v3/tasks/delete', { body: { id: 'x' } }), 405);
	});

	it('errors: a body that is not valid JSON answers 400 with the short body (message, errorRef; no status)', async () => {
		for (const raw of ['{"title":', "{'title':'x'}", 'title=x', '{"title":"x"}}', 'undefined']) {
			expectShortBody(await api().call('POST', '/v3/tasks/create', { raw }), 400);
		}
	});

	it('errors: a body that is not UTF-8 answers 400 with the short body', async () => {
		expectShortBody(await api().call('POST', '/v3/tasks/create', { raw: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }), 400);
	});

	it('errors: a body over 1 MiB answers 413 with the short body', async () => {
		const raw = JSON.stringify({ title: 'x'.repeat(1024 * 1024) });
		expectShortBody(await api().call('POST', '/v3/tasks/create', { raw }), 413);
	});

	it('errors: a body of exactly 1 MiB is accepted', async () => {
		const wrapper = JSON.stringify({ title: '' });
		const raw = JSON.stringify({ title: 'x'.repeat(1024 * 1024 - wrapper.length) });
		expect(Buffer.byteLength(raw)).toBe(1024 * 1024);
		const res = await api().call('POST', '/v3/tasks/create', { raw });
		expect(res.status).toBe(200);
		expect((await api().getTask(res.body.data.id)).title).toHaveLength(1024 * 1024 - wrapper.length);
	});

	it('errors: an unexpected failure answers 500 with the short body', async () => {
		const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
		try {
			expectShortBody(await api().get('/v3/test/explode'), 500);
			expect(spy).toHaveBeenCalled();
		} finally {
			spy.mockRestore();
		}
	});

	it('errors: responses are JSON with content-type application/json', async () => {
		const res = await api().get('/v3/tasks', { id: 'x' });
		expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
	});
});
