/**
 * One real n8n for a test file: its own user folder (database, settings), ports, and the CLI
 * commands the tests use. The install is shared (scripts/n8n-runtime.mjs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ensureRuntime, freePort, n8nEnv, projectRoot, runN8nCli, startN8n } from '../../../scripts/n8n-runtime.mjs';
import { installPackage, PACKAGE_NAME, packPackage } from '../../../scripts/community-package.mjs';
import { N8nRestClient } from '../../../scripts/n8n-rest.mjs';

export const DIST = join(projectRoot, 'dist');
export const OWNER = { email: 'owner@cts-e2e.example', password: 'E2e-Owner-Passw0rd', firstName: 'E2E', lastName: 'Owner' };

let packed;

/** The package packed once per test process (`npm pack` of the built dist/). */
function packedTarball() {
	packed ??= packPackage(mkdtempSync(join(tmpdir(), 'cts-pack-'))).tarball;
	return packed;
}

export class N8nHarness {
	/**
	 * `asCommunityPackage`: the packed tarball installed in the user folder's community-nodes
	 * folder, as users install the package (node types `<package>.ctsTask`), instead of loading
	 * dist/ as a custom extension (`CUSTOM.ctsTask`). n8n runs the credential tests that nodes
	 * define (`testedBy`) only for installed packages: it does not link a custom extension's
	 * credentials to its nodes.
	 * @param {{ line?: '2' | '1', customExtensions?: string[], asCommunityPackage?: boolean, env?: Record<string, string> }} options
	 */
	static async create({ line = '2', customExtensions = [DIST], asCommunityPackage = false, env = {} } = {}) {
		const info = await ensureRuntime(line);
		const harness = new N8nHarness();
		harness.info = info;
		harness.userFolder = mkdtempSync(join(tmpdir(), `cts-e2e-n8n${line}-`));
		harness.prefix = asCommunityPackage ? PACKAGE_NAME : 'CUSTOM';
		if (asCommunityPackage) {
			installPackage(harness.userFolder, packedTarball());
			customExtensions = [];
		}
		harness.port = await freePort();
		harness.brokerPort = await freePort();
		harness.env = n8nEnv(info, {
			userFolder: harness.userFolder,
			port: harness.port,
			brokerPort: harness.brokerPort,
			customExtensions,
			env: { GENERIC_TIMEZONE: 'UTC', TZ: 'UTC', ...env },
		});
		return harness;
	}

	/**
	 * A harness for the CLI of an n8n whose environment was set up elsewhere (the queue stack's
	 * main instance): same database, user folder and settings.
	 */
	static attach(info, env) {
		const harness = new N8nHarness();
		Object.assign(harness, { info, env, userFolder: env.N8N_USER_FOLDER });
		return harness;
	}

	async cli(args, options = {}) {
		return await runN8nCli(this.info, args, { env: { ...this.env, ...(options.env ?? {}) }, timeoutMs: options.timeoutMs });
	}

	async cliOk(args) {
		const result = await this.cli(args);
		if (result.code !== 0) throw new Error(`n8n ${args.join(' ')} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`);
		return result;
	}

	writeFile(name, content) {
		const file = join(this.userFolder, name);
		writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
		return file;
	}

	async importCredentials(credentials) {
		return await this.cliOk(['import:credentials', `--input=${this.writeFile('credentials.json', credentials)}`]);
	}

	/** Imports workflows in one CLI call (a folder of files, `--separate`). */
	async importWorkflows(workflows) {
		const folder = join(this.userFolder, `workflows-${Date.now()}`);
		mkdirSync(folder);
		for (const workflow of workflows) writeFileSync(join(folder, `${workflow.id}.json`), JSON.stringify(workflow, null, 2));
		await this.cliOk(['import:workflow', '--separate', `--input=${folder}`]);
	}

	/** Every workflow as n8n stores it, its static data included (`export:workflow --all`). */
	async exportWorkflows() {
		const file = join(this.userFolder, `export-${Date.now()}.json`);
		await this.cliOk(['export:workflow', '--all', `--output=${file}`]);
		return JSON.parse(readFileSync(file, 'utf8'));
	}

	/**
	 * `n8n execute --id=<id> --rawOutput`: resolves to { code, run, stdout, stderr }, where run
	 * is the execution n8n printed (null when it printed none, as after a failed run). It fails
	 * after `timeoutMs` (default 180 s).
	 */
	async execute(id, { timeoutMs } = {}) {
		// n8n 2.x prints the run through its logger (level info); JSON log lines keep it parseable.
		const result = await this.cli(['execute', `--id=${id}`, '--rawOutput'], { env: { N8N_LOG_LEVEL: 'info', N8N_LOG_FORMAT: 'json' }, timeoutMs });
		return { ...result, run: parseRun(result.stdout) };
	}

	/** `n8n start`; `timeoutMs`: how long it may take to be ready (default 180 s). */
	async start({ timeoutMs } = {}) {
		this.server = await startN8n(this.info, this.env, { timeoutMs });
		// The same client after a restart keeps its session.
		this.rest ??= new N8nRestClient(this.server.url);
		return this.server;
	}

	async stop() {
		await this.server?.stop();
		this.server = undefined;
	}

	async dispose() {
		await this.stop();
		rmSync(this.userFolder, { recursive: true, force: true });
	}
}

const isRun = (value) => Boolean(value && typeof value === 'object' && value.data?.resultData);

/**
 * The run that `execute --rawOutput` printed: n8n 2.x logs it as the message of one JSON log
 * line (also after a failed run); n8n 1.x prints it as plain JSON (other lines may precede it).
 */
export function parseRun(stdout) {
	for (const line of stdout.split('\n')) {
		if (!line.startsWith('{')) continue;
		try {
			const entry = JSON.parse(line);
			if (isRun(entry)) return entry;
			if (typeof entry.message === 'string' && entry.message.startsWith('{')) {
				const run = JSON.parse(entry.message);
				if (isRun(run)) return run;
			}
		} catch {
			// not a JSON line
		}
	}
	const start = stdout.search(/^\{/m);
	const end = stdout.lastIndexOf('}');
	if (start < 0 || end < start) return null;
	try {
		return JSON.parse(stdout.slice(start, end + 1));
	} catch {
		return null;
	}
}

/** The items (json) a node output in a run, on its first output. */
export function outputOf(run, nodeName) {
	const runData = run?.data?.resultData?.runData ?? {};
	const task = runData[nodeName]?.[0];
	if (!task) throw new Error(`Node "${nodeName}" did not run. Nodes that ran: ${Object.keys(runData).join(', ')}`);
	if (task.error && !task.data) throw new Error(`Node "${nodeName}" failed: ${task.error.message}`);
	return (task.data?.main?.[0] ?? []).map((item) => item.json);
}

/**
 * The error a node under "Continue On Fail" output for its one item: n8n keeps only
 * { error: message } as the item's json and the error itself (description, context) beside it.
 */
export function errorOf(run, nodeName) {
	const task = run?.data?.resultData?.runData?.[nodeName]?.[0];
	const items = task?.data?.main?.[0] ?? [];
	if (items.length !== 1 || !items[0].error) throw new Error(`Node "${nodeName}" did not output one error item: ${JSON.stringify(items).slice(0, 500)}`);
	return { ...items[0].error, message: items[0].json.error };
}

/** The one item a node output. */
export function only(run, nodeName) {
	const items = outputOf(run, nodeName);
	if (items.length !== 1) throw new Error(`Node "${nodeName}" output ${items.length} items, expected 1: ${JSON.stringify(items)}`);
	return items[0];
}
