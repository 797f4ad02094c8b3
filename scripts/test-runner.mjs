#!/usr/bin/env node
/**
 * Runs the project's checks and tests side by side on a small machine, and prints how long each
 * took, so a slow newcomer is seen at once.
 *
 *   node scripts/test-runner.mjs all            what `npm test` (and CI) runs: lint, workflows, types,
 *                                               build, verify, the release and jest tests, and every
 *                                               end-to-end file
 *   node scripts/test-runner.mjs e2e [files…]   the end-to-end files (all, or those named)
 *   node scripts/test-runner.mjs quick          lint, types, build and the jest tests, then the
 *                                               end-to-end files the change most likely affects
 *
 * The builds come first; then every job whose needs are met starts, the longest first (see
 * test/e2e/plan.mjs), as long as their weights fit in CTS_TEST_SLOTS (default 4: most end-to-end
 * files wait on n8n's schedules and the service's windows far more than they compute). The files
 * that share an n8n get the one this runner starts (test/e2e/support/sharedN8n.mjs). Each job's
 * output is printed whole when it ends; the table of jobs, their times and test counts closes the
 * run, with one line `tests: N passed, N failed`. Exits 1 when any job failed.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { projectRoot } from './n8n-runtime.mjs';
import { E2E_PLAN, EVERY_FILE } from '../test/e2e/plan.mjs';

const E2E_DIR = join(projectRoot, 'test', 'e2e');
/** How long one end-to-end file may take before it counts as hung (beside others, on a busy machine). */
const FILE_TIMEOUT_MS = 35 * 60_000;

const npmRun = (script) => ({ command: 'npm', args: ['run', '--silent', script] });

/**
 * The jest files that wait on the real clock (point budgets with windows longer than a minute, a
 * trigger soak): a job of their own, so their waits do not hold jest's two slots.
 */
const REAL_WINDOW_TESTS = ['test/reliability/budget.test.ts', 'test/reliability/accountBudgets.test.ts', 'test/reliability/triggerSoak.test.ts', 'test/nodes/triggers/budgets.test.ts'];

/**
 * The checks `npm run check` runs, as jobs (the builds are separate: other jobs need them). They
 * start after the build, which has both cores to itself: the end-to-end files wait for it.
 */
const CHECKS = [
	{ name: 'lint', ...npmRun('lint'), minutes: 2, needs: ['build'] },
	{ name: 'lint:workflows', ...npmRun('lint:workflows'), minutes: 0.5, needs: ['build'] },
	{ name: 'typecheck', ...npmRun('typecheck'), minutes: 1.5, needs: ['build'] },
	{ name: 'verify', ...npmRun('verify'), minutes: 1, needs: ['build'] },
	{ name: 'test:release', ...npmRun('test:release'), minutes: 0.5, needs: ['build'] },
	// jest runs on both cores (jest.config.js); counted as one slot, the machine was so loaded that
	// its timing tests and the queue-mode restarts failed.
	{ name: 'jest', ...npmRun('test:unit'), args: [...npmRun('test:unit').args, '--', ...REAL_WINDOW_TESTS.flatMap((file) => ['--testPathIgnorePatterns', file])], minutes: 6, weight: 2, needs: ['build'] },
	// Their time goes to waiting (about 1 minute of CPU in 4.5): beside the rest, all at once.
	{ name: 'jest: real windows', ...npmRun('test:unit'), args: [...npmRun('test:unit').args, '--', '--maxWorkers=4', ...REAL_WINDOW_TESTS], minutes: 5, weight: 0.5, needs: ['build'] },
];
const BUILD = { name: 'build', ...npmRun('build'), minutes: 0.5, needs: [] };
const BUILD_SANDBOX = { name: 'build:sandbox', ...npmRun('build:sandbox'), minutes: 0.5, needs: [] };
/** The install of an n8n line, as a job; 2.x first and 1.x after it: most files need only 2.x and start once it is there. */
const installOf = (line) => `n8n ${line}.x install`;
const install = (line, needs) => ({ name: installOf(line), command: process.execPath, args: [join(projectRoot, 'scripts', 'n8n-runtime.mjs'), 'install', line], minutes: 0, weight: 0, needs });
const RUNTIMES = [install('2', []), install('1', [installOf('2')])];

/** The end-to-end files, as jobs: each in its own `node --test`, after the builds and the n8n installs. */
function e2eJobs(files) {
	return files.map((file) => {
		const name = relative(projectRoot, file);
		const plan = E2E_PLAN[basename(file)];
		return {
			name,
			command: process.execPath,
			args: ['--test', '--test-reporter=spec', `--test-timeout=${FILE_TIMEOUT_MS}`, file],
			// Unknown: first.
			minutes: plan?.minutes ?? 60,
			weight: plan?.weight ?? 1,
			// Unknown: both lines.
			needs: ['build', 'build:sandbox', ...(plan?.lines ?? (plan ? ['2'] : ['2', '1'])).map(installOf), ...(plan?.n8n === 'shared' ? ['shared n8n'] : [])],
			e2e: true,
		};
	});
}

function allE2eFiles() {
	return readdirSync(E2E_DIR)
		.filter((name) => name.endsWith('.test.mjs'))
		.sort()
		.map((name) => join(E2E_DIR, name));
}

const formatTime = (ms) => {
	const seconds = Math.round(ms / 1000);
	return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/** Test counts from a job's output: node's test runner (spec reporter) or jest. */
function testCounts(output) {
	const node = (label) => Number(new RegExp(`^ℹ ${label} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN);
	if (/^ℹ tests \d+$/m.test(output)) return { passed: node('pass'), failed: node('fail') + node('cancelled'), skipped: node('skipped') + node('todo') };
	const jest = /^Tests:\s+(.*)$/m.exec(output)?.[1];
	if (jest) {
		const count = (label) => Number(new RegExp(`(\\d+) ${label}`).exec(jest)?.[1] ?? 0);
		return { passed: count('passed'), failed: count('failed'), skipped: count('skipped') + count('todo') };
	}
	return undefined;
}

/** The process groups of the jobs still running. */
const groups = new Set();

function stopGroup(pid) {
	groups.delete(pid);
	try {
		process.kill(-pid, 'SIGKILL');
	} catch {
		// nothing left in it
	}
}

/** How to stop the services that are up (the shared n8n). */
const serviceStops = new Set();

// However the runner ends, no job's processes outlive it.
process.on('exit', () => {
	for (const pid of groups) stopGroup(pid);
});

// Ctrl-C, or CI stopping the run: the jobs' processes and the services stop too.
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, async () => {
		for (const pid of groups) stopGroup(pid);
		await Promise.race([Promise.all([...serviceStops].map(async (stop) => await stop().catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, 20_000))]);
		process.exit(130);
	});
}

/**
 * Runs the jobs: each starts once every job it needs has passed and its weight fits in the free
 * slots, the longest first. `services` start like jobs and stay up until every job needing them
 * has ended. Resolves to the results, in the order the jobs ended.
 */
async function runJobs(jobs, services, slots) {
	const started = Date.now();
	const results = [];
	const done = new Map(); // name -> passed
	// What other jobs wait for (the builds, the shared n8n) first, then the longest first.
	const neededByOthers = new Set([...jobs, ...services].flatMap((job) => job.needs));
	const order = (a, b) => Number(neededByOthers.has(b.name)) - Number(neededByOthers.has(a.name)) || b.minutes - a.minutes;
	const pending = [...jobs].sort(order);
	const running = new Map(); // name -> { job, since }
	const serviceState = new Map(); // name -> { stop } once up
	let used = 0;
	let wake;
	const changed = () => wake?.();

	const weightOf = (job) => job.weight ?? 1;
	// A need that is no job of this run (`e2e` runs no build) counts as met.
	const known = new Set([...jobs, ...services].map((job) => job.name));
	const ready = (job) => job.needs.every((need) => !known.has(need) || done.get(need) === true);
	const blocked = (job) => job.needs.some((need) => done.get(need) === false);
	const neededServices = () => new Set(pending.concat([...running.values()].map(({ job }) => job)).flatMap((job) => job.needs));

	const finish = (job, result) => {
		used -= weightOf(job);
		running.delete(job.name);
		done.set(job.name, result.passed);
		results.push(result);
		const status = result.passed ? 'passed' : 'FAILED';
		console.log(`\n──── ${job.name}: ${status} in ${formatTime(result.ms)} (at ${formatTime(Date.now() - started)}) ────`);
		if (result.output.trim()) console.log(result.output.trimEnd());
		changed();
	};

	const startJob = (job) => {
		used += weightOf(job);
		const since = Date.now();
		running.set(job.name, { job, since });
		const env = { ...process.env, ...(job.needs.includes('shared n8n') ? serviceState.get('shared n8n')?.env : {}) };
		// A process group of its own: whatever the job leaves running (a file that timed out before its
		// after() hooks stopped its n8n) is stopped with it.
		const child = spawn(job.command, job.args, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		groups.add(child.pid);
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		child.on('error', (error) => (output += `\n${error.message}`));
		child.on('close', (code, signal) => {
			stopGroup(child.pid);
			const counts = testCounts(output);
			finish(job, { name: job.name, passed: code === 0, code, signal, ms: Date.now() - since, output, counts, e2e: job.e2e });
		});
	};

	const startService = (service) => {
		used += weightOf(service);
		const since = Date.now();
		running.set(service.name, { job: service, since });
		service
			.start()
			.then((state) => {
				serviceState.set(service.name, state);
				serviceStops.add(state.stop);
				finish(service, { name: service.name, passed: true, ms: Date.now() - since, output: '', service: true });
			})
			.catch((error) => finish(service, { name: service.name, passed: false, ms: Date.now() - since, output: String(error?.stack ?? error), service: true }));
	};

	const progress = setInterval(() => {
		const now = Date.now();
		const list = [...running.values()].map(({ job, since }) => `${job.name} ${formatTime(now - since)}`).join(', ');
		console.log(`[${formatTime(now - started)}] running: ${list || '(nothing)'}; ${pending.length} waiting`);
	}, 60_000);
	try {
		const wanted = new Set(jobs.flatMap((job) => job.needs));
		const servicesWanted = services.filter((service) => wanted.has(service.name));
		pending.push(...servicesWanted.map((service) => ({ ...service, isService: true })));
		pending.sort(order);
		while (pending.length > 0 || running.size > 0) {
			// Jobs that can never start: something they need failed.
			for (const job of pending.filter(blocked)) {
				pending.splice(pending.indexOf(job), 1);
				const failedNeeds = job.needs.filter((need) => done.get(need) === false).join(', ');
				done.set(job.name, false);
				results.push({ name: job.name, passed: false, ms: 0, output: `not run: ${failedNeeds} failed`, e2e: job.e2e });
			}
			for (const job of [...pending]) {
				if (!ready(job) || used + weightOf(job) > slots) continue;
				pending.splice(pending.indexOf(job), 1);
				if (job.isService) startService(job);
				else startJob(job);
			}
			// Services nobody waits for any more stop.
			const needed = neededServices();
			for (const [name, state] of serviceState) {
				if (needed.has(name)) continue;
				serviceState.delete(name);
				serviceStops.delete(state.stop);
				await state.stop();
			}
			if (pending.length === 0 && running.size === 0) break;
			await new Promise((resolve) => {
				wake = resolve;
				setTimeout(resolve, 5000);
			});
		}
	} finally {
		clearInterval(progress);
		for (const [, state] of serviceState) await state.stop();
	}
	return { results, ms: Date.now() - started };
}

/** The table that closes a run: every job with its time and tests, the slowest first. */
function printSummary({ results, ms }) {
	// Each failure once more at the end, where a shortened log (CI's tail) still shows it.
	for (const result of results.filter((result) => !result.passed)) {
		console.log(`\n──── why ${result.name} failed ────`);
		console.log(failureExcerpt(result.output));
	}
	const rows = results.filter((result) => !result.service || !result.passed).sort((a, b) => b.ms - a.ms);
	console.log('\n──── times ────');
	const width = Math.max(...rows.map((row) => row.name.length));
	for (const row of rows) {
		const tests = row.counts ? `${row.counts.passed} passed${row.counts.failed ? `, ${row.counts.failed} failed` : ''}${row.counts.skipped ? `, ${row.counts.skipped} skipped` : ''}` : '';
		console.log(`${row.passed ? '  ' : '✖ '}${row.name.padEnd(width)}  ${formatTime(row.ms).padStart(6)}  ${tests}`);
	}
	const sum = (key) => results.reduce((total, result) => total + (result.counts?.[key] ?? 0), 0);
	const failedJobs = results.filter((result) => !result.passed);
	console.log(`wall time ${formatTime(ms)}; ${results.filter((result) => result.e2e).length} end-to-end files`);
	if (failedJobs.length > 0) console.log(`failed: ${failedJobs.map((result) => result.name).join(', ')}`);
	// Failed jobs without test counts (a lint error, a file that did not load) count as one failure each.
	const failedWithoutCounts = failedJobs.filter((result) => !result.counts || result.counts.failed === 0).length;
	console.log(`tests: ${sum('passed')} passed, ${sum('failed') + failedWithoutCounts} failed`);
	return failedJobs.length === 0;
}

/** node:test's "failing tests" block when there is one, else the output's last lines; 60 lines at most. */
function failureExcerpt(output) {
	const lines = output.trimEnd().split('\n');
	const block = lines.findLastIndex((line) => line.includes('✖ failing tests:'));
	const excerpt = block === -1 ? lines.slice(-40) : lines.slice(block + 1).filter((line) => !/^ℹ /.test(line));
	return excerpt.slice(0, 60).join('\n');
}

/** The shared n8n, as a service of the runner (see test/e2e/support/sharedN8n.mjs). */
const SHARED_N8N = {
	name: 'shared n8n',
	minutes: 30,
	needs: ['build', installOf('2')],
	start: async () => {
		const { startSharedN8n } = await import('../test/e2e/support/sharedN8n.mjs');
		const shared = await startSharedN8n();
		return { env: shared.env, stop: shared.dispose };
	},
};

/** The files git sees as changed: against the branch point with main (or origin/main), and uncommitted. */
function changedPaths() {
	const git = (args) => {
		try {
			return execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter(Boolean);
		} catch {
			return undefined;
		}
	};
	const base = ['origin/main', 'main'].map((ref) => git(['merge-base', 'HEAD', ref])?.[0]).find(Boolean);
	return [...new Set([...(base ? (git(['diff', '--name-only', base]) ?? []) : []), ...(git(['diff', '--name-only', 'HEAD']) ?? []), ...(git(['ls-files', '--others', '--exclude-standard']) ?? [])])];
}

/** The support modules an end-to-end file imports, directly or through another support module. */
function supportModulesOf(file) {
	const found = new Set();
	const visit = (path) => {
		for (const [, target] of readFileSync(path, 'utf8').matchAll(/from '\.{1,2}\/(?:support\/)?([\w-]+\.mjs)'/g)) {
			const module = join(E2E_DIR, 'support', target);
			if (!existsSync(module) || found.has(module)) continue;
			found.add(module);
			visit(module);
		}
	};
	visit(file);
	return [...found].map((module) => relative(projectRoot, module));
}

/**
 * The end-to-end files a change most likely affects, each with the changed path that names it: the
 * file whose paths name a changed path most closely (the longest match) first.
 */
export function affectedE2eFiles(paths) {
	const found = [];
	for (const file of allE2eFiles()) {
		const covers = [relative(projectRoot, file), ...supportModulesOf(file), ...(E2E_PLAN[basename(file)]?.covers ?? []), ...EVERY_FILE];
		let best;
		for (const path of paths) {
			for (const prefix of covers) {
				if ((path === prefix || (prefix.endsWith('/') && path.startsWith(prefix))) && prefix.length > (best?.length ?? -1)) best = { path, length: prefix.length };
			}
		}
		if (best) found.push({ file: relative(projectRoot, file), ...best });
	}
	found.sort((a, b) => b.length - a.length);
	return new Map(found.map(({ file, path }) => [file, path]));
}

async function main([mode = 'all', ...rest]) {
	const slots = Number(process.env.CTS_TEST_SLOTS ?? 4);
	let jobs;
	if (mode === 'all') jobs = [BUILD, BUILD_SANDBOX, ...RUNTIMES, ...CHECKS, ...e2eJobs(allE2eFiles())];
	// The end-to-end files test the package as built (npm run build).
	else if (mode === 'e2e') jobs = [BUILD_SANDBOX, ...RUNTIMES, ...e2eJobs(rest.length > 0 ? rest.map((file) => join(process.cwd(), file)) : allE2eFiles())];
	else if (mode === 'quick') jobs = [BUILD, ...CHECKS.filter((job) => ['lint', 'typecheck', 'jest', 'jest: real windows'].includes(job.name))];
	else {
		console.error('usage: node scripts/test-runner.mjs all | e2e [files…] | quick');
		process.exit(2);
	}
	const run = await runJobs(jobs, [SHARED_N8N], slots);
	const passed = printSummary(run);
	if (mode === 'quick') {
		const affected = affectedE2eFiles(changedPaths());
		console.log('\n──── end-to-end files this change most likely affects ────');
		if (affected.size === 0) console.log('none found (test/e2e/plan.mjs maps paths to files); `npm test` runs them all');
		for (const [file, path] of affected) console.log(`  ${file}   (${path})`);
		if (affected.size > 0) console.log(`run them: npm run test:e2e -- ${[...affected.keys()].join(' ')}`);
	}
	process.exitCode = passed ? 0 : 1;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
