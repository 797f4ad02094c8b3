/**
 * Durability: the sandbox as `npm run sandbox` runs it, with a data file, killed with SIGKILL at
 * random moments while four clients create and update tasks and events over HTTP, then restarted
 * on the same file: every write it answered with 2xx before the kill is there, and what it never
 * answered is either there whole or absent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildSandbox, runMain, type MainProcess } from './support/process';

const KILLS = 6;
/**
 * Each kill comes once this many writes of the round were answered (a loaded machine answers its
 * first writes later), then after a random time within KILL_AFTER_MS.
 */
const ANSWERED_BEFORE_KILL = 20;
const KILL_AFTER_MS = { min: 0, max: 500 };
/**
 * Tasks carry a description this large, so the journal outgrows the snapshot and is compacted
 * during the rounds: kills also come while a snapshot is being written.
 */
const TASK_DESCRIPTION = 'd'.repeat(16 * 1024);
/** Bounds a writer's loop in one round however fast the sandbox answers. */
const MAX_WRITES_PER_ROUND = 2000;

const USERS = [
	{ key: 'sandbox-alice-key', accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' },
	{ key: 'sandbox-bob-key', accountId: 'acc-bob-a', calendarId: 'cal-bob-a-primary' },
];
type SandboxUser = (typeof USERS)[number];

/** Events are created in this span, so one list call over the window shows all of them. */
const EVENT_TIMING = { start: '2026-03-02T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin', showWithoutTime: false };
const EVENT_WINDOW = { start: '2026-03-01T00:00:00Z', end: '2026-03-04T00:00:00Z' };

interface Written {
	kind: 'task' | 'event';
	id: string;
	user: SandboxUser;
	/** The client that created it; only that client updates it, so a record has at most one write in flight. */
	writer: number;
	/** The title its last write answered with 2xx set. */
	title: string;
	/** The title of an update sent but never answered (the kill came first): it may or may not be there. */
	unanswered?: string;
}

interface Round {
	written: Written[];
	/** Every title any write sent, answered or not: nothing else may turn up. */
	titlesSent: Set<string>;
	/** When each 2xx answer arrived (performance.now()). */
	answeredAt: number[];
	/** Answers other than 2xx (none are expected: a write either succeeds or is cut off by the kill). */
	unexpected: string[];
}

async function call(url: string, user: SandboxUser, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
	const res = await fetch(`${url}${path}`, {
		method,
		headers: { authorization: `ApiKey ${user.key}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

/**
 * One client: creates tasks and events and updates its own, one write at a time, until the
 * sandbox stops answering (the kill) or the round's bound is reached.
 */
async function writer(url: string, index: number, round: Round, counter: { titles: number }): Promise<void> {
	const user = USERS[index % USERS.length];
	const own: Record<Written['kind'], Written[]> = { task: [], event: [] };
	for (const written of round.written) if (written.writer === index) own[written.kind].push(written);
	for (let n = 0; n < MAX_WRITES_PER_ROUND; n++) {
		const kind: Written['kind'] = n % 2 === 0 ? 'task' : 'event';
		const title = `w${index}-${counter.titles++}`;
		round.titlesSent.add(title);
		const mine = own[kind];
		const update = n % 4 >= 2 && mine.length > 0 ? mine[Math.floor(Math.random() * mine.length)] : undefined;
		let answer: { status: number; body: any };
		try {
			if (update) {
				update.unanswered = title;
				answer =
					kind === 'task'
						? await call(url, user, 'POST', '/v3/tasks/update', { id: update.id, title })
						: await call(url, user, 'POST', '/v3/events/update', { accountId: user.accountId, calendarId: user.calendarId, id: update.id, title });
			} else {
				answer =
					kind === 'task'
						? await call(url, user, 'POST', '/v3/tasks/create', { title, description: TASK_DESCRIPTION })
						: await call(url, user, 'POST', '/v3/events/create', { accountId: user.accountId, calendarId: user.calendarId, title, ...EVENT_TIMING });
			}
		} catch {
			return; // The sandbox is gone: this write was never answered.
		}
		if (answer.status < 200 || answer.status > 299) {
			round.unexpected.push(`${kind} ${update ? 'update' : 'create'} "${title}": ${answer.status} ${JSON.stringify(answer.body)}`);
			return;
		}
		round.answeredAt.push(performance.now());
		if (update) {
			update.title = title;
			delete update.unanswered;
		} else {
			const id = kind === 'task' ? answer.body.data.id : answer.body.data.event.id;
			const written: Written = { kind, id, user, writer: index, title };
			round.written.push(written);
			mine.push(written);
		}
	}
}

/** Every task the user's list shows (open tasks), paged by `updatedAfter`. */
async function listedTasks(url: string, user: SandboxUser): Promise<Map<string, string>> {
	const titles = new Map<string, string>();
	let after: string | undefined;
	for (let page = 0; page < 1000; page++) {
		const query = new URLSearchParams({ limit: '100', ...(after ? { updatedAfter: after } : {}) });
		const res = await call(url, user, 'GET', `/v3/tasks/list?${query}`);
		expect(res.status).toBe(200);
		const tasks = res.body.data.tasks as { id: string; title: string; updated: string }[];
		for (const task of tasks) titles.set(task.id, task.title);
		if (tasks.length < 100) break;
		// Strictly after: start 1 ms before the last page's last time, so tasks sharing it are read too.
		const next = new Date(Date.parse(tasks[tasks.length - 1].updated) - 1).toISOString();
		if (next === after) break;
		after = next;
	}
	return titles;
}

async function listedEvents(url: string, user: SandboxUser): Promise<Map<string, string>> {
	const query = new URLSearchParams({ accountId: user.accountId, calendarIds: user.calendarId, ...EVENT_WINDOW });
	const res = await call(url, user, 'GET', `/v3/events/list?${query}`);
	expect(res.status).toBe(200);
	return new Map((res.body.data.events as { id: string; title: string }[]).map((e) => [e.id, e.title]));
}

/**
 * After a restart: every write answered before the kill is there (a lost one is reported with
 * what was found instead), and every task and event listed carries a title some write sent.
 * What was found becomes what the next round expects, so a loss is reported once.
 */
async function verify(url: string, round: Round): Promise<{ lost: string[]; foreign: string[]; checked: number }> {
	const lost: string[] = [];
	const foreign: string[] = [];
	const checked = round.written.length;
	const listed = new Map<string, string>();
	for (const user of USERS) {
		for (const [id, title] of [...(await listedTasks(url, user)), ...(await listedEvents(url, user))]) listed.set(id, title);
	}
	for (const [id, title] of listed) if (!round.titlesSent.has(title)) foreign.push(`${id}: "${title}"`);
	for (const written of round.written) {
		const found = listed.get(written.id);
		if (found !== written.title && (found === undefined || found !== written.unanswered)) {
			const wanted = written.unanswered ? `"${written.title}" (or the unanswered "${written.unanswered}")` : `"${written.title}"`;
			lost.push(`${written.kind} ${written.id}: ${wanted} answered, found ${found === undefined ? 'no such record' : `"${found}"`}`);
		}
		if (found !== undefined) written.title = found;
		delete written.unanswered;
	}
	round.written = round.written.filter((written) => listed.has(written.id));
	return { lost, foreign, checked };
}

describe('durability', () => {
	let buildDir: string;
	let dir: string;
	let running: MainProcess | undefined;

	beforeAll(() => {
		buildDir = buildSandbox('durability-test');
		dir = mkdtempSync(join(tmpdir(), 'cts-sandbox-kill-'));
	});

	afterAll(async () => {
		if (running && running.child.exitCode === null && running.child.signalCode === null) {
			running.child.kill('SIGKILL');
			await running.exited;
		}
		rmSync(buildDir, { recursive: true, force: true });
		rmSync(dir, { recursive: true, force: true });
	});

	it(`durability: killed with SIGKILL ${KILLS} times at random moments while 4 clients write tasks and events, the sandbox keeps every write it answered, and what it never answered is whole or absent`, async () => {
		const env = { SANDBOX_PORT: '0', SANDBOX_DATA: join(dir, 'state.json') };
		const round: Round = { written: [], titlesSent: new Set(), answeredAt: [], unexpected: [] };
		const counters = [{ titles: 0 }, { titles: 0 }, { titles: 0 }, { titles: 0 }];
		const lines: string[] = [];
		const lost: string[] = [];
		const foreign: string[] = [];
		let answeredTotal = 0;
		let answeredLastTotal = 0;
		for (let kill = 1; kill <= KILLS + 1; kill++) {
			running = await runMain(buildDir, env);
			const url = running.url;
			const limits = await fetch(`${url}/_sandbox/limits`, { method: 'POST', body: JSON.stringify({ points: null }) });
			expect(limits.status).toBe(200);
			if (kill > 1) {
				const found = await verify(url, round);
				lost.push(...found.lost);
				foreign.push(...found.foreign);
				lines.push(`  restart ${kill - 1}: ${found.checked} records checked, ${found.lost.length} records missing an answered write, ${found.foreign.length} with a title no write sent`);
			}
			if (kill > KILLS) break;

			round.answeredAt = [];
			const writers = Promise.all(counters.map((counter, index) => writer(url, index, round, counter)));
			const writing = performance.now();
			while (round.answeredAt.length < ANSWERED_BEFORE_KILL && performance.now() - writing < 60_000) await new Promise((resolve) => setTimeout(resolve, 5));
			const killAfter = KILL_AFTER_MS.min + Math.random() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min);
			await new Promise((resolve) => setTimeout(resolve, killAfter));
			running.child.kill('SIGKILL');
			const killedAt = performance.now();
			expect(await running.exited).toBeNull();
			await writers;
			const late = round.answeredAt.filter((t) => t <= killedAt && t > killedAt - 100).length;
			answeredTotal += round.answeredAt.length;
			answeredLastTotal += late;
			lines.push(`  kill ${kill} ${killAfter.toFixed(0)} ms after the round's first ${ANSWERED_BEFORE_KILL} answers: ${round.answeredAt.length} writes answered, ${late} of them in the last 100 ms before the kill`);
		}
		console.log(`durability: ${answeredTotal} writes answered over ${KILLS} kills, ${answeredLastTotal} in the last 100 ms before one; ${lost.length} records missing an answered write\n${lines.join('\n')}`);
		expect({ lost, foreign, unexpected: round.unexpected }).toEqual({ lost: [], foreign: [], unexpected: [] });
		// The test means something only if writes were being answered up to the kills.
		expect(answeredTotal).toBeGreaterThanOrEqual(KILLS * ANSWERED_BEFORE_KILL);
		expect(answeredLastTotal).toBeGreaterThan(0);

		// A clean stop afterwards keeps the same state.
		const expected = round.written.map((w) => `${w.kind} ${w.id} ${w.title}`);
		running!.child.kill('SIGTERM');
		expect(await running!.exited).toBe(0);
		running = await runMain(buildDir, env);
		expect((await verify(running.url, round)).lost).toEqual([]);
		expect(round.written.map((w) => `${w.kind} ${w.id} ${w.title}`)).toEqual(expected);
		running.child.kill('SIGTERM');
		expect(await running.exited).toBe(0);
	});
});
