/**
 * n8n's queue mode on one machine, from Debian's packages and the pinned n8n: PostgreSQL as the
 * database, Redis as the queue, one main instance (editor, webhooks, triggers and pollers) and
 * workers (they run the executions). Every process listens on loopback only, has its own user
 * folder with the package installed as a community package, and is started and stopped by the
 * PID this module started (also when something fails). Used by `npm run start:queue` and the
 * queue-mode tests. Plain Node ESM.
 *
 * PostgreSQL refuses to run as root: when started as root, its server runs as the unprivileged
 * user `nobody`, with its data folder owned by that user.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';

import { installPackage } from './community-package.mjs';
import { freePort, n8nEnv, startN8n, startN8nWorker } from './n8n-runtime.mjs';

/** The user PostgreSQL runs as when this runs as root. */
const POSTGRES_OS_USER = 'nobody';
const DATABASE = 'n8n';
const DATABASE_USER = 'n8n';

/** The newest PostgreSQL server install of Debian's packages: the folder with `initdb` and `postgres`. */
export function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
	for (const version of versions) {
		const bin = join(root, version, 'bin');
		if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return bin;
	}
	return undefined;
}

export function redisServerBin() {
	for (const folder of [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/sbin']) {
		if (folder && existsSync(join(folder, 'redis-server'))) return join(folder, 'redis-server');
	}
	return undefined;
}

/** Debian packages the stack needs that are not installed (`scripts/setup-queue.sh` installs them). */
export function missingPackages() {
	return [...(postgresBinDir() ? [] : ['postgresql']), ...(redisServerBin() ? [] : ['redis-server'])];
}

function assertInstalled() {
	const missing = missingPackages();
	if (missing.length > 0) {
		throw new Error(`Queue mode needs ${missing.join(' and ')} from Debian's packages: run \`bash scripts/setup-queue.sh\` (or apt-get install ${missing.join(' ')})`);
	}
}

/** uid and gid of the user PostgreSQL runs as: undefined unless this runs as root. */
function postgresOsUser() {
	if (process.getuid?.() !== 0) return undefined;
	const id = (flag) => Number(execFileSync('id', [flag, POSTGRES_OS_USER], { encoding: 'utf8' }).trim());
	return { name: POSTGRES_OS_USER, uid: id('-u'), gid: id('-g') };
}

/** Fails with a clear message when `user` cannot reach `folder` (every parent needs o+x). */
function assertReachable(folder, user) {
	for (let current = resolve(folder); ; current = dirname(current)) {
		const { mode, uid } = statSync(current);
		if (uid !== user.uid && (mode & 0o001) === 0) {
			throw new Error(
				`PostgreSQL runs as "${user.name}" (it refuses root), which cannot enter ${current}: keep the state in a folder it can reach, or allow it with chmod o+x ${current}`,
			);
		}
		if (dirname(current) === current) return;
	}
}

/**
 * A server process started here, with its output kept (and copied to `logFile`). Resolves once
 * `readyPattern` appears in its output. `stop()` and `kill()` signal this PID only. `detached`
 * puts it in its own process group, so a Ctrl-C in the terminal reaches only the caller.
 */
async function startService({ name, command, args, env = process.env, uid, gid, readyPattern, logFile, stopSignal = 'SIGTERM', detached = false, timeoutMs = 60_000 }) {
	const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached, ...(uid === undefined ? {} : { uid, gid }) });
	const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
	let output = '';
	const collect = (chunk) => {
		output = (output + chunk).slice(-100_000);
		log?.write(chunk);
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	let hasExited = false;
	const exited = new Promise((r) => child.on('close', (code, signal) => {
		hasExited = true;
		log?.end();
		r({ code, signal });
	}));
	const signalAndWait = async (signal) => {
		if (hasExited) return;
		child.kill(signal);
		const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
		await exited;
		clearTimeout(timer);
	};
	const service = {
		name,
		pid: child.pid,
		output: () => output,
		exited,
		stop: async () => await signalAndWait(stopSignal),
		kill: async () => await signalAndWait('SIGKILL'),
	};
	const deadline = Date.now() + timeoutMs;
	while (!readyPattern.test(output)) {
		if (hasExited) throw new Error(`${name} exited before it was ready:\n${output.slice(-3000)}`);
		if (Date.now() > deadline) {
			await service.kill();
			throw new Error(`${name} was not ready within ${timeoutMs / 1000} s:\n${output.slice(-3000)}`);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	return service;
}

/**
 * PostgreSQL on 127.0.0.1:`port` with its data in `dataDir` (created with `initdb` on first use,
 * trust authentication on loopback, database and user "n8n"), its unix socket in that folder.
 * `fast` trades crash safety of the database for speed (tests: nothing there outlives the run).
 */
export async function startPostgres({ dataDir, port, logFile, fast = false, detached = false }) {
	const bin = postgresBinDir();
	const user = postgresOsUser();
	const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
	mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	const asUser = user ? { uid: user.uid, gid: user.gid } : {};
	if (user) {
		assertReachable(dirname(dataDir), user);
		chownSync(dataDir, user.uid, user.gid);
	}
	const env = { PATH: process.env.PATH, LANG: 'C', LC_ALL: 'C' };
	if (fresh) {
		execFileSync(join(bin, 'initdb'), ['-D', dataDir, '-U', DATABASE_USER, '--auth=trust', '--no-locale', '-E', 'UTF8', ...(fast ? ['--no-sync'] : [])], {
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
			...asUser,
		});
	}
	const settings = fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : [];
	const server = await startService({
		name: 'PostgreSQL',
		command: join(bin, 'postgres'),
		args: ['-D', dataDir, '-p', String(port), '-h', '127.0.0.1', '-k', dataDir, ...settings],
		env,
		...asUser,
		readyPattern: /database system is ready to accept connections/,
		logFile,
		detached,
		// "Fast" shutdown: roll back open transactions and stop, without waiting for clients.
		stopSignal: 'SIGINT',
	});
	if (fresh) {
		execFileSync(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', DATABASE_USER, DATABASE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
	}
	return { ...server, port };
}

/** Redis on 127.0.0.1:`port`, nothing saved to disk: the queue only lives while the stack runs. */
export async function startRedis({ dir, port, logFile, detached = false }) {
	mkdirSync(dir, { recursive: true });
	const server = await startService({
		name: 'Redis',
		command: redisServerBin(),
		args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
		readyPattern: /Ready to accept connections/,
		logFile,
		detached,
	});
	return { ...server, port };
}

/**
 * The whole stack. `start()` brings up PostgreSQL, Redis, the main instance and the workers (in
 * that order) and `stop()` stops what was started, in reverse order, by PID; both are safe to call
 * after a failure. The main instance and each worker can be killed and started again.
 */
export class QueueStack {
	/**
	 * @param {object} options
	 * @param {object} options.info            runtimeInfo() of the n8n line (2)
	 * @param {string} options.stateDir        user folders, database, logs
	 * @param {string} [options.tarball]       the `npm pack` tarball, installed into every user folder
	 * @param {number} [options.workers]       how many workers (2)
	 * @param {number} [options.workerConcurrency] how many executions each worker runs at once (n8n's default, 10)
	 * @param {number} [options.mainPort]      the editor's port (a free one)
	 * @param {object} [options.env]           more variables for every n8n process
	 * @param {boolean} [options.fastDatabase] PostgreSQL without fsync (tests)
	 * @param {boolean} [options.detached]     every process in its own process group (a terminal's Ctrl-C reaches only the caller)
	 * @param {(name: string, text: string) => void} [options.onOutput]  every n8n process's output
	 */
	constructor({ info, stateDir, tarball, workers = 2, workerConcurrency, mainPort, env = {}, fastDatabase = false, detached = false, onOutput }) {
		Object.assign(this, { info, stateDir, tarball, workerCount: workers, workerConcurrency, mainPort, extraEnv: env, fastDatabase, detached, onOutput });
		this.workers = [];
		this.logDir = join(stateDir, 'logs');
	}

	async start() {
		assertInstalled();
		mkdirSync(this.logDir, { recursive: true });
		// PostgreSQL may run as another user: it must be able to enter the state folder.
		if (process.getuid?.() === 0) chmodSync(this.stateDir, statSync(this.stateDir).mode | 0o001);
		this.mainPort ??= await freePort();
		this.postgres = await startPostgres({
			dataDir: join(this.stateDir, 'postgres'),
			port: await freePort(),
			logFile: join(this.logDir, 'postgres.log'),
			fast: this.fastDatabase,
			detached: this.detached,
		});
		this.redis = await startRedis({ dir: join(this.stateDir, 'redis'), port: await freePort(), logFile: join(this.logDir, 'redis.log'), detached: this.detached });
		for (const name of ['main', ...this.workerNames()]) {
			const userFolder = join(this.stateDir, name);
			mkdirSync(userFolder, { recursive: true });
			if (this.tarball) installPackage(userFolder, this.tarball);
		}
		// The main instance runs the database migrations; workers start once they are done.
		await this.startMain();
		await Promise.all(this.workerNames().map(async (_, index) => await this.startWorker(index)));
		return this;
	}

	workerNames() {
		return Array.from({ length: this.workerCount }, (_, index) => `worker-${index + 1}`);
	}

	/** The environment of one n8n process of the stack. */
	async processEnv(name, { port = this.mainPort, env = {} } = {}) {
		return n8nEnv(this.info, {
			userFolder: join(this.stateDir, name),
			port,
			brokerPort: await freePort(),
			env: {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(this.redis.port),
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: '127.0.0.1',
				DB_POSTGRESDB_PORT: String(this.postgres.port),
				DB_POSTGRESDB_DATABASE: DATABASE,
				DB_POSTGRESDB_USER: DATABASE_USER,
				DB_POSTGRESDB_PASSWORD: '',
				GENERIC_TIMEZONE: 'UTC',
				...this.extraEnv,
				...env,
			},
		});
	}

	outputTo(name) {
		const log = createWriteStream(join(this.logDir, `${name}.log`), { flags: 'a' });
		return (text) => {
			log.write(text);
			this.onOutput?.(name, text);
		};
	}

	/** Starts the main instance (again); `env` adds variables for this start only. */
	async startMain(env = {}) {
		if (this.main && !this.main.hasExited()) throw new Error('The main instance is running');
		this.mainEnv = await this.processEnv('main', { env });
		// Known from its spawn on, so that a stop while it starts stops it too.
		const onSpawn = (handle) => (this.main = handle);
		this.main = await startN8n(this.info, this.mainEnv, { onOutput: this.outputTo('main'), onSpawn, timeoutMs: 240_000, detached: this.detached });
		return this.main;
	}

	/** SIGKILL to the main instance: no clean stop, as when its machine fails. */
	async killMain() {
		await this.main?.kill();
	}

	async startWorker(index) {
		const name = this.workerNames()[index];
		if (this.workers[index] && !this.workers[index].hasExited()) throw new Error(`${name} is running`);
		// Workers log at info level: their readiness and each execution they start.
		const env = await this.processEnv(name, { port: await freePort(), env: { N8N_LOG_LEVEL: 'info' } });
		const onSpawn = (handle) => (this.workers[index] = handle);
		this.workers[index] = await startN8nWorker(this.info, env, {
			concurrency: this.workerConcurrency,
			onOutput: this.outputTo(name),
			onSpawn,
			timeoutMs: 240_000,
			detached: this.detached,
		});
		return this.workers[index];
	}

	async killWorker(index) {
		await this.workers[index]?.kill();
	}

	/** Kills every worker and starts it again, running `concurrency` executions at a time from now on. */
	async restartWorkers(concurrency) {
		this.workerConcurrency = concurrency;
		await Promise.all(
			this.workerNames().map(async (_, index) => {
				await this.killWorker(index);
				await this.startWorker(index);
			}),
		);
	}

	/** The PIDs of the processes running now, by name. */
	pids() {
		const running = {};
		if (this.postgres) running.postgres = this.postgres.pid;
		if (this.redis) running.redis = this.redis.pid;
		if (this.main && !this.main.hasExited()) running.main = this.main.pid;
		this.workers.forEach((worker, index) => {
			if (worker && !worker.hasExited()) running[this.workerNames()[index]] = worker.pid;
		});
		return running;
	}

	/** Stops workers, main, Redis and PostgreSQL, in that order, each by its PID. */
	async stop() {
		await Promise.all(this.workers.map(async (worker) => await worker?.stop()));
		await this.main?.stop();
		await this.redis?.stop();
		await this.postgres?.stop();
	}
}
