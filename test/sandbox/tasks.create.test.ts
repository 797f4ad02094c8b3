/**
 * Conformance of the v3 tasks endpoints: create, and subtasks (relatedTo), one test per rule of the
 * interface and of the notes on where it is silent.
 * Over real HTTP against an in-process sandbox; the setup the tasks test files share is `useApi` in
 * `support/http.ts`.
 */
import { BOB, TIMESTAMP, expectErrorBody, expectValidation, useApi } from './support/http';

const { api } = useApi();

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
