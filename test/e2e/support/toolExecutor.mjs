/**
 * The tool nodes of the example MCP workflow run without an LLM: n8n's Tool Executor node calls
 * each tool with the arguments an agent would send (its query, by tool name), as an agent's tool
 * call runs them. n8n 2.x only (1.x's Tool Executor takes its query in another shape).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';

import { MCP_TOOLS } from '../../../scripts/examples.mjs';
import { CREDENTIALS } from './workflows.mjs';

export const TOOL_EXECUTOR_WORKFLOW_ID = 'ctsE2eToolExec01';
export const TOOL_EXECUTOR_ERROR_WORKFLOW_ID = 'ctsE2eToolExecE1';

// The Tool Executor outputs the tool's answer as the JSON text an agent reads.
const createdEventId = "JSON.parse($('Create Event').first().json)[0].id";

/** Tool Executor steps in order: the node's name, the tool it calls and the arguments (an expression where they use an earlier answer). */
const STEPS = [
	['Create Task', 'create_task', { title: 'Tool executor task', due: '2026-12-01T17:00:00', timeZone: 'Europe/Berlin', priority: 3 }],
	['List Tasks', 'list_my_tasks', { limit: 5 }],
	[
		'Create Event',
		'create_event',
		{ calendarId: 'cal-alice-a-primary', title: 'Tool executor event', start: '2026-12-04T09:00:00', end: '2026-12-04T09:30:00', timeZone: 'Europe/Berlin', attendees: 'alice@sandbox.example' },
	],
	['List Events', 'list_events', { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', rangeStart: '2026-12-04T00:00:00+01:00', rangeEnd: '2026-12-05T00:00:00+01:00' }],
	['Update Event', 'update_event', `{ calendarId: 'cal-alice-a-primary', eventId: ${createdEventId}, title: 'Tool executor event (renamed)', start: '2026-12-04T10:00:00' }`],
	['Answer Invitation', 'answer_invitation', `{ eventId: ${createdEventId}, response: 'decline', comment: 'Not this time' }`],
];

/**
 * The Get Many calls above made again by the same nodes as plain workflow steps (a branch off the
 * tool step, run before the steps after it): the node's name, the step it follows, its type and its
 * parameters, the tool's arguments written in.
 */
const WORKFLOW_TWINS = [
	['Workflow List Tasks', 'List Tasks', 'ctsTask', { resource: 'task', operation: 'getAll', returnAll: false, limit: 5 }],
	[
		'Workflow List Events',
		'List Events',
		'ctsEvent',
		{
			resource: 'event',
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-04T00:00:00+01:00',
			end: '2026-12-05T00:00:00+01:00',
			returnAll: false,
			limit: 50,
			options: { timeZone: '' },
		},
	],
];

/** A call an agent gets wrong: the run fails with the tool's error. */
const ERROR_STEPS = [['Wrong Time Zone', 'create_event', { calendarId: 'cal-alice-a-primary', title: 'x', start: '2026-12-04T09:00:00', end: '2026-12-04T10:00:00', timeZone: 'CET+1' }]];

/** Manual trigger, then one Tool Executor per step, each with its tool node (from the example MCP workflow) connected. */
export function toolExecutorWorkflows(prefix) {
	return [
		toolExecutorWorkflow(prefix, TOOL_EXECUTOR_WORKFLOW_ID, 'E2E: tools through the Tool Executor', STEPS, WORKFLOW_TWINS),
		toolExecutorWorkflow(prefix, TOOL_EXECUTOR_ERROR_WORKFLOW_ID, 'E2E: a wrong tool call through the Tool Executor', ERROR_STEPS),
	];
}

function toolExecutorWorkflow(prefix, id, workflowName, steps, twins = []) {
	const nodes = [{ id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }];
	const connections = {};
	const toolNodes = new Map();
	let previous = 'Start';
	steps.forEach(([name, toolName, args], index) => {
		const query = typeof args === 'string' ? `={{ { ${toolName}: ${args} } }}` : JSON.stringify({ [toolName]: args });
		nodes.push({
			id: randomUUID(),
			name,
			type: '@n8n/n8n-nodes-langchain.toolExecutor',
			typeVersion: 1,
			position: [240 * (index + 1), 0],
			parameters: { query, toolName },
		});
		connections[previous] = { main: [[{ node: name, type: 'main', index: 0 }]] };
		previous = name;
		if (!toolNodes.has(toolName)) {
			const tool = MCP_TOOLS.find((candidate) => candidate.name === toolName);
			const credential = tool.credential === 'sync' ? CREDENTIALS.sync : CREDENTIALS.api;
			toolNodes.set(toolName, {
				id: randomUUID(),
				name: toolName,
				type: `${prefix}.${tool.type}Tool`,
				typeVersion: 1,
				position: [240 * (index + 1), 240],
				parameters: { descriptionType: 'manual', toolDescription: tool.description, ...tool.parameters },
				credentials: { [credential.type]: { id: credential.id, name: credential.name } },
			});
			connections[toolName] = { ai_tool: [[]] };
		}
		connections[toolName].ai_tool[0].push({ node: name, type: 'ai_tool', index: 0 });
	});
	nodes.push(...toolNodes.values());
	for (const [name, after, type, parameters] of twins) {
		const step = nodes.find((node) => node.name === after);
		// Above the next step: n8n's v1 order runs the upper branch first.
		nodes.push({
			id: randomUUID(),
			name,
			type: `${prefix}.${type}`,
			typeVersion: 1,
			position: [step.position[0] + 120, -240],
			parameters,
			credentials: { [CREDENTIALS.api.type]: { id: CREDENTIALS.api.id, name: CREDENTIALS.api.name } },
		});
		connections[after].main[0].push({ node: name, type: 'main', index: 0 });
	}
	return { id, name: workflowName, nodes, connections, active: false, settings: { executionOrder: 'v1' }, pinData: {} };
}

/** What an agent reads back from a tool: the Tool Executor outputs the tool's answer as JSON text. */
function answerOf(run, nodeName) {
	const items = run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [];
	assert.equal(items.length, 1, `${nodeName} output one item`);
	return JSON.parse(items[0].json);
}

/**
 * Defines the tests (inside the caller's describe()), like operationTests(): `runWorkflow(id)`
 * resolves to { run, failed, output }.
 */
export function toolExecutorTests({ sandbox: getSandbox, runWorkflow }) {
	it('the example MCP workflow\'s tool nodes, called by the Tool Executor without an LLM', async () => {
		const sandbox = getSandbox();
		await sandbox.reset();
		const result = await runWorkflow(TOOL_EXECUTOR_WORKFLOW_ID);
		assert.ok(!result.failed, result.output.slice(-3000));
		const { run } = result;

		const [task] = answerOf(run, 'Create Task');
		assert.deepEqual((({ title, due, timeZone, priority }) => ({ title, due, timeZone, priority }))(task), {
			title: 'Tool executor task',
			due: '2026-12-01T17:00:00+01:00',
			timeZone: 'Europe/Berlin',
			priority: 3,
		});
		assert.equal((await sandbox.getTask(task.id)).title, 'Tool executor task');
		assert.deepEqual(answerOf(run, 'List Tasks').map((listed) => listed.id), [task.id]);

		const [event] = answerOf(run, 'Create Event');
		assert.deepEqual((({ title, start, end, timeZone, calendarId, accountId }) => ({ title, start, end, timeZone, calendarId, accountId }))(event), {
			title: 'Tool executor event',
			start: '2026-12-04T09:00:00+01:00',
			end: '2026-12-04T09:30:00+01:00',
			timeZone: 'Europe/Berlin',
			calendarId: 'cal-alice-a-primary',
			accountId: 'acc-alice-a',
		});
		assert.deepEqual(answerOf(run, 'List Events').map((listed) => listed.id), [event.id]);

		// A tool and a workflow run the same Get Many code: the same items from the same requests.
		const outputOf = (nodeName) => (run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
		assert.deepEqual(outputOf('Workflow List Tasks'), answerOf(run, 'List Tasks'));
		assert.deepEqual(outputOf('Workflow List Events'), answerOf(run, 'List Events'));
		const requests = await sandbox.requests();
		for (const path of ['/v3/tasks/list', '/v3/events/list']) {
			// The last two: the tool's and then the workflow step's (Create Event's duplicate check lists events before them).
			const lists = requests.filter((call) => call.path === path).map((call) => call.query);
			assert.ok(lists.length >= 2, `${path}: a call by the tool and one by the workflow step`);
			assert.deepEqual(lists.at(-1), lists.at(-2), path);
		}
		const [updated] = answerOf(run, 'Update Event');
		assert.deepEqual([updated.id, updated.title, updated.start, updated.end], [event.id, 'Tool executor event (renamed)', '2026-12-04T10:00:00+01:00', '2026-12-04T10:30:00+01:00']);
		assert.deepEqual(answerOf(run, 'Answer Invitation'), [{ id: event.id, response: 'decline', success: true }]);

		const stored = (await sandbox.api('GET', '/v3/events', { qs: { id: event.id } })).body.data.event;
		assert.equal(stored.title, 'Tool executor event (renamed)');
		assert.equal(stored.participants[Buffer.from('alice@sandbox.example').toString('base64')].participationStatus, 'declined');
	});

	it('a wrong tool call fails with the argument and the reason, and sends nothing', async () => {
		const sandbox = getSandbox();
		await sandbox.reset();
		const result = await runWorkflow(TOOL_EXECUTOR_ERROR_WORKFLOW_ID);
		assert.ok(result.failed, 'the run fails');
		// The argument the caller sent (the tool's timeZone), not the field's label.
		assert.match(result.run.data.resultData.error.message, /^Error executing tool: timeZone: "CET\+1" is not an IANA time zone/);
		assert.deepEqual((await sandbox.requests()).filter((request) => request.path !== '/v3/calendars/list'), []);
	});
}
