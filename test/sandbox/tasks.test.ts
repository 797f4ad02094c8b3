/**
 * Conformance of the v3 tasks endpoints, one test per rule of the interface and of the notes on
 * where it is silent. Over real HTTP against an in-process sandbox.
 */
import { ALICE, BOB, TIMESTAMP, expectErrorBody, expectValidation, useSandbox } from './support/http';

const ctx = useSandbox();
const api = () => ctx.client;

const freeze = (now: string) => api().control('POST', 'clock', { now });
const advance = (advanceSeconds: number) => api().control('POST', 'clock', { advanceSeconds });

describe('create', () => {
	it('create: answers 200 (not 201) with { data: { id } } and nothing else', async () => {
		const res = await api().post('/v3/tasks/create', { title: 'Buy milk' });
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['data']);
		expect(Object.keys(res.body.data)).toEqual(['id']);
		expect(typeof res.body.data.id).toBe('string');
	});

	it('create: a new task carries the defaults (@type Task, integrationId service, taskListId default, text/plain, priority 0, needs-action, position, derived.scheduled false)', async () => {
		const id = await api().createTask({ title: 'Buy milk' });
		const task = await api().getTask(id);
		expect(task).toEqual({
			'@type': 'Task',
			id,
			accountId: 'acc-alice-service',
			integrationId: 'service',
			taskListId: 'default',
			title: 'Buy milk',
			descriptionContentType: 'text/plain',
			priority: 0,
			progress: 'needs-action',
			position: expect.any(Number),
			created: expect.stringMatching(TIMESTAMP),
			updated: expect.stringMatching(TIMESTAMP),
			'service.example:derived': { scheduled: false },
		});
	});

	it('create: fields with no value are omitted, never null', async () => {
		const id = await api().createTask({ title: 'x', description: null, due: null, tags: null });
		const task = await api().getTask(id);
		for (const field of ['description', 'due', 'timeZone', 'estimatedDuration', 'relatedTo', 'tags', 'links', 'deleted']) {
			expect(task).not.toHaveProperty([field]);
		}
		expect(JSON.stringify(task)).not.toContain('null');
	});

	it('create: every optional field is stored and returned as given', async () => {
		const body = {
			title: 'Report',
			description: '<p>Quarterly</p>',
			descriptionContentType: 'text/html',
			due: '2026-03-01T09:30:00',
			timeZone: 'Europe/Berlin',
			estimatedDuration: 'PT2H',
			taskListId: 'work',
			priority: 1,
			progress: 'completed',
			tags: ['tag-1', 'tag-2'],
		};
		const task = await api().getTask(await api().createTask(body));
		expect(task).toMatchObject(body);
	});

	it('create: an empty tags array is a value and is returned as is', async () => {
		const task = await api().getTask(await api().createTask({ tags: [] }));
		expect(task.tags).toEqual([]);
	});

	it('create: created and updated are UTC ISO 8601 with milliseconds and equal', async () => {
		const task = await api().getTask(await api().createTask());
		expect(task.created).toMatch(TIMESTAMP);
		expect(task.updated).toBe(task.created);
	});

	it('create: the created task is not echoed; it is read with get', async () => {
		const res = await api().post('/v3/tasks/create', { title: 'x', description: 'y' });
		expect(res.body.data).not.toHaveProperty('task');
		expect((await api().getTask(res.body.data.id)).description).toBe('y');
	});

	it('create: task ids are opaque and unique', async () => {
		const ids = await Promise.all(Array.from({ length: 20 }, () => api().createTask()));
		expect(new Set(ids).size).toBe(20);
	});

	it('create: new tasks go after every existing task (ascending position)', async () => {
		const a = await api().getTask(await api().createTask());
		const b = await api().getTask(await api().createTask());
		expect(b.position).toBeGreaterThan(a.position);
	});

	it('create: title missing answers 400 "title must be longer than or equal to 1 characters"', async () => {
		expectValidation(await api().post('/v3/tasks/create', {}), ['title must be longer than or equal to 1 characters']);
		expectValidation(await api().post('/v3/tasks/create', { title: null }), [
			'title must be longer than or equal to 1 characters',
		]);
	});

	it('create: title empty answers 400 "title must be longer than or equal to 1 characters"', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: '' }), [
			'title must be longer than or equal to 1 characters',
		]);
	});

	it('create: title of another type answers 400 "title must be a string"', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: 42 }), ['title must be a string']);
	});

	it.each([
		['date only', '2026-03-01'],
		['with Z', '2026-03-01T09:00:00Z'],
		['with offset', '2026-03-01T09:00:00+01:00'],
		['with milliseconds', '2026-03-01T09:00:00.000'],
		['without seconds', '2026-03-01T09:00'],
		['space separator', '2026-03-01 09:00:00'],
		['not a real date', '2026-02-30T09:00:00'],
		['hour 24', '2026-03-01T24:00:00'],
		['a number', 20260301],
		['an empty string', ''],
	])('create: due %s answers 400 "due must be a valid ISO 8601 date string"', async (_case, due) => {
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', due }), [
			'due must be a valid ISO 8601 date string',
		]);
	});

	it('create: due accepts exactly 19 characters YYYY-MM-DDTHH:mm:ss, including 29 February of a leap year', async () => {
		const task = await api().getTask(await api().createTask({ due: '2028-02-29T23:59:59' }));
		expect(task.due).toBe('2028-02-29T23:59:59');
	});

	it('create: priority above 9 answers 400 "priority must not be greater than 9"', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', priority: 10 }), [
			'priority must not be greater than 9',
		]);
	});

	it('create: priority below 0 answers 400 "priority must not be less than 0"', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', priority: -1 }), [
			'priority must not be less than 0',
		]);
	});

	it('create: priority must be an integer number', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', priority: 1.5 }), [
			'priority must be an integer number',
		]);
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', priority: '5' }), [
			'priority must be an integer number',
		]);
	});

	it('create: priority 0 and 9 are accepted', async () => {
		expect((await api().getTask(await api().createTask({ priority: 0 }))).priority).toBe(0);
		expect((await api().getTask(await api().createTask({ priority: 9 }))).priority).toBe(9);
	});

	it('create: progress accepts only needs-action and completed', async () => {
		expect((await api().getTask(await api().createTask({ progress: 'needs-action' }))).progress).toBe('needs-action');
		expect((await api().getTask(await api().createTask({ progress: 'completed' }))).progress).toBe('completed');
		for (const progress of ['in-process', 'failed', 'cancelled', 'done']) {
			expectValidation(await api().post('/v3/tasks/create', { title: 'x', progress }), [
				'progress must be one of the following values: needs-action, completed',
			]);
		}
	});

	it('create: timeZone must be a valid IANA time zone (no abbreviations or offsets)', async () => {
		expect((await api().getTask(await api().createTask({ timeZone: 'America/New_York' }))).timeZone).toBe(
			'America/New_York',
		);
		expect((await api().getTask(await api().createTask({ timeZone: 'UTC' }))).timeZone).toBe('UTC');
		for (const timeZone of ['EST', 'CET', 'GMT+1', '+01:00', 'Mars/Olympus_Mons', 'europe/berlin', '', 5]) {
			expectValidation(await api().post('/v3/tasks/create', { title: 'x', timeZone }), [
				'timeZone must be a valid IANA time zone',
			]);
		}
	});

	it('create: estimatedDuration must be an ISO 8601 duration', async () => {
		for (const estimatedDuration of ['PT2H', 'PT25M', 'P1D', 'P1DT2H30M', 'PT0.5S']) {
			expect((await api().getTask(await api().createTask({ estimatedDuration }))).estimatedDuration).toBe(
				estimatedDuration,
			);
		}
		for (const estimatedDuration of ['2h', 'P', 'PT', 'P1DT', '-PT1H', 'PT1H ', 120]) {
			expectValidation(await api().post('/v3/tasks/create', { title: 'x', estimatedDuration }), [
				'estimatedDuration must be a valid ISO 8601 duration',
			]);
		}
	});

	it('create: descriptionContentType is text/plain or text/html', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', descriptionContentType: 'text/markdown' }), [
			'descriptionContentType must be one of the following values: text/plain, text/html',
		]);
	});

	it('create: description must be a string', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', description: { html: 1 } }), [
			'description must be a string',
		]);
	});

	it('create: tags must be an array of strings', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', tags: 'a' }), ['tags must be an array']);
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', tags: ['a', 1, {}] }), [
			'each value in tags must be a string',
		]);
	});

	it('create: taskListId must be a non-empty string', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', taskListId: '' }), [
			'taskListId must be longer than or equal to 1 characters',
		]);
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', taskListId: 3 }), [
			'taskListId must be a string',
		]);
	});

	it('create: null for an optional field is the same as omitting it', async () => {
		const task = await api().getTask(
			await api().createTask({ priority: null, progress: null, taskListId: null, descriptionContentType: null }),
		);
		expect(task).toMatchObject({ priority: 0, progress: 'needs-action', taskListId: 'default' });
		expect(task.descriptionContentType).toBe('text/plain');
	});

	it('create: unknown properties answer 400 "property <name> should not exist"', async () => {
		expectValidation(await api().post('/v3/tasks/create', { title: 'x', dueDate: '2026-03-01T09:00:00' }), [
			'property dueDate should not exist',
		]);
	});

	it('create: read-only fields (id, @type, created, updated, position) are refused', async () => {
		const res = await api().post('/v3/tasks/create', {
			title: 'x',
			id: 'mine',
			'@type': 'Task',
			created: '2026-01-01T00:00:00.000Z',
			position: 1,
		});
		expectValidation(res, [
			'property id should not exist',
			'property @type should not exist',
			'property created should not exist',
			'property position should not exist',
		]);
	});

	it('create: the validation message is a JSON-encoded array with every failed field, and context names the fields', async () => {
		const res = await api().post('/v3/tasks/create', { title: '', due: '2026-03-01', priority: 12 });
		expectValidation(res, [
			'title must be longer than or equal to 1 characters',
			'due must be a valid ISO 8601 date string',
			'priority must not be greater than 9',
		]);
		expect(res.body.context).toEqual({ fields: ['title', 'due', 'priority'] });
	});

	it.each([
		['an array', []],
		['a string', 'title'],
		['a number', 3],
		['null', null],
	])('create: a body that is %s answers 400 "request body must be a JSON object"', async (_case, body) => {
		expectValidation(await api().post('/v3/tasks/create', body), ['request body must be a JSON object']);
	});

	it('create: an empty body is an empty object (400 for the missing title)', async () => {
		expectValidation(await api().call('POST', '/v3/tasks/create', { raw: '' }), [
			'title must be longer than or equal to 1 characters',
		]);
	});

	it('create: query parameters are refused', async () => {
		expectValidation(await api().call('POST', '/v3/tasks/create', { body: { title: 'x' }, query: { title: 'y' } }), [
			'property title should not exist',
		]);
	});

	it('create: a refused create stores nothing', async () => {
		await api().post('/v3/tasks/create', { title: '' });
		expect(await api().listTasks()).toEqual([]);
	});
});

describe('subtasks', () => {
	const parentRelation = { '@type': 'Relation', relation: { parent: true } };

	it('subtasks: relatedTo with relation.parent true creates a subtask that carries the relation', async () => {
		const parent = await api().createTask({ title: 'Parent' });
		const child = await api().getTask(await api().createTask({ title: 'Child', relatedTo: { [parent]: parentRelation } }));
		expect(child.relatedTo).toEqual({ [parent]: { '@type': 'Relation', relation: { parent: true } } });
		expect(await api().getTask(parent)).not.toHaveProperty('relatedTo');
	});

	it('subtasks: the Relation @type may be omitted on create', async () => {
		const parent = await api().createTask();
		const child = await api().getTask(await api().createTask({ relatedTo: { [parent]: { relation: { parent: true } } } }));
		expect(child.relatedTo[parent]['@type']).toBe('Relation');
	});

	it('subtasks: a subtask without taskListId goes to its parent\'s list', async () => {
		const parent = await api().createTask({ taskListId: 'work' });
		const child = await api().getTask(await api().createTask({ relatedTo: { [parent]: parentRelation } }));
		expect(child.taskListId).toBe('work');
	});

	it('subtasks: relatedTo naming an unknown, deleted or foreign task answers 400 "Invalid parent task id"', async () => {
		const deleted = await api().createTask();
		await api().post('/v3/tasks/delete', { id: deleted });
		const foreign = await api().createTask({}, BOB);
		for (const parent of ['no-such-task', deleted, foreign]) {
			expectErrorBody(
				await api().post('/v3/tasks/create', { title: 'x', relatedTo: { [parent]: parentRelation } }),
				400,
				'Invalid parent task id',
			);
		}
	});

	it('subtasks: relatedTo must map one parent id to a Relation with relation.parent true', async () => {
		const a = await api().createTask();
		const b = await api().createTask();
		const bad = [
			{ [a]: { '@type': 'Relation', relation: { parent: false } } },
			{ [a]: { '@type': 'Link', relation: { parent: true } } },
			{ [a]: { relation: { child: true } } },
			{ [a]: true },
			['a'],
			'a',
		];
		for (const relatedTo of bad) {
			const res = await api().post('/v3/tasks/create', { title: 'x', relatedTo });
			expect(res.status).toBe(400);
			expect(res.body.status).toBe(400);
		}
		expectValidation(
			await api().post('/v3/tasks/create', { title: 'x', relatedTo: { [a]: parentRelation, [b]: parentRelation } }),
			['relatedTo must name at most one parent task'],
		);
	});
});

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

describe('update', () => {
	it('update: answers 204 with an empty body', async () => {
		const id = await api().createTask();
		const res = await api().post('/v3/tasks/update', { id, title: 'New' });
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
	});

	it('update: patch: only supplied fields change', async () => {
		const id = await api().createTask({ title: 'Old', description: 'keep', priority: 4, due: '2026-03-01T09:00:00' });
		const before = await api().getTask(id);
		await api().post('/v3/tasks/update', { id, title: 'New' });
		const after = await api().getTask(id);
		expect(after).toEqual({ ...before, title: 'New', updated: after.updated });
	});

	it('update: every updatable field can be set', async () => {
		const id = await api().createTask();
		const patch = {
			title: 'T',
			description: 'D',
			due: '2026-12-24T18:00:00',
			timeZone: 'Asia/Tokyo',
			taskListId: 'home',
			priority: 9,
			progress: 'in-process',
			tags: ['x'],
		};
		expect((await api().post('/v3/tasks/update', { id, ...patch })).status).toBe(204);
		expect(await api().getTask(id)).toMatchObject(patch);
	});

	it('update: accepts all five progress values', async () => {
		const id = await api().createTask();
		for (const progress of ['in-process', 'completed', 'failed', 'cancelled', 'needs-action']) {
			expect((await api().post('/v3/tasks/update', { id, progress })).status).toBe(204);
			expect((await api().getTask(id)).progress).toBe(progress);
		}
	});

	it('update: another progress value answers 400 listing the five values', async () => {
		const id = await api().createTask();
		expectValidation(await api().post('/v3/tasks/update', { id, progress: 'done' }), [
			'progress must be one of the following values: needs-action, in-process, completed, failed, cancelled',
		]);
	});

	it('update: null clears description, due, timeZone and tags', async () => {
		const id = await api().createTask({ description: 'd', due: '2026-03-01T09:00:00', timeZone: 'UTC', tags: ['a'] });
		await api().post('/v3/tasks/update', { id, description: null, due: null, timeZone: null, tags: null });
		const task = await api().getTask(id);
		for (const field of ['description', 'due', 'timeZone', 'tags']) expect(task).not.toHaveProperty([field]);
	});

	it('update: null for title, priority, progress or taskListId answers 400', async () => {
		const id = await api().createTask();
		expectValidation(await api().post('/v3/tasks/update', { id, title: null }), [
			'title must be longer than or equal to 1 characters',
		]);
		expectValidation(await api().post('/v3/tasks/update', { id, priority: null }), ['priority must be an integer number']);
		expectValidation(await api().post('/v3/tasks/update', { id, taskListId: null }), ['taskListId must be a string']);
	});

	it('update: due, priority and title are validated as on create', async () => {
		const id = await api().createTask();
		expectValidation(await api().post('/v3/tasks/update', { id, due: '2026-03-01T09:00:00Z' }), [
			'due must be a valid ISO 8601 date string',
		]);
		expectValidation(await api().post('/v3/tasks/update', { id, priority: 10 }), ['priority must not be greater than 9']);
		expectValidation(await api().post('/v3/tasks/update', { id, priority: -3 }), ['priority must not be less than 0']);
		expectValidation(await api().post('/v3/tasks/update', { id, title: '' }), [
			'title must be longer than or equal to 1 characters',
		]);
		expectValidation(await api().post('/v3/tasks/update', { id, timeZone: 'EST' }), [
			'timeZone must be a valid IANA time zone',
		]);
	});

	it('update: taskListId moves the task to another list, after every task there', async () => {
		const other = await api().getTask(await api().createTask({ taskListId: 'work' }));
		const id = await api().createTask();
		await api().post('/v3/tasks/update', { id, taskListId: 'work' });
		const task = await api().getTask(id);
		expect(task.taskListId).toBe('work');
		expect(task.position).toBeGreaterThan(other.position);
	});

	it('update: fields the update body does not list (estimatedDuration, relatedTo, descriptionContentType) answer 400', async () => {
		const id = await api().createTask();
		expectValidation(
			await api().post('/v3/tasks/update', { id, estimatedDuration: 'PT1H', relatedTo: {}, descriptionContentType: 'text/html' }),
			[
				'property estimatedDuration should not exist',
				'property relatedTo should not exist',
				'property descriptionContentType should not exist',
			],
		);
	});

	it('update: updated changes and created stays', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const id = await api().createTask();
		await advance(60);
		await api().post('/v3/tasks/update', { id, priority: 2 });
		const task = await api().getTask(id);
		expect(task.created).toBe('2026-03-01T09:00:00.000Z');
		expect(task.updated).toBe('2026-03-01T09:01:00.000Z');
	});

	it('update: id missing answers 400 "id must be a string"', async () => {
		expectValidation(await api().post('/v3/tasks/update', { title: 'x' }), ['id must be a string']);
		expectValidation(await api().post('/v3/tasks/update', { id: 7 }), ['id must be a string']);
	});

	it('update: an id that never existed, a deleted task or another user\'s task answers 400 "Invalid task id"', async () => {
		const deleted = await api().createTask();
		await api().post('/v3/tasks/delete', { id: deleted });
		const foreign = await api().createTask({}, BOB);
		for (const id of ['no-such-task', '', deleted, foreign]) {
			expectErrorBody(await api().post('/v3/tasks/update', { id, title: 'x' }), 400, 'Invalid task id');
		}
		expect((await api().getTask(foreign, BOB)).title).toBe('A task');
	});

	it('update: a refused update changes nothing', async () => {
		const id = await api().createTask({ title: 'Keep' });
		const before = await api().getTask(id);
		await api().post('/v3/tasks/update', { id, title: 'Changed', priority: 99 });
		expect(await api().getTask(id)).toEqual(before);
	});
});

describe('move', () => {
	const positions = async (ids: string[]) => Promise.all(ids.map(async (id) => (await api().getTask(id)).position as number));
	const order = async (ids: string[]) => {
		const pos = await positions(ids);
		return [...ids].sort((a, b) => pos[ids.indexOf(a)] - pos[ids.indexOf(b)]);
	};

	it('move: answers 204 with an empty body', async () => {
		const id = await api().createTask();
		const res = await api().post('/v3/tasks/move', { id, previousId: null });
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
	});

	it('move: previousId null gives the task a lower position than every other task of its list', async () => {
		const a = await api().createTask();
		const b = await api().createTask();
		const c = await api().createTask();
		await api().createTask({ taskListId: 'other' });
		await api().post('/v3/tasks/move', { id: c, previousId: null });
		const [pa, pb, pc] = await positions([a, b, c]);
		expect(pc).toBeLessThan(pa);
		expect(pc).toBeLessThan(pb);
	});

	it('move: previousId puts the task directly after that task', async () => {
		const [a, b, c, d] = [await api().createTask(), await api().createTask(), await api().createTask(), await api().createTask()];
		await api().post('/v3/tasks/move', { id: d, previousId: a });
		expect(await order([a, b, c, d])).toEqual([a, d, b, c]);
		await api().post('/v3/tasks/move', { id: a, previousId: c });
		expect(await order([a, b, c, d])).toEqual([d, b, c, a]);
	});

	it('move: many moves into the same gap keep the order exact', async () => {
		const a = await api().createTask();
		const b = await api().createTask();
		const c = await api().createTask();
		for (let i = 0; i < 70; i++) {
			await api().post('/v3/tasks/move', { id: i % 2 === 0 ? c : b, previousId: a });
		}
		expect(await order([a, b, c])).toEqual([a, b, c]);
	});

	it('move: previousId of a task in another list moves the task into that list', async () => {
		const other = await api().createTask({ taskListId: 'work' });
		const id = await api().createTask();
		await api().post('/v3/tasks/move', { id, previousId: other });
		const task = await api().getTask(id);
		expect(task.taskListId).toBe('work');
		expect(task.position).toBeGreaterThan((await api().getTask(other)).position);
	});

	it('move: parentId makes the task a subtask; parentId null returns it to the root level', async () => {
		const parent = await api().createTask();
		const id = await api().createTask();
		await api().post('/v3/tasks/move', { id, parentId: parent });
		expect((await api().getTask(id)).relatedTo).toEqual({ [parent]: { '@type': 'Relation', relation: { parent: true } } });
		await api().post('/v3/tasks/move', { id, parentId: null });
		expect(await api().getTask(id)).not.toHaveProperty('relatedTo');
	});

	it('move: omitted previousId and parentId leave position and parent unchanged', async () => {
		const parent = await api().createTask();
		const id = await api().createTask({ relatedTo: { [parent]: { relation: { parent: true } } } });
		const before = await api().getTask(id);
		await api().post('/v3/tasks/move', { id });
		const after = await api().getTask(id);
		expect(after.position).toBe(before.position);
		expect(after.relatedTo).toEqual(before.relatedTo);
	});

	it('move: a parent that is unknown, deleted, the task itself or one of its subtasks answers 400 "Invalid parent task id"', async () => {
		const id = await api().createTask();
		const child = await api().createTask({ relatedTo: { [id]: { relation: { parent: true } } } });
		const deleted = await api().createTask();
		await api().post('/v3/tasks/delete', { id: deleted });
		for (const parentId of ['no-such-task', deleted, id, child]) {
			expectErrorBody(await api().post('/v3/tasks/move', { id, parentId }), 400, 'Invalid parent task id');
		}
	});

	it('move: a previousId that is unknown, deleted or the task itself answers 400 "Invalid previous task id"', async () => {
		const id = await api().createTask();
		const deleted = await api().createTask();
		await api().post('/v3/tasks/delete', { id: deleted });
		const foreign = await api().createTask({}, BOB);
		for (const previousId of ['no-such-task', deleted, id, foreign]) {
			expectErrorBody(await api().post('/v3/tasks/move', { id, previousId }), 400, 'Invalid previous task id');
		}
	});

	it('move: previousId and parentId must be strings or null', async () => {
		const id = await api().createTask();
		expectValidation(await api().post('/v3/tasks/move', { id, previousId: 1, parentId: [] }), [
			'previousId must be a string or null',
			'parentId must be a string or null',
		]);
	});

	it('move: an id that never existed, a deleted task or another user\'s task answers 400 "Invalid task id"', async () => {
		const deleted = await api().createTask();
		await api().post('/v3/tasks/delete', { id: deleted });
		const foreign = await api().createTask({}, BOB);
		for (const id of ['no-such-task', deleted, foreign]) {
			expectErrorBody(await api().post('/v3/tasks/move', { id, previousId: null }), 400, 'Invalid task id');
		}
	});

	it('move: a refused move changes nothing', async () => {
		const id = await api().createTask();
		const before = await api().getTask(id);
		await api().post('/v3/tasks/move', { id, previousId: null, parentId: 'no-such-task' });
		expect(await api().getTask(id)).toEqual(before);
	});

	it('move: updates updated', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const id = await api().createTask();
		await advance(1);
		await api().post('/v3/tasks/move', { id, previousId: null });
		expect((await api().getTask(id)).updated).toBe('2026-03-01T09:00:01.000Z');
	});
});

describe('delete', () => {
	it('delete: answers 204 with an empty body', async () => {
		const id = await api().createTask();
		const res = await api().post('/v3/tasks/delete', { id });
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
		expect(res.headers.get('content-type')).toBeNull();
	});

	it('delete: the record is kept and readable by id with deleted: true', async () => {
		const id = await api().createTask({ title: 'Kept' });
		await api().post('/v3/tasks/delete', { id });
		const task = await api().getTask(id);
		expect(task).toMatchObject({ id, title: 'Kept', deleted: true, progress: 'needs-action' });
	});

	it('delete: a deleted task is absent from the list', async () => {
		const id = await api().createTask();
		await api().post('/v3/tasks/delete', { id });
		expect(await api().listTasks()).toEqual([]);
	});

	it('delete: subtasks of a deleted parent are deleted too, at every depth', async () => {
		const rel = (id: string) => ({ [id]: { relation: { parent: true } } });
		const root = await api().createTask();
		const child = await api().createTask({ relatedTo: rel(root) });
		const grandchild = await api().createTask({ relatedTo: rel(child) });
		const unrelated = await api().createTask();
		await api().post('/v3/tasks/delete', { id: root });
		for (const id of [root, child, grandchild]) expect((await api().getTask(id)).deleted).toBe(true);
		expect(await api().getTask(unrelated)).not.toHaveProperty('deleted');
	});

	it('delete: repeated delete answers 204 again and changes nothing', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const id = await api().createTask();
		await api().post('/v3/tasks/delete', { id });
		const first = await api().getTask(id);
		await advance(10);
		const res = await api().post('/v3/tasks/delete', { id });
		expect(res.status).toBe(204);
		expect(await api().getTask(id)).toEqual(first);
	});

	it('delete: an id that never existed answers 400 "Invalid task id", never 404', async () => {
		const res = await api().post('/v3/tasks/delete', { id: 'no-such-task' });
		expectErrorBody(res, 400, 'Invalid task id');
	});

	it("delete: another user's task answers 400 \"Invalid task id\" and stays", async () => {
		const id = await api().createTask({}, BOB);
		expectErrorBody(await api().post('/v3/tasks/delete', { id }, { key: ALICE }), 400, 'Invalid task id');
		expect(await api().getTask(id, BOB)).not.toHaveProperty('deleted');
	});

	it('delete: the body accepts only id', async () => {
		const id = await api().createTask();
		expectValidation(await api().post('/v3/tasks/delete', { id, force: true }), ['property force should not exist']);
		expectValidation(await api().post('/v3/tasks/delete', {}), ['id must be a string']);
	});

	it('delete: updates updated', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const id = await api().createTask();
		await advance(2);
		await api().post('/v3/tasks/delete', { id });
		expect((await api().getTask(id)).updated).toBe('2026-03-01T09:00:02.000Z');
	});
});

describe('close and reopen', () => {
	it('close: sets progress completed, answers 204 with an empty body, and the task leaves the list', async () => {
		const id = await api().createTask();
		const res = await api().post('/v3/tasks/close', { id });
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
		expect((await api().getTask(id)).progress).toBe('completed');
		expect(await api().listTasks()).toEqual([]);
	});

	it('close: works from any open progress (in-process too)', async () => {
		const id = await api().createTask();
		await api().post('/v3/tasks/update', { id, progress: 'in-process' });
		await api().post('/v3/tasks/close', { id });
		expect((await api().getTask(id)).progress).toBe('completed');
	});

	it('close: occurrenceStart on a task that is not recurring is accepted and ignored', async () => {
		const id = await api().createTask();
		expect((await api().post('/v3/tasks/close', { id, occurrenceStart: '2026-03-01T09:00:00' })).status).toBe(204);
		expect((await api().post('/v3/tasks/reopen', { id, occurrenceStart: '2026-03-01T09:00:00Z' })).status).toBe(204);
		expect((await api().getTask(id)).progress).toBe('needs-action');
	});

	it('close: occurrenceStart that is not an ISO 8601 date-time answers 400', async () => {
		const id = await api().createTask();
		expectValidation(await api().post('/v3/tasks/close', { id, occurrenceStart: 'tomorrow' }), [
			'occurrenceStart must be a valid ISO 8601 date string',
		]);
	});

	it('close: an id that never existed, a deleted task or another user\'s task answers 400 "Invalid task id"', async () => {
		const deleted = await api().createTask();
		await api().post('/v3/tasks/delete', { id: deleted });
		const foreign = await api().createTask({}, BOB);
		for (const id of ['no-such-task', deleted, foreign]) {
			expectErrorBody(await api().post('/v3/tasks/close', { id }), 400, 'Invalid task id');
		}
		expect((await api().getTask(foreign, BOB)).progress).toBe('needs-action');
	});

	it('close: updates updated', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const id = await api().createTask();
		await advance(3);
		await api().post('/v3/tasks/close', { id });
		expect((await api().getTask(id)).updated).toBe('2026-03-01T09:00:03.000Z');
	});

	it('reopen: sets progress needs-action, answers 204, and the task is back in the list', async () => {
		const id = await api().createTask({ progress: 'completed' });
		const res = await api().post('/v3/tasks/reopen', { id });
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
		expect((await api().getTask(id)).progress).toBe('needs-action');
		expect((await api().listTasks()).map((t) => t.id)).toEqual([id]);
	});

	it('reopen: an id that never existed, a deleted task or another user\'s task answers 400 "Invalid task id"', async () => {
		const deleted = await api().createTask({ progress: 'completed' });
		await api().post('/v3/tasks/delete', { id: deleted });
		const foreign = await api().createTask({ progress: 'completed' }, BOB);
		for (const id of ['no-such-task', deleted, foreign]) {
			expectErrorBody(await api().post('/v3/tasks/reopen', { id }), 400, 'Invalid task id');
		}
		expect((await api().getTask(deleted)).progress).toBe('completed');
	});

	it('reopen: updates updated', async () => {
		await freeze('2026-03-01T09:00:00Z');
		const id = await api().createTask({ progress: 'completed' });
		await advance(4);
		await api().post('/v3/tasks/reopen', { id });
		expect((await api().getTask(id)).updated).toBe('2026-03-01T09:00:04.000Z');
	});

	it('close and reopen: the body accepts only id and occurrenceStart', async () => {
		const id = await api().createTask();
		expectValidation(await api().post('/v3/tasks/close', { id, progress: 'completed' }), [
			'property progress should not exist',
		]);
		expectValidation(await api().post('/v3/tasks/reopen', {}), ['id must be a string']);
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

describe('timestamps', () => {
	it('timestamps: under a frozen clock every write gets the same timestamp', async () => {
		await freeze('2026-11-21T09:30:00.125Z');
		const a = await api().createTask();
		const b = await api().createTask();
		await api().post('/v3/tasks/update', { id: a, title: 'changed' });
		for (const id of [a, b]) {
			const task = await api().getTask(id);
			expect(task.created).toBe('2026-11-21T09:30:00.125Z');
			expect(task.updated).toBe('2026-11-21T09:30:00.125Z');
		}
	});
});
