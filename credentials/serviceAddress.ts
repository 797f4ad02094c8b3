import type { IHttpRequestOptions } from 'n8n-workflow';

/**
 * What both credentials add to a request: the `Authorization` header and, for a path without a
 * host, the credential's address as base URL (without a trailing slash), so the nodes need no
 * base URL expression per request.
 */
export function authorizeRequest(
	requestOptions: IHttpRequestOptions,
	authorization: string,
	address: unknown,
): IHttpRequestOptions {
	requestOptions.headers = { ...requestOptions.headers, Authorization: authorization };
	if (!requestOptions.baseURL && !/^[a-z][a-z0-9+.-]*:\/\//i.test(requestOptions.url)) {
		requestOptions.baseURL = String(address).replace(/\/+$/, '');
	}
	return requestOptions;
}
