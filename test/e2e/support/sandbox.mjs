/**
 * The sandbox (compiled by `tsc -p tsconfig.sandbox.json` into build/), started in the test
 * process on a free port, and a small HTTP client for its control endpoints and API.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { projectRoot } from '../../../scripts/n8n-runtime.mjs';

const require = createRequire(import.meta.url);

export const ALICE_KEY = 'sandbox-alice-key';

export async function startSandbox() {
	const { startSandbox: start } = require(join(projectRoot, 'build', 'test', 'sandbox', 'server.js'));
	const sandbox = await start({ port: 0, host: '127.0.0.1' });
	return new SandboxClient(sandbox);
}

export class SandboxClient {
	constructor(sandbox) {
		this.sandbox = sandbox;
		this.url = sandbox.url;
	}

	async close() {
		await this.sandbox.close();
	}

	/**
	 * Resolves with the next API call matching `predicate` once the sandbox has answered it (the
	 * in-process sandbox logs each call after its answer).
	 */
	nextRequest(predicate, timeoutMs) {
		const log = this.sandbox.requestLog;
		return new Promise((resolve, reject) => {
			const add = log.add;
			const restore = () => {
				clearTimeout(timer);
				log.add = add;
			};
			const timer = setTimeout(() => {
				restore();
				reject(new Error(`No matching API call within ${timeoutMs / 1000} s`));
			}, timeoutMs);
			log.add = (entry) => {
				add.call(log, entry);
				if (!predicate(entry)) return;
				restore();
				resolve(entry);
			};
		});
	}

	async control(name, body = {}, method = 'POST') {
		const response = await fetch(`${this.url}/_sandbox/${name}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: method === 'GET' ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`sandbox ${name} answered ${response.status}: ${text}`);
		return text ? JSON.parse(text) : {};
	}

	async reset() {
		await this.control('reset');
	}

	/** Fixtures plus the starter world `npm start` begins a new state with (test/sandbox/starter.ts). */
	async resetToStarterWorld(zone = 'UTC') {
		await this.reset();
		const { seedStarterWorld } = require(join(projectRoot, 'build', 'test', 'sandbox', 'starter.js'));
		seedStarterWorld(this.sandbox, zone);
	}

	async token(user = 'alice', ttlSeconds = 3600) {
		return (await this.control('token', { user, ttlSeconds })).token;
	}

	async requests() {
		return (await this.control('requests', undefined, 'GET')).requests;
	}

	async api(method, path, { key = ALICE_KEY, qs, body } = {}) {
		const query = qs ? `?${new URLSearchParams(qs)}` : '';
		const response = await fetch(`${this.url}${path}${query}`, {
			method,
			headers: {
				authorization: `ApiKey ${key}`,
				accept: 'application/json',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		return { status: response.status, body: text ? JSON.parse(text) : undefined };
	}

	async createTask(fields) {
		const { status, body } = await this.api('POST', '/v3/tasks/create', { body: fields });
		if (status !== 200) throw new Error(`create task answered ${status}: ${JSON.stringify(body)}`);
		return body.data.id;
	}

	async getTask(id) {
		return (await this.api('GET', '/v3/tasks', { qs: { id } })).body.data.task;
	}
}
