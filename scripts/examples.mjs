/**
 * Example workflows that `npm start` puts into n8n: a task round trip, an event round trip
 * with a recurring series (v3), RSVP (v1), the task trigger, completed tasks, an MCP server offering the
 * nodes as tools to AI agents, a morning briefing, open tasks planned into free time, busy time
 * mirrored between a work and a personal calendar, and tasks kept in step with a CSV file and, both
 * ways, with an n8n data table. They use the credentials named here; node types are given by prefix
 * (the package name: npm start installs the project as a community package).
 *
 * Each one does something visible on the first click of *Execute workflow*. With two triggers,
 * n8n's editor (2.41.1) starts from the one it ranks first, not from the first on the canvas: a form
 * trigger, then a webhook, then any app's trigger (a CTS trigger), then a schedule, then a manual
 * trigger; so every trigger of such an example leads to what it shows.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** The task-completed example's pinned sample: a completed task in the trigger's Simplified output. */
export const COMPLETED_TASK_SAMPLE = {
	id: '5f0c2b7e-8d41-4a3f-9c6e-1b2a7d9e4f10',
	title: 'Send the quarterly report',
	due: '2026-12-01T17:00:00+01:00',
	timeZone: 'Europe/Berlin',
	priority: 1,
	progress: 'completed',
	tags: [],
	scheduled: false,
	created: '2026-11-27T08:12:40.000Z',
	updated: '2026-11-30T16:05:12.000Z',
	triggerEvent: 'completed',
};

const id = (node) => `={{ $('${node}').item.json.id }}`;
/** An ID from an earlier node in a Task or Event field, stored as n8n's editor stores an expression there ("By ID"). */
const idOf = (node) => ({ __rl: true, mode: 'id', value: id(node) });

/** The CSV of tasks the CSV example syncs: `npm start` copies it into the folder n8n may read files from. */
export const EXAMPLE_TASKS_CSV = fileURLToPath(new URL('./example-files/tasks.csv', import.meta.url));

/** The n8n data table of the two-way example, as `npm start` creates it. */
export const EXAMPLE_TASKS_TABLE = {
	name: 'CTS example tasks',
	columns: [
		{ name: 'title', type: 'string' },
		{ name: 'notes', type: 'string' },
		{ name: 'done', type: 'boolean' },
	],
	rows: [
		{ title: 'Book the venue for the launch party', notes: 'Up to 60 guests', done: false },
		{ title: 'Write the launch blog post', notes: '', done: false },
		{ title: 'Update the pricing page', notes: 'New plans from January', done: false },
	],
};

/** Source names of the sync examples: each touches only the tasks it made. */
export const SYNC_SOURCES = { csv: 'csv-tasks', table: 'tasks-table' };

/** The names of the two sync examples. */
export const SYNC_EXAMPLES = { csv: 'CTS example: sync tasks from a CSV file', table: 'CTS example: two-way sync with a data table' };

/** Where the CSV example reads its file: `files` (N8N_RESTRICT_FILE_ACCESS_TO) under the state folder. */
export const exampleFilesDir = (stateDir) => join(stateDir, 'files');

/**
 * n8n's environment for the CSV example: n8n 2.x reads files only from N8N_RESTRICT_FILE_ACCESS_TO
 * (default ~/.n8n-files, kept allowed); one folder for all processes, workers included.
 */
export const exampleFilesEnv = (stateDir) => ({ N8N_RESTRICT_FILE_ACCESS_TO: `${exampleFilesDir(stateDir)};~/.n8n-files` });

/**
 * @param {string} prefix  node type prefix
 * @param {{ api: {id,name,type}, sync: {id,name,type} }} credentials  the credentials as created in n8n
 * @param {{ tasksCsv: string, tasksTable: { id: string, name: string } }} syncSetup  the CSV file n8n
 *   reads (absolute path) and the data table as created in n8n, for the sync examples
 */
export function exampleWorkflows(prefix, credentials, syncSetup) {
	const task = (name, parameters, extra = {}) => ({ name, type: 'ctsTask', parameters: { resource: 'task', ...parameters }, ...extra });
	const event = (name, parameters, extra = {}) => ({
		name,
		type: 'ctsEvent',
		parameters: { resource: 'event', ...parameters },
		...extra,
	});
	const v1 = (name, parameters, extra = {}) => ({ ...event(name, parameters, { credential: 'sync', ...extra }), type: 'ctsEventV1' });
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
						due: '={{ $now.plus({ days: 1 }).set({ hour: 17, minute: 0, second: 0, millisecond: 0 }).toISO({ suppressMilliseconds: true }) }}',
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
						attendees: 'Ann <ann@example.com>',
						alerts: { alert: [{ minutesBefore: 10, action: 'display' }] },
						useDefaultAlerts: false,
					},
				}),
				event('Read Series', { operation: 'get', eventId: id('Create Series') }),
				event(
					'List Occurrences',
					{
						operation: 'getAll',
						// As the Calendars list stores a pick: the calendar with its account.
						calendarIds: ['acc-alice-a/cal-alice-a-primary'],
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
						recurrenceId: `={{ DateTime.fromISO($('Create Series').item.json.start, { setZone: true }).plus({ weeks: 1 }).toFormat("yyyy-LL-dd'T'HH:mm:ss") }}`,
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
						attendees: '"Alice (the account owner)" <alice@sandbox.example>, Bob <bob@example.com> (owner, chair)',
					},
				}),
				v1('Accept', { operation: 'rsvp', eventId: id('Create Invitation'), rsvpAction: 'accept', comment: 'See you there', notifyOrganizer: true }),
				event('Read Answer', { operation: 'get', eventId: id('Create Invitation') }),
				v1('Delete Invitation', { operation: 'delete', eventId: id('Create Invitation') }),
			],
			[note('## RSVP (v1, bearer token)\nCreates an event that invites the account owner (alice@sandbox.example) through the older v1 interface, accepts it with a comment, reads the event through v3 (the owner\'s `participationStatus` is `accepted`) and deletes it.\n\nDisable **Delete Invitation** to keep the event.', [0, -40], [560, 220])],
		),
		mcpServerWorkflow(prefix, credentials),
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
				note('## Task trigger\nChecks the task list as often as its Budget Share allows (its hint says how often; [how checks are paced](https://github.com/calendar-task-service/n8n-nodes-calendar-task-service#the-point-budget-rate-limits-and-retries)) and starts for each task created or changed since the previous check.\n\n**Publish** (activate) the workflow, create or change a task (for example with the task round trip), and watch **Executions**. **Fetch test event** shows one open task.', [-40, 0], [560, 240]),
			],
			connections: { 'New or Changed Task': { main: [[{ node: 'Handle Task', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
			active: false,
		},
		{
			name: 'CTS example: task completed',
			nodes: [
				{
					id: randomUUID(),
					name: 'Task Completed',
					type: `${prefix}.ctsTaskTrigger`,
					typeVersion: 1,
					position: [0, 300],
					parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, events: ['completed', 'deleted'], filters: {} },
					credentials: { ctsApi: { id: credentials.api.id, name: credentials.api.name } },
				},
				{ id: randomUUID(), name: 'Post to Chat', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [260, 300], parameters: {} },
				note(
					"## When a task is completed, post to chat\nChecks the open tasks as often as its Budget Share allows (its hint says how often) and starts for each task completed or deleted since the previous check; `triggerEvent` says which. Its pinned sample is a completed task, so **Execute workflow** shows the message as it will look.\n\nReplace **Post to Chat** with a Slack, Microsoft Teams or Send Email node, message: `{{ $json.triggerEvent === 'completed' ? '✅' : '🗑️' }} {{ $json.title }}`. **Publish** the workflow, complete a task, and watch **Executions**.",
					[-40, -20],
					[560, 260],
				),
			],
			connections: { 'Task Completed': { main: [[{ node: 'Post to Chat', type: 'main', index: 0 }]] } },
			// What Fetch Test Event cannot give before a completion was seen: a completed task, as the trigger delivers it.
			pinData: { 'Task Completed': [{ json: COMPLETED_TASK_SAMPLE }] },
			settings: { executionOrder: 'v1' },
			active: false,
		},
		morningBriefingWorkflow(prefix, credentials),
		planningWorkflow(prefix, credentials),
		mirrorBusyTimeWorkflow(prefix, credentials),
		csvSyncWorkflow(prefix, credentials, syncSetup.tasksCsv),
		tableSyncWorkflow(prefix, credentials, syncSetup.tasksTable),
	];
}

const node = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: randomUUID(), name, type, typeVersion, position, parameters, ...extra });
const apiCredential = (credentials) => ({ credentials: { ctsApi: { id: credentials.api.id, name: credentials.api.name } } });
const link = (...names) => Object.fromEntries(names.slice(0, -1).map((name, index) => [name, { main: [[{ node: names[index + 1], type: 'main', index: 0 }]] }]));

export const MIRROR_EXAMPLE = 'CTS example: mirror busy time between work and personal calendars';

/**
 * Every 15 minutes the work calendar's busy events are copied into the personal calendar as
 * "Busy" blocks and the other way round; copies are never copied back.
 */
function mirrorBusyTimeWorkflow(prefix, credentials) {
	// The sandbox's calendars as picked from the lists: with the real service, pick yours.
	const work = { value: 'acc-alice-b/cal-alice-b-primary', name: 'Calendar (alice@sandbox.example, Provider B)' };
	const personal = { value: 'acc-alice-a/cal-alice-a-primary', name: 'Personal (alice@sandbox.example, Provider A)' };
	const mirror = (source, target) => ({
		resource: 'calendar',
		operation: 'mirrorBusyTime',
		sourceCalendars: [source.value],
		calendarId: { __rl: true, mode: 'list', value: target.value, cachedResultName: target.name },
		copyTitle: 'fixed',
		title: 'Busy',
		options: {},
	});
	return {
		name: MIRROR_EXAMPLE,
		nodes: [
			node('Every 15 Minutes', 'n8n-nodes-base.scheduleTrigger', 1.2, [0, 420], { rule: { interval: [{ field: 'minutes', minutesInterval: 15 }] } }),
			node('Work → Personal', `${prefix}.ctsEvent`, 1, [260, 320], mirror(work, personal), apiCredential(credentials)),
			node('Personal → Work', `${prefix}.ctsEvent`, 1, [260, 520], mirror(personal, work), apiCredential(credentials)),
			note(
				"## Keep work and personal calendars from double-booking\nOnce **Published**, every 15 minutes: **Work → Personal** copies each busy event of today and the next 14 days into the personal calendar as a `Busy` block without its details, and **Personal → Work** does the other way. Nothing changed: nothing is written. A moved event moves its copy; a cancelled, declined or deleted one removes it. Copies are never copied back. What a run costs: [the point budget](https://github.com/calendar-task-service/n8n-nodes-calendar-task-service#the-point-budget-rate-limits-and-retries).\n\nPick your calendars in both nodes; turn on **Preview** to see the plan without writing.",
				[-40, -40],
				[620, 300],
			),
		],
		// Both from the trigger's one item: a node after the other would run once per item the first outputs.
		connections: { 'Every 15 Minutes': { main: [[{ node: 'Work → Personal', type: 'main', index: 0 }, { node: 'Personal → Work', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** A CSV file of tasks → Extract From File → Sync Tasks: run it again after editing the file, and only what changed is written. */
function csvSyncWorkflow(prefix, credentials, tasksCsv) {
	return {
		name: SYNC_EXAMPLES.csv,
		nodes: [
			node('Run', 'n8n-nodes-base.manualTrigger', 1, [0, 300], {}),
			node('Read tasks.csv', 'n8n-nodes-base.readWriteFile', 1, [220, 300], { operation: 'read', fileSelector: tasksCsv, options: {} }),
			node('Extract From CSV', 'n8n-nodes-base.extractFromFile', 1.1, [440, 300], { operation: 'csv', binaryPropertyName: 'data', options: {} }),
			node(
				'Sync Tasks',
				`${prefix}.ctsTask`,
				1,
				[660, 300],
				{
					resource: 'task',
					operation: 'sync',
					source: SYNC_SOURCES.csv,
					sourceKey: '={{ $json.id }}',
					title: '={{ $json.title }}',
					syncFields: {
						description: '={{ $json.notes }}',
						done: "={{ $json.status === 'done' }}",
						due: '={{ $json.due }}',
						priority: '={{ $json.priority }}',
						tags: '={{ $json.tags }}',
					},
					missingTasks: 'complete',
				},
				apiCredential(credentials),
			),
			note(
				`## Sync tasks from a CSV file\nEach row of \`tasks.csv\` becomes a task; status \`done\` completes it, and a row taken out completes its task. Edit the file and run again: only changes are written.\n\nYour own file: set its path in **Read tasks.csv** (inside N8N_RESTRICT_FILE_ACCESS_TO) and map its columns in **Sync Tasks**.`,
				[-40, 0],
				[620, 260],
			),
		],
		connections: link('Run', 'Read tasks.csv', 'Extract From CSV', 'Sync Tasks'),
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/**
 * Two-way between an n8n data table and the service: every 15 minutes, and after each task
 * completed in the service, the rows become tasks (a row ticked done completes its task); a task
 * completed in the service ticks its row first. The trigger leaves out the sync's own writes, so
 * nothing loops. Both triggers lead to the sync, so *Execute workflow* syncs the rows whichever
 * n8n starts from (it ranks the CTS trigger above the schedule).
 */
function tableSyncWorkflow(prefix, credentials, table) {
	const dataTableId = { __rl: true, mode: 'list', value: table.id, cachedResultName: table.name };
	const column = (name, type, removed) => ({ id: name, displayName: name, required: false, defaultMatch: false, display: true, type, readOnly: false, removed });
	return {
		name: SYNC_EXAMPLES.table,
		nodes: [
			// Above the sync, so that n8n (execution order v1: the topmost branch first) ticks a row before the sync reads the rows.
			node(
				'Task Completed',
				`${prefix}.ctsTaskTrigger`,
				1,
				[0, 200],
				{
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					events: ['completed'],
					filters: { ignoreSyncChanges: true },
					options: { budgetShare: 50 },
				},
				apiCredential(credentials),
			),
			node('Rows of This Table', 'n8n-nodes-base.filter', 2.2, [240, 200], {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
					conditions: [{ id: randomUUID(), leftValue: '={{ $json.syncSource }}', rightValue: SYNC_SOURCES.table, operator: { type: 'string', operation: 'equals' } }],
					combinator: 'and',
				},
				options: {},
			}),
			node('Tick Done', 'n8n-nodes-base.dataTable', 1.1, [480, 200], {
				resource: 'row',
				operation: 'update',
				dataTableId,
				matchType: 'allConditions',
				filters: { conditions: [{ keyName: 'id', condition: 'eq', keyValue: '={{ Number($json.syncKey) }}' }] },
				columns: {
					mappingMode: 'defineBelow',
					value: { done: true },
					matchingColumns: [],
					schema: [column('title', 'string', true), column('notes', 'string', true), column('done', 'boolean', false)],
					attemptToConvertTypes: false,
					convertFieldsToString: false,
				},
				options: {},
			}),
			node('Every 15 Minutes', 'n8n-nodes-base.scheduleTrigger', 1.2, [0, 440], { rule: { interval: [{ field: 'minutes', minutesInterval: 15 }] } }),
			// Once per run, however many tasks the trigger delivered: the sync takes the table's whole set of rows.
			node('Get Rows', 'n8n-nodes-base.dataTable', 1.1, [240, 440], { resource: 'row', operation: 'get', dataTableId, returnAll: true }, { executeOnce: true }),
			node(
				'Sync Tasks',
				`${prefix}.ctsTask`,
				1,
				[480, 440],
				{
					resource: 'task',
					operation: 'sync',
					source: SYNC_SOURCES.table,
					sourceKey: '={{ $json.id }}',
					title: '={{ $json.title }}',
					syncFields: { description: '={{ $json.notes }}', done: '={{ $json.done === true }}' },
				},
				apiCredential(credentials),
			),
			note(
				`## Two-way sync with a data table\nThe rows of **${table.name}** become tasks; ticking a row's \`done\` completes its task, and completing the task in the service ticks its row. The trigger leaves out the sync's own changes, so nothing loops.\n\n**Execute workflow** syncs the rows now, whichever trigger n8n starts from. **Publish** it to sync every 15 minutes and after each task completed in the service.`,
				[-40, -120],
				[600, 260],
			),
		],
		connections: {
			'Task Completed': {
				main: [
					[
						{ node: 'Rows of This Table', type: 'main', index: 0 },
						{ node: 'Get Rows', type: 'main', index: 0 },
					],
				],
			},
			...link('Rows of This Table', 'Tick Done'),
			...link('Every 15 Minutes', 'Get Rows', 'Sync Tasks'),
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** Every working morning: today's agenda as one Digest, ready for a chat or e-mail node (here a No Op). */
function morningBriefingWorkflow(prefix, credentials) {
	const toAgenda = { main: [[{ node: 'Get Agenda', type: 'main', index: 0 }]] };
	return {
		name: 'CTS example: morning briefing',
		nodes: [
			{
				id: randomUUID(),
				name: 'Every Weekday at 07:30',
				type: 'n8n-nodes-base.scheduleTrigger',
				typeVersion: 1.2,
				position: [0, 200],
				parameters: { rule: { interval: [{ field: 'cronExpression', expression: '30 7 * * 1-5' }] } },
			},
			// For `n8n execute` and a click on this trigger; the editor's Execute workflow starts from the schedule (it ranks a schedule above a manual trigger): both lead to Get Agenda.
			{ id: randomUUID(), name: 'Run', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 400], parameters: {} },
			{
				id: randomUUID(),
				name: 'Get Agenda',
				type: `${prefix}.ctsEvent`,
				typeVersion: 1,
				position: [260, 300],
				parameters: {
					resource: 'calendar',
					operation: 'getAgenda',
					calendars: [],
					agendaPeriod: 'day',
					agendaOutput: 'digest',
					includeTasks: true,
					options: { includeOverdue: true },
				},
				credentials: { ctsApi: { id: credentials.api.id, name: credentials.api.name } },
			},
			{ id: randomUUID(), name: 'Post to Chat', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [520, 300], parameters: {} },
			note(
				"## Morning briefing\nEvery weekday at 07:30 (the workflow's time zone): today's events of every calendar, the tasks due and overdue, and the time blocks, as one **Digest** item: `text` (Markdown for Slack, Telegram, Teams), `html` (a table for e-mail), `counts` and the free time left in working hours. What a run costs: [the point budget](https://github.com/calendar-task-service/n8n-nodes-calendar-task-service#the-point-budget-rate-limits-and-retries).\n\nReplace **Post to Chat** with a chat node (message: `{{ $json.text }}`) or Send Email (HTML: `{{ $json.html }}`). Click **Execute workflow** to try it; **Publish** it to get it every morning.",
				[-40, -80],
				[600, 260],
			),
		],
		connections: { 'Every Weekday at 07:30': toAgenda, Run: toAgenda, 'Get Agenda': { main: [[{ node: 'Post to Chat', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

export const PLANNING_EXAMPLE = 'CTS example: plan open tasks into free time';

/**
 * Find Free Time and Plan Tasks, run from the editor: the free slots of the next seven days in every
 * calendar the user may read, and the open tasks time-blocked into them in Preview (nothing is
 * booked, so running it again changes nothing).
 */
function planningWorkflow(prefix, credentials) {
	// The sandbox's calendar as picked from the Calendar list: with the real service, pick yours.
	const personal = { __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-primary', cachedResultName: 'Personal (alice@sandbox.example, Provider A)' };
	const fromRun = { main: [[{ node: 'Free Time This Week', type: 'main', index: 0 }, { node: 'Plan Open Tasks', type: 'main', index: 0 }]] };
	return {
		name: PLANNING_EXAMPLE,
		nodes: [
			node('Run', 'n8n-nodes-base.manualTrigger', 1, [0, 300], {}),
			node(
				'Free Time This Week',
				`${prefix}.ctsEvent`,
				1,
				[260, 200],
				{ resource: 'calendar', operation: 'findFreeTime', calendars: [], freeTimeOutput: 'slots', start: '={{ $now }}', end: "={{ $now.plus(7, 'days') }}", minimumMinutes: 30, options: {} },
				apiCredential(credentials),
			),
			node(
				'Plan Open Tasks',
				`${prefix}.ctsTask`,
				1,
				[260, 420],
				{ resource: 'task', operation: 'plan', tasksFrom: 'filters', filters: {}, calendarId: personal, checkCalendars: [], preview: true, options: {} },
				apiCredential(credentials),
			),
			note(
				"## Plan open tasks into free time\n**Free Time This Week** lists the free slots of every calendar you may read, in working hours. **Plan Open Tasks** shows where each open task would go, by priority and due date, in **Preview**: nothing is booked. What a run costs: [the point budget](https://github.com/calendar-task-service/n8n-nodes-calendar-task-service#the-point-budget-rate-limits-and-retries).\n\nClick **Execute workflow**. Turn Preview off to book the blocks in **Personal**; run again and it keeps them.",
				[-40, -80],
				[600, 260],
			),
		],
		connections: { Run: fromRun },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** Path of the example MCP server: `<n8n>/mcp/cts-tools`. */
export const MCP_PATH = 'cts-tools';

const fromAI = (key, description, type = 'string', defaultValue) =>
	`$fromAI('${key}', \`${description}\`, '${type}'${defaultValue === undefined ? '' : `, ${JSON.stringify(defaultValue)}`})`;
const ai = (...args) => `={{ ${fromAI(...args)} }}`;
/** A "By ID" resource locator an agent fills in. */
const aiId = (...args) => ({ __rl: true, mode: 'id', value: ai(...args) });

const LOCAL_TIME =
	'local date and time without offset, e.g. 2026-12-01T09:00:00, read in timeZone (an ISO 8601 time with offset, e.g. 2026-12-01T09:00:00+01:00, is converted into timeZone)';
const PASS_BACK = 'Pass it exactly as received (IDs are case-sensitive and may contain + / =).';

/**
 * The tools of the example MCP server: name (the tool name agents see), node type, credential,
 * description and parameters with `$fromAI` placeholders. Shared by the example workflow and the
 * tests that call the tools.
 */
export const MCP_TOOLS = [
	{
		name: 'create_task',
		type: 'ctsTask',
		description: 'Create a task in the user\'s task list. Returns the task (its id is the Task ID for later calls).',
		parameters: {
			resource: 'task',
			operation: 'create',
			title: ai('title', 'Title of the task, at least 1 character'),
			additionalFields: {
				due: ai('due', `When the task is due: ${LOCAL_TIME}. Empty string: no due date`, 'string', ''),
				timeZone: ai('timeZone', 'IANA time zone of the due date, e.g. Europe/Berlin. Empty string: the time zone of the workflow', 'string', ''),
				priority: ai('priority', 'Priority from 1 (highest) to 9 (lowest); 0 for none', 'number', 0),
				description: ai('description', 'Details of the task as plain text. Empty string: none', 'string', ''),
			},
			returnTask: true,
		},
	},
	{
		name: 'add_task_unless_there',
		type: 'ctsTask',
		description:
			"Add a task for something the user must do, unless a task for it is already there, found by its key (e.g. an e-mail's Message-ID or a ticket URL): the first call creates the task, a later call with the same key updates only what differs and never makes a second one. Returns action (created, updated or unchanged), taskId and title.",
		parameters: {
			resource: 'task',
			operation: 'upsert',
			sourceKey: ai('key', "What identifies the thing the task is for, e.g. an e-mail's Message-ID or a ticket URL: the same key always means the same task"),
			title: ai('title', 'Title of the task, at least 1 character'),
			syncFields: {
				due: ai('due', `When the task is due: ${LOCAL_TIME}. Empty string: no due date`, 'string', ''),
				timeZone: ai('timeZone', 'IANA time zone of the due date, e.g. Europe/Berlin. Empty string: the time zone of the workflow', 'string', ''),
			},
		},
	},
	{
		name: 'list_my_tasks',
		type: 'ctsTask',
		description: 'List the user\'s open tasks (completed and deleted tasks are not listed), oldest change first. Returns each task with its id, title, due date, priority and progress.',
		parameters: {
			resource: 'task',
			operation: 'getAll',
			returnAll: false,
			limit: ai('limit', 'Most tasks to return, 1 to 100', 'number', 20),
		},
	},
	{
		name: 'list_calendars',
		type: 'ctsEvent',
		description:
			'List the user\'s calendars: id (the calendarId of the other tools), accountId, the user\'s name for it, the account\'s e-mail, whether events can be written to it and whether its account is connected. Call it first to learn the calendar IDs.',
		parameters: { resource: 'calendar', operation: 'getAll', returnAll: true },
	},
	{
		name: 'create_event',
		type: 'ctsEvent',
		description:
			'Create a calendar event. Returns the event: id (the Event ID for update_event and answer_invitation), start and end in its time zone, calendarId, accountId, participants and meetingUrl.',
		parameters: {
			resource: 'event',
			operation: 'create',
			calendarId: aiId('calendarId', `ID of the calendar to create the event in (id from list_calendars). ${PASS_BACK}`),
			title: ai('title', 'Title of the event'),
			start: ai('start', `Start of the event: ${LOCAL_TIME}. For an all-day event give the date only, e.g. 2026-12-01`),
			endMode: 'end',
			end: ai('end', 'End of the event, after its start: local date and time without offset, e.g. 2026-12-01T10:00:00, read in timeZone (an ISO 8601 time with offset, e.g. 2026-12-01T10:00:00+01:00, is converted into timeZone). For an all-day event its last day, date only, e.g. 2026-12-01 (a one-day event: the date it starts)'),
			timeZone: ai('timeZone', 'IANA time zone the event happens in, e.g. Europe/Berlin (not an offset such as +01:00)'),
			additionalFields: {
				description: ai('description', 'Details of the event as plain text. Empty string: none', 'string', ''),
				attendees: ai('attendees', 'E-mail addresses of the people to invite, separated by commas or semicolons, each may be written Name <address>, with roles in parentheses after it when not just attendee, e.g. Ann <ann@example.com> (optional). Empty string: nobody', 'string', ''),
				rrule: ai('repeat', 'How the event repeats, as an iCalendar RRULE, e.g. FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10 or FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20271231. Empty string: it does not repeat', 'string', ''),
				requestVirtualRoom: `={{ ${fromAI('videoMeeting', 'Whether to attach a video meeting room; its link comes back as meetingUrl', 'boolean', false)} ? 'default' : undefined }}`,
			},
			// A repeated call returns the event it made the first time (alreadyExists: true) instead of booking twice.
			skipIfExists: true,
		},
	},
	{
		name: 'list_events',
		type: 'ctsEvent',
		description:
			'List the events of one or more calendars of one account in a time range; recurring events are listed occurrence by occurrence, each with its own id and its series\' masterEventId. Returns each event with id, title, start, end, timeZone, calendarId and participants.',
		parameters: {
			resource: 'event',
			operation: 'getAll',
			accountId: ai('accountId', `Account of the calendars (accountId from list_calendars or of an event). ${PASS_BACK}`),
			calendarIds: ai('calendarIds', 'IDs of the calendars to read, separated by commas (id from list_calendars)'),
			start: ai('rangeStart', 'Events that end after this moment are listed: local date and time, e.g. 2026-12-01T00:00:00, read in timeZone (or with an offset, e.g. 2026-12-01T00:00:00+01:00)'),
			end: ai('rangeEnd', 'Events that start before this moment are listed: local date and time, e.g. 2026-12-08T00:00:00, read in timeZone (or with an offset, e.g. 2026-12-08T00:00:00+01:00)'),
			returnAll: false,
			limit: ai('limit', 'Most events to return, 1 to 100', 'number', 50),
			options: { timeZone: ai('timeZone', `IANA time zone rangeStart and rangeEnd are read in, e.g. Europe/Berlin. Empty string: the user's time zone (the one the now tool gives)`, 'string', '') },
		},
	},
	{
		name: 'update_event',
		type: 'ctsEvent',
		description:
			'Change an event (for a recurring event: only the occurrence whose id is given). Only the fields given change; leave a field as an empty string to keep it. Returns the event as it is now.',
		parameters: {
			resource: 'event',
			operation: 'update',
			calendarId: aiId('calendarId', `calendarId of the event, as create_event or list_events returned it. ${PASS_BACK}`),
			identifyBy: 'id',
			eventId: aiId('eventId', `id of the event, as create_event or list_events returned it (not its masterEventId or calendarId). ${PASS_BACK}`),
			seriesUpdateMode: 'single',
			updateFields: {
				title: ai('title', 'New title. Empty string: keep it', 'string', ''),
				start: ai('start', `New start: ${LOCAL_TIME}. Empty string: keep it`, 'string', ''),
				end: ai('end', 'New end: local date and time without offset, e.g. 2026-12-01T10:00:00, read in timeZone (an ISO 8601 time with offset, e.g. 2026-12-01T10:00:00+01:00, is converted into timeZone). Empty string: keep the length', 'string', ''),
				timeZone: ai('timeZone', 'New IANA time zone, e.g. Europe/Berlin. Empty string: keep it', 'string', ''),
				description: ai('description', 'New details as plain text. Empty string: keep them', 'string', ''),
			},
		},
	},
	{
		name: 'delete_event',
		type: 'ctsEvent',
		description: 'Delete an event (for a recurring event: only the occurrence whose id is given). An event that is already gone counts as deleted. Returns the id and deleted: true.',
		parameters: {
			resource: 'event',
			operation: 'delete',
			calendarId: aiId('calendarId', `calendarId of the event, as create_event or list_events returned it. ${PASS_BACK}`),
			eventId: aiId('eventId', `id of the event, as create_event or list_events returned it. ${PASS_BACK}`),
			seriesUpdateMode: 'single',
			goneIsSuccess: true,
		},
	},
	{
		name: 'find_free_time',
		type: 'ctsEvent',
		description:
			'Find free time in the user\'s calendars (every calendar the user may read, across accounts): free slots of at least minimumMinutes within working hours (Monday to Friday, 09:00 to 17:00 in timeZone). Returns one item per slot with start and end, or a notice when nothing is free; a calendar that cannot be read is left out and named in the notices.',
		parameters: {
			resource: 'calendar',
			operation: 'findFreeTime',
			calendars: [],
			freeTimeOutput: 'slots',
			start: ai('rangeStart', `Beginning of the time to search: ${LOCAL_TIME}`),
			end: ai('rangeEnd', 'End of the time to search, at most 6 months after rangeStart: local date and time without offset, e.g. 2026-12-08T18:00:00, read in timeZone (an ISO 8601 time with offset, e.g. 2026-12-08T18:00:00+01:00, is converted into timeZone)'),
			timeZone: ai('timeZone', `IANA time zone of the range and the working hours, e.g. Europe/Berlin. Empty string: the user's time zone (the one the now tool gives)`, 'string', ''),
			minimumMinutes: ai('minimumMinutes', 'Shortest free slot to return, in minutes', 'number', 30),
			workingHours: 'hours',
			options: { unreadableCalendars: 'skip' },
		},
	},
	{
		name: 'schedule_task',
		type: 'ctsTask',
		description:
			'Block time in a calendar for a task: books the first free slot (Monday to Friday, 09:00 to 17:00 in timeZone) before the task is due, titled after the task. Called again for the same task it keeps the block, or moves it when its time has become busy. Returns action (created, kept or moved), the event and the task.',
		parameters: {
			resource: 'task',
			operation: 'schedule',
			taskId: aiId('taskId', `id of the task, as create_task or list_my_tasks returned it. ${PASS_BACK}`),
			calendarId: aiId('calendarId', `ID of a writable calendar to put the block in (id from list_calendars). ${PASS_BACK}`),
			lengthFrom: `={{ ${fromAI('lengthMinutes', "Length of the block in minutes; 0: the task's estimated duration", 'number', 0)} > 0 ? 'minutes' : 'task' }}`,
			lengthMinutes: `={{ ${fromAI('lengthMinutes', "Length of the block in minutes; 0: the task's estimated duration", 'number', 0)} || 60 }}`,
			timeZone: ai('timeZone', `IANA time zone of the working hours, e.g. Europe/Berlin. Empty string: the user's time zone (the one the now tool gives)`, 'string', ''),
			workingHours: 'hours',
			options: { unreadableCalendars: 'skip' },
		},
	},
	{
		name: 'plan_tasks',
		type: 'ctsTask',
		description:
			'Time-block several tasks at once: by priority (1 first), then due date, each gets the first free slot of its estimated duration (60 minutes without one), Monday to Friday 09:00 to 17:00 in timeZone, before it is due. With preview true (the default) nothing is booked: show the plan, then call again with preview false to book it. Called again, it keeps blocks that are still free. Returns one entry per task: action, start, end and eventId, or the reason it does not fit.',
		parameters: {
			resource: 'task',
			operation: 'plan',
			tasksFrom: 'input',
			taskIds: ai('taskIds', `ids of the tasks, separated by commas, each as create_task or list_my_tasks returned it. ${PASS_BACK}`),
			calendarId: aiId('calendarId', `ID of a writable calendar to put the blocks in (id from list_calendars). ${PASS_BACK}`),
			timeZone: ai('timeZone', `IANA time zone of the working hours, e.g. Europe/Berlin. Empty string: the user's time zone (the one the now tool gives)`, 'string', ''),
			preview: ai('preview', 'true: return the plan without booking anything; false: book it', 'boolean', true),
			workingHours: 'hours',
			options: { unreadableCalendars: 'skip' },
		},
	},
	{
		name: 'update_task',
		type: 'ctsTask',
		description: 'Change a task. Only the fields given change; leave a field as an empty string to keep it. Returns the task.',
		parameters: {
			resource: 'task',
			operation: 'update',
			taskId: aiId('taskId', `id of the task, as create_task or list_my_tasks returned it. ${PASS_BACK}`),
			updateFields: {
				title: ai('title', 'New title. Empty string: keep it', 'string', ''),
				due: ai('due', `New due date: ${LOCAL_TIME}. Empty string: keep it`, 'string', ''),
				timeZone: ai('timeZone', 'IANA time zone of the due date, e.g. Europe/Berlin. Empty string: keep it', 'string', ''),
				priority: ai('priority', 'New priority from 1 (highest) to 9 (lowest), 0 for none, e.g. "3". Empty string: keep it', 'string', ''),
				description: ai('description', 'New details as plain text. Empty string: keep them', 'string', ''),
			},
			returnTask: true,
		},
	},
	{
		name: 'complete_task',
		type: 'ctsTask',
		description: 'Mark a task as completed; it leaves the list of open tasks. Returns the task.',
		parameters: {
			resource: 'task',
			operation: 'close',
			taskId: aiId('taskId', `id of the task, as create_task or list_my_tasks returned it. ${PASS_BACK}`),
			returnTask: true,
		},
	},
	{
		name: 'delete_task',
		type: 'ctsTask',
		description: 'Delete a task for good, with its subtasks (to finish it, use complete_task instead). Returns the id and deleted: true.',
		parameters: {
			resource: 'task',
			operation: 'delete',
			taskId: aiId('taskId', `id of the task, as create_task or list_my_tasks returned it. ${PASS_BACK}`),
		},
	},
	{
		name: 'get_agenda',
		type: 'ctsEvent',
		description:
			"The user's agenda for one day across every calendar they may read: events (recurring ones as occurrences, all-day ones first, invitations they declined left out, events marked free with free: true), the open tasks due that day and overdue ones (overdue: true, first), and time blocks of tasks (kind timeBlock, shown once with their task). Returns one item per entry in time order: kind (event, task or timeBlock), title, start and end with offset in timeZone, allDay, calendarName, eventId, and for tasks taskId, due and priority.",
		parameters: {
			resource: 'calendar',
			operation: 'getAgenda',
			calendars: [],
			agendaPeriod: 'day',
			day: ai('date', 'The day to show, e.g. 2026-12-01, read in timeZone (a date and time such as 2026-12-01T09:00:00+01:00 stands for its date there). Empty string: today', 'string', ''),
			timeZone: ai('timeZone', "IANA time zone of the day and of the times returned, e.g. Europe/Berlin. Empty string: the user's time zone (the one the now tool gives)", 'string', ''),
			agendaOutput: 'entries',
			includeTasks: true,
			options: { includeOverdue: true, unreadableCalendars: 'skip' },
		},
	},
	{
		name: 'now',
		nodeType: 'n8n-nodes-base.dateTimeTool',
		typeVersion: 2,
		description:
			"The current date and time with its offset, and the user's time zone, e.g. 2026-12-01T09:30:00+01:00 in Europe/Berlin. Call it before working out dates such as \"tomorrow\" or \"next Monday\".",
		// luxon's `z` is the IANA name of the workflow's time zone.
		parameters: { operation: 'formatDate', date: '={{ $now }}', format: 'custom', customFormat: "yyyy-MM-dd'T'HH:mm:ssZZ' in 'z", outputFieldName: 'now', options: { timezone: true } },
	},
	{
		name: 'answer_invitation',
		type: 'ctsEventV1',
		credential: 'sync',
		description:
			'Answer an invitation to an event as the owner of the calendar account: accept, decline or tentatively accept. The organizer is told. Returns the event id, the answer and success.',
		parameters: {
			resource: 'event',
			operation: 'rsvp',
			eventId: ai('eventId', `id of the event, as list_events or create_event returned it. ${PASS_BACK}`),
			rsvpAction: ai('response', 'The answer: accept, decline or tentativelyAccept'),
			comment: ai('comment', 'Message to the organizer. Empty string: none', 'string', ''),
			notifyOrganizer: true,
		},
	},
];

export const MCP_EXAMPLE = 'CTS example: MCP server (tools for AI agents)';

/** An MCP Server Trigger with the CTS nodes as its tools (`MCP_TOOLS`). */
export function mcpServerWorkflow(prefix, credentials) {
	const trigger = {
		id: randomUUID(),
		name: 'MCP Server',
		type: '@n8n/n8n-nodes-langchain.mcpTrigger',
		typeVersion: 2,
		position: [560, 0],
		webhookId: randomUUID(),
		parameters: {
			path: MCP_PATH,
			authentication: 'none',
			instructions:
				'Calendar and task tools. Call now to learn the current time and the user\'s time zone, and list_calendars to learn calendar and account IDs. Times are local date and time in an IANA time zone. Pass IDs back exactly as you received them.',
		},
	};
	const tools = MCP_TOOLS.map((tool, index) => {
		// The CTS tools use a credential; n8n's own Date & Time tool (`now`) needs none.
		const credential = tool.nodeType ? undefined : credentials[tool.credential ?? 'api'];
		return {
			id: randomUUID(),
			name: tool.name,
			type: tool.nodeType ?? `${prefix}.${tool.type}Tool`,
			typeVersion: tool.typeVersion ?? 1,
			position: [180 * index, 260],
			parameters: { descriptionType: 'manual', toolDescription: tool.description, ...tool.parameters },
			...(credential ? { credentials: { [credential.type]: { id: credential.id, name: credential.name } } } : {}),
		};
	});
	const connections = Object.fromEntries(tools.map((tool) => [tool.name, { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] }]));
	return {
		name: MCP_EXAMPLE,
		nodes: [
			trigger,
			...tools,
			note(
				`## Tools for AI agents (MCP)\nAn MCP server with calendar and task tools. **Publish** the workflow, then connect an MCP client (Streamable HTTP) to \`<n8n URL>/mcp/${MCP_PATH}\`.\n\nAuthentication is **None** for this local example: choose Bearer Auth before exposing it.`,
				[-40, -300],
				[560, 240],
			),
		],
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
	};
}
