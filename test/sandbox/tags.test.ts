/**
 * Conformance of the v3 tags endpoints: list, get, create, update, delete (soft). Over real HTTP
 * against an in-process sandbox.
 */
import {
	BOB,
	TIMESTAMP,
	expectApiKeyAuthentication,
	expectErrorBody,
	expectValidation,
	remainingPoints,
	useSandbox,
	type Response,
} from './support/http';

const ctx = useSandbox({ points: 300 });
const api = () => ctx.client;

const M = {
	name: 'name must be longer than or equal to 1 characters',
	nameType: 'name must be a string',
	colorType: 'color must be a string',
	colorShort: 'color must be longer than or equal to 7 characters',
	colorLong: 'color must be shorter than or equal to 7 characters',
	colorHex: 'color must be a hexadecimal color (#rrggbb)',
	id: 'id must be a string',
	body: 'request body must be a JSON object',
	invalidTagId: 'Invalid tag id',
	notFound: 'Tag not found',
};

const WORK = { id: 'tag-alice-work', name: 'Work', color: '#4285f4', updated: '2026-01-05T09:00:00.000Z' };
const URGENT = { id: 'tag-alice-urgent', name: 'Urgent', color: '#ea4335', updated: '2026-01-05T09:01:00.000Z' };
const ERRANDS = { id: 'tag-alice-errands', name: 'Errands', color: '#34a853', updated: '2026-01-05T09:02:00.000Z' };

const freeze = (now: string) => api().control('POST', 'clock', { now });
const advance = (advanceSeconds: number) => api().control('POST', 'clock', { advanceSeconds });

const list = (query: Record<string, string> = {}, key?: string) => api().get('/v3/tags/list', query, { key });
const get = (id: string, key?: string) => api().get('/v3/tags', { id }, { key });
const create = (body: unknown, key?: string) => api().post('/v3/tags/create', body, { key });
const update = (body: unknown, key?: string) => api().post('/v3/tags/update', body, { key });
const remove = (body: unknown, key?: string) => api().post('/v3/tags/delete', body, { key });

async function listed(query: Record<string, string> = {}, key?: string): Promise<any[]> {
	const res = await list(query, key);
	expect(res.status).toBe(200);
	return res.body;
}

async function created(name = 'Later', color = '#abcdef', key?: string): Promise<string> {
	const res = await create({ name, color }, key);
	expect(res.status).toBe(200);
	return res.body.id;
}

const expectNoContent = (res: Response) => {
	expect(res.status).toBe(204);
	expect(res.text).toBe('');
};

describe('tags: list and fixtures', () => {
	it('list: answers 200 with a bare array (no data envelope) of the user\'s tags, newest updated first', async () => {
		const res = await list();
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(res.body).toEqual([ERRANDS, URGENT, WORK]);
	});

	it('list: every tag carries id, name, color (#rrggbb) and updated (UTC, milliseconds), never null', async () => {
		await created('Mixed Case', '#ABCDEF');
		const res = await list();
		expect(res.text).not.toContain('null');
		for (const tag of res.body) {
			expect(Object.keys(tag)).toEqual(['id', 'name', 'color', 'updated']);
			expect(tag.name.length).toBeGreaterThan(0);
			expect(tag.color).toMatch(/^#[0-9a-fA-F]{6}$/);
			expect(tag.updated).toMatch(TIMESTAMP);
		}
	});

	it('list: each user sees only their own tags', async () => {
		expect(await listed({}, BOB)).toEqual([{ id: 'tag-bob-reading', name: 'Reading', color: '#fbbc04', updated: '2026-01-06T18:30:00.000Z' }]);
		const id = await created('Private', '#123456');
		expect((await listed({}, BOB)).map((t) => t.id)).not.toContain(id);
	});

	it('list: limit answers at most that many of the newest tags; without limit every tag is listed', async () => {
		expect((await listed({ limit: '2' })).map((t) => t.id)).toEqual([ERRANDS.id, URGENT.id]);
		expect((await listed({ limit: '1' })).map((t) => t.id)).toEqual([ERRANDS.id]);
		await freeze('2026-03-01T09:00:00Z');
		for (let i = 0; i < 120; i++) await created(`Tag ${i}`);
		expect(await listed()).toHaveLength(123);
		expect(await listed({ limit: '1000' })).toHaveLength(123);
		expect(await listed({ limit: '100' })).toHaveLength(100);
	});

	it('list: tags with the same updated are ordered by id', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const ids = [await created('a'), await created('b'), await created('c')];
		expect((await listed({ limit: '3' })).map((t) => t.id)).toEqual([...ids].sort());
	});

	it.each([
		['0', 'limit must not be less than 1'],
		['-1', 'limit must not be less than 1'],
		['1001', 'limit must not be greater than 1000'],
		['1.5', 'limit must be an integer number'],
		['ten', 'limit must be an integer number'],
		['', 'limit must be an integer number'],
	])('list: limit %j answers 400', async (limit, message) => {
		expectValidation(await list({ limit }), [message]);
	});

	it.each([['yesterday'], ['2026-03-01T09:00:00'], ['2026-03-01'], ['2026-02-30T09:00:00Z']])(
		'list: updatedAfter %j (not an instant with Z or an offset) answers 400',
		async (updatedAfter) => {
			expectValidation(await list({ updatedAfter }), ['updatedAfter must be a valid ISO 8601 date string']);
		},
	);

	it('list: unknown and repeated query parameters answer 400', async () => {
		expectValidation(await list({ deleted: 'true' }), ['property deleted should not exist']);
		expectErrorBody(await api().get('/v3/tags/list', { limit: ['1', '2'] }), 400);
	});

	it('list: updatedAfter is strict and shows only tags changed after it, with or without an offset', async () => {
		expect((await listed({ updatedAfter: URGENT.updated })).map((t) => t.id)).toEqual([ERRANDS.id]);
		expect((await listed({ updatedAfter: '2026-01-05T10:00:30+01:00' })).map((t) => t.id)).toEqual([ERRANDS.id, URGENT.id]);
		expect(await listed({ updatedAfter: ERRANDS.updated })).toEqual([]);
	});
});

describe('tags: lifecycle', () => {
	it('lifecycle: create → list → update → delete → list: the deleted tag is gone, and with updatedAfter it is { id, deleted: true }', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const res = await create({ name: 'Deep work', color: '#0f9d58' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ id: expect.any(String), name: 'Deep work', color: '#0f9d58' });
		const { id } = res.body;
		expect((await listed())[0]).toEqual({ id, name: 'Deep work', color: '#0f9d58', updated: '2026-03-01T09:00:00.000Z' });

		await advance(60);
		expectNoContent(await update({ id, name: 'Focus' }));
		expect((await get(id)).body).toEqual({ id, name: 'Focus', color: '#0f9d58', updated: '2026-03-01T09:01:00.000Z' });

		await advance(60);
		expectNoContent(await remove({ id }));
		expect((await listed()).map((t) => t.id)).toEqual([ERRANDS.id, URGENT.id, WORK.id]);
		const since = await listed({ updatedAfter: '2026-03-01T09:00:30Z' });
		expect(since).toEqual([{ id, deleted: true }]);
		expect((await listed({ updatedAfter: '2026-01-01T00:00:00Z' }))[0]).toEqual({ id, deleted: true });
		expectErrorBody(await get(id), 404, M.notFound);
	});

	it('create: ids are opaque and unique; the new tag is the newest', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const ids = new Set<string>();
		for (let i = 0; i < 5; i++) {
			await advance(1);
			ids.add(await created(`Tag ${i}`));
		}
		expect(ids.size).toBe(5);
		for (const id of ids) expect((await get(id)).status).toBe(200);
		expect((await listed({ limit: '1' }))[0].name).toBe('Tag 4');
	});

	it('create: updated is the sandbox clock\'s time; names need not be unique; colours are stored as given', async () => {
		await freeze('2027-07-01T12:34:56.789Z');
		const first = await created('Work', '#ABCdef');
		expect((await get(first)).body).toEqual({ id: first, name: 'Work', color: '#ABCdef', updated: '2027-07-01T12:34:56.789Z' });
		expect((await listed()).filter((t) => t.name === 'Work')).toHaveLength(2);
	});

	it('get: answers 200 with the bare tag, as the list shows it', async () => {
		const res = await get(URGENT.id);
		expect(res.status).toBe(200);
		expect(res.body).toEqual(URGENT);
	});

	it('get: an unknown id, a deleted tag and another user\'s tag answer 404 with the error body', async () => {
		expectErrorBody(await get('no-such-tag'), 404, M.notFound);
		expectErrorBody(await get('tag-bob-reading'), 404, M.notFound);
		expectErrorBody(await get(WORK.id, BOB), 404, M.notFound);
		await remove({ id: WORK.id });
		expectErrorBody(await get(WORK.id), 404, M.notFound);
	});

	it('get: id is required; no other parameter is accepted', async () => {
		expectValidation(await api().get('/v3/tags'), [M.id]);
		expectValidation(await api().get('/v3/tags', { id: WORK.id, name: 'Work' }), ['property name should not exist']);
	});

	it('update: patch semantics: only supplied fields change, updated always moves to now, and the tag becomes the newest', async () => {
		await freeze('2026-03-01T09:00:00Z');
		expectNoContent(await update({ id: WORK.id, color: '#000000' }));
		expect((await get(WORK.id)).body).toEqual({ ...WORK, color: '#000000', updated: '2026-03-01T09:00:00.000Z' });
		await advance(1);
		expectNoContent(await update({ id: URGENT.id }));
		expect((await get(URGENT.id)).body).toEqual({ ...URGENT, updated: '2026-03-01T09:00:01.000Z' });
		expect((await listed()).map((t) => t.id)).toEqual([URGENT.id, WORK.id, ERRANDS.id]);
	});

	it('update: an unknown, deleted or foreign id answers 400 "Invalid tag id" and changes nothing', async () => {
		expectErrorBody(await update({ id: 'no-such-tag', name: 'x' }), 400, M.invalidTagId);
		expectErrorBody(await update({ id: 'tag-bob-reading', name: 'x' }), 400, M.invalidTagId);
		await remove({ id: WORK.id });
		expectErrorBody(await update({ id: WORK.id, name: 'x' }), 400, M.invalidTagId);
		expect(await listed({}, BOB)).toHaveLength(1);
		expect((await listed({}, BOB))[0].name).toBe('Reading');
	});

	it('delete: answers 204 with an empty body; the record is kept and shown as deleted only with updatedAfter', async () => {
		await freeze('2026-03-01T09:00:00Z');
		expectNoContent(await remove({ id: URGENT.id }));
		expect((await listed()).map((t) => t.id)).toEqual([ERRANDS.id, WORK.id]);
		expect(await listed({ updatedAfter: '2026-02-28T00:00:00Z' })).toEqual([{ id: URGENT.id, deleted: true }]);
		const stored = api().sandbox.store.tags.get('alice')!.get(URGENT.id);
		expect(stored).toEqual({ ...URGENT, updated: '2026-03-01T09:00:00.000Z', deleted: true });
	});

	it('delete: a repeated delete answers 204 again and changes nothing (not even updated)', async () => {
		await freeze('2026-03-01T09:00:00Z');
		await remove({ id: URGENT.id });
		await advance(60);
		expectNoContent(await remove({ id: URGENT.id }));
		expect(await listed({ updatedAfter: '2026-03-01T09:00:00Z' })).toEqual([]);
		expect(await listed({ updatedAfter: '2026-03-01T08:59:59Z' })).toEqual([{ id: URGENT.id, deleted: true }]);
	});

	it('delete: an id that never existed or another user\'s tag answers 400 "Invalid tag id"; the other user\'s tag stays', async () => {
		expectErrorBody(await remove({ id: 'no-such-tag' }), 400, M.invalidTagId);
		expectErrorBody(await remove({ id: 'tag-bob-reading' }), 400, M.invalidTagId);
		expect((await get('tag-bob-reading', BOB)).status).toBe(200);
	});

	it('delete: the body accepts only id', async () => {
		expectValidation(await remove({}), [M.id]);
		expectValidation(await remove({ id: WORK.id, name: 'Work' }), ['property name should not exist']);
		expect((await get(WORK.id)).status).toBe(200);
	});

	it('tasks: tag ids on tasks are not checked against the user\'s tags, and deleting a tag leaves the tasks that carry it alone', async () => {
		const taskId = await api().createTask({ tags: [WORK.id, 'not-a-tag', 'tag-bob-reading'] });
		await remove({ id: WORK.id });
		expect((await api().getTask(taskId)).tags).toEqual([WORK.id, 'not-a-tag', 'tag-bob-reading']);
		expectNoContent(await api().post('/v3/tasks/update', { id: taskId, tags: [URGENT.id, WORK.id] }));
		expect((await api().getTask(taskId)).tags).toEqual([URGENT.id, WORK.id]);
	});

	it('reset: brings back the fixture tags and drops the others', async () => {
		const id = await created();
		await remove({ id: WORK.id });
		await update({ id: URGENT.id, name: 'Changed' });
		await api().reset();
		expect(await listed()).toEqual([ERRANDS, URGENT, WORK]);
		expectErrorBody(await get(id), 404);
	});
});

describe('tags: validation', () => {
	it.each([
		['#fff', [M.colorShort]],
		['#ff00001', [M.colorLong, M.colorHex]],
		['#12345678', [M.colorLong]],
		['1234567', [M.colorHex]],
		['#gggggg', [M.colorHex]],
		[' #fffff', [M.colorHex]],
		['red', [M.colorShort, M.colorHex]],
		['', [M.colorShort, M.colorHex]],
		['rgb(1,2,3)', [M.colorLong, M.colorHex]],
		[123, [M.colorType]],
		[['#ffffff'], [M.colorType]],
		[null, [M.colorHex]],
		[undefined, [M.colorHex]],
	])('create: color %j answers 400', async (color, messages) => {
		expectValidation(await create({ name: 'x', color }), messages);
	});

	it.each([
		['', [M.name]],
		[null, [M.name]],
		[undefined, [M.name]],
		[5, [M.nameType]],
		[{}, [M.nameType]],
	])('create: name %j answers 400', async (name, messages) => {
		expectValidation(await create({ name, color: '#ffffff' }), messages);
	});

	it('create: every failed field is reported at once, and context names the fields', async () => {
		const res = await create({ color: 'red', extra: 1 });
		expectValidation(res, [M.name, M.colorShort, M.colorHex, 'property extra should not exist']);
		expect(res.body.context).toEqual({ fields: ['name', 'color', 'extra'] });
	});

	it.each([
		['id', { id: 'x' }],
		['updated', { updated: '2026-01-01T00:00:00.000Z' }],
		['deleted', { deleted: true }],
	])('create: %s is not a create field (400)', async (field, extra) => {
		expectValidation(await create({ name: 'x', color: '#ffffff', ...extra }), [`property ${field} should not exist`]);
	});

	it.each([[[]], ['"text"'], [42], [null]])('create: a body that is %j answers 400', async (body) => {
		expectValidation(await api().post('/v3/tags/create', undefined, { raw: JSON.stringify(body) }), [M.body]);
	});

	it('create: query parameters are refused on every POST tag endpoint', async () => {
		for (const [path, body] of [
			['/v3/tags/create', { name: 'x', color: '#ffffff' }],
			['/v3/tags/update', { id: WORK.id }],
			['/v3/tags/delete', { id: WORK.id }],
		] as const) {
			expectValidation(await api().call('POST', path, { body, query: { id: WORK.id } }), ['property id should not exist']);
		}
		expect(await listed()).toEqual([ERRANDS, URGENT, WORK]);
	});

	it('create: a refused create stores nothing', async () => {
		await create({ name: 'x', color: '#fff' });
		await create({ name: '', color: '#ffffff' });
		expect(await listed({ updatedAfter: '2026-01-06T00:00:00Z' })).toEqual([]);
		expect(api().sandbox.store.tags.get('alice')!.size).toBe(3);
	});

	it('update: fields are validated as on create; id is required; null clears nothing; a refused update changes nothing', async () => {
		expectValidation(await update({ name: 'x' }), [M.id]);
		expectValidation(await update({ id: 7 }), [M.id]);
		expectValidation(await update({ id: WORK.id, color: '#fff' }), [M.colorShort]);
		expectValidation(await update({ id: WORK.id, color: null }), [M.colorHex]);
		expectValidation(await update({ id: WORK.id, name: '' }), [M.name]);
		expectValidation(await update({ id: WORK.id, name: null, updated: 'now' }), [M.name, 'property updated should not exist']);
		expect((await get(WORK.id)).body).toEqual(WORK);
	});
});

describe('tags: authentication and points', () => {
	it.each([
		['GET', '/v3/tags/list', {}],
		['GET', '/v3/tags', { query: { id: 'tag-alice-work' } }],
		['POST', '/v3/tags/create', { body: { name: 'x', color: '#ffffff' } }],
		['POST', '/v3/tags/update', { body: { id: 'tag-alice-work' } }],
		['POST', '/v3/tags/delete', { body: { id: 'tag-alice-work' } }],
	])('auth: %s %s answers 401 without a valid API key (a v1 bearer token included) and 403 for a plan without API access', async (method, path, options) => {
		await expectApiKeyAuthentication(api(), method, path, options);
	});

	it('points: the list costs 10 points, get, create, update and delete 1 each (refused calls too)', async () => {
		expect(remainingPoints(await list())).toBe(290);
		expect(remainingPoints(await get(WORK.id))).toBe(289);
		const res = await create({ name: 'x', color: '#ffffff' });
		expect(remainingPoints(res)).toBe(288);
		expect(remainingPoints(await update({ id: res.body.id, name: 'y' }))).toBe(287);
		expect(remainingPoints(await remove({ id: res.body.id }))).toBe(286);
		expect(remainingPoints(await get('no-such-tag'))).toBe(285);
		expect(remainingPoints(await list({ limit: '0' }))).toBe(275);
	});

	it('points: a list call is refused with 429 when fewer than 10 points remain, while the 1-point calls still fit', async () => {
		await api().control('POST', 'limits', { points: 12 });
		expect(remainingPoints(await list())).toBe(2);
		const refused = await list();
		expectErrorBody(refused, 429);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect((await get(WORK.id)).status).toBe(200);
		expect((await create({ name: 'x', color: '#ffffff' })).status).toBe(200);
		expectErrorBody(await get(WORK.id), 429);
	});
});
