/**
 * The example workflows as `npm start` sets them up (scripts/local-instance.mjs,
 * `provisionExamples`): both credentials, the CSV file and data table of the sync examples, and
 * the workflows, for a user of the test file's own on its n8n (support/sharedN8n.mjs), against a
 * sandbox of the file's own that begins with the starter world, as a new `npm start` state does.
 */
import { provisionExamples } from '../../../scripts/local-instance.mjs';
import { startSandbox } from './sandbox.mjs';
import { n8nForFile } from './sharedN8n.mjs';

/**
 * Resolves to { n8n, rest, sandbox, stateDir (where the example files are), workflowId(name),
 * dispose() }.
 */
export async function startExamples(name) {
	const sandbox = await startSandbox();
	// The zone of the shared n8n (GENERIC_TIMEZONE), as npm start seeds the world in n8n's zone.
	await sandbox.resetToStarterWorld('UTC');
	const n8n = await n8nForFile(name);
	const stateDir = n8n.filesFolder();
	await provisionExamples(n8n.rest, { sandboxUrl: sandbox.url, prefix: n8n.prefix, stateDir });
	const workflows = new Map((await n8n.rest.listWorkflows()).map((workflow) => [workflow.name, workflow.id]));
	return {
		n8n,
		rest: n8n.rest,
		sandbox,
		stateDir,
		workflowId: (workflowName) => workflows.get(workflowName),
		dispose: async () => {
			await n8n.dispose();
			await sandbox.close();
		},
	};
}

/**
 * Gives a published workflow's Schedule Trigger a time it cannot reach during a test (daily, 12
 * hours from now, in UTC), so that no scheduled run joins the runs a test starts; the node keeps
 * its name, and "Execute workflow" starts from it as before.
 */
export async function scheduleOutOfTheWay(rest, workflowId, triggerName) {
	const workflow = await rest.getWorkflow(workflowId);
	const hour = new Date(Date.now() + 12 * 3600_000).getUTCHours();
	const nodes = workflow.nodes.map((node) =>
		node.name === triggerName ? { ...node, parameters: { ...node.parameters, rule: { interval: [{ field: 'days', daysInterval: 1, triggerAtHour: hour, triggerAtMinute: 0 }] } } } : node,
	);
	await rest.updateWorkflow(workflowId, { nodes, settings: { ...workflow.settings, timezone: 'UTC' } });
}
