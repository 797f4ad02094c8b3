/**
 * The CTS Task node as a tool added from the editor, run by n8n's real engine against the
 * sandbox with what a model sends: n8n resolves each `$fromAI` of the tool's own defaults
 * from the tool call's input (n8n-workflow WorkflowDataProxy `$fromAI`: the input item's value
 * by key, else the placeholder's default). Only the tool variant's fields may send.
 */
import type { IDataObject, INodeParameters, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../harness/engine';
import { ALICE_KEY, SandboxClient } from '../harness/sandboxClient';

/** The tool variant as n8n's server makes it: the same node under its name + "Tool" (what `'@tool'` tests). */
const ctsTaskTool = Object.assign(Object.create(new CtsTask()) as INodeType, {
	description: { ...new CtsTask().description, name: 'ctsTaskTool' } as INodeTypeDescription,
});

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTaskTool });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

/** A collection field as the editor adds it to the tool: the tool variant's default. */
function added(collection: string, name: string): string {
	const property = ctsTaskTool.description.properties.find((candidate) => candidate.name === collection)!;
	const field = (property.options as INodeProperties[]).find(
		(option) => option.name === name && option.displayOptions?.show?.['@tool']?.[0] === true,
	)!;
	return field.default as string;
}

const call = (parameters: INodeParameters, modelInput: IDataObject) =>
	engine.runNode({
		type: 'ctsTaskTool',
		parameters: { resource: 'task', output: 'raw', ...parameters },
		items: [modelInput],
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
	});

const writes = async () => (await sandbox.requests()).filter((request) => request.method === 'POST');

describe('CTS Task Tool added from the editor, called by a model', () => {
	it('Create: the title the model gives is sent, once', async () => {
		const { error } = await call({ operation: 'create', returnTask: false }, { Title: 'Weekly report' });
		expect(error).toBeUndefined();
		const [create] = await writes();
		expect(create.body).toEqual({ title: 'Weekly report' });
	});

	it('Update: the fields the model gives are sent, the ones it leaves out are not', async () => {
		const id = await sandbox.createTask({ title: 'Old', description: 'keep me' });
		await sandbox.clearRequests();
		const updateFields = { title: added('updateFields', 'title'), due: added('updateFields', 'due'), description: added('updateFields', 'description') };
		const { error } = await call({ operation: 'update', returnTask: false, updateFields }, { Task: id, Title: 'New' });
		expect(error).toBeUndefined();
		const [update] = await writes();
		expect(update.body).toEqual({ id, title: 'New' });
		expect(await sandbox.getTask(id)).toMatchObject({ title: 'New', description: 'keep me' });
	});

	it('Plan Tasks: the task IDs the model gives are planned in Preview, nothing is written', async () => {
		const ids = [await sandbox.createTask({ title: 'One', estimatedDuration: 'PT30M' }), await sandbox.createTask({ title: 'Two', estimatedDuration: 'PT45M', priority: 1 })];
		await sandbox.clearRequests();
		const { items, error } = await call(
			{ operation: 'plan', timeZone: 'Europe/Berlin', notBefore: '2026-12-01T08:00:00', checkCalendars: ['acc-alice-a/cal-alice-a-primary'] },
			{ Task_IDs: ids.join(', '), Calendar: 'cal-alice-a-primary' },
		);
		expect(error).toBeUndefined();
		expect(items.map(({ json }) => [json.title, json.action, json.start, json.preview])).toEqual([
			['One', 'create', '2026-12-01T09:45:00+01:00', true],
			['Two', 'create', '2026-12-01T09:00:00+01:00', true],
		]);
		expect(await writes()).toEqual([]);
	});
});
