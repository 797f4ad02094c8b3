/**
 * The sandbox's HTTP server: one `node:http` server dispatching through the routing table.
 *
 * Order of work for an API call (any route whose `auth` is not `none`):
 * 1. route lookup: unknown path 404, known path with another method 405 (error body, `Allow`);
 * 2. authentication (`ApiKey` or `Bearer` as the route says): 401 / 403;
 * 3. injected faults (`/_sandbox/faults`): delay, then fail with the configured status;
 * 4. rate limit: charge the route's points, or 429 with `Retry-After` (not charged);
 * 5. body (POST): at most 1 MiB (413, short body), valid JSON (400, short body), empty = `{}`;
 * 6. the route's handler;
 * 7. the store commits what the handler changed (with a data file: saved before the answer).
 * Every API call is then written to the request log. Authenticated answers carry the
 * `RateLimit-*` headers. Control routes (`/_sandbox/...`) skip steps 2–4 and the log.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { authenticate } from './auth';
import { calendarRoutes } from './calendars';
import { Clock } from './clock';
import { controlRoutes, Faults, RequestLog, type LoggedRequest } from './control';
import { ApiError, bodyOf, methodNotAllowed, notFoundRoute, shortErrorBody } from './errors';
import { eventRoutes } from './events';
import { eventV1Routes } from './eventsV1';
import { Limiter, refusalMessage } from './limits';
import { RawJson, Router, type Method, type Query, type Reply, type RequestContext, type Route, type SandboxState } from './router';
import { Store, type User } from './store';
import { tagRoutes } from './tags';
import { taskRoutes } from './tasks';

/** Largest accepted request body: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** A larger body is still read (and dropped) up to this size, so the client gets its 413. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** Request bodies up to this size are kept in the request log. */
const MAX_LOGGED_BODY_BYTES = 16 * 1024;
/** …and nested at most this deep (so the log always serialises). */
const MAX_LOGGED_BODY_DEPTH = 64;

/**
 * Every route of the sandbox, area by area. A new area exports its `Route[]` and is added here
 * (for example `...eventRoutes`); `startSandbox({ routes })` can add more for a single instance.
 */
export const defaultRoutes: Route[] = [
	...controlRoutes,
	...taskRoutes,
	...tagRoutes,
	...calendarRoutes,
	...eventRoutes,
	...eventV1Routes,
];

export interface SandboxOptions {
	/** Port to listen on; 0 (the default) picks a free one. */
	port?: number;
	/** Host to listen on; default 127.0.0.1. */
	host?: string;
	/** State file: loaded at start; every change is saved before its request is answered. Default: memory only. */
	dataFile?: string;
	/** Routes added to {@link defaultRoutes} for this instance. */
	routes?: Route[];
	/** How many requests `GET /_sandbox/requests` keeps (default 10,000; the oldest are dropped). */
	requestLogCapacity?: number;
}

export interface Sandbox extends SandboxState {
	/** Base URL, e.g. `http://127.0.0.1:8787` (no trailing slash). */
	url: string;
	port: number;
	router: Router;
	close(): Promise<void>;
}

/** Placeholder caller of control routes, which are not authenticated. */
const NO_USER: User = Object.freeze({ id: '', email: '', apiAccess: false, taskAccountId: '' });

const JSON_TYPE = 'application/json; charset=utf-8';

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const store = new Store({ dataFile: options.dataFile });
	const state: SandboxState = {
		store,
		clock: new Clock(),
		limiter: new Limiter(),
		faults: new Faults(),
		requestLog: new RequestLog(options.requestLogCapacity),
	};
	const router = new Router([...defaultRoutes, ...(options.routes ?? [])]);

	// Idle connections are kept longer than clients keep them (Node's fetch: about 4 s), so a client
	// never sends on a connection the server is closing at that moment (a reset, not an answer). The
	// time allowed for a request's headers is longer still: Node counts it on an idle kept-alive
	// connection too, and a request sent on one after 60 s (its default) would be answered 408.
	const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 70_000 }, (req, res) => {
		handle(state, router, req, res).catch((error: unknown) => {
			// handle() answers every error itself; this is the last guard against a crash.
			console.error('sandbox: unhandled failure', error);
			if (!res.headersSent) send(res, 500, shortErrorBody('Internal server error'), undefined);
			else res.destroy();
		});
	});
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
		if (!socket.writable) {
			socket.destroy();
			return;
		}
		const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
		const body = JSON.stringify(shortErrorBody(status === 431 ? 'Request headers too large' : 'Bad request'));
		socket.end(
			`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
				`Content-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
		);
	});

	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

	let closing: Promise<void> | undefined;
	return {
		...state,
		url: `http://${urlHost}:${port}`,
		port,
		router,
		close() {
			closing ??= new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}).finally(() => store.close());
			return closing;
		},
	};
}

function parseQuery(text: string): Query {
	const query = Object.create(null) as Query;
	if (text === '') return query;
	for (const [name, value] of new URLSearchParams(text)) {
		const previous = query[name];
		if (previous === undefined) query[name] = value;
		else if (Array.isArray(previous)) previous.push(value);
		else query[name] = [previous, value];
	}
	return query;
}

async function handle(state: SandboxState, router: Router, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const method = req.method ?? 'GET';
	const url = req.url ?? '/';
	const mark = url.indexOf('?');
	const path = mark < 0 ? url : url.slice(0, mark);
	const query = parseQuery(mark < 0 ? '' : url.slice(mark + 1));
	const match = router.match(method, path);

	if (match.kind === 'route' && match.route.auth === 'none') {
		return handleControl(state, match.route, method as Method, path, query, req, res);
	}

	const { clock, limiter, faults, requestLog, store } = state;
	const entry: LoggedRequest = { time: clock.nowIso(), method, path, query, status: 0, points: 0 };
	let rateHeaders: Record<string, string> | undefined;
	let reply: Reply;
	try {
		if (match.kind === 'notFound') throw notFoundRoute(method, path);
		if (match.kind === 'methodNotAllowed') throw methodNotAllowed(method, path, match.allow);
		const route = match.route;
		const auth = route.auth === 'none' ? 'apiKey' : route.auth;
		const user = authenticate(store, auth, req.headers.authorization, clock.now());
		entry.user = user.id;

		if (faults.pendingFor(path)) {
			const fault = faults.take();
			if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
			if (fault.status !== 0) {
				rateHeaders = limiter.peek(user.id, auth, clock.now());
				throw injectedFault(fault.status, fault.retryAfterSeconds);
			}
		}

		const limit = limiter.charge(user.id, auth, route.points ?? 1, clock.now());
		rateHeaders = limit.headers;
		if (!limit.allowed) {
			throw new ApiError(429, refusalMessage(limit.config!), {
				headers: { 'Retry-After': String(limit.retryAfter) },
				context: { retryAfterSeconds: limit.retryAfter },
			});
		}
		entry.points = limit.charged;

		let body: unknown;
		if (method === 'POST') {
			const raw = await readBody(req);
			body = parseJson(raw);
			if (raw.length > MAX_LOGGED_BODY_BYTES) entry.bodyOmitted = 'larger than 16 KiB';
			else if (nestingExceeds(body, MAX_LOGGED_BODY_DEPTH)) entry.bodyOmitted = `nested deeper than ${MAX_LOGGED_BODY_DEPTH} levels`;
			else entry.body = body;
		}
		const ctx: RequestContext = {
			sandbox: state,
			store,
			clock,
			method: method as Method,
			path,
			query,
			body,
			headers: req.headers,
			user,
		};
		reply = await route.handler(ctx);
	} catch (error) {
		reply = errorReply(error);
	}
	reply = committed(store, reply);
	entry.status = reply.status;
	requestLog.add(entry);
	// The Date header tells the service's time, so it follows the sandbox clock (frozen or not).
	send(res, reply.status, reply.body, { Date: new Date(clock.now()).toUTCString(), ...reply.headers }, rateHeaders);
}

async function handleControl(
	state: SandboxState,
	route: Route,
	method: Method,
	path: string,
	query: Query,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	let reply: Reply;
	try {
		const body = method === 'POST' ? parseJson(await readBody(req)) : undefined;
		reply = await route.handler({
			sandbox: state,
			store: state.store,
			clock: state.clock,
			method,
			path,
			query,
			body,
			headers: req.headers,
			user: NO_USER,
		});
	} catch (error) {
		reply = errorReply(error);
	}
	reply = committed(state.store, reply);
	send(res, reply.status, reply.body, reply.headers);
}

/** The reply, once the changes it reports are saved; a 500 when they could not be. */
function committed(store: Store, reply: Reply): Reply {
	try {
		store.commit();
		return reply;
	} catch (error) {
		return errorReply(error);
	}
}

function injectedFault(status: number, retryAfterSeconds: number): ApiError {
	return new ApiError(status, status === 429 ? 'Rate limit exceeded' : `Injected failure (HTTP ${status})`, {
		headers: status === 429 ? { 'Retry-After': String(retryAfterSeconds) } : undefined,
	});
}

function errorReply(error: unknown): Reply {
	if (error instanceof ApiError) {
		return { status: error.status, body: bodyOf(error), headers: error.headers };
	}
	console.error('sandbox: unexpected failure', error);
	return { status: 500, body: shortErrorBody('Internal server error') };
}

/** Reads the request body: at most {@link MAX_BODY_BYTES}, else a 413 with the short error body. */
function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const declared = Number(req.headers['content-length']);
		if (declared > MAX_DRAIN_BYTES) {
			reject(tooLarge(true));
			return;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		let over = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_DRAIN_BYTES) {
				reject(tooLarge(true));
				req.destroy();
				return;
			}
			if (size > MAX_BODY_BYTES) over = true;
			else chunks.push(chunk);
		});
		req.on('end', () => {
			if (over) reject(tooLarge(false));
			else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
		});
		const unreadable = () => reject(new ApiError(400, 'Request body could not be read', { short: true }));
		req.on('error', unreadable);
		req.on('close', () => {
			if (!req.complete) unreadable();
		});
	});
}

function tooLarge(close: boolean): ApiError {
	return new ApiError(413, 'Request body exceeds the maximum size of 1 MiB', {
		short: true,
		headers: close ? { Connection: 'close' } : undefined,
	});
}

/** Whether a parsed JSON value nests deeper than `limit` levels (checked without recursion). */
function nestingExceeds(value: unknown, limit: number): boolean {
	if (value === null || typeof value !== 'object') return false;
	const stack: [unknown, number][] = [[value, 1]];
	while (stack.length > 0) {
		const [current, depth] = stack.pop()!;
		if (depth > limit) return true;
		for (const child of Object.values(current as object)) {
			if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
		}
	}
	return false;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const WHITESPACE = /^[\s\uFEFF]*$/;

/** Parses a JSON body; an empty body is `{}`. Not JSON (or not UTF-8): 400 with the short error body. */
function parseJson(raw: Buffer): unknown {
	if (raw.length === 0) return {};
	let text: string;
	try {
		text = utf8.decode(raw);
	} catch {
		throw new ApiError(400, 'Request body is not valid JSON', { short: true });
	}
	if (WHITESPACE.test(text)) return {};
	try {
		return JSON.parse(text);
	} catch {
		throw new ApiError(400, 'Request body is not valid JSON', { short: true });
	}
}

function send(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> | undefined,
	rateHeaders?: Record<string, string>,
): void {
	let payload: string | undefined;
	if (body !== undefined && status !== 204) {
		try {
			payload = body instanceof RawJson ? body.text : JSON.stringify(body);
		} catch (error) {
			console.error('sandbox: could not serialise a response', error);
			status = 500;
			payload = JSON.stringify(shortErrorBody('Internal server error'));
		}
	}
	const out: Record<string, string> = {};
	if (rateHeaders) Object.assign(out, rateHeaders);
	if (headers) Object.assign(out, headers);
	// Encoded once: a large body is neither measured and encoded twice nor re-encoded on write.
	const bytes = payload === undefined ? undefined : Buffer.from(payload, 'utf8');
	if (bytes !== undefined) {
		out['Content-Type'] = JSON_TYPE;
		out['Content-Length'] = String(bytes.length);
	} else if (status !== 204) {
		out['Content-Length'] = '0';
	}
	res.writeHead(status, out);
	res.end(bytes);
}
