import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

/**
 * What one item's request steps (preSend, the transport, postReceive) pass on to each other.
 * RoutingNode runs all steps of an item with the same context object (the transport's is made
 * from it with `Object.create`, adding `makeRoutingRequest`), so that object is the key and the
 * state ends with the item. n8n internals (no public API), read from n8n-core 1.123.81 and
 * 2.41.1: RoutingNode.makeRequest's `Object.create` (test/shared/n8nInternals.test.ts).
 */
interface ItemState {
	/** Things the user should know about how a value was read, output with the item. */
	notices: string[];
	/** The event as it was before an update, read at most once per item. */
	currentEvent?: Promise<IDataObject>;
	/** Removals the service may have ignored (no read to resolve them first): checked after the answer. */
	unverifiedRemovals?: { alerts: Array<{ action: string; offset: string }>; locations: string[] };
	/** The event the service answered with (create, get, update), before the Output choice shapes it. */
	answeredEvent?: IDataObject;
	/** The request of a write, kept so its output can show the fields sent without reading the object back. */
	sentRequest?: IHttpRequestOptions;
	/** Hands the answer's rate-limit headers to the point budget of the request being sent. */
	learnFromAnswer?: (headers: IDataObject | undefined) => void;
}

const states = new WeakMap<object, ItemState>();

export function itemState(context: IExecuteSingleFunctions): ItemState {
	const key = Object.prototype.hasOwnProperty.call(context, 'makeRoutingRequest') ? (Object.getPrototypeOf(context) as object) : context;
	let state = states.get(key);
	if (!state) {
		state = { notices: [] };
		states.set(key, state);
	}
	return state;
}

/** Records a notice for the item's output (see {@link withNotices}). */
export function addNotice(context: IExecuteSingleFunctions, notice: string): void {
	itemState(context).notices.push(notice);
}

/** The output JSON with the item's notices, if any, under `notices`. */
export function withNotices(context: IExecuteSingleFunctions, json: IDataObject): IDataObject {
	const { notices } = itemState(context);
	return notices.length > 0 ? { ...json, notices: [...notices] } : json;
}
