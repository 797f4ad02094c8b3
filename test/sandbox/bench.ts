/**
 * `npm run bench:sandbox`: requests per second of the sandbox for get, create and list.
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
	} finally {
		agent.destroy();
		child.kill('SIGTERM');
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
