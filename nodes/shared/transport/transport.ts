import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecuteFunctions,
	type IExecutePaginationFunctions,
	type IN8nRequestOperations,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type INodeProperties,
	type IPollFunctions,
	type NodeApiError,
} from 'n8n-workflow';

import { callKind, describeBudget, describeCosts } from '../pacing/costModel';
import { BudgetExhausted, budgetOf, pause, type Spender, type Ticket } from '../pacing/pointBudget';
import { credentialUserKey, type CredentialType, type ServiceContext } from './credentialUser';
import { isNetworkError, isRedirect, isServiceErrorBody, isToolNode, notTheServiceError, redirectError, serviceError, serviceStatus, toNodeError } from './errors';
import { pairedOutput } from './itemOperation';
import { itemState } from './itemState';
import { checkRequestSize, type OutgoingRequest } from './requestSize';
import { optionsCollection } from '../fields/fields';

export type { CredentialType } from './credentialUser';

/**
 * The transport layer: every request to the service, routed (declarative operations) or direct
 * (operations that take several requests per item, read-backs, trigger polls, dropdowns), goes
 * through {@link throughTransport}:
 *
 * 1. the point budget of the credential's user ({@link PointBudget}): the request waits its turn
 *    and until the budget holds its points, and teaches the budget what the answer says of it;
 * 2. retries: a 429 means nothing was processed, so the request goes back to the head of the
 *    queue until `Retry-After` has passed; reads are also retried after a 5xx or a network
 *    failure, writes are not (the service may have applied them);
 * 3. errors: the service's message, status and `errorRef`, never the request or its credential.
 */

/**
 * What every request to the service is sent with (the nodes' `requestDefaults` and direct
 * requests alike). Redirects are never followed: n8n would send the Authorization header on to
 * the next address, even another host, so a 3xx answer is an error instead (see {@link answerError}).
 */
export const SERVICE_REQUEST_DEFAULTS = {
	headers: { Accept: 'application/json' },
	json: true,
	ignoreHttpStatusErrors: true,
	disableFollowRedirect: true,
};

/** The credential field that holds the address each credential type sends its requests to. */
const ADDRESS_FIELD: Record<CredentialType, string> = { ctsApi: 'Base URL', ctsSyncApi: 'Sync URL' };

/** The error for an answer that is not a success (2xx), or undefined for a success. */
function answerError(
	context: ServiceContext,
	response: IN8nHttpFullResponse,
	credentialType: CredentialType,
	itemIndex?: number,
	resource?: string,
	refInMessage?: boolean,
): NodeApiError | undefined {
	if (isRedirect(response.statusCode)) return redirectError(context.getNode(), response, ADDRESS_FIELD[credentialType], itemIndex);
	if (response.statusCode === 404 && !isServiceErrorBody(response.body)) return notTheServiceError(context.getNode(), response, ADDRESS_FIELD[credentialType], itemIndex);
	if (response.statusCode >= 400) return serviceError(context.getNode(), response, itemIndex, resource, refInMessage);
	return undefined;
}

/** The default for how long a request may wait for the point budget to refill: one whole window. */
const DEFAULT_MAX_WAIT_SECONDS = 900;
/**
 * The default when the node is a tool of an AI agent or an MCP server: an answer well before
 * the caller gives up (MCP clients commonly wait 60 s), so a call never writes after the agent
 * has moved on or retried.
 */
const TOOL_MAX_WAIT_SECONDS = 20;
/** Dropdowns and the credential test wait less: someone is looking at the editor. */
const EDITOR_MAX_WAIT_MS = 15_000;
/**
 * A run started from the editor (Execute step or workflow, Fetch Test Event) waits for the budget
 * at most this long unless the node's Maximum Wait is set: n8n shows no progress while a node
 * runs, so a longer wait would look like a hang. It fails at once instead, saying when the budget
 * resets (see {@link budgetError}).
 */
export const EDITOR_RUN_MAX_WAIT_SECONDS = 5;
/** Waits before retrying a read after a 5xx or a network failure. */
const READ_RETRY_DELAYS_MS = [250, 1000, 3000];

/**
 * The longest wait for the point budget, an option of every action node operation (the last
 * entry of its Options collection, beside the operation's own options).
 */
export const maxWaitOption: INodeProperties = {
	displayName: 'Maximum Wait (Seconds)',
	name: 'maxWaitSeconds',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_MAX_WAIT_SECONDS,
	description:
		"How long a request may wait for the account's point budget to refill when it is used up; requests are sent at the budget's pace. The default covers a whole 15-minute window; 0 fails at once. When the node is a tool of an AI agent or MCP server, the default is 20 seconds, so the agent gets an answer before it gives up.",
};

/** The Options collection of operations whose only option is {@link maxWaitOption}. */
export function maxWaitOnlyOptions(displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return optionsCollection([maxWaitOption], displayOptions);
}

const endOfExecution = new WeakMap<object, AbortSignal>();

/**
 * The signal that the execution was stopped. n8n hands it to a node's `execute` context, but runs
 * declarative operations without it (WorkflowExecute.executeDeclarativeNodeInTest, in 1.x and
 * 2.x alike). For those it comes from the hook n8n runs when an execution ends, which it also
 * runs at once when the execution is stopped: a wait ends with the execution, never after it.
 * n8n internals (no public API), read from n8n-core 1.123.81 and 2.41.1: the item context's
 * `additionalData.hooks.addHandler('workflowExecuteAfter', …)` (test/shared/n8nInternals.test.ts).
 */
export function executionCancelSignal(context: IExecuteFunctions | IExecuteSingleFunctions): AbortSignal | undefined {
	const signal = context.getExecutionCancelSignal();
	if (signal) return signal;
	const hooks = (context as unknown as { additionalData?: { hooks?: { addHandler?: (name: string, handler: () => void) => void } } })
		.additionalData?.hooks;
	if (typeof hooks?.addHandler !== 'function') return undefined;
	let ended = endOfExecution.get(hooks);
	if (!ended) {
		const controller = new AbortController();
		hooks.addHandler('workflowExecuteAfter', () => controller.abort());
		ended = controller.signal;
		endOfExecution.set(hooks, ended);
	}
	return ended;
}

/** Whether the node runs as a tool of an AI agent or MCP server (see {@link isToolNode}). */
function isTool(context: ServiceContext): boolean {
	return isToolNode(context.getNode());
}

/** How a request waits for the budget: a {@link Spender}, and whether the wait was shortened because the run was started from the editor. */
type WaitingRules = Spender & { editorRun?: boolean };

/**
 * Whether the run was started from the editor (n8n's `manual` mode: Execute step or workflow,
 * Fetch Test Event), not by a published workflow (`trigger`, `webhook`), another workflow or an
 * AI agent or MCP server calling the node as a tool.
 */
function startedFromEditor(context: ServiceContext | IPollFunctions): boolean {
	return 'getMode' in context && typeof context.getMode === 'function' && context.getMode() === 'manual' && !isTool(context);
}

/**
 * The one rule for waits nobody would see: a run started from the editor waits at most
 * {@link EDITOR_RUN_MAX_WAIT_SECONDS} for the budget, unless the user set how long it may wait
 * (`chosenWaitMs`, the node's Maximum Wait). Published workflows, tools and the jobs they run keep
 * `rules` as they are.
 */
function waitSeenInEditor(context: ServiceContext | IPollFunctions, rules: Spender, chosenWaitMs?: number): WaitingRules {
	if (chosenWaitMs !== undefined || !startedFromEditor(context) || rules.maxWaitMs <= EDITOR_RUN_MAX_WAIT_SECONDS * 1000) return rules;
	return {
		job: rules.job,
		maxWaitMs: EDITOR_RUN_MAX_WAIT_SECONDS * 1000,
		signal: rules.signal,
		spent: rules.spent && ((cost) => rules.spent?.(cost)),
		editorRun: true,
	};
}

/**
 * Who sends a request that names no spender, and how long it may wait: an execution (its
 * Maximum Wait), or the editor (dropdowns and the credential test).
 */
function waitingRules(context: ServiceContext, itemIndex?: number): WaitingRules {
	// Dropdowns and the credential test; a trigger's own reads outside its paced polls (the calendar list).
	if (!('getExecutionCancelSignal' in context)) return waitSeenInEditor(context, { job: 'editor', maxWaitMs: EDITOR_MAX_WAIT_MS });
	const fallback = isTool(context) ? TOOL_MAX_WAIT_SECONDS : DEFAULT_MAX_WAIT_SECONDS;
	// The whole Options collection: a Maximum Wait the user did not set is absent from it.
	const options = ('getItemIndex' in context ? context.getNodeParameter('options', {}) : context.getNodeParameter('options', itemIndex ?? 0, {})) as IDataObject;
	const seconds = options?.maxWaitSeconds;
	const chosen = seconds === undefined || seconds === null || seconds === '' ? undefined : Number(seconds);
	const maxWaitSeconds = chosen !== undefined && Number.isFinite(chosen) && chosen >= 0 ? chosen : undefined;
	const rules = {
		job: `execution:${context.getExecutionId()}`,
		maxWaitMs: (maxWaitSeconds ?? fallback) * 1000,
		signal: executionCancelSignal(context),
	};
	return waitSeenInEditor(context, rules, maxWaitSeconds === undefined ? undefined : maxWaitSeconds * 1000);
}

/**
 * Sends one request through the layer: `attempt` sends it once and calls `learn` with the
 * answer's headers as soon as the answer is there (whatever its status). Resolves to what
 * `attempt` resolves to.
 */
async function throughTransport<T>(
	context: ServiceContext,
	credentialType: CredentialType,
	request: OutgoingRequest,
	attempt: (learn: (headers: IDataObject | undefined) => void) => Promise<T>,
	itemIndex?: number,
	spender?: Spender,
): Promise<T> {
	checkRequestSize(context, request, itemIndex);
	const budget = budgetOf(await credentialUserKey(context, credentialType));
	const rules = spender ? waitSeenInEditor(context, spender) : waitingRules(context, itemIndex);
	const isRead = (request.method ?? 'GET') === 'GET';
	const kind = callKind(request.url);
	let refused = false;
	/** The service's answer when it refused this request (429): its words belong in the error if the wait for the budget gives up. */
	let refusal: NodeApiError | undefined;
	let readRetries = 0;
	let resentUnread = false;
	for (;;) {
		let ticket: Ticket;
		try {
			ticket = await budget.take({ job: rules.job, maxWaitMs: rules.maxWaitMs, signal: rules.signal, kind }, refused);
		} catch (error) {
			throw error instanceof BudgetExhausted ? budgetError(context, error, itemIndex, rules.editorRun, refusal) : toNodeError(context.getNode(), error, itemIndex);
		}
		rules.spent?.(ticket.cost);
		let failure: NodeApiError | NodeOperationError;
		try {
			return await attempt((headers) => budget.answered(ticket, headers));
		} catch (error) {
			failure = toNodeError(context.getNode(), error, itemIndex);
		} finally {
			budget.settle(ticket);
		}
		const status = serviceStatus(failure);
		refused = status === 429;
		if (refused) {
			refusal = failure as NodeApiError;
			budget.refused(Number(failure.context.retryAfterSeconds ?? 1));
			continue;
		}
		// 408: the server timed the connection out before it read the request (a kept-alive
		// connection it had let go), so sending it once more cannot write twice, whatever the method.
		if (status === 408 && !resentUnread) {
			resentUnread = true;
			continue;
		}
		const transient = isNetworkError(failure) || (status !== undefined && status >= 500);
		if (!isRead || !transient || readRetries >= READ_RETRY_DELAYS_MS.length) throw failure;
		await pause(READ_RETRY_DELAYS_MS[readRetries++], rules.signal);
	}
}

/**
 * The error of a request that could not wait for the budget: what the job needs, the budget and
 * reset the service reported, and, when the service refused the request (429), its own message
 * and `errorRef`.
 */
function budgetError(context: ServiceContext | IPollFunctions, exhausted: BudgetExhausted, itemIndex?: number, editorRun = false, refusal?: NodeApiError): NodeOperationError {
	const { budget } = exhausted;
	const told = describeBudget(budget);
	const needed = `This run still needed ${exhausted.neededPoints} ${exhausted.neededPoints === 1 ? 'point' : 'points'} for ${exhausted.waitingRequests} waiting ${exhausted.waitingRequests === 1 ? 'request' : 'requests'}`;
	const error = new NodeOperationError(context.getNode(), `Rate limit: the account's point budget is used up${told ? ` (${told})` : ''}`, {
		itemIndex,
		description: isTool(context)
			? `Nothing was sent: call again after the reset. As a tool the node waits for the budget at most ${TOOL_MAX_WAIT_SECONDS} s by default (Options → Maximum Wait), so the caller gets an answer before it gives up.`
			: editorRun
				? `${needed}. Run from the editor, the node does not wait for the budget longer than ${EDITOR_RUN_MAX_WAIT_SECONDS} s, since the editor shows no progress meanwhile. ${
						'getItemIndex' in context || 'getInputData' in context
							? `To let it wait, set Options → Maximum Wait (Seconds), or publish the workflow (published, it waits up to ${DEFAULT_MAX_WAIT_SECONDS} s by default)`
							: 'Publish the workflow to let the trigger check at the pace the budget allows'
					}; or run it again after the reset.`
				: `${needed}. The node waits for the budget to refill only as long as Options → Maximum Wait allows: raise it (the default, 900 s, covers a whole window), or spread the work out; ${describeCosts(budget.listCost, budget.callCost)}.`,
	});
	const refusalMessage = refusal?.context.serviceMessage;
	if (refusalMessage) {
		const ref = refusal.context.errorRef ? ` (errorRef ${String(refusal.context.errorRef)})` : '';
		error.description = `${error.description} The service answered: ${String(refusalMessage)}${ref}`;
	}
	const resetAt = budget.resetAt === undefined ? undefined : new Date(budget.resetAt).toISOString();
	error.context.budget = { neededPoints: exhausted.neededPoints, remaining: budget.remaining, limit: budget.limit, resetAt };
	return error;
}

/** Raises the error of a non-2xx answer, after the budget learnt from it (requests are sent with `ignoreHttpStatusErrors`). */
async function throwOnServiceError(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	itemState(this).learnFromAnswer?.(response.headers);
	// A success reads no parameters: this runs once per item.
	if (response.statusCode >= 200 && response.statusCode < 300) return items;
	const resource = this.getNodeParameter('resource', '') as string;
	const error = answerError(this, response, credentialTypeOf(this), this.getItemIndex(), resource, this.continueOnFail());
	if (error) throw error;
	return items;
}

/**
 * Runs one item's routed request through the transport layer, with the answer checked for a
 * service error before any of the operation's own output handling. `send` sends it once (by
 * default as RoutingNode would). Under "Continue On Fail" one error item replaces the failed
 * input item; every output item is paired with its input item.
 */
export async function runItemRequest(
	context: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	send: () => Promise<INodeExecutionData[]> = async () => await context.makeRoutingRequest(requestData),
): Promise<INodeExecutionData[]> {
	// n8n internals, read from n8n-core 1.123.81 and 2.41.1: RoutingNode post-processes every answer
	// of makeRoutingRequest with this same requestData (test/shared/n8nInternals.test.ts).
	if (!requestData.postReceive.includes(SERVICE_ERROR_CHECK)) requestData.postReceive.unshift(SERVICE_ERROR_CHECK);
	const { url = '', method, qs, body } = requestData.options;
	const itemIndex = context.getItemIndex();
	return await pairedOutput(context, itemIndex, async () =>
		await throughTransport(
			context,
			credentialTypeOf(context),
			{ url, method, qs, body },
			async (learn) => {
				itemState(context).learnFromAnswer = learn;
				return await send();
			},
			itemIndex,
		),
	);
}

/** The answer check every routed request runs first (see {@link throwOnServiceError}). */
const SERVICE_ERROR_CHECK = { data: { parameterValue: undefined }, actions: [throwOnServiceError] };

/** The credential a node's routed requests use: the V1 event node's bearer token, else the API key. */
function credentialTypeOf(context: IExecuteSingleFunctions): CredentialType {
	return context.getNodeParameter('apiVersion', 'v3') === 'v1' ? 'ctsSyncApi' : 'ctsApi';
}

/** How RoutingNode sends a routed request: once, through the transport layer (see {@link runItemRequest}). */
export async function sendRequest(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	return await runItemRequest(this, requestData);
}

/**
 * Where routed requests enter the transport layer: each declarative node's `requestOperations`,
 * beside its `requestDefaults`. RoutingNode (n8n 1.123 and 2.41 alike) copies them onto every
 * item's request before any property's routing, and calls `pagination` in place of sending the
 * request whenever the request is marked `paginate` (see {@link SEND_THROUGH_TRANSPORT}). An
 * operation that sets its own `pagination` sends through the same layer: Event Delete and the
 * time guard through {@link runItemRequest}, operations that take several requests per item
 * through `ctsRequest` (see `multiRequestRouting`).
 */
export const SERVICE_REQUEST_OPERATIONS: IN8nRequestOperations = { pagination: sendRequest };

/**
 * The routing of each node's Resource property (shown for every operation): marks every routed
 * request `paginate`, so RoutingNode hands it to {@link SERVICE_REQUEST_OPERATIONS}. RoutingNode
 * keeps the first `paginate` a property sets and nothing sets it false, so where the property is
 * listed does not matter.
 */
export const SEND_THROUGH_TRANSPORT: NonNullable<INodeProperties['routing']> = { send: { paginate: true } };

/**
 * A request outside the declarative routing (trigger polls, operations that take several
 * requests per item, read-backs, dropdowns) through the transport layer; the credential also
 * supplies the base URL.
 * Resolves to the whole answer.
 */
export async function ctsResponse(
	this: IPollFunctions | ServiceContext,
	credentialType: CredentialType,
	options: Omit<IHttpRequestOptions, 'baseURL'>,
	itemIndex = 'getItemIndex' in this ? this.getItemIndex() : undefined,
	spender?: Spender,
): Promise<IN8nHttpFullResponse> {
	const request: IHttpRequestOptions = {
		...options,
		...SERVICE_REQUEST_DEFAULTS,
		headers: { ...SERVICE_REQUEST_DEFAULTS.headers, ...(options.headers ?? {}) },
		returnFullResponse: true,
	};
	return await throughTransport(
		this,
		credentialType,
		options,
		async (learn) => {
			const answer = (await this.helpers.httpRequestWithAuthentication.call(this, credentialType, request)) as IN8nHttpFullResponse;
			learn(answer.headers);
			const error = answerError(this, answer, credentialType, itemIndex);
			if (error) throw error;
			return answer;
		},
		itemIndex,
		spender,
	);
}

/**
 * The service's clock when it answered: its `Date` header (whole seconds). Undefined when the
 * header is missing, e.g. removed by a proxy.
 */
export function answeredAt(response: IN8nHttpFullResponse): number | undefined {
	const time = Date.parse(String(response.headers?.date ?? ''));
	return Number.isFinite(time) ? time : undefined;
}

/** {@link ctsResponse}, resolving to the parsed body. */
export async function ctsRequest(
	this: ServiceContext,
	credentialType: CredentialType,
	options: Omit<IHttpRequestOptions, 'baseURL'>,
	itemIndex = 'getItemIndex' in this ? this.getItemIndex() : undefined,
	spender?: Spender,
): Promise<IDataObject> {
	const response = await ctsResponse.call(this, credentialType, options, itemIndex, spender);
	return (response.body ?? {}) as IDataObject;
}
