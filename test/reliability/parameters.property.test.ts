/**
 * Property-based tests through the real engine: random and hostile values in the nodes'
 * parameters never cause an uncaught exception. A run either succeeds or fails with an n8n
 * error: n8n's own parameter check (naming the parameter), a NodeOperationError before the
 * request (starting with the field), or a NodeApiError carrying the service's verdict.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../harness/engine';
import { ALICE_KEY, SandboxClient } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask(), ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });

beforeAll(async () => {
	await sandbox.start();
	await sandbox.reset();
	await sandbox.control('limits', { points: null });
});
afterAll(async () => await sandbox.stop());

/** Values a parameter may receive from the editor, an expression or an AI agent. */
const anyValue = fc.oneof(
	fc.string({ maxLength: 40 }),
	fc.constantFrom('', ' ', '2026-12-01', '2026-12-01T09:00:00', '2026-12-01T09:00:00+05:30', 'EST', 'GMT+1', 'Europe/Berlin', 'PT1H', 'P1D', '-PT5M', 'null', '{}', '[]', 'a@b.c', '🙂', 'x'.repeat(5000)),
	fc.integer(),
	fc.double({ noNaN: false }),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
	fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/**
 * An expression that evaluates to one of those values, as users and agents write them. (Text
 * holding `{{` or `}}` would break the expression itself: n8n reports that before any node code.)
 */
const asExpression = anyValue
	.map((value) => `={{ ${JSON.stringify(value)} }}`)
	.filter((expression) => !expression.slice(3, -3).includes('}}') && !expression.slice(3, -3).includes('{{'));
const parameterValue = fc.oneof(anyValue, asExpression);

/** What a successful run must have output and done; called with the node's output items. */
type SuccessCheck = (items: INodeExecutionData[]) => Promise<void>;

/** A create outputs one item, and the service holds what it names (not deleted: the service then omits `deleted`). */
const createdTask: SuccessCheck = async (items) => {
	expect(items).toHaveLength(1);
	const task = await sandbox.getTask(items[0].json.id as string);
	expect(task).toMatchObject({ id: items[0].json.id });
	expect(task).not.toHaveProperty('deleted');
};
const createdEvent: SuccessCheck = async (items) => {
	expect(items).toHaveLength(1);
	const { status, body } = await sandbox.api('GET', '/v3/events', { qs: { id: items[0].json.id as string } });
	expect(status).toBe(200);
	expect(body.data.event).toMatchObject({ id: items[0].json.id, title: 'x' });
};
/** A list outputs each task or event once, each one the service holds (simplified items carry no `@type`). */
const listed = (type: 'Task' | 'Event'): SuccessCheck => async (items) => {
	expect(new Set(items.map((item) => item.json.id)).size).toBe(items.length);
	for (const item of items) {
		const { status } = await sandbox.api('GET', type === 'Task' ? '/v3/tasks' : '/v3/events', { qs: { id: item.json.id as string } });
		expect(status).toBe(200);
	}
};

const knownErrorMessage = /^([A-Z][\w /()'-]*: .+|The service rejected the request.*|Task not found.*|Event not found.*|Not found.*|The change to task .*)$/s;

async function expectCleanOutcome(type: string, parameters: IDataObject, onSuccess: SuccessCheck) {
	const { error, items } = await engine.runNode({
		type,
		parameters,
		credentials: {
			ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url },
			ctsSyncApi: { token: await sandbox.token('alice'), syncUrl: sandbox.url },
		},
	});
	if (!error) {
		for (const item of items) {
			expect(item.error).toBeUndefined();
			expect(typeof item.json.id).toBe('string');
		}
		await onSuccess(items);
		return;
	}
	if (error.name === 'WorkflowHasIssuesError') {
		// n8n's own check of parameter presence and types, shown on the node in the editor.
		expect(error.message).toMatch(/Parameter "[^"]+"/);
		return;
	}
	expect(['NodeApiError', 'NodeOperationError']).toContain(error.name);
	expect(error.message).toMatch(knownErrorMessage);
	expect(error.message).not.toMatch(/Cannot read prop|is not a function|undefined \(reading/);
}

it('Task Create and Update: any field values end in success or an error naming the problem', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.record({
				title: parameterValue,
				due: parameterValue,
				timeZone: parameterValue,
				priority: parameterValue,
				progress: parameterValue,
				tags: parameterValue,
				description: parameterValue,
				estimatedDuration: parameterValue,
			}),
			fc.boolean(),
			async (values, update) => {
				const fields = {
					due: values.due,
					timeZone: values.timeZone,
					priority: values.priority,
					progress: values.progress,
					tags: values.tags,
					description: values.description,
					estimatedDuration: values.estimatedDuration,
				};
				if (update) {
					// No task "x" exists: an update can only end in an error.
					const parameters = { resource: 'task', operation: 'update', taskId: 'x', updateFields: { ...fields, title: values.title } };
					await expectCleanOutcome('ctsTask', parameters, async (items) => {
						throw new Error(`an update of a task that does not exist succeeded: ${JSON.stringify(items[0]?.json)}`);
					});
				} else {
					const parameters = { resource: 'task', operation: 'create', title: values.title, returnTask: false, additionalFields: fields };
					await expectCleanOutcome('ctsTask', parameters, createdTask);
				}
			},
		),
		{ numRuns: 150 },
	);
}, 300_000);

it('Event Create: any timing and field values end in success or an error naming the problem', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.record({
				start: parameterValue,
				end: parameterValue,
				duration: parameterValue,
				timeZone: parameterValue,
				allDay: fc.oneof(fc.boolean(), parameterValue),
				attendees: parameterValue,
				minutes: parameterValue,
				count: parameterValue,
				byMonthDay: parameterValue,
			}),
			fc.constantFrom('v3', 'v1'),
			async (values, version) => {
				await expectCleanOutcome(version === 'v3' ? 'ctsEvent' : 'ctsEventV1', {
					resource: 'event',
					operation: 'create',
					accountId: 'acc-alice-a',
					calendarId: 'cal-alice-a-primary',
					title: 'x',
					start: values.start,
					allDay: values.allDay,
					endMode: typeof values.duration === 'string' && values.duration.startsWith('P') ? 'duration' : 'end',
					end: values.end,
					duration: values.duration,
					timeZone: values.timeZone,
					additionalFields: {
						attendees: values.attendees,
						alerts: { alert: [{ minutesBefore: values.minutes, action: 'display' }] },
						recurrence: { rule: { frequency: 'monthly', interval: 1, byMonthDay: values.byMonthDay, ends: 'count', count: values.count } },
					},
				}, createdEvent);
			},
		),
		{ numRuns: 150 },
	);
}, 300_000);

it('Task Get Many and Event Get Many: any filter values end cleanly', async () => {
	await fc.assert(
		fc.asyncProperty(parameterValue, parameterValue, parameterValue, parameterValue, async (limit, updatedAfter, start, end) => {
			await expectCleanOutcome('ctsTask', { resource: 'task', operation: 'getAll', returnAll: false, limit, filters: { updatedAfter } }, listed('Task'));
			await expectCleanOutcome('ctsEvent', {
				resource: 'event',
				operation: 'getAll',
				accountId: 'acc-alice-a',
				calendarIds: 'cal-alice-a-primary',
				start,
				end,
				returnAll: false,
				limit,
			}, listed('Event'));
		}),
		{ numRuns: 100 },
	);
}, 300_000);

it('Event Update and Delete: any identification, timing and field values end cleanly', async () => {
	const { body } = await sandbox.api('POST', '/v3/events/create', {
		body: { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary', title: 't', start: '2026-12-01T09:00:00', duration: 'PT1H', timeZone: 'UTC', showWithoutTime: false },
	});
	const realId = body.data.event.id as string;
	await fc.assert(
		fc.asyncProperty(
			fc.record({
				// The Event field is a resource locator: the editor stores `{ __rl, mode, value }`, and
				// workflows from before the list hold plain values. (A bare null, which no editor stores,
				// makes n8n's own parameter check fail before any node code: isValidResourceLocatorParameterValue.)
				eventId: fc.oneof(
					fc.constant(realId),
					parameterValue.filter((value) => value !== null),
					fc.record({ __rl: fc.constant(true), mode: fc.constantFrom('id', 'list'), value: fc.oneof(fc.constant(realId), parameterValue) }),
				),
				calendar: fc.oneof(
					fc.constant({ __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-primary' }),
					fc.record({ __rl: fc.constant(true), mode: fc.constantFrom('id', 'list'), value: parameterValue }),
				),
				start: parameterValue,
				end: parameterValue,
				timeZone: parameterValue,
				allDay: fc.oneof(fc.boolean(), parameterValue),
				remove: parameterValue,
				mode: fc.oneof(fc.constantFrom('single', 'future', 'all'), parameterValue),
			}),
			fc.constantFrom('update', 'delete'),
			async (values, operation) => {
				await expectCleanOutcome('ctsEvent', {
					resource: 'event',
					operation,
					identifyBy: 'id',
					eventId: values.eventId,
					calendarId: values.calendar,
					seriesUpdateMode: values.mode,
					updateFields: { start: values.start, end: values.end, timeZone: values.timeZone, allDay: values.allDay, participantsToRemove: values.remove },
				}, async (items) => {
					expect(items).toHaveLength(1);
					const { id, deleted, alreadyDeleted } = items[0].json;
					if (operation === 'update') {
						// The only event there is: a single event, which only This Occurrence changes.
						expect(id).toBe(realId);
						return;
					}
					// A delete that succeeds names an event, and that event is gone.
					expect(deleted).toBe(true);
					expect(String(id).trim()).not.toBe('');
					// It names the event, unless it says the event was already gone (then it names what was asked for).
					expect(alreadyDeleted === true ? [realId, id] : [realId]).toContain(id);
					expect((await sandbox.api('GET', '/v3/events', { qs: { id: id as string } })).status).toBe(404);
				});
			},
		),
		{ numRuns: 100 },
	);
}, 300_000);
