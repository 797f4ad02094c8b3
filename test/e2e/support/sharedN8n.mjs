/**
 * A started n8n 2.41.1 with the package installed as a community package (as users install it),
 * shared by the end-to-end files that can share one: the test runner (scripts/test-runner.mjs)
 * starts it once for every file its plan marks `n8n: 'shared'` (test/e2e/plan.mjs) and names it in
 * CTS_E2E_SHARED_N8N. Each file gets a user of its own on it, invited by the owner, so its
 * credentials, workflows, executions and data tables are its own. A file run alone
 * (`node --test test/e2e/<file>`) starts an n8n of its own instead, with the same interface.
 *
 * Files that change the instance itself (its settings or packages), kill it, or time it closely
 * start their own (N8nHarness).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8nRestClient } from '../../../scripts/n8n-rest.mjs';
import { N8nHarness, OWNER } from './n8n.mjs';

const SHARED_ENV = 'CTS_E2E_SHARED_N8N';

/**
 * The folder n8n may read files from (N8N_RESTRICT_FILE_ACCESS_TO): each file keeps the files its
 * workflows read in a folder of its own below it (see `filesFolder`).
 */
function filesEnv(filesRoot) {
	return { N8N_RESTRICT_FILE_ACCESS_TO: filesRoot };
}

/**
 * Starts the shared n8n (for the test runner). Resolves to { env, dispose }: `env` carries it to
 * the test files (CTS_E2E_SHARED_N8N).
 */
export async function startSharedN8n() {
	const filesRoot = mkdtempSync(join(tmpdir(), 'cts-e2e-shared-files-'));
	const harness = await N8nHarness.create({ line: '2', asCommunityPackage: true, env: filesEnv(filesRoot) });
	// Several files wait for it: it may take longer on a busy machine than one file's n8n.
	await harness.start({ timeoutMs: 600_000 });
	await harness.rest.ensureOwner(OWNER);
	const describe = JSON.stringify({ url: harness.server.url, prefix: harness.prefix, filesRoot });
	const dispose = async () => {
		await harness.dispose();
		rmSync(filesRoot, { recursive: true, force: true });
	};
	return { env: { [SHARED_ENV]: describe }, dispose };
}

/**
 * The n8n of one test file, `name` naming its user: { rest (logged in as the file's user), url,
 * prefix (node types), user ({ email, password }), filesFolder(), dispose() }.
 */
export async function n8nForFile(name) {
	const shared = process.env[SHARED_ENV];
	return shared ? await userOnSharedN8n(JSON.parse(shared), name) : await ownN8n();
}

async function userOnSharedN8n({ url, prefix, filesRoot }, name) {
	const owner = new N8nRestClient(url);
	await owner.login(OWNER.email, OWNER.password);
	const user = { email: `${name}-${randomUUID().slice(0, 8)}@cts-e2e.example`, password: 'E2e-User-Passw0rd', firstName: 'E2E', lastName: name };
	const [invited] = await owner.request('POST', '/invitations', [{ email: user.email, role: 'global:member' }]);
	const token = new URL(invited.user.inviteAcceptUrl).searchParams.get('token');
	const rest = new N8nRestClient(url);
	// Accepting the invitation logs the new user in.
	await rest.request('POST', '/invitations/accept', { token, firstName: user.firstName, lastName: user.lastName, password: user.password });
	const folders = [];
	return {
		rest,
		url,
		prefix,
		user,
		filesFolder: () => {
			const folder = mkdtempSync(join(filesRoot, `${name}-`));
			folders.push(folder);
			return folder;
		},
		// What the file published stops polling the others' time away.
		dispose: async () => {
			for (const workflow of (await rest.listWorkflows().catch(() => [])) ?? []) {
				if (workflow.active || workflow.activeVersionId) await rest.deactivateWorkflow(workflow.id).catch(() => undefined);
			}
			for (const folder of folders) rmSync(folder, { recursive: true, force: true });
		},
	};
}

async function ownN8n() {
	const filesRoot = mkdtempSync(join(tmpdir(), 'cts-e2e-files-'));
	const harness = await N8nHarness.create({ line: '2', asCommunityPackage: true, env: filesEnv(filesRoot) });
	await harness.start();
	await harness.rest.ensureOwner(OWNER);
	return {
		rest: harness.rest,
		url: harness.server.url,
		prefix: harness.prefix,
		user: OWNER,
		filesFolder: () => {
			const folder = join(filesRoot, randomUUID());
			mkdirSync(folder);
			return folder;
		},
		dispose: async () => {
			await harness.dispose();
			rmSync(filesRoot, { recursive: true, force: true });
		},
	};
}
