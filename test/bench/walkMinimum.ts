/** The least list calls the interface allows for reading tasks: `updatedAfter` paging, 100 per page. */

const PAGE = 100;

/** List calls a correct walk over `tasks` new tasks with distinct `updated` values needs. */
export function walkMinimum(tasks: number, startsAtBoundary: boolean): number {
	// Every page after the first (and the first, when the cursor holds IDs at its boundary value)
	// re-reads the task at the boundary: `updatedAfter` is strict and ties are possible. A full
	// page must be followed by one more call to see the end.
	let calls = 0;
	let read = 0;
	for (;;) {
		calls++;
		const reread = calls > 1 || startsAtBoundary ? 1 : 0;
		const fresh = Math.min(PAGE - reread, tasks - read);
		read += fresh;
		if (fresh + reread < PAGE) return calls;
	}
}
