import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

/**
 * What one item's request steps (preSend, postReceive) pass on to each other. RoutingNode runs
 * all steps of an item with the same context object, so the context is the key and the state
 * ends with the item.
 */
interface ItemState {
	/** Things the user should know about how a value was read, output with the item. */
	notices: string[];
	/** The event as it was before an update, read at most once per item. */
	currentEvent?: Promise<IDataObject>;
	/** Removals the service may have ignored (no read to resolve them first): checked after the answer. */
	unverifiedRemovals?: { alerts: Array<{ action: string; offset: string }>; locations: string[] };
}

const states = new WeakMap<object, ItemState>();

export function itemState(context: IExecuteSingleFunctions): ItemState {
	let state = states.get(context);
	if (!state) {
		state = { notices: [] };
		states.set(context, state);
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
