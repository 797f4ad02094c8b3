/**
 * The service's error bodies and the errors the areas raise.
 *
 * - Deliberately raised errors: `{ message, status, errorRef, context? }`.
 * - Unexpected failures, a body that is not valid JSON and a body over the size limit:
 *   the short body `{ message, errorRef }` (no `status`), with the status line 500, 400 or 413.
 * - Validation failures: 400 whose `message` is a JSON-encoded array of the failed fields' messages.
 * - `errorRef` is fresh and opaque on every error; absent values are omitted, never null.
 */
import { randomUUID } from 'node:crypto';
import type { ZodError, ZodIssue, ZodTypeAny, output } from 'zod';

export interface ErrorBody {
	message: string;
	status?: number;
	errorRef: string;
	context?: Record<string, unknown>;
}

/** An error deliberately raised by the sandbox; the server turns it into the error body. */
export class ApiError extends Error {
	readonly status: number;

	readonly context: Record<string, unknown> | undefined;

	/** Short body (`message`, `errorRef` only), as for invalid JSON and oversized bodies. */
	readonly short: boolean;

	/** Extra response headers (e.g. `Retry-After`, `Allow`). */
	readonly headers: Record<string, string> | undefined;

	constructor(
		status: number,
		message: string,
		options: { context?: Record<string, unknown>; short?: boolean; headers?: Record<string, string> } = {},
	) {
		super(message);
		this.name = 'ApiError';
		this.status = status;
		this.context = options.context;
		this.short = options.short ?? false;
		this.headers = options.headers;
	}
}

/** A fresh opaque error reference. */
export function newErrorRef(): string {
	return randomUUID();
}

/** The deliberate error body. */
export function errorBody(status: number, message: string, context?: Record<string, unknown>): ErrorBody {
	const body: ErrorBody = { message, status, errorRef: newErrorRef() };
	if (context !== undefined) body.context = context;
	return body;
}

/** The short error body of unexpected failures and unreadable request bodies. */
export function shortErrorBody(message: string): ErrorBody {
	return { message, errorRef: newErrorRef() };
}

export function bodyOf(error: ApiError): ErrorBody {
	return error.short ? shortErrorBody(error.message) : errorBody(error.status, error.message, error.context);
}

/** 400 with `message` = JSON-encoded array of the failed fields' messages. */
export function validationError(messages: string[], context?: Record<string, unknown>): ApiError {
	return new ApiError(400, JSON.stringify(messages), { context });
}

/** Messages of a zod failure: the schemas carry the interface's texts; unknown keys become `property X should not exist`. */
export function zodMessages(error: ZodError): string[] {
	const out = new Set<string>();
	for (const issue of error.issues) {
		for (const message of issueMessages(issue)) out.add(message);
	}
	return [...out];
}

function issueMessages(issue: ZodIssue): string[] {
	if (issue.code === 'unrecognized_keys') {
		return issue.keys.map((key) => `property ${key} should not exist`);
	}
	if (issue.code === 'invalid_union') {
		// Report the first branch's messages: the schemas put the most telling branch first.
		const first = issue.unionErrors[0];
		return first ? first.issues.flatMap(issueMessages) : [issue.message];
	}
	return [issue.message];
}

/** Converts a zod failure into the 400 validation error, with the failed fields in `context`. */
export function fromZodError(error: ZodError): ApiError {
	const messages = zodMessages(error);
	const fields = new Set<string>();
	for (const issue of error.issues) {
		if (issue.code === 'unrecognized_keys') {
			for (const key of issue.keys) fields.add([...issue.path, key].join('.'));
		} else if (issue.path.length > 0) {
			fields.add(issue.path.join('.'));
		}
	}
	return validationError(messages, fields.size > 0 ? { fields: [...fields] } : undefined);
}

/**
 * Validates a request body or query against a schema: the parsed value, or the 400 validation
 * error built from the schema's messages. Declare schemas once at module level.
 */
export function validate<T extends ZodTypeAny>(schema: T, value: unknown): output<T> {
	const result = schema.safeParse(value);
	if (!result.success) throw fromZodError(result.error);
	return result.data as output<T>;
}

/** Long paths are cut in messages, so an error body stays small whatever the request. */
const shortPath = (path: string): string => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

export const notFoundRoute = (method: string, path: string): ApiError =>
	new ApiError(404, `Cannot ${method} ${shortPath(path)}`);

export const methodNotAllowed = (method: string, path: string, allow: string[]): ApiError =>
	new ApiError(405, `Method ${method} is not allowed on ${shortPath(path)}`, {
		context: { allow },
		headers: { Allow: allow.join(', ') },
	});
