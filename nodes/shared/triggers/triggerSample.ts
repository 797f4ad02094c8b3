import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/**
 * Fetch Test Event of both triggers: a real task or event of a kind the trigger is set to fire on,
 * labelled with that kind, or, when the account shows none, an item that says so. That item has no
 * `triggerEvent` (and no ID), so a workflow that tests what happened does not act on it.
 */

const time = (value: unknown) => {
	const parsed = Date.parse(String(value ?? ''));
	return Number.isNaN(parsed) ? 0 : parsed;
};

/**
 * The most recent of `objects` that shows a chosen kind, labelled with it: `created` while its
 * `updated` time is its `created` time, `updated` once it changed after that. With Created chosen,
 * a changed object still counts as created, at its `created` time (each object was created once).
 * Undefined when none shows a chosen kind. Of equal times the first in `objects` wins.
 */
export function recentChange(objects: IDataObject[], kinds: string[]): { object: IDataObject; kind: 'created' | 'updated' } | undefined {
	let best: { object: IDataObject; kind: 'created' | 'updated'; at: number } | undefined;
	for (const object of objects) {
		const shown = time(object.created) === time(object.updated) ? 'created' : 'updated';
		let candidate: typeof best;
		if (kinds.includes(shown)) candidate = { object, kind: shown, at: time(object.updated) };
		else if (kinds.includes('created')) candidate = { object, kind: 'created', at: time(object.created) };
		if (candidate && (!best || candidate.at > best.at)) best = candidate;
	}
	return best && { object: best.object, kind: best.kind };
}

/** Fetch Test Event's answer when the account shows no change of a chosen kind: one item saying why, and what to do. */
export function noSampleItem(notice: string): INodeExecutionData[][] {
	return [[{ json: { notices: [notice] } }]];
}
