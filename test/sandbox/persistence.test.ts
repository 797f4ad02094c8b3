/**
 * State file (`SANDBOX_DATA` / `dataFile`) and the `npm run sandbox` entry point.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSandbox, type Sandbox } from './server';
import { Events } from './support/events';
import { ALICE, Client } from './support/http';
import { buildSandbox, runMain } from './support/process';

let dir: string;
const running: Sandbox[] = [];

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'cts-sandbox-'));
});

afterEach(async () => {
	await Promise.all(running.splice(0).map((s) => s.close()));
	rmSync(dir, { recursive: true, force: true });
});

async function start(dataFile: string): Promise<Client> {
	const sandbox = await startSandbox({ port: 0, dataFile });
	running.push(sandbox);
	return new Client(sandbox);
}

describe('persistence', () => {
	it('persistence: with a data file, tasks survive a restart unchanged', async () => {
		const file = join(dir, 'state.json');
		const first = await start(file);
		const kept = await first.createTask({ title: 'Kept', tags: ['a'] });
		const deleted = await first.createTask({ title: 'Deleted' });
		await first.post('/v3/tasks/delete', { id: deleted });
		const before = [await first.getTask(kept), await first.getTask(deleted)];
		await first.sandbox.close();

		const second = await start(file);
		expect([await second.getTask(kept), await second.getTask(deleted)]).toEqual(before);
		expect((await second.listTasks()).map((t) => t.id)).toEqual([kept]);
		expect(await second.getTask(kept, 'sandbox-bob-key')).toBeNull();
	});

	it('persistence: a write is saved before it is answered: the data file and its journal, copied while the sandbox runs, hold it', async () => {
		const file = join(dir, 'state.json');
		const client = await start(file);
		const id = await client.createTask({ title: 'Created' });
		expect((await client.post('/v3/tasks/update', { id, title: 'Renamed' })).status).toBe(204);
		const tag = await client.post('/v3/tags/create', { name: 'Saved', color: '#123abc' });
		// What a kill -9 right now would leave behind.
		const copy = join(dir, 'copy');
		mkdirSync(copy);
		copyFileSync(file, join(copy, 'state.json'));
		copyFileSync(`${file}.journal`, join(copy, 'state.json.journal'));

		const second = await start(join(copy, 'state.json'));
		expect((await second.getTask(id)).title).toBe('Renamed');
		expect((await second.get('/v3/tags', { id: tag.body.id })).body).toMatchObject({ name: 'Saved' });
	});

	it('persistence: every kind of write is saved before it is answered: a copy of the files taken without a close holds the state of the running sandbox', async () => {
		const file = join(dir, 'state.json');
		const client = await start(file);
		await client.control('POST', 'limits', { points: null });
		const expectStatus = async (res: Promise<{ status: number; text: string }>, status: number) => expect((await res).status).toBe(status);
		const parent = await client.createTask({ title: 'Parent' });
		const child = await client.createTask({ title: 'Child', relatedTo: { [parent]: { relation: { parent: true } } } });
		const other = await client.createTask({ title: 'Other' });
		await expectStatus(client.post('/v3/tasks/update', { id: other, title: 'Other, renamed', priority: 5 }), 204);
		await expectStatus(client.post('/v3/tasks/move', { id: other, previousId: null }), 204);
		await expectStatus(client.post('/v3/tasks/close', { id: other }), 204);
		await expectStatus(client.post('/v3/tasks/delete', { id: parent }), 204);
		expect((await client.getTask(child)).deleted).toBe(true);
		await client.createTask({ title: "Bob's" }, 'sandbox-bob-key');
		const tag = (await client.post('/v3/tags/create', { name: 'New', color: '#123abc' })).body.id;
		await expectStatus(client.post('/v3/tags/update', { id: tag, name: 'Renamed' }), 204);
		await expectStatus(client.post('/v3/tags/delete', { id: 'tag-alice-work' }), 204);

		const events = new Events(() => client);
		const owner = { [Buffer.from('alice@sandbox.example').toString('base64')]: { email: 'alice@sandbox.example' } };
		const single = await events.create({ title: 'Single', participants: owner });
		await events.create({ title: 'Series', recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly' }] });
		const occurrences = (await events.listEvents()).filter((e: { title: string }) => e.title === 'Series');
		expect((await events.update({ id: occurrences[1].id, title: 'One changed' })).status).toBe(200);
		expect((await events.update({ id: occurrences[2].id, title: 'From here on' }, 'future')).status).toBe(200);
		await expectStatus(events.delete(occurrences[0].id), 204);
		const token = (await client.control('POST', 'token', { user: 'alice' })).body.token as string;
		const v1 = (path: string, body: unknown) => client.call('POST', `/v1/events/${path}`, { body, authorization: `Bearer ${token}` });
		await expectStatus(v1('update', { id: single.id, title: 'Single, via v1' }), 200);
		await expectStatus(v1('accept', { id: single.id }), 204);
		const doomed = await events.create({ title: 'Deleted via v1' });
		await expectStatus(v1('delete', { id: doomed.id }), 204);
		await expectStatus(client.control('POST', 'events/link-task', { user: 'alice', eventId: single.id, taskId: other }), 200);

		// What a kill -9 right now would leave behind.
		const copy = join(dir, 'copy');
		mkdirSync(copy);
		copyFileSync(file, join(copy, 'state.json'));
		copyFileSync(`${file}.journal`, join(copy, 'state.json.journal'));
		const second = await start(join(copy, 'state.json'));
		// When each was written differs; the state itself must not.
		const withoutSaveTime = (snapshot: { savedAt?: unknown }) => ({ ...snapshot, savedAt: undefined });
		expect(withoutSaveTime(second.sandbox.store.snapshot())).toEqual(withoutSaveTime(client.sandbox.store.snapshot()));
	});

	it('persistence: a journal line cut short (a kill during the write) is skipped and the lines before it are replayed; a broken line before the last stops the start', async () => {
		const file = join(dir, 'state.json');
		const client = await start(file);
		const kept = await client.createTask({ title: 'Kept' });
		const journal = readFileSync(`${file}.journal`, 'utf8');
		const copy = join(dir, 'copy');
		mkdirSync(copy);
		copyFileSync(file, join(copy, 'state.json'));
		writeFileSync(join(copy, 'state.json.journal'), `${journal}{"seq":99,"positionSeq":9,"records":[["tasks","alice","cut`);

		const second = await start(join(copy, 'state.json'));
		expect((await second.getTask(kept)).title).toBe('Kept');
		expect((await second.getTask(await second.createTask({ title: 'After' }))).title).toBe('After');

		const broken = join(dir, 'broken');
		mkdirSync(broken);
		copyFileSync(file, join(broken, 'state.json'));
		writeFileSync(join(broken, 'state.json.journal'), `{"seq":99,"positi\n${journal}`);
		await expect(startSandbox({ port: 0, dataFile: join(broken, 'state.json') })).rejects.toThrow(/line 1 is not a journal entry/);
	});

	it('persistence: journal entries a snapshot already includes are not replayed (a kill between writing the snapshot and emptying the journal)', async () => {
		const file = join(dir, 'state.json');
		const client = await start(file);
		const gone = await client.createTask({ title: 'Removed by the reset' });
		const journal = readFileSync(`${file}.journal`, 'utf8');
		expect(journal).toContain(gone);
		await client.reset();
		await client.sandbox.close();
		writeFileSync(`${file}.journal`, journal);

		const second = await start(file);
		expect(await second.getTask(gone)).toBeNull();
	});

	it('persistence: once the journal grows larger than the snapshot (and 1 MiB), a new snapshot replaces it', async () => {
		const file = join(dir, 'state.json');
		const client = await start(file);
		const description = 'x'.repeat(100_000);
		const ids: string[] = [];
		for (let i = 0; i < 30; i++) ids.push(await client.createTask({ title: `Large ${i}`, description }));
		// 3 MB written: compacted at least once, so the journal holds less than 1 MiB and one more entry.
		expect(statSync(`${file}.journal`).size).toBeLessThan(1024 * 1024 + 110_000);
		expect(readFileSync(file, 'utf8')).toContain(ids[0]);

		const copy = join(dir, 'copy');
		mkdirSync(copy);
		copyFileSync(file, join(copy, 'state.json'));
		copyFileSync(`${file}.journal`, join(copy, 'state.json.journal'));
		const second = await start(join(copy, 'state.json'));
		// Tasks created in the same millisecond share `updated`: the list's order among them is not part of the state.
		expect((await second.listTasks()).map((t) => t.title).sort()).toEqual(ids.map((_, i) => `Large ${i}`).sort());
	});

	it('persistence: close writes a snapshot and removes the journal', async () => {
		const file = join(dir, 'state.json');
		const client = await start(file);
		const id = await client.createTask();
		await client.sandbox.close();
		expect(readFileSync(file, 'utf8')).toContain(id);
		expect(readdirSync(dir)).toEqual(['state.json']);
	});

	it('persistence: a reset is saved too', async () => {
		const file = join(dir, 'state.json');
		const first = await start(file);
		const id = await first.createTask();
		await first.reset();
		await first.sandbox.close();
		const second = await start(file);
		expect(await second.getTask(id)).toBeNull();
	});

	it('persistence: new tasks after a restart still go after the existing ones', async () => {
		const file = join(dir, 'state.json');
		const first = await start(file);
		const old = await first.getTask(await first.createTask());
		await first.sandbox.close();
		const second = await start(file);
		expect((await second.getTask(await second.createTask())).position).toBeGreaterThan(old.position);
	});

	it('persistence: tags survive a restart, deleted ones included, with their updated times', async () => {
		const file = join(dir, 'state.json');
		const first = await start(file);
		const created = await first.post('/v3/tags/create', { name: 'Kept', color: '#123abc' });
		await first.post('/v3/tags/delete', { id: 'tag-alice-work' });
		const since = { updatedAfter: '2026-01-01T00:00:00Z' };
		const before = (await first.get('/v3/tags/list', since)).body;
		expect(before.map((t: { id: string }) => t.id)).toContain(created.body.id);
		await first.sandbox.close();

		const second = await start(file);
		expect((await second.get('/v3/tags/list', since)).body).toEqual(before);
		expect((await second.get('/v3/tags', { id: 'tag-alice-work' })).status).toBe(404);
	});

	it('persistence: a state file of version 1 (before tags) keeps its tasks and events and gets today\'s fixtures for the rest', async () => {
		const file = join(dir, 'v1.json');
		const first = await start(file);
		const taskId = await first.createTask({ title: 'Old' });
		const event = await new Events(() => first).create();
		await first.sandbox.close();
		// Rewrite the file as version 1 wrote it: no tags, calendars and accounts without their details.
		const state = JSON.parse(readFileSync(file, 'utf8'));
		state.version = 1;
		delete state.tags;
		state.accounts = state.accounts.map(({ id, userId, integrationId, connection, ownerEmail }: Record<string, unknown>) => ({ id, userId, integrationId, connection, ownerEmail }));
		state.calendars = state.calendars.map(({ id, accountId, userId, name, primary }: Record<string, unknown>) => ({ id, accountId, userId, name, primary }));
		writeFileSync(file, JSON.stringify(state));

		const second = await start(file);
		expect((await second.getTask(taskId)).title).toBe('Old');
		expect(await new Events(() => second).getEvent(event.id)).toEqual(event);
		const calendars = (await second.get('/v3/calendars/list')).body.data.calendars;
		expect(calendars).toHaveLength(7);
		expect(calendars[0]).toMatchObject({ id: 'cal-alice-a-primary', color: '#039be5', sortOrder: 0 });
		expect((await second.get('/v3/tags/list')).body).toHaveLength(3);
		expect((await second.getTask(await second.createTask())).position).toBeGreaterThan(1);
		await second.sandbox.close();
		expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(2);
	});

	it('persistence: a missing file starts from the fixtures; a file that is not a state file is refused and left alone', async () => {
		const fresh = await start(join(dir, 'new.json'));
		expect((await fresh.get('/v3/tasks/list', {}, { key: ALICE })).status).toBe(200);
		const foreign = join(dir, 'foreign.json');
		writeFileSync(foreign, '{"hello":"world"}');
		await expect(startSandbox({ port: 0, dataFile: foreign })).rejects.toThrow(/not a sandbox state file/);
		writeFileSync(foreign, 'not json');
		await expect(startSandbox({ port: 0, dataFile: foreign })).rejects.toThrow();
		expect(readFileSync(foreign, 'utf8')).toBe('not json');
	});
});

describe('main', () => {
	let buildDir: string;
	beforeAll(() => {
		buildDir = buildSandbox('main-test');
	});
	afterAll(() => {
		rmSync(buildDir, { recursive: true, force: true });
	});

	it('main: serves on SANDBOX_PORT, prints the base URL, the fixture keys and how to get a v1 token, keeps SANDBOX_DATA across a restart, and stops cleanly on SIGINT', async () => {
		const file = join(dir, 'main-state.json');
		const env = { SANDBOX_PORT: '0', SANDBOX_DATA: file };
		const first = await runMain(buildDir, env);
		expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		for (const text of ['sandbox-alice-key', 'sandbox-bob-key', 'sandbox-noplan-key', '/_sandbox/token']) {
			expect(first.output()).toContain(text);
		}
		const created = await fetch(`${first.url}/v3/tasks/create`, {
			method: 'POST',
			headers: { authorization: `ApiKey ${ALICE}`, 'content-type': 'application/json' },
			body: JSON.stringify({ title: 'Across restarts' }),
		});
		const { data } = (await created.json()) as { data: { id: string } };
		first.child.kill('SIGINT');
		expect(await first.exited).toBe(0);
		expect(existsSync(file)).toBe(true);

		const second = await runMain(buildDir, env);
		try {
			const res = await fetch(`${second.url}/v3/tasks?id=${data.id}`, { headers: { authorization: `ApiKey ${ALICE}` } });
			expect(((await res.json()) as { data: { task: { title: string } } }).data.task.title).toBe('Across restarts');
		} finally {
			second.child.kill('SIGTERM');
			expect(await second.exited).toBe(0);
		}
	});

	it('main: an invalid SANDBOX_PORT stops with an error', async () => {
		const child = spawn(process.execPath, [join(buildDir, 'main.js')], { env: { ...process.env, SANDBOX_PORT: 'abc' } });
		let output = '';
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(1);
		expect(output).toContain('SANDBOX_PORT');
	});
});
