/**
 * The shared plan of copies (nodes/shared/copies/plan.ts) that Mirror Busy Time, Sync Tasks and
 * Plan Tasks use, and the marker line of task blocks on the shared marker module.
 */
import { blockMarker, blocksByTask, blockTaskId, isBlockOf } from '../../../nodes/shared/calendar/taskBlocks';
import { actionWord, byMarkerKey, planCopies, type PlanAction } from '../../../nodes/shared/copies/plan';

describe('action words', () => {
	it('are present tense in a preview and past tense when written, for every action of every operation', () => {
		const actions: PlanAction[] = ['create', 'update', 'move', 'remove', 'complete', 'reopen', 'delete', 'keep', 'unchanged'];
		expect(actions.map((action) => [actionWord(action, true), actionWord(action, false)])).toEqual([
			['create', 'created'],
			['update', 'updated'],
			['move', 'moved'],
			['remove', 'removed'],
			['complete', 'completed'],
			['reopen', 'reopened'],
			['delete', 'deleted'],
			['keep', 'kept'],
			['unchanged', 'unchanged'],
		]);
	});
});

describe('the plan of copies', () => {
	interface Copy {
		id: string;
		key?: string;
		at: number;
	}
	const compare = (wanted: number, copy: Copy) => (copy.at === wanted ? 'same' : copy.at === -wanted ? 'update' : 'move');

	it('creates what has no copy, leaves a copy as wanted, moves or updates one that differs, removes copies not wanted and second copies', () => {
		const wanted = new Map([
			['new', 1],
			['same', 2],
			['moved', 3],
			['renamed', 4],
			['twice', 5],
		]);
		const copies: Copy[] = [
			{ id: 'c-same', key: 'same', at: 2 },
			{ id: 'c-moved', key: 'moved', at: 30 },
			{ id: 'c-renamed', key: 'renamed', at: -4 },
			{ id: 'c-twice-old', key: 'twice', at: 50 },
			{ id: 'c-twice', key: 'twice', at: 5 },
			{ id: 'c-gone', key: 'gone', at: 6 },
			{ id: 'not-a-copy', at: 7 },
		];
		const steps = planCopies(wanted, byMarkerKey(copies, (copy) => copy.key), compare, (copy) => `gone: ${copy.id}`);
		expect(steps.map((step) => [step.action, step.key, step.copy?.id ?? null, step.reason ?? null])).toEqual([
			['create', 'new', null, null],
			['unchanged', 'same', 'c-same', null],
			['move', 'moved', 'c-moved', null],
			['update', 'renamed', 'c-renamed', null],
			['unchanged', 'twice', 'c-twice', null],
			['remove', 'twice', 'c-twice-old', 'Another copy of the same event'],
			['remove', 'gone', 'c-gone', 'gone: c-gone'],
		]);
	});
});

describe('task blocks on the shared marker line', () => {
	it('write and find the same `Task ID: <id>` line as before, in plain or HTML descriptions', () => {
		expect(blockMarker('task-1')).toBe('Task ID: task-1');
		expect(blockTaskId({ description: 'Notes\n\nTask ID: task-1' })).toBe('task-1');
		expect(blockTaskId({ description: '<p>Notes</p>\n<p>Task ID: task-1</p>' })).toBe('task-1');
		expect(blockTaskId({ description: 'Task ID: not an id' })).toBeUndefined();
		expect(blockTaskId({ description: 'Task ID: ' })).toBeUndefined();
		expect(blockTaskId({ description: 'x', 'service.example:metadata': { taskId: 'linked' } })).toBe('linked');
		expect(isBlockOf({ description: 'Focus\nTask ID: task-1' }, 'task-1')).toBe(true);
		expect(isBlockOf({ description: 'Task ID: task-12' }, 'task-1')).toBe(false);
		expect(isBlockOf({ description: '<p>Focus</p><p>Task ID: task-1</p>' }, 'task-1')).toBe(true);
		// The service's own block of a task is not one the package may move.
		expect(isBlockOf({ description: 'x', 'service.example:metadata': { taskId: 'task-1' } }, 'task-1')).toBe(false);
	});

	it('blocksByTask: the blocks in the target calendar by task, earliest first, cancelled ones and other calendars left out', () => {
		const target = { accountId: 'acc', id: 'cal' };
		const block = (id: string, taskId: string, start: string, extra: Record<string, unknown> = {}) => ({
			id,
			accountId: 'acc',
			calendarId: 'cal',
			start,
			duration: 'PT1H',
			timeZone: 'UTC',
			description: `Focus\n\n${blockMarker(taskId)}`,
			...extra,
		});
		const found = blocksByTask(
			[
				block('late', 't1', '2026-12-02T09:00:00'),
				block('early', 't1', '2026-12-01T09:00:00'),
				block('other-calendar', 't1', '2026-11-30T09:00:00', { calendarId: 'cal-2' }),
				block('cancelled', 't2', '2026-12-01T09:00:00', { status: 'cancelled' }),
				block('t3', 't3', '2026-12-03T09:00:00'),
				{ id: 'plain', accountId: 'acc', calendarId: 'cal', start: '2026-12-01T09:00:00', duration: 'PT1H', timeZone: 'UTC', description: 'no marker' },
			],
			target,
			'UTC',
		);
		expect([...found].map(([taskId, blocks]) => [taskId, blocks.map(({ event }) => event.id)])).toEqual([
			['t1', ['early', 'late']],
			['t3', ['t3']],
		]);
		expect(found.get('t1')?.[0].interval).toEqual({ start: Date.parse('2026-12-01T09:00:00Z'), end: Date.parse('2026-12-01T10:00:00Z') });
	});
});
