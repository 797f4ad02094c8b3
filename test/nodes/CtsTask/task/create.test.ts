/**
 * Task Create.
 *
 * The CTS Task node run by n8n's real engine (WorkflowExecute → RoutingNode) against the
 * sandbox over HTTP. What the node sent is read back from the sandbox's request log.
 */
import { AlteringProxy } from '../../../harness/alteringProxy';
import { ALICE_KEY } from '../../../harness/sandboxClient';
import { taskNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = taskNodeSuite();

async function apiCalls() {
	return await sandbox.requests();
}

describe('Create', () => {
	it('creates a task from its title and, with Return Task on, outputs the whole task read back (2 calls)', async () => {
		const { items, error } = await run({ operation: 'create', title: 'Write report', returnTask: true });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			'@type': 'Task',
			title: 'Write report',
			progress: 'needs-action',
			taskListId: 'default',
		});
		const calls = await apiCalls();
		expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /v3/tasks/create', 'GET /v3/tasks']);
		expect(calls[0].body).toEqual({ title: 'Write report' });
		expect(calls[1].query).toEqual({ id: items[0].json.id });
	});

	it('by default outputs the ID, the fields sent and success, with one call (1 point)', async () => {
		const parentId = await sandbox.createTask({ title: 'Parent' });
		await sandbox.clearRequests();
		const { items, error } = await run({ operation: 'create', title: 'Quick', additionalFields: { priority: 3, parentTaskId: parentId } });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: expect.any(String), title: 'Quick', priority: 3, parentTaskId: parentId, success: true });
		expect(Object.keys(items[0].json)[0]).toBe('id');
		expect(await apiCalls()).toHaveLength(1);
		expect(await sandbox.getTask(items[0].json.id as string)).toMatchObject({ title: 'Quick', priority: 3 });
	});

	it('outputs the same one-call shape when Return Task is set off explicitly', async () => {
		const { items, error } = await run({ operation: 'create', title: 'Quick', returnTask: false });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: expect.any(String), title: 'Quick', success: true });
		expect(await apiCalls()).toHaveLength(1);
	});

	it('maps every additional field to the request body', async () => {
		const parentId = await sandbox.createTask({ title: 'Parent' });
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'create',
			title: 'Child',
			additionalFields: {
				description: '<p>Details</p>',
				descriptionContentType: 'text/html',
				due: '2026-12-01T17:00:00+01:00',
				timeZone: 'America/New_York',
				estimatedDuration: 'PT1H30M',
				taskListId: 'default',
				priority: 1,
				progress: 'completed',
				parentTaskId: parentId,
				tags: 'tag-a, tag-b',
			},
		});
		expect(error).toBeUndefined();
		const [create] = await apiCalls();
		expect(create.body).toEqual({
			title: 'Child',
			description: '<p>Details</p>',
			descriptionContentType: 'text/html',
			due: '2026-12-01T11:00:00',
			timeZone: 'America/New_York',
			estimatedDuration: 'PT1H30M',
			taskListId: 'default',
			priority: 1,
			progress: 'completed',
			relatedTo: { [parentId]: { '@type': 'Relation', relation: { parent: true } } },
			tags: ['tag-a', 'tag-b'],
		});
		expect(items[0].json).toMatchObject({ due: '2026-12-01T11:00:00-05:00', timeZone: 'America/New_York', priority: 1 });
	});

	it.each([
		['a wall-clock time without a chosen zone is sent with the workflow zone it was read in', '2026-12-01T09:30:00', undefined, '2026-12-01T09:30:00', 'America/New_York'],
		['a date alone means midnight', '2026-12-01', 'Europe/Berlin', '2026-12-01T00:00:00', 'Europe/Berlin'],
		['an instant without a chosen zone is kept in the workflow zone', '2026-12-01T12:00:00Z', undefined, '2026-12-01T07:00:00', 'America/New_York'],
		['a space-separated time is understood', '2026-12-01 08:15', 'Asia/Tokyo', '2026-12-01T08:15:00', 'Asia/Tokyo'],
		[
			'an n8n DateTime expression is converted into the chosen zone',
			"={{ DateTime.fromISO('2026-06-01T10:00:00', { zone: 'Europe/Berlin' }) }}",
			'Europe/London',
			'2026-06-01T09:00:00',
			'Europe/London',
		],
	])('due: %s', async (_name, due, timeZone, expectedDue, expectedZone) => {
		const additionalFields: Record<string, unknown> = { due };
		if (timeZone) additionalFields.timeZone = timeZone;
		const { error } = await run({ operation: 'create', title: 'Due test', returnTask: false, additionalFields });
		expect(error).toBeUndefined();
		const [create] = await apiCalls();
		expect((create.body as Record<string, unknown>).due).toBe(expectedDue);
		expect((create.body as Record<string, unknown>).timeZone).toBe(expectedZone);
	});

	it.each([
		['an empty title', { title: '={{ "" }}' }, 'Title: must not be empty'],
		['a due date that is not a date', { title: 'x', additionalFields: { due: 'next tuesday' } }, 'Due: "next tuesday" is not a date and time'],
		['a time zone abbreviation', { title: 'x', additionalFields: { timeZone: 'EST' } }, 'Time Zone: "EST" is not an IANA time zone'],
		['a due date in an abbreviated chosen zone', { title: 'x', additionalFields: { due: '2026-12-01T09:00:00', timeZone: 'EST' } }, 'Time Zone: "EST" is not an IANA time zone'],
		['an offset as time zone', { title: 'x', additionalFields: { timeZone: 'GMT+1' } }, 'Time Zone: "GMT+1" is not an IANA time zone'],
		['a priority above 9', { title: 'x', additionalFields: { priority: '={{ 12 }}' } }, 'Priority: must be a whole number from 0 to 9'],
		['a priority below 0', { title: 'x', additionalFields: { priority: '={{ -1 }}' } }, 'Priority: must be a whole number from 0 to 9'],
		[
			'a duration that is not ISO 8601',
			{ title: 'x', additionalFields: { estimatedDuration: '90 minutes' } },
			'Estimated Duration: "90 minutes" is not an ISO 8601 duration',
		],
	])('refuses %s before any request, naming the field', async (_name, parameters, message) => {
		const { error, items } = await run({ operation: 'create', ...parameters });
		expect(items).toHaveLength(0);
		expect(error?.message).toContain(message);
		// No request, no HTTP status: the editor shows no "Error code" row (RoutingNode gave other errors "none").
		expect(error?.httpCode ?? null).toBeNull();
		expect(await apiCalls()).toHaveLength(0);
	});

	it.each(['GMT', 'Etc/GMT-2', 'EST5EDT', 'Universal'])(
		'refuses a due date when no zone is chosen and the workflow zone is %s, before any request',
		async (workflowZone) => {
			const { error, items } = await run({ operation: 'create', title: 'x', additionalFields: { due: '2026-12-01T09:00:00' } }, { timezone: workflowZone });
			expect(items).toHaveLength(0);
			expect(error?.message).toBe(
				`Due: the workflow's time zone "${workflowZone}" is not one the service accepts, so the date cannot be sent in it: choose a Time Zone`,
			);
			expect(await apiCalls()).toHaveLength(0);
		},
	);

	it('says so in the output when the due time falls into a daylight-saving gap', async () => {
		const { items, error } = await run({
			operation: 'create',
			title: 'x',
			additionalFields: { due: '2026-03-29T02:30:00', timeZone: 'Europe/Berlin' },
		});
		expect(error).toBeUndefined();
		const [create] = await apiCalls();
		expect(create.body).toMatchObject({ due: '2026-03-29T03:30:00', timeZone: 'Europe/Berlin' });
		expect(items[0].json).toMatchObject({ due: '2026-03-29T03:30:00+02:00' });
		expect(items[0].json.notices).toEqual([
			'Due: 2026-03-29 02:30:00 does not exist in Europe/Berlin (the clocks skip that hour for daylight saving time), so it was taken as 2026-03-29 03:30:00',
		]);
	});

	it('does not send an added but empty due date, time zone or task list', async () => {
		const { error } = await run({
			operation: 'create',
			title: 'x',
			returnTask: false,
			additionalFields: { due: '', timeZone: '', description: 'kept' },
		});
		expect(error).toBeUndefined();
		const [create] = await apiCalls();
		expect(create.body).toEqual({ title: 'x', description: 'kept' });
	});

	it('fails, instead of outputting an empty ID, when the service answers create without one', async () => {
		const proxy = new AlteringProxy(sandbox.url, (_method, path, answer) =>
			path === '/v3/tasks/create' ? { ...answer, body: Buffer.from(JSON.stringify({ data: {} })) } : answer,
		);
		await proxy.start();
		try {
			const { error, items } = await run(
				{ operation: 'create', title: 'x', returnTask: false },
				{ credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: proxy.url } } },
			);
			expect(items).toHaveLength(0);
			expect(error?.message).toBe('The service answered the create request without a task ID');
			expect(error?.description).toContain('The task may have been created');
		} finally {
			await proxy.stop();
		}
	});

	it('shows a service validation error decoded, with status and errorRef', async () => {
		const { error } = await run({
			operation: 'create',
			title: 'x',
			returnTask: false,
			additionalFields: { progress: '={{ "in-process" }}' },
		});
		expect(error?.message).toBe('The service rejected the request: Progress must be one of: needs-action, completed');
		expect(error?.message).not.toContain('["');
		expect(error?.description).toMatch(/HTTP 400 · errorRef \S+/);
		expect(error?.httpCode).toBe('400');
	});
});
