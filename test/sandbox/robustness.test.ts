/**
 * Bad input of any shape gets a 4xx with the documented body, never a 5xx and never a crash:
 * property tests over the task endpoints plus explicit cases (deep nesting, huge strings).
 */
import fc from 'fast-check';

import { type Response, useSandbox } from './support/http';

const ctx = useSandbox();
const api = () => ctx.client;

const POST_PATHS = [
	'/v3/tasks/create',
	'/v3/tasks/update',
	'/v3/tasks/move',
	'/v3/tasks/delete',
	'/v3/tasks/close',
	'/v3/tasks/reopen',
];
const GET_PATHS = ['/v3/tasks', '/v3/tasks/list'];

/** Any answer is a success or a documented 4xx: the deliberate body, or the short body for unreadable JSON. */
function assertDocumented(res: Response, context: string): void {
	if (res.status === 200) {
		expect(res.body).toHaveProperty('data');
		return;
	}
	if (res.status === 204) {
		expect(res.text).toBe('');
		return;
	}
	if (res.status >= 500 || res.status < 400) throw new Error(`${context}: HTTP ${res.status} ${res.text}`);
	expect(typeof res.body.message).toBe('string');
	expect(typeof res.body.errorRef).toBe('string');
	if (res.body.status !== undefined) expect(res.body.status).toBe(res.status);
	for (const value of Object.values(res.body)) expect(value).not.toBeNull();
}

const FIELDS = [
	'id',
	'title',
	'description',
	'descriptionContentType',
	'due',
	'timeZone',
	'estimatedDuration',
	'taskListId',
	'priority',
	'progress',
	'relatedTo',
	'tags',
	'previousId',
	'parentId',
	'occurrenceStart',
	'__proto__',
	'constructor',
];

const jsonish = fc.jsonValue({ maxDepth: 4 });

/** Objects made of the interface's field names with values of any shape, and sometimes junk names. */
const taskishBody = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), jsonish, {
	maxKeys: 6,
});

/** Plausible-but-wrong values for the fields that are validated hardest. */
const nearMiss = fc.record(
	{
		title: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null)),
		due: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19)), fc.string({ maxLength: 25 })),
		timeZone: fc.constantFrom('Europe/Berlin', 'EST', 'GMT+1', 'Etc/GMT+1', 'Not/AZone', ''),
		estimatedDuration: fc.stringMatching(/^-?P(\d+[YMWD])*(T(\d+[HMS])*)?$/),
		priority: fc.oneof(fc.integer({ min: -20, max: 20 }), fc.double()),
		progress: fc.constantFrom('needs-action', 'in-process', 'completed', 'failed', 'cancelled', 'done'),
		tags: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
	},
	{ requiredKeys: [] },
);

describe('robustness', () => {
	it('robustness: any JSON body on any task endpoint answers 2xx or a documented 4xx, never 5xx', async () => {
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...POST_PATHS), fc.oneof(jsonish, taskishBody), async (path, body) => {
				const res = await api().call('POST', path, { raw: JSON.stringify(body) ?? '' });
				assertDocumented(res, `${path} ${JSON.stringify(body)}`);
			}),
			{ numRuns: 150 },
		);
	});

	it('robustness: near-miss field values answer 200 or a 400 validation error, never 5xx', async () => {
		const id = await api().createTask();
		await fc.assert(
			fc.asyncProperty(fc.constantFrom('/v3/tasks/create', '/v3/tasks/update'), nearMiss, async (path, body) => {
				const payload = path === '/v3/tasks/update' ? { ...body, id } : body;
				const res = await api().post(path, payload);
				assertDocumented(res, `${path} ${JSON.stringify(payload)}`);
				if (res.status === 400) expect(Array.isArray(JSON.parse(res.body.message))).toBe(true);
			}),
			{ numRuns: 150 },
		);
	});

	it('robustness: any raw text as a body answers a documented 4xx or success, never 5xx', async () => {
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...POST_PATHS), fc.string({ maxLength: 200, unit: 'binary' }), async (path, raw) => {
				assertDocumented(await api().call('POST', path, { raw }), `${path} ${JSON.stringify(raw)}`);
			}),
			{ numRuns: 120 },
		);
	});

	it('robustness: any query string on the GET task endpoints answers 200 or 400, never 5xx', async () => {
		const query = fc.dictionary(
			fc.oneof(fc.constantFrom('id', 'limit', 'updatedAfter', '__proto__'), fc.string({ maxLength: 6 })),
			fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.string({ maxLength: 5 }), { minLength: 2, maxLength: 3 })),
			{ maxKeys: 4 },
		);
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...GET_PATHS), query, async (path, q) => {
				const res = await api().get(path, q);
				expect([200, 400]).toContain(res.status);
				assertDocumented(res, `${path} ${JSON.stringify(q)}`);
			}),
			{ numRuns: 120 },
		);
	});

	it('robustness: any method and path answers a documented 4xx or success, never 5xx', async () => {
		const path = fc.oneof(
			fc.constantFrom(...POST_PATHS, ...GET_PATHS, '/v3/events', '/v1/events/list', '/_sandbox/nothing'),
			fc.webPath(),
		);
		await fc.assert(
			fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), path, async (method, p) => {
				const res = await api().call(method, p.startsWith('/') ? p : `/${p}`, method === 'GET' ? {} : { raw: '{}' });
				assertDocumented(res, `${method} ${p}`);
			}),
			{ numRuns: 120 },
		);
	});

	it('robustness: deeply nested JSON answers 400, and the request log still serialises', async () => {
		const depth = 5000;
		const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
		const res = await api().call('POST', '/v3/tasks/create', { raw: nested });
		expect(res.status).toBe(400);
		expect(JSON.parse(res.body.message)).toEqual(['request body must be a JSON object']);
		const inField = await api().call('POST', '/v3/tasks/create', { raw: `{"title":${nested}}` });
		expect(JSON.parse(inField.body.message)).toEqual(['title must be a string']);
		const huge = '['.repeat(500_000) + ']'.repeat(500_000);
		expect((await api().call('POST', '/v3/tasks/update', { raw: huge })).status).toBe(400);
		expect((await api().control('GET', 'requests')).status).toBe(200);
	});

	it('robustness: huge strings in any field answer 200 or 400, never 5xx', async () => {
		const big = 'é'.repeat(300_000);
		const id = await api().createTask();
		for (const field of ['title', 'description', 'due', 'timeZone', 'estimatedDuration', 'taskListId', 'progress']) {
			assertDocumented(await api().post('/v3/tasks/create', { title: 'x', [field]: big }), field);
			assertDocumented(await api().post('/v3/tasks/update', { id, [field]: big }), field);
		}
		assertDocumented(await api().post('/v3/tasks/delete', { id: big }), 'id');
		assertDocumented(await api().get('/v3/tasks', { id: 'x'.repeat(7000) }), 'query id');
		assertDocumented(await api().post('/v3/tasks/create', { title: 'x', tags: Array(50_000).fill('t') }), 'tags');
	});

	it('robustness: a header section over the size limit answers 431, and the server keeps serving', async () => {
		const res = await api().get('/v3/tasks', { id: 'x'.repeat(20_000) });
		expect(res.status).toBe(431);
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(200);
	});

	it('robustness: prototype keys in bodies and queries are plain unknown properties', async () => {
		const res = await api().call('POST', '/v3/tasks/create', { raw: '{"title":"x","__proto__":{"admin":true}}' });
		expect(JSON.parse(res.body.message)).toEqual(['property __proto__ should not exist']);
		const q = await api().call('GET', '/v3/tasks/list?__proto__=x');
		expect(JSON.parse(q.body.message)).toEqual(['property __proto__ should not exist']);
		expect(({} as Record<string, unknown>).admin).toBeUndefined();
	});

	it('robustness: a client that disconnects mid-body does not disturb the server', async () => {
		const { request } = await import('node:http');
		await new Promise<void>((resolve) => {
			const req = request(`${api().url}/v3/tasks/create`, {
				method: 'POST',
				headers: { authorization: 'ApiKey sandbox-alice-key', 'content-length': '1000' },
			});
			req.on('error', () => resolve());
			req.write('{"title":');
			setTimeout(() => {
				req.destroy();
				resolve();
			}, 20);
		});
		expect((await api().get('/v3/tasks', { id: 'x' })).status).toBe(200);
	});
});

describe('list order under any sequence of writes', () => {
	type Op =
		| { kind: 'create'; progress: 'needs-action' | 'completed' }
		| { kind: 'update' | 'close' | 'reopen' | 'delete' | 'moveFirst'; target: number; progress?: string }
		| { kind: 'clock'; seconds: number };

	const op: fc.Arbitrary<Op> = fc.oneof(
		fc.record({ kind: fc.constant('create' as const), progress: fc.constantFrom('needs-action' as const, 'completed' as const) }),
		fc.record({
			kind: fc.constantFrom('update' as const, 'close' as const, 'reopen' as const, 'delete' as const, 'moveFirst' as const),
			target: fc.nat(20),
			progress: fc.constantFrom('needs-action', 'in-process', 'completed', 'failed', 'cancelled'),
		}),
		fc.record({ kind: fc.constant('clock' as const), seconds: fc.constantFrom(0, 0.001, 1, -5) }),
	);

	it('list: after any sequence of writes (ties and clock moves included) it returns exactly the open tasks by updated, then id', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
				await api().reset();
				await api().control('POST', 'limits', { points: null });
				await api().control('POST', 'clock', { now: '2026-03-01T09:00:00Z' });
				const ids: string[] = [];
				for (const o of ops) {
					if (o.kind === 'create') ids.push(await api().createTask({ progress: o.progress }));
					else if (o.kind === 'clock') await api().control('POST', 'clock', { advanceSeconds: o.seconds });
					else if (ids.length > 0) {
						const id = ids[o.target % ids.length];
						if (o.kind === 'update') await api().post('/v3/tasks/update', { id, progress: o.progress });
						else if (o.kind === 'moveFirst') await api().post('/v3/tasks/move', { id, previousId: null });
						else await api().post(`/v3/tasks/${o.kind}`, { id });
					}
				}
				const all = await Promise.all(ids.map((id) => api().getTask(id)));
				const expected = all
					.filter((t) => !t.deleted && (t.progress === 'needs-action' || t.progress === 'in-process'))
					.sort((a, b) => (a.updated < b.updated ? -1 : a.updated > b.updated ? 1 : a.id < b.id ? -1 : 1))
					.map((t) => t.id);
				expect((await api().listTasks()).map((t) => t.id)).toEqual(expected);
				if (expected.length > 0) {
					const cursor = all.find((t) => t.id === expected[0]).updated;
					const after = expected.filter((id) => all.find((t) => t.id === id).updated > cursor);
					expect((await api().listTasks({ updatedAfter: cursor })).map((t) => t.id)).toEqual(after);
				}
			}),
			{ numRuns: 25 },
		);
	});
});
