import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { PerUser, PollPurse, triggerSpender } from '../shared/pacing/triggerPacing';
import { listTaskPage, walkTasks, type TaskCursor } from '../shared/tasks/taskPaging';

/** The feed's key for the pacing of its reads (see `triggerPacing.ts`). */
const FEED = 'task-changes';
/** A trigger that has not polled for this long no longer holds task versions in the feed. */
const READER_TTL_MS = 2 * 3600 * 1000;

/**
 * One list of a user's task changes, read once for every Task Trigger of that user in this n8n
 * process: the versions read after `base` (the oldest position among the triggers) up to `head`,
 * where the list stands. Each trigger takes from it what lies after its own cursor; only a
 * trigger that has taken everything reads on, so k triggers cost about what one does.
 */
interface TaskFeed {
	base: TaskCursor;
	head: TaskCursor;
	/** The versions read, in list order; a task changed later is listed again, later. */
	versions: IDataObject[];
	/** Where each trigger stood after its last poll, and when, so the feed can drop what all have taken. */
	readers: Map<string, { cursor: TaskCursor; at: number }>;
	/** The read under way: a trigger that polls meanwhile waits for it instead of reading the same pages. */
	reading?: Promise<unknown>;
}

/** The task feed of each user, shared by that user's Task Triggers in this process. */
const feeds = new PerUser<{ feed?: TaskFeed }>(() => ({}));

/** Whether the cursor has seen this version of a task. */
export function seen(cursor: TaskCursor, task: IDataObject): boolean {
	if (!cursor.updated) return false;
	const updated = Date.parse(String(task.updated));
	const boundary = Date.parse(cursor.updated);
	if (updated !== boundary) return updated < boundary;
	return cursor.idsAtUpdated.length === 0 || cursor.idsAtUpdated.includes(String(task.id));
}

/** Whether cursor `a` has seen everything cursor `b` has. */
function atOrAfter(a: TaskCursor, b: TaskCursor): boolean {
	if (!b.updated) return true;
	if (!a.updated) return false;
	const ta = Date.parse(a.updated);
	const tb = Date.parse(b.updated);
	if (ta !== tb) return ta > tb;
	if (a.idsAtUpdated.length === 0) return true;
	if (b.idsAtUpdated.length === 0) return false;
	return b.idsAtUpdated.every((id) => a.idsAtUpdated.includes(id));
}

export interface FeedResult {
	/** The versions after the cursor, each task once in its newest version, in list order. */
	tasks: IDataObject[];
	cursor: TaskCursor;
	overflowedAt: string[];
}

/**
 * The changes after `cursor` for one trigger, from the user's feed: what it holds already, or,
 * when the trigger has taken everything, what the feed reads on within the trigger's allowance
 * (one page per list call; the cursor moves with each complete page). Null when the trigger must
 * read but its allowance holds no list call now: nothing sent, nothing changed.
 */
export async function changesFor(context: IPollFunctions, cursor: TaskCursor, share: number): Promise<FeedResult | null> {
	const user = await feeds.of(context);
	let feed = user.feed;
	while (feed?.reading) {
		await feed.reading.catch(() => undefined);
		feed = user.feed;
	}
	if (!feed || !atOrAfter(cursor, feed.base)) {
		// A trigger behind the feed (new, or sent back by Redeliver After a Restart): start it over from there.
		feed = { base: cursor, head: cursor, versions: [], readers: feed?.readers ?? new Map() };
		user.feed = feed;
	}
	// Known as a reader before it reads, so that the feed keeps what it has not taken yet.
	feed.readers.set(triggerSpender(context), { cursor, at: Date.now() });
	const overflowedAt: string[] = [];
	if (atOrAfter(cursor, feed.head)) {
		const purse = await PollPurse.open(context, share, { feed: FEED });
		if (!purse.mayCheck()) return null;
		const current = feed;
		// What this poll reads joins the feed only once the poll's reading has succeeded: a failed
		// poll leaves the feed as it was, and the next poll reads those changes as they are then.
		const read = (async () => {
			// One page per list call the purse allows; an empty page ends the walk where it stands.
			const result = await walkTasks(
				async (after, limit) => (purse.take('list') ? await listTaskPage(context, after, limit, undefined, purse) : []),
				current.head,
				Number.POSITIVE_INFINITY,
				{ keepOnBudgetError: true },
			);
			overflowedAt.push(...result.overflowedAt);
			current.versions.push(...result.tasks);
			current.head = result.cursor;
		})();
		current.reading = read;
		try {
			await read;
		} finally {
			current.reading = undefined;
		}
	}
	const tasks = new Map<string, IDataObject>();
	for (const task of feed.versions) {
		if (seen(cursor, task)) continue;
		tasks.delete(String(task.id));
		tasks.set(String(task.id), task);
	}
	const next = atOrAfter(cursor, feed.head) ? cursor : feed.head;
	trim(feed, triggerSpender(context), next);
	return { tasks: [...tasks.values()], cursor: next, overflowedAt };
}

/** Notes where a trigger stands and drops the versions every trigger still reading has taken. */
function trim(feed: TaskFeed, reader: string, cursor: TaskCursor): void {
	const now = Date.now();
	feed.readers.set(reader, { cursor, at: now });
	let oldest: TaskCursor | undefined;
	for (const [key, entry] of feed.readers) {
		if (now - entry.at > READER_TTL_MS) feed.readers.delete(key);
		else if (!oldest || atOrAfter(oldest, entry.cursor)) oldest = entry.cursor;
	}
	if (!oldest || !atOrAfter(oldest, feed.base)) return;
	const base = oldest;
	feed.versions = feed.versions.filter((task) => !seen(base, task));
	feed.base = base;
}
