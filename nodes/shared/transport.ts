import {
	sleep,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecuteFunctions,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type INodeProperties,
	type IPollFunctions,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { errorItem, isNetworkError, serviceError, serviceStatus, toNodeError } from './errors';

/** A 429 asking for a longer wait than this fails at once with the service's message. */
export const RATE_LIMIT_MAX_WAIT_SECONDS = 60;
/** How often one request is retried after 429s before it fails. */
export const RATE_LIMIT_MAX_RETRIES = 30;
/** Waits before retrying a read after a 5xx or a network failure. */
const READ_RETRY_DELAYS_MS = [250, 1000, 3000];

export type CredentialType = 'ctsApi' | 'ctsSyncApi';

/**
 * Calls `send` until it succeeds or retrying is not safe. A 429 means the service processed
 * nothing, so any request is sent again after `Retry-After` (when that is short). Reads are
 * also retried after a 5xx or a network failure; writes are not, since the service may have
 * applied them.
 */
export async function withRetries<T>(
	send: () => Promise<T>,
	{ isRead, signal }: { isRead: boolean; signal?: AbortSignal },
): Promise<T> {
	let rateLimitRetries = 0;
	let readRetries = 0;
	for (;;) {
		let failure: NodeApiError | NodeOperationError;
		try {
			return await send();
		} catch (error) {
			failure = error as NodeApiError | NodeOperationError;
		}
		const status = serviceStatus(failure);
		let delayMs: number | undefined;
		if (status === 429) {
			const waitSeconds = Number(failure.context.retryAfterSeconds ?? 1);
			if (waitSeconds <= RATE_LIMIT_MAX_WAIT_SECONDS && rateLimitRetries < RATE_LIMIT_MAX_RETRIES) {
				rateLimitRetries++;
				delayMs = Math.max(waitSeconds * 1000, 100);
			}
		} else if (
			isRead &&
			(isNetworkError(failure) || (status !== undefined && status >= 500)) &&
			readRetries < READ_RETRY_DELAYS_MS.length
		) {
			delayMs = READ_RETRY_DELAYS_MS[readRetries++];
		}
		if (delayMs === undefined) throw failure;
		await sleep(delayMs, signal);
	}
}

/** Raises the service's error for a non-2xx answer (requests are sent with `ignoreHttpStatusErrors`). */
export async function throwOnServiceError(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	if (response.statusCode >= 400) {
		const resource = this.getNodeParameter('resource', '') as string;
		throw serviceError(this.getNode(), response, this.getItemIndex(), resource);
	}
	return items;
}

/**
 * Runs one item's request with the package's rules: retries (see {@link withRetries}), errors
 * mapped to the service's message and `errorRef`, and under "Continue On Fail" one error item
 * in place of the failed input item. Every output item is paired with its input item.
 */
export async function runItemRequest(
	context: IExecutePaginationFunctions,
	send: () => Promise<INodeExecutionData[]>,
	isRead: boolean,
): Promise<INodeExecutionData[]> {
	const itemIndex = context.getItemIndex();
	try {
		const items = await withRetries(
			async () => {
				try {
					return await send();
				} catch (error) {
					throw toNodeError(context.getNode(), error, itemIndex);
				}
			},
			{ isRead, signal: context.getExecutionCancelSignal() },
		);
		return items.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
	} catch (error) {
		const nodeError = toNodeError(context.getNode(), error, itemIndex);
		if (context.continueOnFail()) return [errorItem(nodeError, itemIndex)];
		throw nodeError;
	}
}

/**
 * Runs a custom operation item by item: each item's output paired with it, and under
 * "Continue On Fail" one error item in place of a failed input item.
 */
export async function forEachItem(
	context: IExecuteFunctions,
	run: (itemIndex: number) => Promise<IDataObject[]>,
): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	const items = context.getInputData();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			for (const json of await run(itemIndex)) output.push({ json, pairedItem: { item: itemIndex } });
		} catch (error) {
			const nodeError = toNodeError(context.getNode(), error, itemIndex);
			if (context.continueOnFail()) {
				output.push(errorItem(nodeError, itemIndex));
				continue;
			}
			throw nodeError;
		}
	}
	return [output];
}

/** The default request of every operation: one request, through {@link runItemRequest}. */
export async function sendRequest(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const isRead = (requestData.options.method ?? 'GET') === 'GET';
	return await runItemRequest(this, async () => await this.makeRoutingRequest(requestData), isRead);
}

/**
 * Hidden property placed first in every declarative node. RoutingNode hands a request to
 * `operations.pagination` whenever `send.paginate` is set, which makes this function the one
 * place where every request of the node is retried and its errors mapped; its `postReceive`
 * runs before any operation's own output handling.
 */
export const transportProperty: INodeProperties = {
	displayName: 'Transport',
	name: 'transport',
	type: 'hidden',
	default: '',
	routing: {
		send: { paginate: true },
		operations: { pagination: sendRequest },
		output: { postReceive: [throwOnServiceError] },
	},
};

/**
 * A request outside the declarative routing (trigger polls, custom operations, read-backs):
 * same authentication (the credential also supplies the base URL), retries and error mapping.
 * Resolves to the whole answer.
 */
export async function ctsResponse(
	this: IPollFunctions | ILoadOptionsFunctions | IExecuteSingleFunctions | IExecuteFunctions,
	credentialType: CredentialType,
	options: Omit<IHttpRequestOptions, 'baseURL'>,
	itemIndex = 'getItemIndex' in this ? this.getItemIndex() : undefined,
): Promise<IN8nHttpFullResponse> {
	const signal = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	const request: IHttpRequestOptions = {
		...options,
		headers: { Accept: 'application/json', ...(options.headers ?? {}) },
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	return await withRetries(
		async () => {
			let answer: IN8nHttpFullResponse;
			try {
				answer = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					credentialType,
					request,
				)) as IN8nHttpFullResponse;
			} catch (error) {
				throw toNodeError(this.getNode(), error, itemIndex);
			}
			if (answer.statusCode >= 400) throw serviceError(this.getNode(), answer, itemIndex);
			return answer;
		},
		{ isRead: (options.method ?? 'GET') === 'GET', signal },
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
	this: IPollFunctions | ILoadOptionsFunctions | IExecuteSingleFunctions | IExecuteFunctions,
	credentialType: CredentialType,
	options: Omit<IHttpRequestOptions, 'baseURL'>,
	itemIndex = 'getItemIndex' in this ? this.getItemIndex() : undefined,
): Promise<IDataObject> {
	const response = await ctsResponse.call(this, credentialType, options, itemIndex);
	return (response.body ?? {}) as IDataObject;
}
