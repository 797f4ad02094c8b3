/**
 * Conformance of the v3 tasks endpoints: get and list, and the derived fields a task carries, one test per
 * rule of the interface and of the notes on where it is silent.
 * Over real HTTP against an in-process sandbox; the setup the tasks test files share is `useApi` in
 * `support/http.ts`.
 */
import { ALICE, BOB, expectValidation, useApi } from './support/http';

const { api, freeze, advance } = useApi();

describe('get', () => {
	it('get: answers 200 with { data: { task, labelDefs: [] } } and no deleted field on a live task', async () => {
		const id = await api().createTask();
		const res = await api().get('/v3/tasks', { id });
		expect(res.status).toBe(200);
		expect(Object.keys(res.body.data).sort()).toEqual(['labelDefs', 'task']);
		expect(res.body.data.labelDefs).toEqual([]);
		expect(res.body.data.task.id).toBe(id);
		expect(res.body.data.task).not.toHaveProperty('deleted');
	});

	it('get: an unknown id answers 200 with task null, never 404', async () => {
		const res = await api().get('/v3/tasks', { id: 'no-such-task' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ data: { task: null, labelDefs: [] } });
	});

	it("get: another user's task answers 200 with task null", async () => {
		const id = await api().createTask({}, BOB);
		const res = await api().get('/v3/tasks', { id }, { key: ALICE });
		expect(res.body).toEqual({ data: { task: null, labelDefs: [] } });
		expect((await api().getTask(id, BOB)).id).toBe(id);
	});

	it('get: a deleted task answers with deleted: true and every other field kept, progress included', async () => {
		const id = await api().createTask({ title: 'Gone', description: 'd', progress: 'completed', priority: 3 });
		const before = await api().getTask(id);
		await advance(5);
		await api().post('/v3/tasks/delete', { id });
		const after = await api().getTask(id);
		expect(after).toEqual({ ...before, updated: after.updated, deleted: true });
	});

	it('get: id missing answers 400 "id must be a string"', async () => {
		expectValidation(await api().get('/v3/tasks'), ['id must be a string']);
	});

	it('get: a repeated id parameter answers 400', async () => {
		expectValidation(await api().get('/v3/tasks', { id: ['a', 'b'] }), ['id must be a string']);
	});

	it('get: unknown query parameters answer 400', async () => {
		expectValidation(await api().get('/v3/tasks', { id: 'a', expand: 'all' }), ['property expand should not exist']);
	});
});

describe('list', () => {
	it('list: answers { data: { tasks, labelDefs: [], spaces: [] } }', async () => {
		await api().createTask();
		const res = await api().get('/v3/tasks/list');
		expect(res.status).toBe(200);
		expect(Object.keys(res.body.data).sort()).toEqual(['labelDefs', 'spaces', 'tasks']);
		expect(res.body.data.labelDefs).toEqual([]);
		expect(res.body.data.spaces).toEqual([]);
	});

	it('list: labelDefs and spaces are present even with no tasks', async () => {
		const res = await api().get('/v3/tasks/list');
		expect(res.body).toEqual({ data: { tasks: [], labelDefs: [], spaces: [] } });
	});

	it('list: limit defaults to 1', async () => {
		await api().createTask();
		await api().createTask();
		await api().createTask();
		const res = await api().get('/v3/tasks/list');
		expect(res.body.data.tasks).toHaveLength(1);
	});

	it('list: limit returns at most that many tasks, maximum 100', async () => {
		await Promise.all(Array.from({ length: 103 }, (_, i) => api().createTask({ title: `t${i}` })));
		expect((await api().get('/v3/tasks/list', { limit: '2' })).body.data.tasks).toHaveLength(2);
		expect((await api().get('/v3/tasks/list', { limit: '100' })).body.data.tasks).toHaveLength(100);
	});

	it.each([
		['0', 'limit must not be less than 1'],
		['-1', 'limit must not be less than 1'],
		['101', 'limit must not be greater than 100'],
		['1000000000000', 'limit must not be greater than 100'],
		['1.5', 'limit must be an integer number'],
		['ten', 'limit must be an integer number'],
		['', 'limit must be an integer number'],
		['1e1', 'limit must be an integer number'],
	])('list: limit %j answers 400', async (limit, message) => {
		expectValidation(await api().get('/v3/tasks/list', { limit }), [message]);
	});

	it('list: returns only open tasks: needs-action and in-process; completed, failed, cancelled and deleted are absent', async () => {
		const open = await api().createTask({ title: 'open' });
		const inProcess = await api().createTask({ title: 'in-process' });
		await api().post('/v3/tasks/update', { id: inProcess, progress: 'in-process' });
		await api().createTask({ title: 'completed', progress: 'completed' });
		const closed = await api().createTask({ title: 'closed' });
		await api().post('/v3/tasks/close', { id: closed });
		for (const progress of ['failed', 'cancelled']) {
			const id = await api().createTask({ title: progress });
			await api().post('/v3/tasks/update', { id, progress });
		}
		const deleted = await api().createTask({ title: 'deleted' });
		await api().post('/v3/tasks/delete', { id: deleted });
		const ids = (await api().listTasks()).map((t) => t.id);
		expect(ids.sort()).toEqual([open, inProcess].sort());
	});

	it('list: ordered ascending by updated', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const a = await api().createTask({ title: 'a' });
		await advance(1);
		const b = await api().createTask({ title: 'b' });
		await advance(1);
		const c = await api().createTask({ title: 'c' });
		await advance(1);
		await api().post('/v3/tasks/update', { id: a, title: 'a2' });
		expect((await api().listTasks()).map((t) => t.id)).toEqual([b, c, a]);
	});

	it('list: ties on updated are ordered by id', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const ids = await Promise.all(Array.from({ length: 8 }, () => api().createTask()));
		const listed = await api().listTasks();
		expect(new Set(listed.map((t) => t.updated)).size).toBe(1);
		expect(listed.map((t) => t.id)).toEqual([...ids].sort());
	});

	it('list: updatedAfter is strict (updated > updatedAfter)', async () => {
		await freeze('2026-03-01T09:00:00.125Z');
		const a = await api().createTask();
		await advance(0.001);
		const b = await api().createTask();
		expect((await api().listTasks({ updatedAfter: '2026-03-01T09:00:00.125Z' })).map((t) => t.id)).toEqual([b]);
		expect((await api().listTasks({ updatedAfter: '2026-03-01T09:00:00.124Z' })).map((t) => t.id)).toEqual([a, b]);
		expect(await api().listTasks({ updatedAfter: '2026-03-01T09:00:00.126Z' })).toEqual([]);
	});

	it('list: updatedAfter accepts offsets, no milliseconds and more than three fractional digits', async () => {
		await freeze('2026-03-01T09:00:00.500Z');
		const a = await api().createTask();
		expect((await api().listTasks({ updatedAfter: '2026-03-01T10:00:00+01:00' })).map((t) => t.id)).toEqual([a]);
		expect((await api().listTasks({ updatedAfter: '2026-03-01T09:00:00Z' })).map((t) => t.id)).toEqual([a]);
		expect(await api().listTasks({ updatedAfter: '2026-03-01T09:00:00.5001Z' })).toEqual([]);
		expect((await api().listTasks({ updatedAfter: '2026-03-01T09:00:00.4999Z' })).map((t) => t.id)).toEqual([a]);
	});

	it.each(['2026-03-01', '2026-03-01T09:00:00', 'yesterday', '2026-13-01T00:00:00Z', ''])(
		'list: updatedAfter %j answers 400 "updatedAfter must be a valid ISO 8601 date string"',
		async (updatedAfter) => {
			expectValidation(await api().get('/v3/tasks/list', { updatedAfter }), [
				'updatedAfter must be a valid ISO 8601 date string',
			]);
		},
	);

	it('list: paging with updatedAfter = last updated returns every task once when timestamps differ', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const created: string[] = [];
		for (let i = 0; i < 5; i++) {
			created.push(await api().createTask());
			await advance(1);
		}
		const seen: string[] = [];
		let cursor: string | undefined;
		for (;;) {
			const page = await api().listTasks(cursor ? { limit: '2', updatedAfter: cursor } : { limit: '2' });
			if (page.length === 0) break;
			seen.push(...page.map((t) => t.id));
			cursor = page[page.length - 1].updated;
		}
		expect(seen).toEqual(created);
	});

	it("list: each user sees only their own tasks", async () => {
		const mine = await api().createTask({}, ALICE);
		const theirs = await api().createTask({}, BOB);
		expect((await api().listTasks({}, ALICE)).map((t) => t.id)).toEqual([mine]);
		expect((await api().listTasks({}, BOB)).map((t) => t.id)).toEqual([theirs]);
	});

	it('list: unknown query parameters answer 400', async () => {
		expectValidation(await api().get('/v3/tasks/list', { limit: '5', cursor: 'x' }), ['property cursor should not exist']);
	});

	it('list: tasks in the list have the same shape as get', async () => {
		const id = await api().createTask({ title: 'x', tags: ['a'] });
		const [listed] = await api().listTasks();
		expect(listed).toEqual(await api().getTask(id));
	});
});

describe('derived fields', () => {
	it('derived: service.example:derived.scheduled is false unless an event links the task through service.example:metadata.taskId', async () => {
		const id = await api().createTask();
		expect((await api().getTask(id))['service.example:derived']).toEqual({ scheduled: false });
		api().sandbox.store.eventsOf('alice').set('evt-1', { id: 'evt-1', 'service.example:metadata': { taskId: id } });
		expect((await api().getTask(id))['service.example:derived']).toEqual({ scheduled: true });
		api().sandbox.store.eventsOf('alice').set('evt-1', { id: 'evt-1', deleted: true, 'service.example:metadata': { taskId: id } });
		expect((await api().getTask(id))['service.example:derived']).toEqual({ scheduled: false });
	});
});
