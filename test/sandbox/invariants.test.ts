/**
 * The store stays consistent under any sequence of requests, hostile ones included: a request
 * answered with an error changes nothing (no half-applied patch), and after every request the
 * task hierarchy holds (no subtask whose parent is unknown, none left live under a deleted
 * parent) and every listed event can be read by its id.
 */
import fc from 'fast-check';

import { useSandbox } from './support/http';

const ctx = useSandbox();
const api = () => ctx.client;

/** Tasks and events of alice as the store holds them, as comparable text. */
function snapshot(): string {
	const { store } = api().sandbox;
	return JSON.stringify({ tasks: [...store.tasksOf('alice').values()], events: [...store.eventsOf('alice').values()] });
}

/**
 * The refused requests (4xx) of a property run, and those that changed the state: checked once the
 * run is over, so that the check cannot pass because no request was refused.
 */
function refusals() {
	let refused = 0;
	const changed: string[] = [];
	return {
		note(status: number, before: string, what: string): void {
			if (status < 400) return;
			refused++;
			if (snapshot() !== before) changed.push(`${what}: HTTP ${status}`);
		},
		check(): void {
			expect(refused).toBeGreaterThan(0);
			expect(changed).toEqual([]);
		},
	};
}

function checkTaskHierarchy(): void {
	const tasks = api().sandbox.store.tasksOf('alice');
	for (const task of tasks.values()) {
		for (const [parentId, relation] of Object.entries(task.relatedTo ?? {})) {
			if (!relation.relation.parent) continue;
			const parent = tasks.get(parentId);
			expect(parent).toBeDefined();
			// A subtask of a deleted task is deleted too.
			expect({ parentDeleted: Boolean(parent?.deleted), deleted: Boolean(task.deleted) }).not.toEqual({ parentDeleted: true, deleted: false });
		}
	}
}

const junkId = fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), fc.integer(), fc.constant(''));

const fieldValue = fc.oneof(
	fc.string({ maxLength: 12 }),
	fc.constantFrom('2026-12-01T09:00:00', '2026-12-01', 'Europe/Berlin', 'EST', 'PT1H', 'completed', 'in-process', 'bogus'),
	fc.integer({ min: -3, max: 12 }),
	fc.constant(null),
	fc.boolean(),
	fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
);

it('tasks: errors change nothing, and the hierarchy holds after any request sequence', async () => {
	const refused = refusals();
	await fc.assert(
		fc.asyncProperty(
			fc.array(
				fc.record({
					path: fc.constantFrom('create', 'update', 'move', 'delete', 'close', 'reopen'),
					fields: fc.dictionary(fc.constantFrom('title', 'due', 'timeZone', 'priority', 'progress', 'tags', 'description', 'extra'), fieldValue, { maxKeys: 4 }),
					pick: fc.nat(),
					parentPick: fc.nat(),
					parent: fc.boolean(),
					// One step in six names no real task: a junk id of any type.
					junk: junkId,
					useJunk: fc.integer({ min: 0, max: 5 }),
				}),
				{ minLength: 5, maxLength: 25 },
			),
			async (steps) => {
				await api().reset();
				await api().control('POST', 'limits', { points: null });
				const ids: string[] = [];
				for (const step of steps) {
					const body: Record<string, unknown> = { ...step.fields };
					const target = ids.length > 0 ? ids[step.pick % ids.length] : 'none';
					const other = ids.length > 0 ? ids[step.parentPick % ids.length] : 'none';
					if (step.path === 'create') {
						body.title ??= 'task';
						if (step.parent && ids.length > 0) body.relatedTo = { [other]: { '@type': 'Relation', relation: { parent: true } } };
					} else if (step.path === 'move') {
						for (const key of Object.keys(body)) delete body[key];
						Object.assign(body, { id: target, previousId: step.parent ? other : null, parentId: step.parent ? null : other });
					} else {
						body.id = step.useJunk === 0 ? step.junk : target;
					}
					const before = snapshot();
					const response = await api().post(`/v3/tasks/${step.path}`, body);
					expect(response.status).toBeLessThan(500);
					refused.note(response.status, before, `${step.path} ${JSON.stringify(body)}`);
					if (step.path === 'create' && response.status === 200) ids.push(response.body.data.id);
					checkTaskHierarchy();
				}
			},
		),
		{ numRuns: 40 },
	);
	refused.check();
}, 300_000);

it('events: errors change nothing, and every listed event can be read by its id', async () => {
	const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
	const refused = refusals();
	await fc.assert(
		fc.asyncProperty(
			fc.array(
				fc.record({
					path: fc.constantFrom('create', 'update', 'delete'),
					mode: fc.constantFrom(undefined, 'single', 'future', 'all', 'bogus'),
					fields: fc.dictionary(fc.constantFrom('title', 'start', 'duration', 'timeZone', 'showWithoutTime', 'privacy', 'extra'), fieldValue, { maxKeys: 3 }),
					pick: fc.nat(),
					recurring: fc.boolean(),
				}),
				{ minLength: 5, maxLength: 20 },
			),
			async (steps) => {
				await api().reset();
				await api().control('POST', 'limits', { points: null });
				for (const step of steps) {
					const listed = await api().get('/v3/events/list', { ...target, calendarIds: target.calendarId, start: '2026-11-01T00:00:00Z', end: '2027-03-01T00:00:00Z' } as never);
					const ids: string[] = (listed.body?.data?.events ?? []).map((event: { id: string }) => event.id);
					for (const id of ids) expect((await api().get('/v3/events', { id })).status).toBe(200);
					const id = ids.length > 0 ? ids[step.pick % ids.length] : 'unknown';
					let body: Record<string, unknown>;
					if (step.path === 'create') {
						body = { ...target, title: 'e', start: '2026-12-01T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin', showWithoutTime: false, ...step.fields };
						if (step.recurring) body.recurrenceRules = [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1, count: 6 }];
					} else if (step.path === 'update') {
						body = { ...target, id, ...step.fields };
					} else {
						body = { ...target, id };
					}
					const before = snapshot();
					const query = step.mode && step.path !== 'create' ? `?seriesUpdateMode=${step.mode}` : '';
					const response = await api().post(`/v3/events/${step.path}${query}`, body);
					expect(response.status).toBeLessThan(500);
					refused.note(response.status, before, `${step.path}${query} ${JSON.stringify(body)}`);
				}
			},
		),
		{ numRuns: 30 },
	);
	refused.check();
}, 180_000);
