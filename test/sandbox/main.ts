/**
 * `npm run sandbox`: serves the sandbox on http://127.0.0.1:${SANDBOX_PORT:-8787}.
 * `SANDBOX_HOST` changes the address, `SANDBOX_DATA=<file>` keeps the state in a file across
 * restarts (every write is saved before it is answered). `SANDBOX_STARTER=<IANA zone>` begins a
 * new state (no data file yet) with the starter world (`starter.ts`), its times in that zone.
 * `SANDBOX_POINTS` (and `SANDBOX_WINDOW_SECONDS`, `SANDBOX_COUNTING=requests`) make every user's
 * budget that of a smaller or larger account, e.g. `SANDBOX_POINTS=100` for a 100-point account.
 * Ctrl-C (SIGINT) or SIGTERM writes a last snapshot and stops.
 */
import { existsSync } from 'node:fs';

import { DEFAULT_WINDOW_SECONDS, type LimitConfig } from './limits';
import { startSandbox } from './server';
import { fixtures } from './fixtures';
import { seedStarterWorld } from './starter';

/** The budget the environment asks for, or undefined for the sandbox's default. */
function budgetFromEnvironment(): LimitConfig | undefined {
	// A variable set empty is not set.
	const [points, window, counting] = [process.env.SANDBOX_POINTS, process.env.SANDBOX_WINDOW_SECONDS, process.env.SANDBOX_COUNTING].map((value) => value || undefined);
	if (!points && !window && !counting) return undefined;
	const config: LimitConfig = { points: Number(points ?? 300), windowSeconds: Number(window ?? DEFAULT_WINDOW_SECONDS) };
	if (!Number.isInteger(config.points) || config.points < 1) throw new Error(`SANDBOX_POINTS must be a whole number of points, not "${points}"`);
	if (!Number.isInteger(config.windowSeconds) || config.windowSeconds < 1) throw new Error(`SANDBOX_WINDOW_SECONDS must be a whole number of seconds, not "${window}"`);
	if (counting !== undefined && counting !== 'points' && counting !== 'requests') throw new Error(`SANDBOX_COUNTING must be "points" or "requests", not "${counting}"`);
	if (counting === 'requests') config.counting = 'requests';
	return config;
}

async function main(): Promise<void> {
	const portText = process.env.SANDBOX_PORT ?? '8787';
	const port = Number(portText);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new Error(`SANDBOX_PORT must be a port number, not "${portText}"`);
	}
	const dataFile = process.env.SANDBOX_DATA || undefined;
	const budget = budgetFromEnvironment();
	const starterZone = process.env.SANDBOX_STARTER || undefined;
	const isNewState = !dataFile || !existsSync(dataFile);
	const logText = process.env.SANDBOX_REQUEST_LOG;
	const requestLogCapacity = logText ? Number(logText) : undefined;
	if (requestLogCapacity !== undefined && (!Number.isInteger(requestLogCapacity) || requestLogCapacity < 1)) throw new Error(`SANDBOX_REQUEST_LOG must be a whole number of requests, not "${logText}"`);
	const sandbox = await startSandbox({ port, host: process.env.SANDBOX_HOST || '127.0.0.1', dataFile, requestLogCapacity });
	if (budget) sandbox.limiter.startWith(budget);
	const limits = sandbox.limiter.config;
	if (starterZone && isNewState) {
		seedStarterWorld(sandbox, starterZone);
		sandbox.store.commit();
	}

	const keys = fixtures().apiKeys.map((k) => `  ${k.key.padEnd(22)} user ${k.userId}`);
	console.log(
		[
			`Calendar and Task Service sandbox listening on ${sandbox.url}`,
			`  v3 (tasks, events, tags, calendars, accounts):  ${sandbox.url}/v3/...   Authorization: ApiKey <key>`,
			`  v1 (events, RSVP):   ${sandbox.url}/v1/...   Authorization: Bearer <token>`,
			'API keys:',
			...keys.map((line) => (line.includes('noplan') ? `${line} (plan without API access: 403)` : line)),
			'v1 token:',
			`  curl -s -X POST ${sandbox.url}/_sandbox/token -H 'content-type: application/json' -d '{"user":"alice","ttlSeconds":3600}'`,
			dataFile ? `State file: ${dataFile}` : 'State: in memory (set SANDBOX_DATA=<file> to keep it across restarts)',
			`Budget: ${limits ? `${limits.points} ${limits.counting === 'requests' ? 'requests' : 'points'} per ${limits.windowSeconds} s per user` : 'none'} (set SANDBOX_POINTS=100 for a 100-point account)`,
			...(starterZone && isNewState ? [`Starter world: open tasks and the next 7 days' events of alice (times in ${starterZone})`] : []),
			'Control: POST /_sandbox/reset | token | clock | limits | faults, GET /_sandbox/requests. Ctrl-C stops.',
		].join('\n'),
	);

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping the sandbox`);
		sandbox.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	console.error(`sandbox: ${(error as Error).message ?? String(error)}`);
	process.exit(1);
});
