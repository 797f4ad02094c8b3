/**
 * Conformance of the v3 tasks endpoints: delete, close and reopen, one test per rule of the interface and
 * of the notes on where it is silent.
 * Over real HTTP against an in-process sandbox; the setup the tasks test files share is `useApi` in
 * `support/http.ts`.
 */
import { ALICE, BOB, expectErrorBody, expectValidation, useApi } from './support/http';

const { api, freeze, advance } = useApi();

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
