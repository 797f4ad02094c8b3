/**
 * The plan of what the package keeps in step with something else (synced tasks, mirrored busy
 * copies): which written thing stands for which wanted one (found by its marker, see
 * `marker.ts`), what to create, change or remove, and the action words of the output.
 */

/** Every action a plan can hold: of copies (create, move, update, remove), synced tasks, and task blocks (keep). */
export type PlanAction = 'create' | 'update' | 'move' | 'remove' | 'complete' | 'reopen' | 'delete' | 'keep' | 'unchanged';

const DONE_WORDS: Record<PlanAction, string> = {
	create: 'created',
	update: 'updated',
	move: 'moved',
	remove: 'removed',
	complete: 'completed',
	reopen: 'reopened',
	delete: 'deleted',
	keep: 'kept',
	unchanged: 'unchanged',
};

/** The action as output: what would be done in a preview (present tense), what was done otherwise (past tense). */
export function actionWord(action: PlanAction, preview: boolean): string {
	return preview ? action : DONE_WORDS[action];
}

/** The things that carry a marker, by the key their marker gives, in the order given (things without a key left out). */
export function byMarkerKey<T>(things: T[], keyOf: (thing: T) => string | undefined): Map<string, T[]> {
	const byKey = new Map<string, T[]>();
	for (const thing of things) {
		const key = keyOf(thing);
		if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), thing]);
	}
	return byKey;
}

/** How a written copy compares with what is wanted of it: as wanted, or what a write would change. */
export type CopyComparison = 'same' | 'move' | 'update';

/** One step of a plan of copies: the wanted thing (none for a removal), the copy (none for a create). */
export interface CopyStep<W, C> {
	action: 'create' | 'move' | 'update' | 'remove' | 'unchanged';
	key: string;
	wanted?: W;
	copy?: C;
	reason?: string;
}

/**
 * The plan that makes the copies match what is wanted, one step per wanted thing and per copy:
 * a wanted thing without copy is created; one with a copy is unchanged, moved or updated as
 * `compare` says (of several copies of the same key the one as wanted, else the first, is kept
 * and the others removed); a copy whose key is not wanted is removed.
 */
export function planCopies<W, C>(
	wanted: Map<string, W>,
	copies: Map<string, C[]>,
	compare: (wanted: W, copy: C) => CopyComparison,
	notWantedReason: (copy: C) => string,
): Array<CopyStep<W, C>> {
	const steps: Array<CopyStep<W, C>> = [];
	for (const [key, thing] of wanted) {
		const found = copies.get(key) ?? [];
		if (found.length === 0) {
			steps.push({ action: 'create', key, wanted: thing });
			continue;
		}
		const kept = found.find((copy) => compare(thing, copy) === 'same') ?? found[0];
		const comparison = compare(thing, kept);
		steps.push({ action: comparison === 'same' ? 'unchanged' : comparison, key, wanted: thing, copy: kept });
		for (const other of found) if (other !== kept) steps.push({ action: 'remove', key, copy: other, reason: 'Another copy of the same event' });
	}
	for (const [key, found] of copies) {
		if (wanted.has(key)) continue;
		for (const copy of found) steps.push({ action: 'remove', key, copy, reason: notWantedReason(copy) });
	}
	return steps;
}
