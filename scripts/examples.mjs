/**
 * Example workflows that `npm start` puts into n8n: a task round trip, an event round trip
 * with a recurring series (v3), RSVP (v1) and the task trigger. They use the credentials
 * named here; node types are given by prefix (CUSTOM for the package loaded from dist/).
 */
import { randomUUID } from 'node:crypto';

/** The owner account `npm start` creates (a local instance: the password is printed anyway). */
export const START_OWNER = { email: 'owner@example.com', password: 'CtsSandbox-1', firstName: 'CTS', lastName: 'Owner' };

export const EXAMPLE_CREDENTIALS = {
	api: { name: 'CTS API (sandbox)', type: 'ctsApi' },
	sync: { name: 'CTS Sync API (sandbox)', type: 'ctsSyncApi' },
};

function note(content, position, size = [420, 220]) {
	return {
		id: randomUUID(),
		name: `Note ${randomUUID().slice(0, 8)}`,
		type: 'n8n-nodes-base.stickyNote',
		typeVersion: 1,
		position,
		parameters: { content, width: size[0], height: size[1] },
	};
}

/** A linear workflow: manual trigger, then the steps in order. */
function chain(name, prefix, credentials, steps, notes = []) {
	const nodes = [
		{ id: randomUUID(), name: 'Run', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 300], parameters: {} },
	];
	const connections = {};
	let previous = 'Run';
	steps.forEach((step, index) => {
		const credential = credentials[step.credential ?? 'api'];
		nodes.push({
			id: randomUUID(),
			name: step.name,
			type: `${prefix}.${step.type}`,
			typeVersion: 1,
			position: [220 * (index + 1), step.branch ? 120 : 300],
			parameters: step.parameters,
			credentials: { [credential.type]: { id: credential.id, name: credential.name } },
		});
		const from = step.after ?? previous;
		connections[from] ??= { main: [[]] };
		connections[from].main[0].push({ node: step.name, type: 'main', index: 0 });
		if (!step.branch) previous = step.name;
	});
	return { name, nodes: [...nodes, ...notes], connections, settings: { executionOrder: 'v1' }, active: false };
}

const id = (node) => `={{ $('${node}').item.json.id }}`;
/** An ID from an earlier node in a Task or Event field, stored as n8n's editor stores an expression there ("By ID"). */
const idOf = (node) => ({ __rl: true, mode: 'id', value: id(node) });

/**
 * @param {string} prefix  node type prefix
 * @param {{ api: {id,name,type}, sync: {id,name,type} }} credentials  the credentials as created in n8n
 */
export function exampleWorkflows(prefix, credentials) {
	const task = (name, parameters, extra = {}) => ({ name, type: 'ctsTask', parameters: { resource: 'task', ...parameters }, ...extra });
	const event = (name, parameters, extra = {}) => ({
		name,
		type: 'ctsEvent',
		parameters: { authentication: 'v3', resource: 'event', ...parameters },
		...extra,
	});
	const v1 = (name, parameters, extra = {}) => event(name, { ...parameters, authentication: 'v1' }, { credential: 'sync', ...extra });
	// The sandbox's calendar as picked from the Calendar list: with the real service, pick yours.
	const calendar = {
		calendarId: { __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-primary', cachedResultName: 'Personal (alice@sandbox.example, Provider A)' },
	};

	return [
		chain(
			'CTS example: task round trip',
			prefix,
			credentials,
			[
				task('Create Task', {
					operation: 'create',
					title: 'Try the CTS nodes',
					additionalFields: {
						description: 'Created by the example workflow',
						due: '={{ $now.plus({ days: 1 }).set({ hour: 17, minute: 0 }).toISO() }}',
						priority: 2,
						tags: ['tag-alice-work'],
					},
				}),
				task('Add Subtask', { operation: 'create', title: 'A step of it', additionalFields: { parentTaskId: idOf('Create Task') } }),
				task('Update Task', {
					operation: 'update',
					taskId: idOf('Create Task'),
					updateFields: { progress: 'in-process', title: 'Try the CTS nodes (started)' },
					returnTask: true,
				}),
				task('Close Task', { operation: 'close', taskId: idOf('Create Task'), returnTask: true }),
				task('Reopen Task', { operation: 'reopen', taskId: idOf('Create Task'), returnTask: true }),
				task('List Open Tasks', { operation: 'getAll', returnAll: true }, { branch: true }),
				task('Delete Task', { operation: 'delete', taskId: idOf('Create Task') }, { after: 'Reopen Task' }),
				task('Read Deleted Task', { operation: 'get', taskId: idOf('Create Task') }),
			],
			[note('## Task round trip\nCreates a task and a subtask, updates, closes and reopens it, lists the open tasks, deletes the task (with its subtask) and reads it back (`deleted: true`).\n\nClick **Execute workflow**, then open each node to see its output.', [0, -40], [560, 220])],
		),
		chain(
			'CTS example: event round trip with a recurring series (v3)',
			prefix,
			credentials,
			[
				event('Create Series', {
					operation: 'create',
					...calendar,
					title: 'Weekly planning',
					start: '={{ $now.plus({ weeks: 1 }).startOf("week").set({ hour: 9 }).toFormat("yyyy-LL-dd\'T\'HH:mm:ss") }}',
					endMode: 'duration',
					duration: 'PT45M',
					timeZone: 'Europe/Berlin',
					additionalFields: {
						recurrence: { rule: { frequency: 'weekly', interval: 1, byDay: ['mo'], ends: 'count', count: 6 } },
						participants: { participant: [{ email: 'ann@example.com', name: 'Ann', roles: ['attendee'] }] },
						alerts: { alert: [{ minutesBefore: 10, action: 'display' }] },
						useDefaultAlerts: false,
					},
				}),
				event('Read Series', { operation: 'get', eventId: id('Create Series') }),
				event(
					'List Occurrences',
					{
						operation: 'getAll',
						accountId: 'acc-alice-a',
						calendarIds: ['cal-alice-a-primary'],
						start: '={{ $now.toISO() }}',
						end: '={{ $now.plus({ months: 3 }).toISO() }}',
						returnAll: true,
					},
					{ branch: true },
				),
				event(
					'Rename Second Occurrence',
					{
						operation: 'update',
						identifyBy: 'occurrence',
						masterEventId: id('Create Series'),
						recurrenceId: `={{ DateTime.fromISO($('Create Series').item.json.start).plus({ weeks: 1 }).toFormat("yyyy-LL-dd'T'HH:mm:ss") }}`,
						recurrenceIdTimeZone: 'Europe/Berlin',
						...calendar,
						seriesUpdateMode: 'single',
						updateFields: { title: 'Weekly planning (with guests)' },
					},
					{ after: 'Read Series' },
				),
				event('Delete Series', { operation: 'delete', eventId: idOf('Create Series'), ...calendar, seriesUpdateMode: 'all' }),
			],
			[note('## Event round trip (v3, API key)\nCreates a weekly series of 6 occurrences, reads it, lists its occurrences for the next 3 months, renames one occurrence and deletes the whole series.\n\nDisable **Delete Series** to keep the events.', [0, -40], [560, 220])],
		),
		chain(
			'CTS example: RSVP (v1)',
			prefix,
			credentials,
			[
				v1('Create Invitation', {
					operation: 'create',
					calendarId: 'cal-alice-a-primary',
					title: 'Quarterly review',
					start: '={{ $now.plus({ days: 3 }).set({ hour: 14, minute: 0, second: 0 }).toFormat("yyyy-LL-dd\'T\'HH:mm:ss") }}',
					endMode: 'duration',
					duration: 'PT1H',
					timeZone: 'Europe/Berlin',
					additionalFields: {
						participants: {
							participant: [
								{ email: 'alice@sandbox.example', name: 'Alice (the account owner)', roles: ['attendee'] },
								{ email: 'bob@example.com', name: 'Bob', roles: ['owner', 'chair'] },
							],
						},
					},
				}),
				v1('Accept', { operation: 'rsvp', eventId: id('Create Invitation'), rsvpAction: 'accept', comment: 'See you there', notifyOrganizer: true }),
				event('Read Answer', { operation: 'get', eventId: id('Create Invitation') }),
			],
			[note('## RSVP (v1, bearer token)\nCreates an event that invites the account owner (alice@sandbox.example) through the older v1 interface, accepts it with a comment, and reads the event through v3: the owner\'s `participationStatus` is `accepted`.', [0, -40], [560, 220])],
		),
		{
			name: 'CTS example: task trigger',
			nodes: [
				{
					id: randomUUID(),
					name: 'New or Changed Task',
					type: `${prefix}.ctsTaskTrigger`,
					typeVersion: 1,
					position: [0, 300],
					parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, events: ['created', 'updated'], filters: {} },
					credentials: { ctsApi: { id: credentials.api.id, name: credentials.api.name } },
				},
				{ id: randomUUID(), name: 'Handle Task', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [260, 300], parameters: {} },
				note('## Task trigger\nChecks the task list every minute and starts for each task created or changed since the previous check.\n\n**Publish** (activate) the workflow, create or change a task (for example with the task round trip), and watch **Executions**. **Fetch test event** shows one open task.', [-40, 0], [560, 240]),
			],
			connections: { 'New or Changed Task': { main: [[{ node: 'Handle Task', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
			active: false,
		},
	];
}
