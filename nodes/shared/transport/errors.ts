import {
	jsonParse,
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IN8nHttpFullResponse,
	type INode,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { describeBudget } from '../pacing/costModel';
import { withEditorLabels } from './serviceWording';

export { fieldLabel, withEditorLabels } from './serviceWording';

/** Characters that would break a message or a log line: C0 and C1 controls, line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** How long a value repeated in a message may be before it is cut. */
const SHOWN_VALUE_MAX = 120;

/**
 * Text from outside (a user's ID, the service's message) as a message may show it: control
 * characters escaped, so a value can never start a new log line, and a long value cut with its
 * length given.
 */
export function printable(text: string, max = 500): string {
	const escaped = text.replace(UNPRINTABLE, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
	return escaped.length > max ? `${escaped.slice(0, max)}… (${text.length} characters)` : escaped;
}

/** A value the user gave, quoted for a message: `"abc"`, escaped and cut (see {@link printable}). */
export function quoted(value: unknown, max = SHOWN_VALUE_MAX): string {
	return `"${printable(typeof value === 'string' ? value : String(value ?? ''), max)}"`;
}

/** The error body every endpoint of the service shares. */
interface ServiceErrorBody {
	message?: unknown;
	status?: unknown;
	errorRef?: unknown;
	context?: unknown;
}

/**
 * The service's `message` is a JSON-encoded list of field messages on validation failures
 * (`["title must be longer than or equal to 1 characters"]`): turn it into readable text.
 */
export function decodeServiceMessage(message: unknown): string {
	if (typeof message !== 'string') return '';
	const trimmed = message.trim();
	if (!trimmed.startsWith('[')) return trimmed;
	const parsed = jsonParse<unknown>(trimmed, { fallbackValue: undefined });
	if (Array.isArray(parsed) && parsed.length > 0) {
		return parsed.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry))).join('; ');
	}
	return trimmed;
}

const STATUS_HEADLINES: Record<number, string> = {
	400: 'The service rejected the request',
	401: 'Authentication failed',
	403: 'Access denied',
	404: 'Not found',
	413: 'The request is too large',
	429: 'Rate limit exceeded',
};

const STATUS_HINTS: Record<number, string> = {
	401: 'The service did not accept the credential: check the API key (CTS API) or the bearer token (CTS Sync API), and that it has not expired.',
};

/** What a 429 means, with the budget and reset its answer reported. */
function rateLimitHint(headers: IDataObject): string {
	const limit = Number(headers['ratelimit-limit']);
	const reset = Number(headers['ratelimit-reset']);
	const told = Number.isFinite(limit) && limit > 0 ? describeBudget({ limit, resetAt: Number.isFinite(reset) ? Date.now() + reset * 1000 : undefined }) : '';
	return `The point budget of the account is used up${told ? ` (${told})` : ''}. Wait until it resets or spread the work out.`;
}

/** A 401 or 403 about the calendar connection of one account: the credential itself is fine. */
const CONNECTION_HINT =
	'The credential works; the connection between the service and this calendar account has expired or was revoked. Reconnect the account in the service, then run the workflow again.';

/** What a 403 means, by the service's reason: each cause has its own next step. */
function accessDeniedHint(message: string): string {
	if (/read-only|may not write|cannot be created, changed or deleted/i.test(message)) {
		return 'Choose a calendar you can write to (Calendar → Get Many shows "writable" for each).';
	}
	if (/answering invitations|mayRSVP/i.test(message)) return 'Invitations cannot be answered in this calendar: answer them in a calendar that allows it.';
	if (/plan|API access/i.test(message)) return 'The credential is valid, but its plan lacks API access: the account needs a plan that includes it.';
	return 'The service refused this request for this credential: check that the account may do it.';
}

/** Where the ID of a thing that was not found comes from, by resource. */
const NOT_FOUND_HINTS: Record<string, string> = {
	event:
		'Check the Event ID: it is the "id" an event operation or the trigger returned (not the calendarId, uid or masterEventId). A deleted or cancelled event is not found either.',
	task: 'Check the Task ID: it is the "id" a task operation or the trigger returned. Completed and deleted tasks can still be read by ID.',
	tag: 'Check the Tag ID: choose the tag from the list, or use the "id" Tag → Get Many returned.',
};

function isConnectionProblem(status: number, message: string, context: unknown): boolean {
	if (status !== 401 && status !== 403) return false;
	const connection = context && typeof context === 'object' ? (context as IDataObject).connection : undefined;
	return connection !== undefined || /calendar connection/i.test(message);
}

function headline(status: number, resource?: string): string {
	if (status === 404 && resource) return `${resource.charAt(0).toUpperCase()}${resource.slice(1)} not found`;
	if (STATUS_HEADLINES[status]) return STATUS_HEADLINES[status];
	if (status >= 500) return 'The service failed';
	return `The service answered HTTP ${status}`;
}

function retryAfterSeconds(headers: IDataObject): number | undefined {
	const value = Number(headers['retry-after']);
	return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Turns an error response of the service into an n8n error: the service's message (decoded),
 * the HTTP status and the `errorRef` to quote when asking the service's support. Built from the
 * response body alone, so the request (and its credential) never ends up in the error.
 */
export function serviceError(
	node: INode,
	response: Pick<IN8nHttpFullResponse, 'statusCode' | 'headers' | 'body'>,
	itemIndex?: number,
	resource?: string,
	refInMessage = false,
): NodeApiError {
	const status = response.statusCode;
	const body: ServiceErrorBody =
		response.body && typeof response.body === 'object' && !Buffer.isBuffer(response.body)
			? (response.body as ServiceErrorBody)
			: { message: typeof response.body === 'string' ? response.body.slice(0, 500) : undefined };
	const serviceMessage = printable(withEditorLabels(decodeServiceMessage(body.message)));
	const errorRef = typeof body.errorRef === 'string' ? body.errorRef : undefined;
	const retryAfter = status === 429 ? retryAfterSeconds(response.headers ?? {}) : undefined;

	const details = [`HTTP ${status}`];
	if (errorRef) details.push(`errorRef ${errorRef}`);
	if (retryAfter !== undefined) details.push(`retry after ${retryAfter} s`);
	const hint = isConnectionProblem(status, serviceMessage, body.context)
		? CONNECTION_HINT
		: status === 403
			? accessDeniedHint(serviceMessage)
			: status === 404 && resource && NOT_FOUND_HINTS[resource]
				? NOT_FOUND_HINTS[resource]
				: status === 429
					? rateLimitHint(response.headers ?? {})
					: (STATUS_HINTS[status] ?? (status >= 500 ? 'This is usually temporary: try again later.' : ''));
	const description = [details.join(' · '), hint].filter(Boolean).join('. ');

	// The errorRef is shown once, in the description. Under "Continue On Fail" n8n keeps only the
	// message in the output item, so there the message carries it (`refInMessage`, see errorItem).
	// A service message that only repeats the headline ("Event not found: Event not found") is left out.
	const title = headline(status, resource);
	const text = serviceMessage && serviceMessage.toLowerCase() !== title.toLowerCase() ? `${title}: ${serviceMessage}` : title;
	const error = new NodeApiError(node, { ...body } as JsonObject, {
		message: refInMessage && errorRef ? `${text} (errorRef ${errorRef})` : text,
		description,
		httpCode: String(status),
		itemIndex,
		failure:
			status === 429
				? { cause: 'rate-limited', retryAfterMs: retryAfter === undefined ? undefined : retryAfter * 1000 }
				: status >= 500
					? { cause: 'temporarily-unavailable' }
					: status === 401
						? { cause: 'credential-invalid' }
						: undefined,
	});
	error.context.httpStatus = status;
	if (errorRef) error.context.errorRef = errorRef;
	if (retryAfter !== undefined) error.context.retryAfterSeconds = retryAfter;
	// A 429 usually ends in the wait for the budget: that error quotes the service's own words.
	if (status === 429 && serviceMessage) error.context.serviceMessage = serviceMessage;
	if (body.context !== undefined) error.context.serviceContext = body.context;
	return error;
}

/** Whether an answer's body is the service's error body (every error it raises carries an `errorRef`). */
export function isServiceErrorBody(body: unknown): boolean {
	return !!body && typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as IDataObject).errorRef === 'string';
}

/**
 * The error for a 404 that is not the service's (an HTML page, another server's JSON): the
 * address in the credential points elsewhere, e.g. at n8n itself.
 */
export function notTheServiceError(
	node: INode,
	response: Pick<IN8nHttpFullResponse, 'statusCode' | 'headers'>,
	addressField: string,
	itemIndex?: number,
): NodeApiError {
	const contentType = printable(String(response.headers?.['content-type'] ?? 'no content type').split(';')[0], 100);
	const message = `The ${addressField} does not point at the service: it answered HTTP ${response.statusCode} with ${contentType}, not the service's answer`;
	const error = new NodeApiError(node, { message }, {
		message,
		description: `Enter the address of the Calendar and Task Service as the credential's ${addressField}, without /v3 or /v1.`,
		httpCode: String(response.statusCode),
		itemIndex,
	});
	// No httpStatus: nothing may take this 404 for the service's "not found" (an event already deleted, a list an older deployment lacks).
	error.context.notTheService = true;
	return error;
}

/** A 3xx answer. The nodes never follow one: the next address would receive the credential. */
export function isRedirect(status: number): boolean {
	return status >= 300 && status < 400;
}

/** Where a redirect points, without its query string or fragment (they may carry tokens), escaped. */
export function redirectTarget(headers: IDataObject | undefined): string | undefined {
	const location = headers?.location;
	if (typeof location !== 'string' || location === '') return undefined;
	return printable(location.replace(/[?#].*$/s, ''), 200);
}

/**
 * The error for a 3xx answer: the address in the credential (`addressField`, "Base URL" or
 * "Sync URL") is not the service's, or the service moved. Nothing was sent on.
 */
export function redirectError(
	node: INode,
	response: Pick<IN8nHttpFullResponse, 'statusCode' | 'headers'>,
	addressField: string,
	itemIndex?: number,
): NodeApiError {
	const status = response.statusCode;
	const target = redirectTarget(response.headers);
	const message = `The ${addressField} does not point at the service: it answered HTTP ${status}, a redirect${target ? ` to ${target}` : ''}`;
	const error = new NodeApiError(node, { message }, {
		message,
		description: `Requests carry the credential, so they never follow a redirect. If the service moved, enter its new address as the credential's ${addressField}; otherwise enter the address of the Calendar and Task Service, without /v3 or /v1.`,
		httpCode: String(status),
		itemIndex,
	});
	error.context.httpStatus = status;
	return error;
}

/** HTTP status of an error raised by {@link serviceError}, if it is one. */
export function serviceStatus(error: unknown): number | undefined {
	const status = (error as NodeApiError | undefined)?.context?.httpStatus;
	return typeof status === 'number' ? status : undefined;
}

/**
 * A request that never got an answer (refused connection, timeout, DNS). Rebuilt from the
 * error code alone: the original error carries the request, credential header included.
 */
function networkError(node: INode, error: unknown, itemIndex?: number): NodeApiError {
	const source = error as { code?: string; cause?: { code?: string }; message?: string };
	const code = source?.cause?.code ?? source?.code ?? 'NETWORK_ERROR';
	// The code stays out of the message: n8n would replace a message naming it with its own text.
	const message = 'Could not reach the service';
	const result = new NodeApiError(node, { message }, {
		message,
		description: `${code}: check the Base URL or Sync URL of the credential and that the service is reachable from n8n.`,
		// No HTTP status: there was no answer. n8n shows an "Error code" row for any code given, even "none".
		itemIndex,
		failure: { cause: 'temporarily-unavailable' },
	});
	result.context.networkErrorCode = code;
	return result;
}

/**
 * Any error met while calling the service, as the n8n error to show: the package's own errors
 * pass through; an error with a socket code (refused, timed out, DNS) is a network failure,
 * rebuilt without the request; anything else keeps only its message.
 */
export function toNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (serviceStatus(error) !== undefined || isNetworkError(error)) return error as NodeApiError;
	if (error instanceof NodeOperationError) return error;
	const cause = (error as { cause?: { isAxiosError?: boolean; code?: string } })?.cause;
	if (error instanceof NodeApiError && !cause?.isAxiosError) return error;
	if (cause?.code ?? (error as { code?: string })?.code) return networkError(node, error, itemIndex);
	return new NodeOperationError(node, (error as Error)?.message ?? String(error), { itemIndex });
}

/**
 * A package error without an HTTP status, as a NodeApiError without one. n8n's RoutingNode passes a
 * NodeApiError on as it is, but re-wraps any other error with the error code "none", which the
 * editor would show under the message (read from n8n-core 1.123.81 and 2.41.1, RoutingNode.runNode).
 */
export function withoutErrorCode(node: INode, error: NodeApiError | NodeOperationError, itemIndex: number): NodeApiError {
	if (error instanceof NodeApiError) return error;
	const result = new NodeApiError(node, { message: error.message } as JsonObject, {
		message: error.message,
		description: error.description ?? '',
		itemIndex,
	});
	Object.assign(result.context, error.context);
	return result;
}

/** Whether an error is a request that failed before any answer arrived. */
export function isNetworkError(error: unknown): boolean {
	return typeof (error as NodeApiError)?.context?.networkErrorCode === 'string';
}

/** Advice in hints that only a person editing the workflow can follow: a tool's caller sends values, not expressions. */
export const EXPRESSION_ADVICE = ', or an expression such as {{ $now.plus({ days: 1 }) }}';

/** Whether the node runs as a tool of an AI agent or MCP server: n8n names a node's tool variant `<type>Tool`. */
export function isToolNode(node: INode): boolean {
	return node.type.endsWith('Tool');
}

/**
 * The argument a tool's caller gave for a field: the key of the `$fromAI` placeholder in the
 * parameter the field label names ("Start" → `start`, "Time Zone" → `timeZone`), if it has one.
 */
function toolArgumentFor(parameters: unknown, label: string): string | undefined {
	const wanted = label.replace(/\s+/g, '').toLowerCase();
	if (!parameters || typeof parameters !== 'object') return undefined;
	for (const [name, value] of Object.entries(parameters as IDataObject)) {
		// A "By ID" field keeps its value inside a resource locator.
		const text = typeof value === 'string' ? value : (value as IDataObject | null)?.value;
		if (name.toLowerCase() === wanted && typeof text === 'string') {
			const key = /\$fromAI\(\s*['"`]([\w-]+)['"`]/.exec(text)?.[1];
			if (key) return key;
		}
		const nested = typeof value === 'object' ? toolArgumentFor(value, label) : undefined;
		if (nested) return nested;
	}
	return undefined;
}

/**
 * An error raised by the node before any request, naming the field and what is wrong. As a tool,
 * it names the argument the caller sent for the field (`rangeStart`, not "Start") where it can.
 */
export function invalidField(
	node: INode,
	field: string,
	problem: string,
	itemIndex: number,
	description?: string,
): NodeApiError {
	const named = (isToolNode(node) && toolArgumentFor(node.parameters, field)) || field;
	const message = `${named}: ${problem}`;
	// A NodeApiError without an HTTP status: RoutingNode passes it on as it is, where it re-wraps any
	// other error with the error code "none", which the editor would show under the message.
	return new NodeApiError(node, { message } as JsonObject, {
		message,
		itemIndex,
		description: (isToolNode(node) ? description?.replace(EXPRESSION_ADVICE, '') : description) ?? '',
	});
}

/**
 * The output item that stands for a failed input item under "Continue On Fail". n8n keeps only
 * `{ error: message }` as its JSON (the description is not shown there), so the message carries
 * the service's errorRef, which its support asks for; the whole error stays on the item.
 */
export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const errorRef = error.context?.errorRef;
	const message = typeof errorRef === 'string' && !error.message.includes(errorRef) ? `${error.message} (errorRef ${errorRef})` : error.message;
	return { json: { error: message }, error, pairedItem: { item: itemIndex } };
}
