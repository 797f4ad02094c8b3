/**
 * n8n's own HTTP Request and Compare Datasets nodes, for comparison. They live in `n8n-nodes-base`
 * (about 840 MB), which the package does not depend on: the copy of `npm start`'s n8n runtime is
 * used when it has the same version, else it is installed once, on demand, into `.bench/`
 * (git-ignored), with install scripts off. Its `require('n8n-workflow')` calls are redirected to
 * the project's copy, so all nodes run on exactly one `n8n-workflow` in one engine.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { join, resolve, sep } from 'node:path';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

export const NODES_BASE_VERSION = '2.41.1';
export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
/** The HTTP Request node's current version (its default in the editor). */
export const HTTP_REQUEST_VERSION = 4.5;

/**
 * The HTTP Request node as a user would set it up to create tasks: POST /v3/tasks/create with the
 * CTS API credential, the title from each item; `options` are the node's own Options.
 */
export function httpCreateTaskNode(sandboxUrl: string, options: Record<string, unknown> = {}) {
	return {
		type: HTTP_REQUEST_TYPE,
		typeVersion: HTTP_REQUEST_VERSION,
		parameters: {
			method: 'POST',
			url: `${sandboxUrl}/v3/tasks/create`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'ctsApi',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'keypair',
			bodyParameters: { parameters: [{ name: 'title', value: '={{ $json.title }}' }] },
			options,
		},
	};
}

/** Packages resolved from the project, never from `.bench/`, so only one copy is loaded. */
const SHARED_PACKAGES = new Set(['n8n-workflow']);

function packageName(request: string): string {
	const parts = request.split('/');
	return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function benchDirectory(root: string): string {
	return join(root, '.bench');
}

/**
 * The n8n runtime of `npm start` (`CTS_N8N_RUNTIME_DIR`, else `.n8n-runtime/`) when it holds
 * n8n-nodes-base at {@link NODES_BASE_VERSION}: its copy is used, nothing is installed.
 */
function runtimeNodesBase(root: string): string | undefined {
	const runtime = process.env.CTS_N8N_RUNTIME_DIR ? resolve(process.env.CTS_N8N_RUNTIME_DIR) : join(root, '.n8n-runtime');
	const directory = join(runtime, `n8n-${NODES_BASE_VERSION}`);
	const manifest = join(directory, 'node_modules', 'n8n-nodes-base', 'package.json');
	if (!existsSync(manifest)) return undefined;
	return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version === NODES_BASE_VERSION ? directory : undefined;
}

/** A folder holding n8n-nodes-base at {@link NODES_BASE_VERSION}: the n8n runtime's, or `.bench/`, installed there unless that version is there already. */
export function ensureNodesBase(root: string): string {
	const fromRuntime = runtimeNodesBase(root);
	if (fromRuntime) return fromRuntime;
	const directory = benchDirectory(root);
	const manifest = join(directory, 'node_modules', 'n8n-nodes-base', 'package.json');
	if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version === NODES_BASE_VERSION) {
		return directory;
	}
	mkdirSync(directory, { recursive: true });
	writeFileSync(
		join(directory, 'package.json'),
		`${JSON.stringify({ name: 'cts-bench-comparison', private: true, description: 'n8n-nodes-base for npm run bench (installed on demand)' }, null, 2)}\n`,
	);
	console.error(`Installing n8n-nodes-base@${NODES_BASE_VERSION} into ${directory} (once, about 2 minutes)…`);
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const result = spawnSync(
		npm,
		['install', '--ignore-scripts', '--save-exact', '--no-audit', '--no-fund', '--loglevel=error', `n8n-nodes-base@${NODES_BASE_VERSION}`],
		{ cwd: directory, stdio: 'inherit' },
	);
	if (result.status !== 0) throw new Error(`npm install n8n-nodes-base@${NODES_BASE_VERSION} failed (${result.status ?? result.error?.message})`);
	return directory;
}

let hooked = false;

/** Resolves the shared packages from the project's root for any module under `directory` (where n8n-nodes-base is). */
function redirectSharedPackages(root: string, directory: string): void {
	if (hooked) return;
	hooked = true;
	const prefix = directory + sep;
	const moduleWithResolve = Module as unknown as {
		_resolveFilename: (request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => string;
	};
	const original = moduleWithResolve._resolveFilename;
	moduleWithResolve._resolveFilename = function (request, parent, ...rest) {
		if (parent?.filename?.startsWith(prefix) && SHARED_PACKAGES.has(packageName(request))) {
			return require.resolve(request, { paths: [root] });
		}
		return original.call(this, request, parent, ...rest);
	};
}

/** Paths of every loaded copy of n8n-workflow's entry point. */
export function loadedWorkflowCopies(): string[] {
	return Object.keys(require.cache).filter((file) => /[\\/]n8n-workflow[\\/]dist[\\/](cjs[\\/])?index\.js$/.test(file));
}

/** The HTTP Request node at {@link HTTP_REQUEST_VERSION}, as n8n's node loader would hand it to the engine. */
export function loadHttpRequestNode(root: string): INodeType {
	const directory = ensureNodesBase(root);
	redirectSharedPackages(root, directory);
	const file = join(directory, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { HttpRequest } = require(file) as { HttpRequest: new () => IVersionedNodeType };
	const copies = loadedWorkflowCopies();
	if (copies.length !== 1) throw new Error(`Expected one copy of n8n-workflow, found ${copies.length}: ${copies.join(', ')}`);
	return new HttpRequest().getNodeType(HTTP_REQUEST_VERSION) as INodeType;
}

export const COMPARE_DATASETS_TYPE = 'n8n-nodes-base.compareDatasets';
/** The Compare Datasets node's current version (its default in the editor). */
export const COMPARE_DATASETS_VERSION = 2.3;

/** n8n's Compare Datasets node at {@link COMPARE_DATASETS_VERSION}, from the same n8n-nodes-base. */
export function loadCompareDatasetsNode(root: string): INodeType {
	const directory = ensureNodesBase(root);
	redirectSharedPackages(root, directory);
	const file = join(directory, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'CompareDatasets', 'CompareDatasets.node.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { CompareDatasets } = require(file) as { CompareDatasets: new () => INodeType };
	const copies = loadedWorkflowCopies();
	if (copies.length !== 1) throw new Error(`Expected one copy of n8n-workflow, found ${copies.length}: ${copies.join(', ')}`);
	return new CompareDatasets();
}
