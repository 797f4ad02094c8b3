/**
 * Test support: starts a sandbox in-process on a free port and calls it over real HTTP with the
 * global fetch.
 */
import { startSandbox, type Sandbox, type SandboxOptions } from '../server';

export const ALICE = 'sandbox-alice-key';
export const BOB = 'sandbox-bob-key';
export const NOPLAN = 'sandbox-noplan-key';

export interface Response {
	status: number;
	headers: Headers;
	/** Parsed JSON body, or undefined when the body is empty. */
	body: any;
	text: string;
}

export interface CallOptions {
	/** API key (sent as `ApiKey <key>`); default alice's. */
	key?: string;
	/** Full Authorization header value; null sends none. Wins over `key`. */
	authorization?: string | null;
	/** JSON body (serialised), or a raw string / Buffer sent as is. */
	body?: unknown;
	raw?: string | Buffer;
	query?: Record<string, string | string[]>;
	headers?: Record<string, string>;
}

export class Client {
	constructor(readonly sandbox: Sandbox) {}

	get url(): string {
		return this.sandbox.url;
	}

	async call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
		const search = new URLSearchParams();
		for (const [name, value] of Object.entries(options.query ?? {})) {
			for (const item of Array.isArray(value) ? value : [value]) search.append(name, item);
		}
		const qs = search.toString();
		const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
		const authorization =
			options.authorization === undefined ? `ApiKey ${options.key ?? ALICE}` : options.authorization;
		if (authorization !== null) headers.authorization = authorization;
		let body: string | Buffer | undefined;
		if (options.raw !== undefined) body = options.raw;
		else if (options.body !== undefined) body = JSON.stringify(options.body);
		if (body !== undefined) headers['content-type'] ??= 'application/json';
		const res = await fetch(`${this.url}${path}${qs ? `?${qs}` : ''}`, { method, headers, body });
		const text = await res.text();
		let parsed: unknown;
		if (text !== '') {
			try {
				parsed = JSON.parse(text);
			} catch {
				parsed = undefined;
			}
		}
		return { status: res.status, headers: res.headers, body: parsed, text };
	}

	get(path: string, query?: Record<string, string | string[]>, options: CallOptions = {}): Promise<Response> {
		return this.call('GET', path, { ...options, query });
	}

	post(path: string, body?: unknown, options: CallOptions = {}): Promise<Response> {
		return this.call('POST', path, { ...options, body });
	}

	/** Control endpoint (no auth). */
	control(method: string, path: string, body?: unknown): Promise<Response> {
		return this.call(method, `/_sandbox/${path}`, { body, authorization: null });
	}

	reset(): Promise<Response> {
		return this.control('POST', 'reset');
	}

	/** Creates a task for the key's user and returns its id. */
	async createTask(body: Record<string, unknown> = {}, key = ALICE): Promise<string> {
		const res = await this.post('/v3/tasks/create', { title: 'A task', ...body }, { key });
		if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
		return res.body.data.id as string;
	}

	async getTask(id: string, key = ALICE): Promise<any> {
		const res = await this.get('/v3/tasks', { id }, { key });
		if (res.status !== 200) throw new Error(`get failed: ${res.status} ${res.text}`);
		return res.body.data.task;
	}

	async listTasks(query: Record<string, string> = {}, key = ALICE): Promise<any[]> {
		const res = await this.get('/v3/tasks/list', { limit: '100', ...query }, { key });
		if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
		return res.body.data.tasks;
	}
}

/**
 * Starts one sandbox for a test file (beforeAll), resets it before each test with a budget large
 * enough for the test, and stops it afterwards.
 */
export function useSandbox(options: SandboxOptions & { points?: number | null } = {}): { client: Client } {
	const holder = {} as { client: Client };
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, ...options });
		holder.client = new Client(sandbox);
	});
	beforeEach(async () => {
		await holder.client.reset();
		const points = options.points === undefined ? 1_000_000 : options.points;
		if (points !== 300) await holder.client.control('POST', 'limits', { points });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	return holder;
}

/**
 * `useSandbox()` for a test file, with `api()` for its client and the two clock shortcuts the endpoint
 * tests use: `freeze(now)` stops the sandbox clock there, `advance(seconds)` moves it.
 */
export function useApi(options: SandboxOptions & { points?: number | null } = {}) {
	const ctx = useSandbox(options);
	const api = () => ctx.client;
	const freeze = (now: string) => api().control('POST', 'clock', { now });
	const advance = (advanceSeconds: number) => api().control('POST', 'clock', { advanceSeconds });
	return { api, freeze, advance };
}

/** An error body as the interface documents it (deliberately raised). */
export function expectErrorBody(res: Response, status: number, message?: string | string[]): void {
	expect(res.status).toBe(status);
	expect(res.headers.get('content-type')).toMatch(/^application\/json/);
	expect(Object.keys(res.body).sort()).toEqual(
		res.body.context === undefined ? ['errorRef', 'message', 'status'] : ['context', 'errorRef', 'message', 'status'],
	);
	expect(res.body.status).toBe(status);
	expect(typeof res.body.errorRef).toBe('string');
	expect(res.body.errorRef.length).toBeGreaterThan(0);
	if (message !== undefined) {
		expect(res.body.message).toBe(Array.isArray(message) ? JSON.stringify(message) : message);
	}
}

/** A validation failure: 400 whose message is the JSON-encoded list of messages. */
export function expectValidation(res: Response, messages: string[]): void {
	expectErrorBody(res, 400);
	expect(JSON.parse(res.body.message as string)).toEqual(messages);
}

/** The short error body: `message` and `errorRef` only. */
export function expectShortBody(res: Response, status: number): void {
	expect(res.status).toBe(status);
	expect(Object.keys(res.body).sort()).toEqual(['errorRef', 'message']);
	expect(typeof res.body.message).toBe('string');
	expect(typeof res.body.errorRef).toBe('string');
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `RateLimit-Remaining` of an answer. */
export const remainingPoints = (res: Response): number => Number(res.headers.get('ratelimit-remaining'));

/**
 * The v3 authentication rules on one endpoint: 401 without a credential, with an unknown key and
 * with a (valid) v1 bearer token; 403 for the plan without API access; none carries RateLimit headers.
 */
export async function expectApiKeyAuthentication(client: Client, method: string, path: string, options: CallOptions = {}): Promise<void> {
	const token = (await client.control('POST', 'token', { user: 'alice' })).body.token as string;
	const refused: [string | null, number][] = [
		[null, 401],
		['ApiKey sandbox-mallory-key', 401],
		[`Bearer ${token}`, 401],
		[`ApiKey ${NOPLAN}`, 403],
	];
	for (const [authorization, status] of refused) {
		const res = await client.call(method, path, { ...options, authorization });
		expectErrorBody(res, status);
		expect(res.headers.get('ratelimit-remaining')).toBeNull();
	}
	const accepted = await client.call(method, path, options);
	expect(accepted.status).toBeLessThan(300);
}
