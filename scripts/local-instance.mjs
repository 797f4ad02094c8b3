/**
 * What `npm start` and `npm run start:queue` share: the sandbox as a child process, the owner
 * account, the two CTS credentials and the example workflows (each set up once, reused on later
 * starts). Plain Node ESM.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { exampleWorkflows, EXAMPLE_CREDENTIALS, START_OWNER } from './examples.mjs';
import { projectRoot } from './n8n-runtime.mjs';

export const SANDBOX_KEY = 'sandbox-alice-key';
const TOKEN_TTL_SECONDS = 365 * 24 * 3600;

export async function waitFor(url, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			const response = await fetch(url);
			if (response.ok) return;
		} catch {
			// not up yet
		}
		if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
		await new Promise((r) => setTimeout(r, 250));
	}
}

export async function portInUse(port) {
	try {
		await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
		return true;
	} catch (error) {
		return error?.cause?.code !== 'ECONNREFUSED';
	}
}

/** The compiled sandbox (build/test/sandbox) on 127.0.0.1:`port`, its state kept in `dataFile`. */
export function startSandboxProcess(port, dataFile) {
	const child = spawn(process.execPath, [join(projectRoot, 'build', 'test', 'sandbox', 'main.js')], {
		env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_HOST: '127.0.0.1', SANDBOX_DATA: dataFile },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	const exited = new Promise((r) => child.on('exit', r));
	return { child, output: () => output, exited };
}

/** Finds a credential by name, or creates it. */
async function ensureCredential(rest, { name, type, data }) {
	const existing = ((await rest.listCredentials()) ?? []).find((credential) => credential.name === name && credential.type === type);
	if (existing) return { id: existing.id, name, type, created: false };
	const created = await rest.createCredential({ name, type, data });
	return { id: created.id, name, type, created: true };
}

/**
 * The owner account (logged in), both credentials pointing at the sandbox and the example
 * workflows with node types under `prefix`. Resolves to how many workflows were added.
 */
export async function provisionInstance(rest, { sandboxUrl, prefix }) {
	await rest.ensureOwner(START_OWNER);
	const tokenResponse = await fetch(`${sandboxUrl}/_sandbox/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ user: 'alice', ttlSeconds: TOKEN_TTL_SECONDS }),
	});
	const { token } = await tokenResponse.json();
	const credentials = {
		api: await ensureCredential(rest, { ...EXAMPLE_CREDENTIALS.api, data: { apiKey: SANDBOX_KEY, baseUrl: sandboxUrl } }),
		sync: await ensureCredential(rest, { ...EXAMPLE_CREDENTIALS.sync, data: { token, syncUrl: sandboxUrl } }),
	};
	const existing = new Set(((await rest.listWorkflows()) ?? []).map((workflow) => workflow.name));
	let added = 0;
	for (const workflow of exampleWorkflows(prefix, credentials)) {
		if (existing.has(workflow.name)) continue;
		await rest.createWorkflow(workflow);
		added++;
	}
	return { added };
}
