/**
 * Starts the sandbox in-process for a test file and talks to it over HTTP: its control
 * endpoints (reset, clock, limits, faults, request log) and its API, for arranging state and
 * checking results independently of the node under test.
 */
import { forgetHandedOver } from '../../nodes/CtsTask/shared/syncMemory';
import { forgetPacing } from '../../nodes/shared/pacing/triggerPacing';
import { startSandbox, type Sandbox } from '../sandbox/server';

export const ALICE_KEY = 'sandbox-alice-key';
export const BOB_KEY = 'sandbox-bob-key';
export const NOPLAN_KEY = 'sandbox-noplan-key';

export interface LoggedRequest {
	/** When the sandbox answered, on its clock. */
	time: string;
	method: string;
	path: string;
	query: Record<string, string>;
	status: number;
	points: number;
	body?: unknown;
}

/** A parsed JSON answer of the API; tests read into it freely. */
type Json = any;
export type TaskJson = Record<string, Json>;
export interface ApiResponse {
	status: number;
	body: Json;
	headers: Headers;
}

export class SandboxClient {
	private sandbox?: Sandbox;

	get url(): string {
		if (!this.sandbox) throw new Error('Sandbox not started');
		return this.sandbox.url;
	}

	async start(): Promise<void> {
		this.sandbox = await startSandbox({ port: 0 });
	}

	async stop(): Promise<void> {
		await this.sandbox?.close();
	}

	async control(name: string, body: unknown = {}): Promise<Record<string, unknown>> {
		const response = await fetch(`${this.url}/_sandbox/${name}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`Sandbox control ${name} answered ${response.status}: ${await response.text()}`);
		const text = await response.text();
		return text ? (JSON.parse(text) as Record<string, unknown>) : {};
	}

	/** Fixtures and full budgets again; the nodes forget what they learnt of the old budgets, as after a restart. */
	async reset(): Promise<void> {
		await this.control('reset');
		forgetPacing();
		forgetHandedOver();
	}

	/** API calls the sandbox received (control calls excluded), oldest first. */
	async requests(): Promise<LoggedRequest[]> {
		const response = await fetch(`${this.url}/_sandbox/requests`);
		const body = (await response.json()) as { requests?: LoggedRequest[] } | LoggedRequest[];
		return Array.isArray(body) ? body : (body.requests ?? []);
	}

	async clearRequests(): Promise<void> {
		await fetch(`${this.url}/_sandbox/requests`, { method: 'DELETE' });
	}

	async token(user: string, ttlSeconds = 3600): Promise<string> {
		return (await this.control('token', { user, ttlSeconds })).token as string;
	}

	/** Calls the API directly (arranging state, or reading it back to check a node's work). */
	async api(
		method: 'GET' | 'POST',
		path: string,
		{ key = ALICE_KEY, qs, body, bearer }: { key?: string; qs?: Record<string, string>; body?: unknown; bearer?: string } = {},
	): Promise<ApiResponse> {
		const query = qs ? `?${new URLSearchParams(qs).toString()}` : '';
		const response = await fetch(`${this.url}${path}${query}`, {
			method,
			headers: {
				authorization: bearer ? `Bearer ${bearer}` : `ApiKey ${key}`,
				accept: 'application/json',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
	}

	async createTask(fields: Record<string, unknown>, key = ALICE_KEY): Promise<string> {
		const { status, body } = await this.api('POST', '/v3/tasks/create', { key, body: fields });
		if (status !== 200) throw new Error(`create task answered ${status}: ${JSON.stringify(body)}`);
		return body.data.id as string;
	}

	/** Creates an event through `POST /v3/events/create` (e.g. with {@link timedEvent}); answers the event. */
	async createEvent(fields: Record<string, unknown>, key = ALICE_KEY): Promise<Record<string, Json>> {
		const { status, body } = await this.api('POST', '/v3/events/create', { key, body: fields });
		if (status !== 200) throw new Error(`create event answered ${status}: ${JSON.stringify(body)}`);
		return body.data.event;
	}

	async getTask(id: string, key = ALICE_KEY): Promise<TaskJson | null> {
		const { body } = await this.api('GET', '/v3/tasks', { key, qs: { id } });
		return body.data.task;
	}
}

/** Fields of a timed event for the v3 create endpoint, for arranging state in tests. */
export function timedEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		accountId: 'acc-alice-a',
		calendarId: 'cal-alice-a-primary',
		title: 'Meeting',
		start: '2026-12-01T09:00:00',
		duration: 'PT1H',
		timeZone: 'Europe/Berlin',
		showWithoutTime: false,
		...overrides,
	};
}
