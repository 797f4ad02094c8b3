import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { decodeServiceMessage, isRedirect, printable, redirectTarget } from '../transport/errors';

/**
 * The credential tests. Each sends one request that costs 1 point and changes nothing, and
 * tells apart what a user can get wrong: an address that is not the service (another server,
 * n8n itself, a web page: HTML or a body that is not the service's), a key or token the service
 * refuses, a plan without API access, a used-up point budget (with what remains and when it
 * resets), an address nothing answers at. A working credential reports the budget as well.
 */

interface Answer {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

const notTheService = (field: string) =>
	`The ${field} does not point at the service: use the address of the Calendar and Task Service, without /v3 or /v1`;

async function send(
	context: ICredentialTestFunctions,
	options: { method: 'GET' | 'POST'; uri: string; qs?: IDataObject; body?: IDataObject; authorization: string },
): Promise<Answer | INodeCredentialTestResult> {
	try {
		return (await context.helpers.request({
			method: options.method,
			uri: options.uri,
			qs: options.qs,
			body: options.body,
			headers: { Authorization: options.authorization, Accept: 'application/json' },
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			// n8n would send the Authorization header on to wherever a redirect points.
			followRedirect: false,
			followAllRedirects: false,
		})) as Answer;
	} catch (error) {
		const code = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
		return { status: 'Error', message: `Could not reach the service at this address (${code ?? 'no answer'}): check the URL and that n8n can reach it` };
	}
}

/** The service's error body (`message` and `errorRef`, on every error it raises), if the answer is one. */
function serviceErrorBody(body: unknown): { message: string; errorRef: string } | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const { message, errorRef } = body as IDataObject;
	return typeof errorRef === 'string' ? { message: printable(decodeServiceMessage(message)), errorRef: printable(errorRef, 100) } : undefined;
}

/** "299 of 300 points left; the budget resets in 14 min", from the rate-limit headers. */
function budgetText(headers: IDataObject): string | undefined {
	const limit = Number(headers['ratelimit-limit']);
	const remaining = Number(headers['ratelimit-remaining']);
	const reset = Number(headers['ratelimit-reset'] ?? headers['retry-after']);
	if (!Number.isFinite(remaining) || !Number.isFinite(limit)) {
		return Number.isFinite(reset) ? `the budget resets in ${duration(reset)}` : undefined;
	}
	const resets = Number.isFinite(reset) ? `; the budget resets in ${duration(reset)}` : '';
	return `${remaining} of ${limit} points left${resets}`;
}

function duration(seconds: number): string {
	return seconds < 90 ? `${Math.max(1, Math.round(seconds))} s` : `${Math.round(seconds / 60)} min`;
}

/** What an answer means for a credential; `expected` says whether it is the answer a valid one gets. */
function verdict(
	answer: Answer,
	field: string,
	expected: (answer: Answer) => boolean,
	refused: { 401: string; 403: string },
): INodeCredentialTestResult {
	if (isRedirect(answer.statusCode)) {
		const target = redirectTarget(answer.headers);
		return {
			status: 'Error',
			message: `${notTheService(field)} (it answered HTTP ${answer.statusCode}, a redirect${target ? ` to ${target}` : ''}; the credential was not sent there. If the service moved, enter its new address)`,
		};
	}
	const contentType = String(answer.headers['content-type'] ?? '');
	if (!contentType.includes('json') || typeof answer.body === 'string') {
		return { status: 'Error', message: `${notTheService(field)} (it answered HTTP ${answer.statusCode} with ${printable(contentType.split(';')[0], 100) || 'no content type'})` };
	}
	const budget = budgetText(answer.headers);
	if (expected(answer)) return { status: 'OK', message: `Connection successful${budget ? `: ${budget}` : ''}` };
	const error = serviceErrorBody(answer.body);
	if (!error) return { status: 'Error', message: `${notTheService(field)} (its answer, HTTP ${answer.statusCode}, is not the service's)` };
	// The test paths exist on the service: a 404 means the address carries a path of its own.
	if (answer.statusCode === 404) return { status: 'Error', message: `${notTheService(field)} (HTTP 404: ${error.message})` };
	if (answer.statusCode === 401) return { status: 'Error', message: refused[401] };
	if (answer.statusCode === 403) return { status: 'Error', message: refused[403] };
	if (answer.statusCode === 429) {
		return { status: 'Error', message: `The credential works, but the point budget is used up${budget ? `: ${budget}` : ''}. Test again after it resets.` };
	}
	return { status: 'Error', message: `The service answered HTTP ${answer.statusCode}: ${error.message} (errorRef ${error.errorRef})` };
}

/** Whether requests to this address would carry the credential unencrypted over a network: http:// to a host that is not this machine. */
function inClearOverNetwork(url: string): boolean {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return false;
	}
	if (parsed.protocol !== 'http:') return false;
	const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return !(host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1');
}

/** The test's answer for an address that would carry the credential in clear text, sent nowhere. */
function clearTextRefusal(field: string, secret: string): INodeCredentialTestResult {
	return {
		status: 'Error',
		message: `${field}: http:// to another machine would send the ${secret} unencrypted, so the test does not send it. Use the service's https:// address (http:// is for a service on this machine only)`,
	};
}

function address(data: ICredentialDataDecryptedObject | undefined, key: string): string {
	return String(data?.[key] ?? '').trim().replace(/\/+$/, '');
}

/**
 * CTS API (v3): reads a task by an ID that cannot exist. A valid key gets 200 with the task
 * envelope (`{ data: { task: null } }`).
 */
export async function ctsApiTest(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
	const baseUrl = address(credential.data, 'baseUrl');
	if (!/^https?:\/\//i.test(baseUrl)) return { status: 'Error', message: 'Base URL: enter the address of the service, e.g. https://api.example.com' };
	if (inClearOverNetwork(baseUrl)) return clearTextRefusal('Base URL', 'API key');
	const answer = await send(this, {
		method: 'GET',
		uri: `${baseUrl}/v3/tasks`,
		qs: { id: 'n8n-credential-test' },
		authorization: `ApiKey ${String(credential.data?.apiKey ?? '')}`,
	});
	if ('status' in answer) return answer;
	return verdict(
		answer,
		'Base URL',
		({ statusCode, body }) => statusCode === 200 && typeof body === 'object' && body !== null && 'task' in (((body as IDataObject).data as IDataObject | undefined) ?? {}),
		{ 401: 'Invalid API key: the service did not accept it', 403: 'The API key is valid, but its plan lacks API access' },
	);
}

/**
 * CTS Sync API (v1): the v1 interface has no read that costs 1 point, so the test sends an
 * update that names no event. The service checks the token first, then refuses the update with
 * 400 and its error body: nothing changes, it costs 1 point.
 */
export async function ctsSyncApiTest(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
	const syncUrl = address(credential.data, 'syncUrl');
	if (!/^https?:\/\//i.test(syncUrl)) return { status: 'Error', message: 'Sync URL: enter the address of the v1 interface, e.g. https://sync.example.com' };
	if (inClearOverNetwork(syncUrl)) return clearTextRefusal('Sync URL', 'token');
	const answer = await send(this, {
		method: 'POST',
		uri: `${syncUrl}/v1/events/update`,
		body: {},
		authorization: `Bearer ${String(credential.data?.token ?? '')}`,
	});
	if ('status' in answer) return answer;
	return verdict(answer, 'Sync URL', ({ statusCode, body }) => statusCode === 400 && serviceErrorBody(body) !== undefined, {
		401: 'Invalid or expired token: the service did not accept it',
		403: 'The token is valid, but its plan lacks API access',
	});
}
