/**
 * `walkTasks` with `keep` (nodes/shared/tasks/taskPaging.ts), as Get Many uses it: each page is filtered
 * and shaped as it arrives, and the result is what filtering and shaping the newest versions at
 * the end gave: a task changed during the walk is kept once, in its newest version and place,
 * and dropped when its newest version no longer matches.
 */
import type { IDataObject } from 'n8n-workflow';

import { walkTasks, type FetchTaskPage } from '../../../nodes/shared/tasks/taskPaging';

const task = (id: string, updated: string, tag: string): IDataObject => ({ id, updated, tags: [tag], '@type': 'Task' });

/** Pages answered in order, whatever is asked. */
function pages(...answers: IDataObject[][]): { fetch: FetchTaskPage } {
	return { fetch: async () => answers.shift() ?? [] };
}

const at = (second: number) => `2026-03-01T09:00:${String(second).padStart(2, '0')}.000Z`;

describe('walkTasks with keep', () => {
	it('keeps the newest version of each task, where it was listed last, as the shaped value', async () => {
		const first = Array.from({ length: 100 }, (_, index) => task(`t${index}`, at(index % 50), 'a'));
		first[99] = task('t99', at(50), 'a');
		const { fetch } = pages(first, [task('t99', at(50), 'a'), task('t3', at(51), 'a'), task('t200', at(52), 'a')]);
		const result = await walkTasks(fetch, { idsAtUpdated: [] }, Number.POSITIVE_INFINITY, { keep: (raw) => ({ id: raw.id }) });
		expect(result.tasks).toHaveLength(101);
		expect(result.tasks.slice(-2)).toEqual([{ id: 't3' }, { id: 't200' }]);
		expect(result.tasks.filter((kept) => kept.id === 't3')).toHaveLength(1);
	});

	it('drops a task whose newer version is not kept', async () => {
		const first = Array.from({ length: 100 }, (_, index) => task(`t${index}`, at(index % 50), 'a'));
		first[99] = task('t99', at(50), 'a');
		const { fetch } = pages(first, [task('t99', at(50), 'a'), task('t3', at(51), 'b')]);
		const keep = (raw: IDataObject) => ((raw.tags as string[]).includes('a') ? raw.id : undefined);
		const result = await walkTasks(fetch, { idsAtUpdated: [] }, Number.POSITIVE_INFINITY, { keep });
		expect(result.tasks).toHaveLength(99);
		expect(result.tasks).not.toContain('t3');
		expect(result.complete).toBe(true);
	});
});
