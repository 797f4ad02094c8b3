/**
 * The routing table: every area module exports a `Route[]`, and the server dispatches a request
 * to the route registered for its exact path and method. An unknown path answers 404, a known
 * path with another method 405 (both with the deliberate error body).
 */
import type { IncomingHttpHeaders } from 'node:http';

import type { AuthScheme } from './auth';
import type { Clock } from './clock';
import type { Faults, RequestLog } from './control';
import type { Limiter } from './limits';
import type { Store, User } from './store';

export type Method = 'GET' | 'POST' | 'DELETE';

/** Query parameters: a repeated name gives an array. The object has no prototype. */
export type Query = Record<string, string | string[]>;

/** A response body already serialised to JSON text (sent as is). */
export class RawJson {
	constructor(readonly text: string) {}
}

/** What a handler answers. No body: an empty response (e.g. 204). A {@link RawJson} body is sent as is. */
export interface Reply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

/** Everything of the sandbox a handler may use. */
export interface SandboxState {
	store: Store;
	clock: Clock;
	limiter: Limiter;
	faults: Faults;
	requestLog: RequestLog;
}

export interface RequestContext {
	sandbox: SandboxState;
	store: Store;
	clock: Clock;
	method: Method;
	path: string;
	query: Query;
	/** Parsed JSON body of a POST (`{}` when the body is empty); undefined for GET and DELETE. */
	body: unknown;
	headers: IncomingHttpHeaders;
	/** The authenticated caller; set on every route with `auth` other than `none`. */
	user: User;
}

export interface Route {
	method: Method;
	/** Exact path, e.g. `/v3/tasks/list`. */
	path: string;
	/**
	 * `apiKey` (v3), `bearer` (v1), or `none` for the sandbox's own control endpoints, which are
	 * never authenticated, charged, logged or faulted.
	 */
	auth: AuthScheme | 'none';
	/** Points charged per call; default 1. */
	points?: number;
	handler(ctx: RequestContext): Reply | Promise<Reply>;
}

export type RouteMatch =
	| { kind: 'route'; route: Route }
	| { kind: 'notFound' }
	| { kind: 'methodNotAllowed'; allow: string[] };

export class Router {
	private readonly byPath = new Map<string, Map<string, Route>>();

	constructor(routes: Iterable<Route> = []) {
		for (const route of routes) this.add(route);
	}

	/** Registers a route; a second route for the same method and path is a programming error. */
	add(route: Route): void {
		let methods = this.byPath.get(route.path);
		if (!methods) {
			methods = new Map();
			this.byPath.set(route.path, methods);
		}
		if (methods.has(route.method)) throw new Error(`Route ${route.method} ${route.path} registered twice`);
		methods.set(route.method, route);
	}

	match(method: string, path: string): RouteMatch {
		const methods = this.byPath.get(path);
		if (!methods) return { kind: 'notFound' };
		const route = methods.get(method);
		if (route) return { kind: 'route', route };
		return { kind: 'methodNotAllowed', allow: [...methods.keys()] };
	}

	get routes(): Route[] {
		return [...this.byPath.values()].flatMap((methods) => [...methods.values()]);
	}
}
