/**
 * Conformance of the v3 tasks endpoints: update and move, and the timestamps writes get, one test per rule
 * of the interface and of the notes on where it is silent.
 * Over real HTTP against an in-process sandbox; the setup the tasks test files share is `useApi` in
 * `support/http.ts`.
 */
import { BOB, expectErrorBody, expectValidation, useApi } from './support/http';

const { api, freeze, advance } = useApi();

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
