/**
 * `npm run bench:sandbox`: requests per second of the sandbox for get, create and list (tasks and
 * events), and the time to list a 6-month window over 200 weekly series.
 * Starts the built sandbox (`main.js`) in a child process on a free port, turns rate limiting
 * off, and drives it over keep-alive connections from this process.
 *
 * Options (environment): BENCH_SECONDS (per scenario, default 3), BENCH_CONCURRENCY (default 32).
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const KEY = 'ApiKey sandbox-alice-key';

interface Target {
	method: 'GET' | 'POST';
	path: string;
	body?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(base: URL, target: Target): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = request(
			{
				host: base.hostname,
				port: base.port,
				method: target.method,
				path: target.path,
				agent,
				headers: {
					authorization: KEY,
					accept: 'application/json',
					...(target.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(target.body) } : {}),
				},
			},
			(res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode ?? 0));
			},
		);
		req.on('error', reject);
		req.end(target.body);
	});
}

async function json(base: URL, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
	const res = await fetch(new URL(path, base), {
		method,
		headers: { authorization: KEY, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return res.status === 204 ? undefined : res.json();
}

async function scenario(base: URL, name: string, next: () => Target): Promise<void> {
	const deadline = Date.now() + SECONDS * 1000;
	let done = 0;
	let failed = 0;
	const worker = async () => {
		while (Date.now() < deadline) {
			const status = await send(base, next());
			if (status >= 400) failed++;
			done++;
		}
	};
	const started = process.hrtime.bigint();
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	console.log(`${name.padEnd(34)} ${Math.round(done / seconds).toString().padStart(7)} requests/s${failed ? `  (${failed} failed)` : ''}`);
}

async function main(): Promise<void> {
	const child = spawn(process.execPath, [join(__dirname, 'main.js')], {
		env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_DATA: '' },
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const url = await new Promise<string>((resolve, reject) => {
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/\S+)/.exec(output);
			if (match) resolve(match[1]);
		});
		child.on('exit', () => reject(new Error(`sandbox exited: ${output}`)));
	});
	const base = new URL(url);
	try {
		await fetch(new URL('/_sandbox/limits', base), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ points: null }),
		});
		const ids: string[] = [];
		for (let i = 0; i < 500; i++) {
			const created = (await json(base, 'POST', '/v3/tasks/create', { title: `Task ${i}`, priority: i % 10 })) as {
				data: { id: string };
			};
			ids.push(created.data.id);
		}
		console.log(`sandbox at ${url}: ${CONCURRENCY} connections, ${SECONDS} s per scenario, 500 tasks`);
		let i = 0;
		await scenario(base, 'GET /v3/tasks (get by id)', () => ({ method: 'GET', path: `/v3/tasks?id=${ids[i++ % ids.length]}` }));
		await scenario(base, 'GET /v3/tasks (unknown id)', () => ({ method: 'GET', path: '/v3/tasks?id=none' }));
		const body = JSON.stringify({ title: 'Bench', due: '2026-03-01T09:00:00', timeZone: 'Europe/Berlin', priority: 3 });
		await scenario(base, 'POST /v3/tasks/create', () => ({ method: 'POST', path: '/v3/tasks/create', body }));
		await scenario(base, 'GET /v3/tasks/list?limit=1', () => ({ method: 'GET', path: '/v3/tasks/list' }));
		await scenario(base, 'GET /v3/tasks/list?limit=100', () => ({ method: 'GET', path: '/v3/tasks/list?limit=100' }));
		await benchEvents(base);
	} finally {
		agent.destroy();
		child.kill('SIGTERM');
	}
}

const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC'];
const WEEKDAYS = ['mo', 'tu', 'we', 'th', 'fr'];

/**
 * Events: 200 weekly series in one calendar (different zones, days and times, across daylight-
 * saving changes), then the time to list a 6-month window over them: one call at a time, from
 * sending the request to receiving the last byte of the answer (the client's own JSON parsing is
 * not counted). Then requests per second for get and create.
 */
async function benchEvents(base: URL): Promise<void> {
	const calendar = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' };
	for (let i = 0; i < 200; i++) {
		const month = String((i % 12) + 1).padStart(2, '0');
		const day = String((i % 27) + 1).padStart(2, '0');
		const hour = String(7 + (i % 10)).padStart(2, '0');
		await json(base, 'POST', '/v3/events/create', {
			...calendar,
			title: `Series ${i}`,
			start: `2025-${month}-${day}T${hour}:${i % 2 ? '30' : '00'}:00`,
			duration: i % 3 ? 'PT1H' : 'PT30M',
			timeZone: ZONES[i % ZONES.length],
			showWithoutTime: false,
			participants: { [Buffer.from('alice@sandbox.example').toString('base64')]: { email: 'alice@sandbox.example' } },
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', byDay: [{ '@type': 'NDay', day: WEEKDAYS[i % 5] }] }],
		});
	}
	const path = `/v3/events/list?${new URLSearchParams({ accountId: calendar.accountId, calendarIds: calendar.calendarId, start: '2026-01-01T00:00:00Z', end: '2026-07-01T00:00:00Z' })}`;
	const listed = await fetch(new URL(path, base), { headers: { authorization: KEY } });
	const text = await listed.text();
	const bytes = Buffer.byteLength(text);
	const count = (JSON.parse(text) as { data: { events: unknown[] } }).data.events.length;
	const times: number[] = [];
	for (let run = 0; run < 25; run++) {
		const started = process.hrtime.bigint();
		const status = await send(base, { method: 'GET', path });
		times.push(Number(process.hrtime.bigint() - started) / 1e6);
		if (status !== 200) throw new Error(`list answered ${status}`);
	}
	const warm = times.slice(5).sort((a, b) => a - b);
	const median = warm[Math.floor(warm.length / 2)];
	console.log(
		`${'list 6 months, 200 weekly series'.padEnd(34)} ${median.toFixed(1).padStart(7)} ms median (min ${warm[0].toFixed(1)} ms, first ${times[0].toFixed(1)} ms; ${count} occurrences, ${(bytes / 1e6).toFixed(1)} MB; target < 50 ms)`,
	);
	const single = (await json(base, 'POST', '/v3/events/create', { ...calendar, title: 'One', start: '2026-03-02T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin', showWithoutTime: false })) as {
		data: { event: { id: string } };
	};
	const id = encodeURIComponent(single.data.event.id);
	await scenario(base, 'GET /v3/events (get by id)', () => ({ method: 'GET', path: `/v3/events?id=${id}` }));
	const body = JSON.stringify({ ...calendar, calendarId: 'cal-alice-a-primary', title: 'Bench', start: '2026-03-02T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin', showWithoutTime: false });
	await scenario(base, 'POST /v3/events/create', () => ({ method: 'POST', path: '/v3/events/create', body }));
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
