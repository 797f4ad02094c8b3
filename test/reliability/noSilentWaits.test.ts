/**
 * No silent waits: a run started from the editor (n8n's `manual` mode) that would wait for the
 * point budget longer than a few seconds fails at once, saying when the budget resets, what the
 * run still needs and how to let it wait; with Maximum Wait set, or in a published workflow, it
 * waits as documented. One rule in the transport (`waitSeenInEditor`), so one table of runs: an
 * action node's routed operation, an operation of several requests per item, Plan Tasks (its own
 * execute) and a trigger's Fetch Test Event; on the starter world `npm start` makes, with the
 * default 300-point account and a 100-point one. Through n8n's engine against the sandbox.
 */
import type { IDataObject } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { EDITOR_RUN_MAX_WAIT_SECONDS } from '../../nodes/shared/transport/transport';
import { Engine, PollHarness, type NodeRunOptions } from '../harness/engine';
import { ALICE_KEY } from '../harness/sandboxClient';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { seedStarterWorld } from '../sandbox/starter';

const ZONE = 'Europe/Berlin';
const engine = new Engine({ ctsTask: new CtsTask(), ctsEvent: new CtsEvent() });
let sandbox: Sandbox;
const credentials = () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });

/** A fresh starter world (its own address: a budget and lists of its own in the nodes) with this budget. */
async function starterWorld(points: number, windowSeconds = 900): Promise<void> {
	sandbox = await startSandbox({ port: 0 });
	seedStarterWorld(sandbox, ZONE);
	await fetch(`${sandbox.url}/_sandbox/limits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ points, windowSeconds }) });
}

/** Another client of the account spends the whole budget (10-point list calls). */
async function spendBudget(points: number): Promise<void> {
	for (let call = 0; call < points / 10; call++) {
		await fetch(`${sandbox.url}/v3/tasks/list`, { headers: { authorization: `ApiKey ${ALICE_KEY}` } });
	}
}

afterEach(async () => await sandbox?.close());

type Run = (extra: Partial<NodeRunOptions>) => Promise<{ error?: Error & { description?: string }; output?: IDataObject[] }>;

const node =
	(options: Omit<NodeRunOptions, 'credentials'>): Run =>
	async (extra) => {
		const parameters = { ...options.parameters, options: { ...(options.parameters.options as IDataObject | undefined), ...(extra.parameters?.options as IDataObject | undefined) } };
		const { error, items } = await engine.runNode({ ...options, mode: extra.mode, parameters, credentials: credentials() });
		return { error, output: items.map((item) => item.json) };
	};

/** The runs a newcomer starts from the editor, one per kind of code path to the transport. */
const RUNS: Array<[string, Run, { hasMaximumWait: boolean }]> = [
	['Task Get Many (a routed operation)', node({ type: 'ctsTask', parameters: { resource: 'task', operation: 'getAll', returnAll: false, limit: 5 } }), { hasMaximumWait: true }],
	[
		'Find Free Time (several requests per item)',
		node({ type: 'ctsEvent', parameters: { resource: 'calendar', operation: 'findFreeTime', timeZone: ZONE, start: '={{ $now.plus(1, "day").startOf("day").toISO() }}', end: '={{ $now.plus(2, "day").startOf("day").toISO() }}' } }),
		{ hasMaximumWait: true },
	],
	[
		'Plan Tasks (its own execute)',
		node({
			type: 'ctsTask',
			parameters: {
				resource: 'task',
				operation: 'plan',
				tasksFrom: 'filters',
				calendarId: { __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-primary' },
				preview: true,
				options: { unreadableCalendars: 'skip' },
			},
		}),
		{ hasMaximumWait: true },
	],
	[
		"the Event Trigger's Fetch Test Event",
		async (extra) => {
			const poller = new PollHarness(new CtsEventTrigger(), 'ctsEventTrigger', { events: ['created', 'updated'] }, credentials());
			try {
				const result = await poller.poll(extra.mode === 'trigger' ? 'trigger' : 'manual');
				return { output: result?.[0].map((item) => item.json) };
			} catch (error) {
				return { error: error as Error & { description?: string } };
			}
		},
		{ hasMaximumWait: false },
	],
];

describe.each([300, 100])('a %i-point account, budget used up by another client, reset in 15 min', (points) => {
	it.each(RUNS)('%s, run from the editor, fails at once: when the budget resets, what the run needs, how to let it wait', async (_name, run, { hasMaximumWait }) => {
		await starterWorld(points);
		await spendBudget(points);
		const { error } = await run({});
		expect(error?.message).toMatch(new RegExp(`^Rate limit: the account's point budget is used up \\(0 of ${points} points left; this account's budget is ${points} points per 15 min; it resets at \\S+Z \\(in 1[45] min\\)\\)$`));
		expect(error?.description).toMatch(/^This run still needed \d+ points? for \d+ waiting requests?\. Run from the editor, the node does not wait for the budget longer than 5 s/);
		if (hasMaximumWait) expect(error?.description).toMatch(/set Options → Maximum Wait \(Seconds\), or publish the workflow/);
		else expect(error?.description).toMatch(/Publish the workflow/);
	});
});

describe(`a budget that resets in 8 s (longer than the editor's ${EDITOR_RUN_MAX_WAIT_SECONDS} s)`, () => {
	it.each(RUNS.filter(([, , { hasMaximumWait }]) => hasMaximumWait))('%s: from the editor it fails at once; with Maximum Wait set, or published, it waits and succeeds', async (_name, run) => {
		await starterWorld(100, 8);
		await spendBudget(100);
		const fromEditor = await run({});
		expect(fromEditor.error?.message).toMatch(/point budget is used up/);

		await sandbox.close();
		await starterWorld(100, 8);
		await spendBudget(100);
		const waited = await run({ parameters: { options: { maxWaitSeconds: 30 } } });
		expect(waited.error).toBeUndefined();

		await sandbox.close();
		await starterWorld(100, 8);
		await spendBudget(100);
		const published = await run({ mode: 'trigger' });
		expect(published.error).toBeUndefined();
	});
});
