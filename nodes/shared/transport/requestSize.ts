import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import type { ServiceContext } from './credentialUser';
import { fieldLabel } from './errors';

/** The longest address (path and query) sent: servers and proxies refuse longer ones (the service answers 431). */
const MAX_URL_LENGTH = 8000;
/** The service refuses a body over 1 MiB (413). */
const MAX_BODY_BYTES = 1024 * 1024;

export interface OutgoingRequest {
	url: string;
	method?: string;
	qs?: IDataObject;
	body?: unknown;
}

/** The top-level field of `values` whose value is the longest when sent, to name in an error. */
function largestField(values: object, size: (value: unknown) => number): string {
	let largest = ['', -1] as [string, number];
	for (const [name, value] of Object.entries(values)) {
		const length = size(value);
		if (length > largest[1]) largest = [name, length];
	}
	return fieldLabel(largest[0]);
}

/**
 * Refuses, before sending, a request the service could not take: an address longer than
 * {@link MAX_URL_LENGTH} (many calendar IDs) or a body over {@link MAX_BODY_BYTES} (very long
 * text), naming the field that makes it so.
 */
export function checkRequestSize(context: ServiceContext, request: OutgoingRequest, itemIndex?: number): void {
	const queryLength = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value) ?? '').length;
	const query = Object.entries(request.qs ?? {}).reduce((total, [name, value]) => total + name.length + 2 + queryLength(value), 0);
	const urlLength = request.url.length + query;
	if (urlLength > MAX_URL_LENGTH) {
		const field = largestField(request.qs ?? {}, queryLength);
		throw new NodeOperationError(context.getNode(), `${field}: too many or too long values to send (the request's address would be ${urlLength.toLocaleString('en-US')} characters; the service accepts about ${MAX_URL_LENGTH.toLocaleString('en-US')})`, {
			itemIndex,
			description: 'Use fewer values in one request, e.g. split the calendars over several items.',
		});
	}
	if (request.body && typeof request.body === 'object') {
		const bodyBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '');
		const size = bodyBytes(request.body);
		if (size > MAX_BODY_BYTES) {
			const field = largestField(request.body, bodyBytes);
			throw new NodeOperationError(context.getNode(), `${field}: too long to send (the request would be ${(size / MAX_BODY_BYTES).toFixed(2)} MiB; the service accepts at most 1 MiB)`, {
				itemIndex,
				description: 'Shorten the text, or keep the long part elsewhere and link to it.',
			});
		}
	}
}
