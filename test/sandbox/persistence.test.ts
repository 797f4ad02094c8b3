/**
 * State file (`SANDBOX_DATA` / `dataFile`) and the `npm run sandbox` entry point.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';

import { startSandbox, type Sandbox } from './server';
import { SAVE_DELAY_MS } from './store';
import { Events } from './support/events';
import { ALICE, Client } from './support/http';

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

	it('persistence: changes are saved shortly after they happen, without a close', async () => {
		const file = join(dir, 'state.json');
		const client = await start(file);
		const id = await client.createTask({ title: 'Soon on disk' });
		await new Promise((resolve) => setTimeout(resolve, SAVE_DELAY_MS * 3));
		expect(readFileSync(file, 'utf8')).toContain(id);
	});

	it('persistence: close writes pending changes at once', async () => {
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

/** Compiles the sandbox (without tests) next to the project, so `node` resolves its dependencies. */
function buildSandbox(): string {
	const out = join(__dirname, '..', '..', 'build', `main-test-${process.pid}`);
	const walk = (from: string, to: string) => {
		mkdirSync(to, { recursive: true });
		for (const entry of readdirSync(from, { withFileTypes: true })) {
			if (entry.isDirectory()) continue;
			if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
			const source = readFileSync(join(from, entry.name), 'utf8');
			const { outputText } = ts.transpileModule(source, {
				compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
			});
			writeFileSync(join(to, entry.name.replace(/\.ts$/, '.js')), outputText);
		}
	};
	walk(__dirname, out);
	return out;
}

function runMain(buildDir: string, env: Record<string, string>): Promise<{ child: ChildProcessWithoutNullStreams; output: () => string; url: string }> {
	const child = spawn(process.execPath, [join(buildDir, 'main.js')], { env: { ...process.env, ...env } });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`main did not start: ${output}`)), 10_000);
		child.stdout.on('data', () => {
			const match = /listening on (http:\/\/\S+)/.exec(output);
			if (match && output.includes('Ctrl-C')) {
				clearTimeout(timer);
				resolve({ child, output: () => output, url: match[1] });
			}
		});
		child.on('exit', () => reject(new Error(`main exited: ${output}`)));
	});
}

const exited = (child: ChildProcessWithoutNullStreams) =>
	new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

describe('main', () => {
	let buildDir: string;
	beforeAll(() => {
		buildDir = buildSandbox();
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
		const firstExit = exited(first.child);
		first.child.kill('SIGINT');
		expect(await firstExit).toBe(0);
		expect(existsSync(file)).toBe(true);

		const second = await runMain(buildDir, env);
		try {
			const res = await fetch(`${second.url}/v3/tasks?id=${data.id}`, { headers: { authorization: `ApiKey ${ALICE}` } });
			expect(((await res.json()) as { data: { task: { title: string } } }).data.task.title).toBe('Across restarts');
		} finally {
			const secondExit = exited(second.child);
			second.child.kill('SIGTERM');
			expect(await secondExit).toBe(0);
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
