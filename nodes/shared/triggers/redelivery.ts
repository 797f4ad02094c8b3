import { randomUUID } from 'node:crypto';
import type { INodeProperties, IPollFunctions } from 'n8n-workflow';

/**
 * Drawn once when n8n loads the package, so once per n8n process: a pending position written by
 * another process cannot be confirmed.
 */
const PROCESS_ID = randomUUID();

/**
 * Where a poll that delivered changes left the trigger, with "Redeliver After a Restart" on. It
 * becomes the trigger's position only when a later poll runs in the same process: n8n saves the
 * static data of a poll that delivers before it stores the poll's execution, and the process that
 * polls again lived on past that (the execution is stored within milliseconds, polls are at
 * least seconds apart). Found after a restart, it is dropped and the trigger reads those
 * changes again from the position before it.
 */
export interface PendingPosition<T> {
	position: T;
	process: string;
}

/** The option both triggers offer. */
export const redeliverOption: INodeProperties = {
	displayName: 'Redeliver After a Restart',
	name: 'redeliverAfterRestart',
	type: 'boolean',
	default: false,
	description:
		"Whether the first check after n8n's main instance restarts delivers again the changes of the last check that delivered any, so that a crash while n8n stores that check's execution cannot lose them. After every restart, crash or not, some changes then arrive twice (see the package's README).",
	hint: 'Follow the trigger with a Remove Duplicates node keyed on id, updated and triggerEvent.',
};

/**
 * The position a poll starts from, resolving a pending one: confirmed when this process wrote
 * it, dropped otherwise. Returns the position and whether a pending one was dropped.
 */
function resolvePending<T>(confirmed: T | undefined, pending: PendingPosition<T> | undefined): { position: T | undefined; redelivering: boolean } {
	if (!pending) return { position: confirmed, redelivering: false };
	if (pending.process === PROCESS_ID) return { position: pending.position, redelivering: false };
	return { position: confirmed, redelivering: true };
}

/** {@link resolvePending}, logging a redelivery: the one line both triggers write when they deliver again. */
export function positionAfterRestart<T>(context: IPollFunctions, confirmed: T | undefined, pending: PendingPosition<T> | undefined): { position: T | undefined; redelivering: boolean } {
	const resolved = resolvePending(confirmed, pending);
	if (resolved.redelivering) {
		context.logger.info(`${context.getNode().name}: n8n restarted after a check that delivered changes; delivering them again (Redeliver After a Restart).`);
	}
	return resolved;
}

/** A pending position for what this poll delivers. */
export function pendingPosition<T>(position: T): PendingPosition<T> {
	return { position, process: PROCESS_ID };
}
