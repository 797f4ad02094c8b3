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
	// `status` is optional in the error body; when present it is the HTTP status.
	expect([undefined, res.status]).toContain(res.body.status);
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
		const validationMessages: string[] = [];
		await fc.assert(
			fc.asyncProperty(fc.constantFrom('/v3/tasks/create', '/v3/tasks/update'), nearMiss, async (path, body) => {
				const payload = path === '/v3/tasks/update' ? { ...body, id } : body;
				const res = await api().post(path, payload);
				assertDocumented(res, `${path} ${JSON.stringify(payload)}`);
				if (res.status === 400) validationMessages.push(res.body.message);
			}),
			{ numRuns: 150 },
		);
		// Near misses are refused often; each refusal lists its validation errors.
		expect(validationMessages.length).toBeGreaterThan(0);
		for (const message of validationMessages) expect(Array.isArray(JSON.parse(message))).toBe(true);
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
				// From the first listed task's time (or, with none listed, from the epoch: nothing after it).
				const cursor = expected.length > 0 ? all.find((t) => t.id === expected[0]).updated : '1970-01-01T00:00:00.000Z';
				const after = expected.filter((id) => all.find((t) => t.id === id).updated > cursor);
				expect((await api().listTasks({ updatedAfter: cursor })).map((t) => t.id)).toEqual(after);
			}),
			{ numRuns: 25 },
		);
	});
});

// ---------------------------------------------------------------------------------------------
// Events (v3 and v1)

const EVENT_POST_PATHS = ['/v3/events/create', '/v3/events/update', '/v3/events/delete'];
const V1_POST_PATHS = [
	'/v1/events/create',
	'/v1/events/update',
	'/v1/events/delete',
	'/v1/events/accept',
	'/v1/events/decline',
	'/v1/events/tentativelyAccept',
];
const EVENT_FIELDS = [
	'id',
	'accountId',
	'calendarId',
	'title',
	'start',
	'duration',
	'timeZone',
	'showWithoutTime',
	'description',
	'descriptionContentType',
	'locations',
	'participants',
	'alerts',
	'useDefaultAlerts',
	'privacy',
	'freeBusyStatus',
	'recurrenceRules',
	'provider.example:colorId',
	'service.example:requestVirtualRoom',
	'masterEventId',
	'recurrenceId',
	'recurrenceIdTimeZone',
	'seriesUpdateMode',
	'comment',
	'notifyOrganizer',
	'status',
	'keywords',
	'__proto__',
];
const PLACES = [
	{ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' },
	{ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' },
	{ accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' },
	{ accountId: 'acc-alice-c', calendarId: 'cal-alice-c-home' },
	{ accountId: 'acc-alice-expired', calendarId: 'cal-alice-expired' },
	{ accountId: 'acc-bob-a', calendarId: 'cal-bob-a-primary' },
	{ accountId: 'acc-alice-a', calendarId: 'cal-alice-b-primary' },
];
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'UTC', 'Etc/UTC', null, 'EST', 'Etc/GMT-14', 'Pacific/Chatham'];

/** Any answer of an event endpoint is a success or a documented 4xx. */
function assertEventAnswer(res: Response, context: string): void {
	if (res.status === 200) {
		expect(typeof res.body).toBe('object');
		expect(res.body.data !== undefined || res.body['@type'] === 'Event').toBe(true);
		expect(JSON.stringify(res.body).replace(/"timeZone":null/g, '')).not.toContain(':null');
		return;
	}
	assertDocumented(res, context);
}

const localDateTime = fc
	.tuple(
		fc.integer({ min: 2025, max: 2027 }),
		fc.integer({ min: 1, max: 12 }),
		fc.integer({ min: 1, max: 31 }),
		fc.constantFrom(0, 1, 2, 3, 9, 23),
		fc.constantFrom(0, 30, 59),
	)
	.map(([y, mo, d, h, mi]) => `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:00`);

const rule = fc.record(
	{
		'@type': fc.constantFrom('RecurrenceRule', 'RecurrenceRule', 'Rule'),
		frequency: fc.constantFrom('daily', 'weekly', 'weekly', 'monthly', 'yearly', 'hourly'),
		interval: fc.integer({ min: 0, max: 4 }),
		count: fc.integer({ min: 0, max: 12 }),
		until: localDateTime,
		byDay: fc.array(fc.record({ '@type': fc.constant('NDay'), day: fc.constantFrom('mo', 'tu', 'we', 'su', 'xx') }), { maxLength: 3 }),
		byMonthDay: fc.array(fc.integer({ min: -31, max: 31 }), { maxLength: 2 }),
	},
	{ requiredKeys: ['@type', 'frequency'] },
);

const timing = fc.oneof(
	fc.record({ start: localDateTime, duration: fc.constantFrom('PT1H', 'PT0S', 'PT30M', 'P1D', 'P1DT2H', 'P2W', 'PT90M'), timeZone: fc.constantFrom(...ZONES), showWithoutTime: fc.constant(false) }),
	fc.record({ start: localDateTime.map((t) => `${t.slice(0, 10)}T00:00:00`), duration: fc.constantFrom('P1D', 'P3D', 'P1W', 'PT1H'), timeZone: fc.constantFrom(null, null, 'UTC'), showWithoutTime: fc.constant(true) }),
);

const eventFields = fc.record(
	{
		title: fc.oneof(fc.string({ maxLength: 10 }), fc.constant(null)),
		description: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('Dial https://meet.provider-a.example/abc-defg-hij'), fc.constant(null)),
		recurrenceRules: fc.oneof(fc.array(rule, { maxLength: 2 }), fc.constant(null)),
		participants: fc.dictionary(
			fc.constantFrom('YWxpY2VAc2FuZGJveC5leGFtcGxl', 'alice@sandbox.example', 'Y2Fyb2xAZXhhbXBsZS5jb20=', 'carol@example.com', 'p1'),
			fc.oneof(fc.constant(null), fc.record({ email: fc.constantFrom('alice@sandbox.example', 'carol@example.com', 'bad'), participationStatus: fc.constantFrom('accepted', 'maybe') }, { requiredKeys: ['email'] })),
			{ maxKeys: 2 },
		),
		alerts: fc.dictionary(
			fc.string({ maxLength: 4 }),
			fc.oneof(fc.constant(null), fc.record({ trigger: fc.record({ offset: fc.constantFrom('-PT15M', 'PT0S', '-P1D', 'x'), relativeTo: fc.constantFrom('start', 'end') }, { requiredKeys: ['offset'] }) })),
			{ maxKeys: 2 },
		),
		useDefaultAlerts: fc.boolean(),
		'provider.example:colorId': fc.constantFrom('1', '11', '12'),
		'service.example:requestVirtualRoom': fc.constantFrom('default', 'providerAMeetingRoom', 'providerBMeetingRoom', null),
	},
	{ requiredKeys: [] },
);

describe('robustness of the event endpoints', () => {
	it('robustness: any JSON body on any event endpoint (v3 and v1) answers 2xx or a documented 4xx, never 5xx', async () => {
		const bearer = `Bearer ${(await api().control('POST', 'token', { user: 'alice' })).body.token}`;
		const eventishBody = fc.dictionary(fc.oneof(fc.constantFrom(...EVENT_FIELDS), fc.string({ maxLength: 8 })), jsonish, { maxKeys: 8 });
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...EVENT_POST_PATHS, ...V1_POST_PATHS), fc.oneof(jsonish, eventishBody), async (path, body) => {
				const authorization = path.startsWith('/v1/') ? bearer : undefined;
				const res = await api().call('POST', path, { raw: JSON.stringify(body) ?? '', authorization });
				assertEventAnswer(res, `${path} ${JSON.stringify(body)}`);
			}),
			{ numRuns: 150 },
		);
	});

	it('robustness: any query string on the event endpoints answers 200 or a documented 4xx, never 5xx', async () => {
		const bearer = `Bearer ${(await api().control('POST', 'token', { user: 'alice' })).body.token}`;
		const instant = fc.oneof(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()), fc.string({ maxLength: 25 }), fc.constantFrom('2026-03-01T00:00:00+14:00', '2026-03-01T00:00:00-12:00', '2026-03-01'));
		const query = fc.record(
			{
				accountId: fc.constantFrom('acc-alice-a', 'acc-alice-b', 'acc-bob-a', ''),
				calendarIds: fc.constantFrom('cal-alice-a-primary', 'cal-alice-a-primary,cal-alice-a-team', 'cal-alice-b-primary', ',', 'x'),
				start: instant,
				end: instant,
				id: fc.string({ maxLength: 40 }),
				seriesUpdateMode: fc.constantFrom('single', 'all', 'future', 'x'),
				other: fc.string({ maxLength: 4 }),
			},
			{ requiredKeys: [] },
		);
		await fc.assert(
			fc.asyncProperty(fc.constantFrom('GET /v3/events/list', 'GET /v3/events', 'GET /v1/events/list', 'POST /v3/events/update', 'POST /v1/events/accept'), query, async (route, q) => {
				const [method, path] = route.split(' ');
				const res = await api().call(method, path, { query: q, authorization: path.startsWith('/v1/') ? bearer : undefined, raw: method === 'POST' ? '{}' : undefined });
				expect(res.status).toBeLessThan(500);
				assertEventAnswer(res, `${route} ${JSON.stringify(q)}`);
			}),
			{ numRuns: 150 },
		);
	});

	it('robustness: near-miss creates on every kind of calendar answer 200 or a documented 4xx, never 5xx', async () => {
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...PLACES), timing, eventFields, async (place, time, fields) => {
				const body = { ...place, title: 'x', ...time, ...fields };
				assertEventAnswer(await api().post('/v3/events/create', body), JSON.stringify(body));
			}),
			{ numRuns: 150 },
		);
	});

	type Op =
		| { kind: 'create'; time: Record<string, unknown>; fields: Record<string, unknown> }
		| { kind: 'update'; target: number; mode: string; time: Record<string, unknown> | null; fields: Record<string, unknown> }
		| { kind: 'delete'; target: number; mode: string }
		| { kind: 'rsvp'; target: number }
		| { kind: 'byMaster'; target: number; mode: string; title: string };

	/** Valid values (with the odd invalid one), so that sequences reach deep into series handling. */
	const day = fc.integer({ min: 1, max: 90 }).map((n) => new Date(Date.UTC(2026, 0, n)).toISOString().slice(0, 10));
	const validRule = fc.record(
		{
			'@type': fc.constant('RecurrenceRule'),
			frequency: fc.constantFrom('daily', 'weekly', 'weekly', 'monthly', 'yearly'),
			interval: fc.integer({ min: 1, max: 3 }),
			count: fc.integer({ min: 1, max: 12 }),
		},
		{ requiredKeys: ['@type', 'frequency'] },
	);
	const validRules = fc.oneof(
		fc.array(validRule, { minLength: 1, maxLength: 2 }),
		fc.tuple(day, fc.constantFrom('mo', 'we', 'fr')).map(([until, d]) => [
			{ '@type': 'RecurrenceRule', frequency: 'weekly', byDay: [{ '@type': 'NDay', day: d }, { '@type': 'NDay', day: 'tu' }], until: `${until}T23:00:00` },
		]),
	);
	const validTiming = fc.oneof(
		fc.record({
			start: fc.tuple(day, fc.constantFrom('00:30', '02:30', '09:00', '23:45')).map(([d, t]) => `${d}T${t}:00`),
			duration: fc.constantFrom('PT1H', 'PT0S', 'PT30M', 'P1D', 'P1DT2H'),
			timeZone: fc.constantFrom('Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'UTC', null),
			showWithoutTime: fc.constant(false),
		}),
		fc.record({
			start: day.map((d) => `${d}T00:00:00`),
			duration: fc.constantFrom('P1D', 'P3D', 'P1W'),
			timeZone: fc.constant(null),
			showWithoutTime: fc.constant(true),
		}),
	);
	const validFields = fc.record(
		{
			title: fc.string({ minLength: 1, maxLength: 6 }),
			description: fc.oneof(fc.string({ maxLength: 10 }), fc.constant(null)),
			participants: fc.constantFrom(
				{ YWxpY2VAc2FuZGJveC5leGFtcGxl: { email: 'alice@sandbox.example' } },
				{ 'carol@example.com': { email: 'carol@example.com' } },
				{ 'alice@sandbox.example': null },
			),
			alerts: fc.constantFrom({ x: { trigger: { offset: '-PT15M' } } }, { eyJhIjoiZGlzcGxheSIsInRvIjoiLVBUMTVNIn0: null }, null),
			useDefaultAlerts: fc.boolean(),
			'service.example:requestVirtualRoom': fc.constant('default'),
			'provider.example:colorId': fc.constantFrom('1', '11', '4', '7', '12'),
		},
		{ requiredKeys: [] },
	);

	/** Maps without null entries (null removes an entry on update only). */
	const createFields = validFields.map((f) => ({
		...f,
		participants: f.participants && !('alice@sandbox.example' in f.participants) ? f.participants : { 'alice@sandbox.example': { email: 'alice@sandbox.example' } },
		alerts: f.alerts && 'x' in f.alerts ? f.alerts : undefined,
	}));

	const op: fc.Arbitrary<Op> = fc.oneof(
		fc.record({ kind: fc.constant('create' as const), time: validTiming, fields: fc.tuple(createFields, validRules).map(([f, recurrenceRules]) => ({ ...f, recurrenceRules })) }),
		fc.record({ kind: fc.constant('create' as const), time: validTiming, fields: createFields }),
		fc.record({
			kind: fc.constant('update' as const),
			target: fc.nat(60),
			mode: fc.constantFrom('single', 'single', 'future', 'all'),
			time: fc.oneof(validTiming, fc.constant(null), fc.constant(null)),
			fields: fc.oneof(validFields, fc.tuple(validFields, fc.oneof(validRules, fc.constant(null))).map(([f, recurrenceRules]) => ({ ...f, recurrenceRules }))),
		}),
		fc.record({ kind: fc.constant('delete' as const), target: fc.nat(60), mode: fc.constantFrom('single', 'future', 'all') }),
		fc.record({ kind: fc.constant('rsvp' as const), target: fc.nat(60) }),
		fc.record({ kind: fc.constant('byMaster' as const), target: fc.nat(60), mode: fc.constantFrom('single', 'future', 'all'), title: fc.constant('by master') }),
	);

	it('robustness: after any sequence of creates, edits and deletes in any series mode, every answer is documented and the list is sorted, unique, and agrees with get', async () => {
		const query = { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: '2025-12-01T00:00:00Z', end: '2026-06-01T00:00:00Z' };
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
				await api().reset();
				await api().control('POST', 'limits', { points: null });
				const bearer = `Bearer ${(await api().control('POST', 'token', { user: 'alice' })).body.token}`;
				const place = PLACES[0];
				for (const o of ops) {
					const listed = (await api().get('/v3/events/list', query)).body.data.events as { id: string; masterEventId?: string; recurrenceId?: string }[];
					const picked = listed.length > 0 && o.kind !== 'create' ? listed[o.target % listed.length] : undefined;
					const target = picked?.id ?? 'none';
					let res: Response;
					if (o.kind === 'create') {
						res = await api().post('/v3/events/create', { ...place, title: 'x', ...o.time, ...o.fields });
					} else if (o.kind === 'update') {
						res = await api().call('POST', '/v3/events/update', { body: { ...place, id: target, ...(o.time ?? {}), ...o.fields }, query: { seriesUpdateMode: o.mode } });
					} else if (o.kind === 'byMaster') {
						const body = { ...place, masterEventId: picked?.masterEventId ?? target, recurrenceId: picked?.recurrenceId ?? '2026-01-01T00:00:00', title: o.title };
						res = await api().call('POST', '/v3/events/update', { body, query: { seriesUpdateMode: o.mode } });
					} else if (o.kind === 'delete') {
						res = await api().call('POST', '/v3/events/delete', { body: { ...place, id: target }, query: { seriesUpdateMode: o.mode } });
					} else {
						res = await api().call('POST', '/v1/events/accept', { body: { id: target }, authorization: bearer });
					}
					assertEventAnswer(res, `${JSON.stringify(o)} → ${res.status} ${res.text}`);
				}
				const res = await api().get('/v3/events/list', query);
				expect(res.status).toBe(200);
				const events = res.body.data.events as { id: string; start: string }[];
				expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
				for (const event of events.slice(0, 12)) {
					const got = await api().get('/v3/events', { id: event.id });
					expect(got.status).toBe(200);
					expect(got.body.data.event).toEqual(event);
				}
			}),
			{ numRuns: 40 },
		);
	});
});
