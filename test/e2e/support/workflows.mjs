/**
 * The workflows the end-to-end tests import into a real n8n and run with `n8n execute`.
 * Node types are given by prefix: `CUSTOM` for a package loaded through
 * N8N_CUSTOM_EXTENSIONS, the package name for an installed community package.
 */
import { randomUUID } from 'node:crypto';

export const CREDENTIALS = {
	api: { id: 'ctsE2eApiKey0001', name: 'CTS API (sandbox)', type: 'ctsApi' },
	badApi: { id: 'ctsE2eBadApiKey1', name: 'CTS API (wrong key)', type: 'ctsApi' },
	sync: { id: 'ctsE2eSyncToken1', name: 'CTS Sync API (sandbox)', type: 'ctsSyncApi' },
	expiredSync: { id: 'ctsE2eExpiredTk1', name: 'CTS Sync API (expired token)', type: 'ctsSyncApi' },
};

/** Credentials for `n8n import:credentials` (plain data is encrypted on import). */
export function credentialsFile({ sandboxUrl, token, expiredToken }) {
	return [
		{ ...CREDENTIALS.api, data: { apiKey: 'sandbox-alice-key', baseUrl: sandboxUrl } },
		{ ...CREDENTIALS.badApi, data: { apiKey: 'not-a-valid-key', baseUrl: sandboxUrl } },
		{ ...CREDENTIALS.sync, data: { token, syncUrl: sandboxUrl } },
		{ ...CREDENTIALS.expiredSync, data: { token: expiredToken, syncUrl: sandboxUrl } },
	];
}

/**
 * A workflow as n8n's REST API creates it (n8n gives it an ID), its CTS API nodes using
 * `credential` ({ id, name }): one created through the API, as a file's user on a shared n8n has.
 */
export function forRestApi(definition, credential) {
	const { id, ...body } = definition;
	void id;
	return { ...body, nodes: body.nodes.map((node) => (node.credentials?.ctsApi ? { ...node, credentials: { ...node.credentials, ctsApi: credential } } : node)) };
}

function credentialRef(credential) {
	return { [credential.type]: { id: credential.id, name: credential.name } };
}

/**
 * Builds a workflow from a start node and a list of steps. Each step is
 * { name, type: 'ctsTask' | 'ctsEvent', parameters, after?: name | 'Start', credential?, continueOnFail? }
 * and runs after the previous step unless `after` names another node.
 */
export function workflow({ id, name, prefix, steps }) {
	const start = {
		id: randomUUID(),
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodes = [start];
	const connections = {};
	let previous = 'Start';
	steps.forEach((step, index) => {
		const credential = step.credential ?? (step.type === 'ctsEventV1' ? CREDENTIALS.sync : CREDENTIALS.api);
		nodes.push({
			id: randomUUID(),
			name: step.name,
			type: `${prefix}.${step.type}`,
			typeVersion: 1,
			// n8n runs the branches of one output top to bottom: side branches sit above the main line.
			position: [240 * (index + 1), step.branch ? -200 : 0],
			parameters: step.parameters,
			credentials: credentialRef(credential),
			...(step.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
		});
		const from = step.after ?? previous;
		connections[from] ??= { main: [[]] };
		connections[from].main[0].push({ node: step.name, type: 'main', index: 0 });
		if (!step.branch) previous = step.name;
	});
	return { id, name, nodes, connections, active: false, settings: { executionOrder: 'v1' }, pinData: {} };
}

/**
 * The same workflow started by a production webhook (`POST /webhook/<workflow id>`, answered when
 * the run ends) instead of the manual trigger: how executions reach the workers in queue mode.
 */
export function withWebhookStart(definition) {
	const nodes = definition.nodes.map((node) =>
		node.name === 'Start'
			? {
					...node,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: randomUUID(),
					parameters: { httpMethod: 'POST', path: definition.id, responseMode: 'lastNode', options: {} },
				}
			: node,
	);
	return { ...definition, nodes };
}

const ref = (node, field = 'id') => `={{ $('${node}').item.json.${field} }}`;

/** A resource locator value as n8n's editor stores it, picked "From List". */
const fromList = (value, cachedResultName) => ({ __rl: true, mode: 'list', value, cachedResultName });
/** A resource locator value given "By ID" (the mode n8n's editor gives an expression). */
const byId = (value) => ({ __rl: true, mode: 'id', value });

/** Every Task operation, in the order a task lives through them. The steps output the service's objects (Raw). */
export function taskOperationsWorkflow(prefix) {
	const task = (name, parameters, extra = {}) => ({ name, type: 'ctsTask', parameters: { resource: 'task', output: 'raw', ...parameters }, ...extra });
	return workflow({
		id: 'ctsE2eTaskOps001',
		name: 'E2E: task operations',
		prefix,
		steps: [
			task('Create', {
				operation: 'create',
				title: 'E2E parent',
				additionalFields: {
					description: 'Made by n8n',
					due: '2026-12-01 17:00',
					timeZone: 'Europe/Berlin',
					priority: 3,
					tags: ['tag-alice-work', 'tag-alice-urgent'],
					estimatedDuration: 'PT1H15M',
				},
				returnTask: true,
			}),
			task('Create Subtask', { operation: 'create', title: 'E2E child', additionalFields: { parentTaskId: byId(ref('Create')) }, returnTask: true }),
			// The default: one call, the output is the ID, the fields sent and success.
			task('Create ID Only', { operation: 'create', title: 'E2E id only' }),
			task('Get', { operation: 'get', taskId: byId(ref('Create')) }),
			task('Update', {
				operation: 'update',
				taskId: byId(ref('Create')),
				updateFields: { title: 'E2E parent (renamed)', progress: 'in-process' },
				returnTask: true,
			}),
			task('Move', { operation: 'move', taskId: byId(ref('Create Subtask')), position: 'first', parent: 'root', returnTask: true }),
			// A plain Task value, as workflows saved before the task list have it.
			task('Move After', { operation: 'move', taskId: ref('Create ID Only'), position: 'after', previousTaskId: byId(ref('Create')), parent: 'keep', returnTask: false }),
			task('Close', { operation: 'close', taskId: byId(ref('Create')), returnTask: true }),
			task('Reopen', { operation: 'reopen', taskId: byId(ref('Create')), returnTask: false }),
			task('Get Many', { operation: 'getAll', returnAll: true }, { branch: true }),
			task('Get Many Limit', { operation: 'getAll', returnAll: false, limit: 1 }, { after: 'Reopen', branch: true }),
			task('Delete', { operation: 'delete', taskId: byId(ref('Create')) }, { after: 'Reopen' }),
			task('Delete Again', { operation: 'delete', taskId: byId(ref('Create')) }),
			task('Get Deleted', { operation: 'get', taskId: ref('Create') }),
		],
	});
}

/** Task error paths, each node under "Continue On Fail" so every error shows as an item. */
export function taskErrorsWorkflow(prefix) {
	const failing = (name, parameters, extra = {}) => ({
		name,
		type: 'ctsTask',
		parameters: { resource: 'task', output: 'raw', ...parameters },
		after: 'Start',
		branch: true,
		continueOnFail: true,
		...extra,
	});
	return workflow({
		id: 'ctsE2eTaskErr001',
		name: 'E2E: task errors',
		prefix,
		steps: [
			failing('Get Unknown', { operation: 'get', taskId: 'no-such-task' }),
			// Empty required fields stop n8n before the run ("workflow has issues"): an expression
			// that yields the bad value reaches the node, as data from a previous node would.
			failing('Create Empty Title', { operation: 'create', title: '={{ "" }}' }),
			failing('Create Bad Zone', { operation: 'create', title: 'x', additionalFields: { due: '2026-12-01 10:00', timeZone: 'EST' } }),
			failing('Update Nothing', { operation: 'update', taskId: 'abc', updateFields: {} }),
			failing('Update Unknown', { operation: 'update', taskId: 'no-such-task', updateFields: { title: 'x' } }),
			failing('Move Nowhere', { operation: 'move', taskId: 'abc', position: 'keep', parent: 'keep' }),
			failing('Get Many Bad Limit', { operation: 'getAll', returnAll: false, limit: '={{ 0 }}' }),
			failing('Wrong Key', { operation: 'get', taskId: 'abc' }, { credential: CREDENTIALS.badApi }),
		],
	});
}

/** A workflow that stops on an error (no "Continue On Fail"): n8n reports the failed run. */
export function taskFailureWorkflow(prefix) {
	return workflow({
		id: 'ctsE2eTaskFail01',
		name: 'E2E: task failure',
		prefix,
		steps: [{ name: 'Get Unknown', type: 'ctsTask', parameters: { resource: 'task', operation: 'get', taskId: 'no-such-task' } }],
	});
}

/** The calendar as workflows saved before the calendar list name it: two plain fields. */
const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
/** The same calendar picked "From List" (the value carries the account). */
const picked = { calendarId: fromList('acc-alice-a/cal-alice-a-primary', 'Personal (alice@sandbox.example, Provider A)') };
/** The same calendar "By ID", with its Account ID. */
const givenById = { calendarId: byId('cal-alice-a-primary'), accountId: 'acc-alice-a' };

/** Every v3 Event operation: single, all-day and recurring events. */
export function eventV3Workflow(prefix) {
	const event = (name, parameters, extra = {}) => ({
		name,
		type: 'ctsEvent',
		parameters: { resource: 'event', output: 'raw', ...parameters },
		...extra,
	});
	return workflow({
		id: 'ctsE2eEventV3001',
		name: 'E2E: events (v3)',
		prefix,
		steps: [
			event('Create', {
				operation: 'create',
				...picked,
				title: 'E2E planning',
				start: '2026-12-01T09:00:00',
				endMode: 'end',
				end: '2026-12-01T10:30:00',
				timeZone: 'Europe/Berlin',
				additionalFields: {
					description: 'Agenda',
					attendees: 'Ann <ann@example.com>',
					alerts: { alert: [{ minutesBefore: 15, action: 'display' }] },
					useDefaultAlerts: false,
				},
			}),
			event('Create All Day', {
				operation: 'create',
				...target,
				title: 'E2E trip',
				allDay: true,
				start: '2026-12-10',
				end: '2026-12-12',
				// The one step that shows the default output: simplified.
				output: 'simplified',
			}),
			event('Create Series', {
				operation: 'create',
				// A calendar ID alone: the node finds its account in the calendar list.
				calendarId: byId('cal-alice-a-primary'),
				title: 'E2E standup',
				start: '2026-12-07T09:00:00',
				endMode: 'duration',
				duration: 'PT15M',
				timeZone: 'Europe/Berlin',
				additionalFields: { recurrence: { rule: { frequency: 'weekly', interval: 1, byDay: ['mo', 'we'], ends: 'count', count: 4 } } },
			}),
			event('Get', { operation: 'get', eventId: ref('Create') }),
			event('Update', { operation: 'update', eventId: byId(ref('Create')), ...givenById, updateFields: { title: 'E2E planning (moved)', start: '2026-12-01T11:00:00' } }),
			event('Update Occurrence', {
				operation: 'update',
				identifyBy: 'occurrence',
				masterEventId: ref('Create Series'),
				recurrenceId: '2026-12-09T09:00:00',
				recurrenceIdTimeZone: 'Europe/Berlin',
				...target,
				seriesUpdateMode: 'single',
				updateFields: { title: 'E2E standup (moved)' },
			}),
			event('Get Many', { operation: 'getAll', accountId: 'acc-alice-a', calendarIds: ['cal-alice-a-primary'], start: '2026-11-01T00:00:00Z', end: '2027-03-01T00:00:00Z', returnAll: true }, { branch: true }),
			event(
				'Get Many Series',
				{
					operation: 'getAll',
					accountId: target.accountId,
					calendarIds: target.calendarId,
					start: '2026-12-01T00:00:00Z',
					end: '2027-01-01T00:00:00Z',
					returnAll: true,
					options: { recurringEvents: 'series' },
				},
				{ after: 'Update Occurrence', branch: true },
			),
			event('Update Series', { operation: 'update', eventId: ref('Create Series'), ...picked, seriesUpdateMode: 'all', updateFields: { description: 'Daily sync' } }, { after: 'Update Occurrence' }),
			event('Delete', { operation: 'delete', eventId: byId(ref('Create')), ...picked }),
			event('Delete Series', { operation: 'delete', eventId: ref('Create Series'), ...target, seriesUpdateMode: 'all' }),
			event('Delete Again', { operation: 'delete', eventId: byId(ref('Create')), ...givenById }),
		],
	});
}

/** v3 event error paths under "Continue On Fail". */
export function eventV3ErrorsWorkflow(prefix) {
	const failing = (name, parameters, extra = {}) => ({
		name,
		type: 'ctsEvent',
		parameters: { resource: 'event', output: 'raw', ...parameters },
		after: 'Start',
		branch: true,
		continueOnFail: true,
		...extra,
	});
	const timed = { operation: 'create', ...picked, title: 'x', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: 'Europe/Berlin' };
	return workflow({
		id: 'ctsE2eEventErr01',
		name: 'E2E: event errors (v3)',
		prefix,
		steps: [
			failing('Get Unknown', { operation: 'get', eventId: 'no-such-event' }),
			failing('Create Bad Zone', { ...timed, timeZone: 'EST' }),
			failing('Create End Before Start', { ...timed, end: '2026-12-01T08:00:00' }),
			failing('Expired Connection', {
				operation: 'getAll',
				accountId: 'acc-alice-expired',
				calendarIds: ['cal-alice-expired'],
				start: '2026-12-01T00:00:00Z',
				end: '2026-12-31T00:00:00Z',
				returnAll: true,
			}),
			failing('Delete Gone Is Error', { operation: 'delete', eventId: byId('no-such-event'), ...target, goneIsSuccess: false }),
			failing('Create In Read-only Calendar', { ...timed, calendarId: byId('cal-alice-a-holidays'), accountId: 'acc-alice-a' }),
			failing('Create In Unknown Calendar', { ...timed, calendarId: byId('cal-nowhere') }),
		],
	});
}

/** The Tag resource (the Task node) and the Calendar resource (the Event node). */
export function tagsAndCalendarsWorkflow(prefix) {
	const tag = (name, parameters, extra = {}) => ({ name, type: 'ctsTask', parameters: { resource: 'tag', ...parameters }, ...extra });
	return workflow({
		id: 'ctsE2eTagsCal001',
		name: 'E2E: tags and calendars',
		prefix,
		steps: [
			tag('Create Tag', { operation: 'create', name: 'E2E tag', color: '#00aa55' }),
			tag('Get Picked Tag', { operation: 'get', tagId: fromList('tag-alice-work', 'Work') }),
			tag('Update Tag', { operation: 'update', tagId: byId(ref('Create Tag')), updateFields: { name: 'E2E tag (renamed)' } }),
			tag('Get Many Tags', { operation: 'getAll', returnAll: true }, { branch: true }),
			tag('Delete Tag', { operation: 'delete', tagId: byId(ref('Create Tag')) }),
			{
				name: 'Get Many Calendars',
				type: 'ctsEvent',
				parameters: { resource: 'calendar', operation: 'getAll', returnAll: true },
				after: 'Start',
				branch: true,
			},
			{
				name: 'Find Free Time',
				type: 'ctsEvent',
				parameters: {
					resource: 'calendar',
					operation: 'findFreeTime',
					calendars: ['acc-alice-a/cal-alice-a-primary', 'acc-alice-b/cal-alice-b-primary'],
					start: '2026-12-01T09:00:00',
					end: '2026-12-01T12:00:00',
					timeZone: 'Europe/Berlin',
				},
				after: 'Start',
				branch: true,
			},
		],
	});
}

/**
 * Find a slot and book it with the conflict guard (a retry finds the event already there, another
 * event in the same time is skipped), then block time for a task twice: one block.
 */
export function timeBlockingWorkflow(prefix) {
	const primary = 'acc-alice-a/cal-alice-a-primary';
	const book = (name, title, extra) => ({
		name,
		type: 'ctsEvent',
		parameters: {
			resource: 'event',
			operation: 'create',
			output: 'raw',
			calendarId: fromList(primary, 'Personal (alice@sandbox.example, Provider A)'),
			title,
			start: "={{ $('Find Free Time').item.json.start }}",
			endMode: 'duration',
			duration: 'PT1H',
			timeZone: 'Europe/Berlin',
			...extra,
		},
	});
	const schedule = (name) => ({
		name,
		type: 'ctsTask',
		parameters: {
			resource: 'task',
			operation: 'schedule',
			taskId: byId("={{ $('Create Task').item.json.id }}"),
			calendarId: fromList(primary, 'Personal (alice@sandbox.example, Provider A)'),
			checkCalendars: [primary],
			notBefore: '2026-12-01T09:00:00',
			timeZone: 'Europe/Berlin',
		},
	});
	return workflow({
		id: 'ctsE2eTimeBlock1',
		name: 'E2E: find, book and block time',
		prefix,
		steps: [
			{
				name: 'Find Free Time',
				type: 'ctsEvent',
				parameters: { resource: 'calendar', operation: 'findFreeTime', calendars: [primary], start: '2026-12-01T09:00:00', end: '2026-12-01T12:00:00', timeZone: 'Europe/Berlin', minimumMinutes: 60 },
			},
			book('Book Slot', 'E2E focus', { ifTimeTaken: 'fail', skipIfExists: true }),
			book('Book Again', 'E2E focus', { ifTimeTaken: 'fail', skipIfExists: true }),
			book('Book Over It', 'E2E other', { ifTimeTaken: 'skip' }),
			{ name: 'Create Task', type: 'ctsTask', parameters: { resource: 'task', operation: 'create', title: 'E2E report', additionalFields: { estimatedDuration: 'PT90M', due: '2026-12-01 17:00', timeZone: 'Europe/Berlin' } } },
			schedule('Schedule'),
			schedule('Schedule Again'),
		],
	});
}

/** v1 (bearer token): create, list, update, RSVP, delete. */
export function eventV1Workflow(prefix) {
	const event = (name, parameters, extra = {}) => ({
		name,
		type: 'ctsEventV1',
		parameters: { resource: 'event', output: 'raw', ...parameters },
		...extra,
	});
	return workflow({
		id: 'ctsE2eEventV1001',
		name: 'E2E: events (v1) and RSVP',
		prefix,
		steps: [
			event('Create', {
				operation: 'create',
				calendarId: 'cal-alice-a-primary',
				title: 'E2E invitation',
				start: '2026-12-02T14:00:00',
				end: '2026-12-02T15:00:00',
				timeZone: 'Europe/Berlin',
				additionalFields: { attendees: 'Alice <alice@sandbox.example>' },
			}),
			event('Get Many', { operation: 'getAll', calendarIds: 'cal-alice-a-primary', start: '2026-12-01T00:00:00Z', end: '2026-12-31T00:00:00Z', returnAll: true }, { branch: true }),
			event('Update', { operation: 'update', eventId: ref('Create'), updateFields: { title: 'E2E invitation (v1)' } }, { after: 'Create' }),
			event('RSVP Tentative', { operation: 'rsvp', eventId: ref('Create'), rsvpAction: 'tentativelyAccept', comment: 'Maybe', notifyOrganizer: false }),
			event('RSVP Accept', { operation: 'rsvp', eventId: ref('Create'), rsvpAction: 'accept' }),
			event('Delete', { operation: 'delete', eventId: ref('Create') }),
			event('Delete Again', { operation: 'delete', eventId: ref('Create') }),
			event('Expired Token', { operation: 'delete', eventId: 'x' }, { credential: CREDENTIALS.expiredSync, continueOnFail: true, after: 'Start', branch: true }),
			event('RSVP Decline Unknown', { operation: 'rsvp', eventId: 'no-such-event', rsvpAction: 'decline' }, { continueOnFail: true, after: 'Start', branch: true }),
		],
	});
}

/** The trigger, for a started n8n (activated through the REST API). */
export function taskTriggerWorkflow(prefix) {
	return {
		id: 'ctsE2eTrigger001',
		name: 'E2E: task trigger',
		nodes: [
			{
				id: randomUUID(),
				name: 'CTS Task Trigger',
				type: `${prefix}.ctsTaskTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, events: ['created', 'updated'], filters: {} },
				credentials: credentialRef(CREDENTIALS.api),
			},
		],
		connections: {},
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** The event trigger, for a started n8n (activated through the REST API). */
export function eventTriggerWorkflow(prefix) {
	return {
		id: 'ctsE2eTrigger002',
		name: 'E2E: event trigger',
		nodes: [
			{
				id: randomUUID(),
				name: 'CTS Event Trigger',
				type: `${prefix}.ctsEventTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					accountId: 'acc-alice-a',
					calendarIds: ['cal-alice-a-primary'],
					events: ['created', 'updated', 'cancelled'],
					lookAheadDays: 14,
				},
				credentials: credentialRef(CREDENTIALS.api),
			},
		],
		connections: {},
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}
