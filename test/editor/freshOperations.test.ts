/**
 * Every operation of the action nodes added fresh after a Manual Trigger (its one empty item), as
 * the node panel adds it: the resource and operation set, every other parameter its default. Run
 * through n8n's real engine against the sandbox's starter world, each first run is green with
 * items, or n8n refuses to start it naming each field to fill first (the editor marks them on the
 * node) and nothing is sent; once those are filled, the run is green or its error names the field
 * still to set and what to put in it.
 */
import { type ICredentialDataDecryptedObject, type IDataObject, type INodeType } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { forgetPacing } from '../../nodes/shared/pacing/triggerPacing';
import { Engine } from '../harness/engine';
import { operationsOf } from '../harness/nodeForms';
import { ALICE_KEY } from '../harness/sandboxClient';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { seedStarterWorld } from '../sandbox/starter';

const ZONE = 'Europe/Berlin';
const nodes: Record<string, INodeType> = { ctsTask: new CtsTask(), ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() };
const engine = new Engine(nodes);
let sandbox: Sandbox;
let token: string;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	seedStarterWorld(sandbox, ZONE);
	forgetPacing();
	const answer = await fetch(`${sandbox.url}/_sandbox/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: 'alice', ttlSeconds: 3600 }) });
	token = ((await answer.json()) as { token: string }).token;
});
afterAll(async () => await sandbox.close());

const credentialsOf = (type: string): Record<string, ICredentialDataDecryptedObject> => (type === 'ctsEventV1' ? { ctsSyncApi: { token, syncUrl: sandbox.url } } : { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });
const run = async (type: string, parameters: IDataObject) => await engine.runNode({ type, parameters, credentials: credentialsOf(type), timezone: ZONE });
const requestCount = async () => ((await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { requests: unknown[] }).requests.length;
/** The fields n8n names in its refusal to start a node with issues, or undefined for another error. */
const fieldsToFill = (message: string) => (/^The 'CTS' node has issues:(\s+- Parameter "[^"]+" is required\.)+$/.test(message) ? [...message.matchAll(/Parameter "([^"]+)" is required/g)].map((match) => match[1]) : undefined);
const PERSONAL = { __rl: true, mode: 'list', value: 'acc-alice-a/cal-alice-a-primary' };

it('each first run is green with items, or n8n names the fields to fill first and nothing is sent', async () => {
	const green: string[] = [];
	const toFill: Record<string, string[] | undefined> = {};
	for (const [type, node] of Object.entries(nodes)) {
		for (const [resource, operation] of operationsOf(node)) {
			const key = `${type} ${resource}.${operation}`;
			const sent = await requestCount();
			const { items, error } = await run(type, { resource, operation });
			if (!error) {
				expect(items.length).toBeGreaterThan(0);
				green.push(key);
				continue;
			}
			toFill[key] = fieldsToFill(error.message);
			expect([key, toFill[key]]).toEqual([key, expect.any(Array)]);
			expect(await requestCount()).toBe(sent);
		}
	}
	// The lists and reads work with their defaults; everything else acts on something the user picks or names.
	expect(green.sort()).toEqual(['ctsEvent calendar.findFreeTime', 'ctsEvent calendar.getAgenda', 'ctsEvent calendar.getAll', 'ctsEvent event.getAll', 'ctsTask tag.getAll', 'ctsTask task.getAll']);
	expect(Object.keys(toFill).length + green.length).toBeGreaterThanOrEqual(30);
	expect(toFill).toMatchObject({
		'ctsTask task.plan': ['Calendar'],
		'ctsTask task.upsert': ['Source'],
		'ctsTask task.sync': ['Source'],
		'ctsTask task.get': ['Task'],
		'ctsEvent event.create': ['Calendar', 'Title'],
		'ctsEventV1 event.rsvp': ['Event ID'],
	});
});

it('Plan Tasks with its Calendar picked after a Manual Trigger: the error says how to name tasks or plan the open tasks, before any request', async () => {
	const sent = await requestCount();
	const { error } = await run('ctsTask', { resource: 'task', operation: 'plan', calendarId: PERSONAL, preview: true });
	expect(error?.message).toMatch(/^Task IDs: give at least one task ID/);
	expect(error?.description).toMatch(/set Tasks to Open Tasks Matching Filters to plan your open tasks/);
	expect(await requestCount()).toBe(sent);
});

it('Plan Tasks with its Calendar picked and Tasks set to Open Tasks Matching Filters plans the open tasks', async () => {
	const { items, error } = await run('ctsTask', { resource: 'task', operation: 'plan', tasksFrom: 'filters', calendarId: PERSONAL, preview: true });
	expect(error).toBeUndefined();
	expect(items.length).toBeGreaterThan(0);
	for (const { json } of items) expect(json).toMatchObject({ taskId: expect.any(String), preview: true });
});

it.each([
	['Create or Update', 'upsert'],
	['Sync Tasks', 'sync'],
])('%s with its Source named: the error names Source Key, with what to give, before any request', async (_name, operation) => {
	const sent = await requestCount();
	const { error } = await run('ctsTask', { resource: 'task', operation, source: 'my-tool' });
	expect(error?.message).toMatch(/^Source Key: must not be empty: give what identifies the item in its tool, e\.g\. \{\{ \$json\.id \}\}/);
	expect(await requestCount()).toBe(sent);
});
