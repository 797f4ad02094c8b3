/**
 * Profiles one way of creating tasks from section 1 of the benchmark, for finding where the time
 * goes: a V8 CPU profile of the timed runs only (after a warm-up run), written to
 * test-output/profiles/<variant>.cpuprofile. Build first
 * (`npm run build && npx tsc -p tsconfig.bench.json`), then:
 *
 *   node build/test/bench/profile.js cts 10
 *   node build/test/bench/profileSummary.js test-output/profiles/cts.cpuprofile 10000
 *
 * Arguments: the variant (cts, http, floor, raw) and the number of timed runs (default 10).
 * BENCH_ITEMS sets the items per run (default 1000).
 */
import { createEngine, createVariants, ROOT } from './setup';

import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

import { median } from './measure';
import { SandboxProcess } from './sandboxProcess';

function post<T>(session: Session, method: string, params: object = {}): Promise<T> {
	return new Promise((resolve, reject) =>
		session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
	);
}

async function main(): Promise<void> {
	const [variant = 'cts', runsText = '10'] = process.argv.slice(2);
	const runs = Number(runsText);
	const itemCount = Number(process.env.BENCH_ITEMS ?? 1000);
	const sandbox = new SandboxProcess();
	const engine = createEngine();
	await sandbox.start();
	try {
		const items = Array.from({ length: itemCount }, (_, index) => ({ title: `profile-${index}` }));
		const chosen = createVariants(engine, sandbox, items)[variant];
		if (!chosen) throw new Error(`Unknown variant ${variant}: cts, http, floor or raw`);
		const times: number[] = [];
		const session = new Session();
		session.connect();
		await post(session, 'Profiler.enable');
		await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
		for (let run = 0; run <= runs; run++) {
			await sandbox.reset();
			await sandbox.unlimited();
			// The first run warms up and is not profiled.
			if (run === 1) await post(session, 'Profiler.start');
			const { ms, ids } = await chosen.run();
			if (ids.length !== itemCount) throw new Error(`${variant}: ${ids.length} of ${itemCount} created`);
			if (run > 0) times.push(ms);
		}
		const { profile } = await post<{ profile: object }>(session, 'Profiler.stop');
		session.disconnect();
		const directory = join(ROOT, 'test-output', 'profiles');
		mkdirSync(directory, { recursive: true });
		const file = join(directory, `${variant}.cpuprofile`);
		writeFileSync(file, JSON.stringify(profile));
		console.log(`${chosen.label}: median ${(median(times) / itemCount).toFixed(3)} ms per item over ${runs} runs of ${itemCount} items`);
		console.log(`profile of the ${runs} runs (${runs * itemCount} items): ${file}`);
	} finally {
		await sandbox.stop();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
