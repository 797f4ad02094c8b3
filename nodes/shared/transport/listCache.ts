import { NodeOperationError, type IDataObject, type INodePropertyOptions, type NodeApiError } from 'n8n-workflow';

import { spokenDuration } from '../pacing/costModel';
import { credentialUserKey, type CredentialType, type ServiceContext } from './credentialUser';
import { serviceStatus } from './errors';

/** How long a list read for a dropdown is reused: reopening a dropdown within this time costs nothing. */
export const LIST_REUSE_MS = 60_000;

interface Entry {
	answer: Promise<unknown>;
	readAt: number;
}

/** List answers by service user and list name. Expiry is checked on read (nodes may not use timers). */
const entries = new Map<string, Entry>();

/** Answers older than this are dropped whenever a list is read, so the map does not grow without end. */
const FORGET_AFTER_MS = 24 * 3600_000;

/**
 * A list of the service (10 points per call), read once and reused by every node and dropdown
 * of the same service user while it is younger than `maxAgeMs`. Requests made while a read is
 * under way wait for it instead of sending their own; a failed read is not kept.
 */
export async function cachedList<T>(
	context: ServiceContext,
	credentialType: CredentialType,
	name: string,
	read: () => Promise<T>,
	maxAgeMs = LIST_REUSE_MS,
): Promise<T> {
	const key = `${await credentialUserKey(context, credentialType)}|${name}`;
	const now = Date.now();
	const entry = entries.get(key);
	if (entry && now - entry.readAt < maxAgeMs) return (await entry.answer) as T;
	for (const [other, { readAt }] of entries) if (now - readAt >= FORGET_AFTER_MS) entries.delete(other);
	const fresh: Entry = { answer: read(), readAt: now };
	entries.set(key, fresh);
	try {
		return (await fresh.answer) as T;
	} catch (error) {
		if (entries.get(key) === fresh) entries.delete(key);
		throw error as NodeApiError;
	}
}

/**
 * A list already read for this service user and still fresh, or undefined: never a request. For
 * output that can show more when the node happens to have a list (tag names), at no cost.
 */
export async function listIfCached<T>(context: ServiceContext, credentialType: CredentialType, name: string, maxAgeMs = LIST_REUSE_MS): Promise<T | undefined> {
	const entry = entries.get(`${await credentialUserKey(context, credentialType)}|${name}`);
	if (!entry || Date.now() - entry.readAt >= maxAgeMs) return undefined;
	try {
		return (await entry.answer) as T;
	} catch {
		return undefined;
	}
}

/** Forgets a list of this service user: a node that has just changed it (made a tag) has the next read see the change. */
export async function forgetList(context: ServiceContext, credentialType: CredentialType, name: string): Promise<void> {
	entries.delete(`${await credentialUserKey(context, credentialType)}|${name}`);
}

/** What a list offers in place of itself when the service does not have it, or cannot give it now. */
type ListFallback = 'byId' | 'expression';

/** The budget a failed request reported, when it failed because the point budget is used up (see the transport's budget error). */
function exhaustedBudget(error: unknown): IDataObject | undefined {
	return (error as { context?: IDataObject } | undefined)?.context?.budget as IDataObject | undefined;
}

/** What to do while the budget is used up. */
const MEANWHILE: Record<ListFallback, string> = {
	byId: 'Meanwhile choose "By ID" and enter the ID.',
	expression: 'Meanwhile enter the IDs with an expression (switch the field to Expression).',
};

/**
 * Why a list cannot load while the point budget is used up, and what to do meanwhile, in one line
 * for the list itself: n8n shows a dropdown that failed as "Error fetching options", with the reason
 * only on hover; a From List picker's error view shows the message but not its description, split
 * at dashes, so the line has none (no ISO times).
 */
function budgetLine(budget: IDataObject, fallback: ListFallback): string {
	const left = typeof budget.remaining === 'number' && typeof budget.limit === 'number' ? ` (${budget.remaining} of ${budget.limit} points left)` : '';
	const resetMs = Date.parse(String(budget.resetAt ?? ''));
	const when = Number.isNaN(resetMs) ? 'once the budget window resets' : `in ${spokenDuration(Math.max(1000, resetMs - Date.now()))}`;
	return `The point budget is used up${left}: this list loads again ${when}. ${MEANWHILE[fallback]}`;
}

/**
 * Reads a list for a picker. A node without a credential yet gets an empty list, without a
 * request: n8n's editor asks for the lists of a freshly added node before it sets the node's
 * credential, and asks again once it has, so an error there would only be a false alarm. A list
 * endpoint that answers 404 belongs to a deployment that predates it: that is said in plain
 * words, with what to do instead; so is a point budget that is used up (see {@link pickerOptions}
 * for dropdowns). Any other failure is passed on as it is.
 */
export async function readForPicker<T extends unknown[]>(context: ServiceContext, what: string, fallback: ListFallback, read: () => Promise<T>): Promise<T> {
	if (Object.keys(context.getNode().credentials ?? {}).length === 0) return [] as unknown as T;
	try {
		return await read();
	} catch (error) {
		const budget = exhaustedBudget(error);
		if (budget) {
			const unavailable = new NodeOperationError(context.getNode(), budgetLine(budget, fallback));
			unavailable.context.budget = budget;
			throw unavailable;
		}
		if (serviceStatus(error) !== 404) throw error as NodeApiError;
		const instead =
			fallback === 'byId'
				? 'Choose "By ID" and enter the ID; everything else works as before.'
				: 'Enter the IDs with an expression instead (switch the field to Expression); everything else works as before.';
		throw new NodeOperationError(context.getNode(), `This service cannot list ${what}`, {
			description: `It answered 404 (Not Found) to the list request, as deployments without this list do. ${instead}`,
		});
	}
}

/** The value of the option that says why a dropdown is empty: it cannot be picked. */
export const UNAVAILABLE_OPTION = '__unavailable';

/**
 * A dropdown's options. While the point budget is used up, the reason is the list's one option
 * (greyed, not to be picked), where the user looks, instead of n8n's "Error fetching options".
 * `first` are options offered either way (a field's default, such as Every Account).
 */
export async function pickerOptions(build: () => Promise<INodePropertyOptions[]>, first: INodePropertyOptions[] = []): Promise<INodePropertyOptions[]> {
	try {
		return [...first, ...(await build())];
	} catch (error) {
		if (!exhaustedBudget(error)) throw error as NodeApiError;
		return [...first, { name: (error as NodeOperationError).message, value: UNAVAILABLE_OPTION, disabled: true }];
	}
}
