/**
 * The forms as the editor shows them, resolved with n8n's own display rules (NodeHelpers), and
 * what the fields do when run through the real engine against the sandbox: one Options
 * collection per operation, with Maximum Wait in it.
 */
import { NodeHelpers, type INodeProperties, type INodeType } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../harness/engine';
import { formOf, operationsOf } from '../harness/nodeForms';
import { ALICE_KEY, SandboxClient } from '../harness/sandboxClient';

const nodes: Record<string, INodeType> = { ctsTask: new CtsTask(), ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() };
const version = { typeVersion: 1 };

describe('one Options collection per operation, with Maximum Wait in it', () => {
	const cases = Object.entries(nodes).flatMap(([name, node]) => operationsOf(node).map(([resource, operation]) => [name, resource, operation] as const));

	it('every action node lists its operations (the cases below cover them all)', () => {
		expect(cases.map((entry) => entry.join(' '))).toEqual(
			expect.arrayContaining(['ctsTask task create', 'ctsTask task schedule', 'ctsTask task plan', 'ctsTask task upsert', 'ctsTask task sync', 'ctsTask tag getAll', 'ctsEvent calendar findFreeTime', 'ctsEvent calendar getAgenda', 'ctsEvent calendar mirrorBusyTime', 'ctsEvent event getAll', 'ctsEventV1 event rsvp']),
		);
		expect(cases).toHaveLength(17 + 9 + 5);
	});

	it.each(cases)('%s %s %s: no Point Budget beside Options; Options holds Maximum Wait (900 s by default)', (name, resource, operation) => {
		const form = formOf(nodes[name], resource, operation);
		expect(form.map((property) => property.displayName)).not.toContain('Point Budget');
		const collections = form.filter((property) => property.type === 'collection' && property.displayName === 'Options');
		expect(collections).toHaveLength(1);
		const [options] = collections;
		expect(options.name).toBe('options');
		const maxWait = (options.options as INodeProperties[]).find((option) => option.name === 'maxWaitSeconds');
		expect(maxWait).toMatchObject({ displayName: 'Maximum Wait (Seconds)', type: 'number', default: 900 });
		expect(maxWait!.description).toContain('When the node is a tool of an AI agent or MCP server, the default is 20 seconds');
	});

	it.each(cases.filter(([, resource, operation]) => !(resource === 'event' && operation === 'getAll')))(
		'%s %s %s: Options is the last field of the form, before the Request Options n8n adds to every declarative node',
		(name, resource, operation) => {
			const form = formOf(nodes[name], resource, operation).map((property) => property.name);
			expect(form.slice(-2)).toEqual(['options', 'requestOptions']);
		},
	);
});

describe('Maximum Wait set in Options is kept to', () => {
	const sandbox = new SandboxClient();
	const engine = new Engine(nodes);
	const credentials = () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });
	const apiCalls = async () => (await sandbox.requests()).filter((call) => !call.path.startsWith('/_sandbox'));

	beforeAll(async () => await sandbox.start());
	afterAll(async () => await sandbox.stop());
	beforeEach(async () => await sandbox.reset());

	/** Uses up a one-point budget, so the node has learnt that none is left. */
	async function useUpBudget() {
		await sandbox.control('limits', { points: 1, windowSeconds: 600 });
		const created = await engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', operation: 'create', title: 'uses the last point', returnTask: false }, credentials: credentials() });
		expect(created.error).toBeUndefined();
		await sandbox.clearRequests();
	}

	it('Event Get Many, beside its own options: 0 fails at once, pointing to Options → Maximum Wait, and sends nothing', async () => {
		await useUpBudget();
		const { error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: {
				resource: 'event',
				operation: 'getAll',
				accountId: 'acc-alice-a',
				calendarIds: 'cal-alice-a-primary',
				start: '2026-12-01T00:00:00Z',
				end: '2026-12-08T00:00:00Z',
				options: { windowMonths: 1, maxWaitSeconds: 0 },
			},
			credentials: credentials(),
		});
		expect(error?.message).toMatch(/^Rate limit: the account's point budget is used up \(0 of 1 points left;/);
		expect(error?.description).toContain('Options → Maximum Wait');
		expect(await apiCalls()).toEqual([]);
	});

	it('Tag Get, whose Options has only Maximum Wait: 0 fails at once and sends nothing', async () => {
		await useUpBudget();
		const { error } = await engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'tag', operation: 'get', tagId: { __rl: true, mode: 'id', value: 'any' }, options: { maxWaitSeconds: 0 } },
			credentials: credentials(),
		});
		expect(error?.message).toMatch(/^Rate limit: the account's point budget is used up/);
		expect(await apiCalls()).toEqual([]);
	});
});

/** The options of a collection of the form of an event operation, by name. */
function collectionOptions(name: string, operation: string, collection: string): INodeProperties[] {
	const form = formOf(nodes[name], 'event', operation);
	return form.find((property) => property.name === collection)!.options as INodeProperties[];
}

describe('one way to add people to an event: Attendees', () => {
	it.each([
		['ctsEvent', 'create', 'additionalFields'],
		['ctsEvent', 'update', 'updateFields'],
		['ctsEventV1', 'create', 'additionalFields'],
		['ctsEventV1', 'update', 'updateFields'],
	])('%s %s offers Attendees, one text with names and roles, and no Participants beside it', (name, operation, collection) => {
		const options = collectionOptions(name, operation, collection);
		const people = options.filter((option) => /attendee|participant/i.test(option.displayName) && !/remove/i.test(option.displayName));
		// Text fields of collections come twice: as they are for workflows, and for the node as a tool (see toolInputs).
		expect(people.map((option) => [option.displayName, option.type, option.displayOptions?.show?.['@tool']])).toEqual([
			['Attendees', 'string', [false]],
			['Attendees', 'string', [true]],
		]);
		for (const option of people) expect(option.description).toContain('Name &lt;address&gt;, with roles in parentheses after it');
		// The model reads the same with plain angle brackets, in the tool variant's $fromAI description.
		expect(people[1].default).toContain('each an e-mail address or Name <address>, with roles in parentheses after it');
	});

	describe('through the engine', () => {
		const sandbox = new SandboxClient();
		const engine = new Engine({ ctsEvent: new CtsEvent() });
		const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

		beforeAll(async () => await sandbox.start());
		afterAll(async () => await sandbox.stop());
		beforeEach(async () => await sandbox.reset());

		const create = (attendees: string) =>
			engine.runNode({
				type: 'ctsEvent',
				parameters: {
					resource: 'event',
					operation: 'create',
					accountId: 'acc-alice-a',
					calendarId: 'cal-alice-a-primary',
					title: 'Review',
					start: '2026-12-02T14:00:00',
					end: '2026-12-02T15:00:00',
					timeZone: 'Europe/Berlin',
					additionalFields: { attendees },
				},
				credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
			});

		it('names and roles written in the one field reach the service as participants keyed by the base64 of the address, and come back in the output', async () => {
			const { items, error } = await create('"Doe, Jane" <jane@example.com> (chair, Optional); Bob <bob@example.com> (contact)\ncid@example.com');
			expect(error).toBeUndefined();
			const [call] = (await sandbox.requests()).filter((request) => request.path === '/v3/events/create');
			expect((call.body as { participants: unknown }).participants).toEqual({
				[base64('jane@example.com')]: { '@type': 'Participant', email: 'jane@example.com', name: 'Doe, Jane', roles: { chair: true, optional: true } },
				[base64('bob@example.com')]: { '@type': 'Participant', email: 'bob@example.com', name: 'Bob', roles: { contact: true } },
				[base64('cid@example.com')]: { '@type': 'Participant', email: 'cid@example.com', roles: { attendee: true } },
			});
			expect(items[0].json.participants).toEqual([
				expect.objectContaining({ email: 'jane@example.com', name: 'Doe, Jane', roles: ['chair', 'optional'] }),
				expect.objectContaining({ email: 'bob@example.com', name: 'Bob', roles: ['contact'] }),
				expect.objectContaining({ email: 'cid@example.com', roles: ['attendee'] }),
			]);
		});

		it.each([
			['a role that does not exist', 'Ann <ann@example.com> (optinal)', 'Attendees: "optinal" after "ann@example.com" is not a role: use attendee, chair, contact, informational, optional, owner'],
			['empty parentheses', 'ann@example.com ()', 'Attendees: no role in the parentheses after "ann@example.com" (leave them out for an attendee)'],
			['a name where the address belongs', 'Ann (chair)', 'Attendees: "Ann" is not an e-mail address'],
		])('refuses %s before any request, naming the field', async (_case, attendees, message) => {
			const { error } = await create(attendees);
			expect(error?.message).toBe(message);
			expect((await sandbox.requests()).filter((request) => !request.path.startsWith('/_sandbox'))).toEqual([]);
		});
	});
});

describe('Recurrence', () => {
	it('the field for "After a Number of Occurrences" has a short label, the unit in its description', () => {
		const recurrence = collectionOptions('ctsEvent', 'create', 'additionalFields').find((option) => option.name === 'recurrence')!;
		const rule = (recurrence.options as Array<{ name: string; values: INodeProperties[] }>).find((option) => option.name === 'rule')!;
		const shown = rule.values.filter((value) => NodeHelpers.displayParameter({ ends: 'count' }, value, version, nodes.ctsEvent.description));
		const count = shown.find((value) => value.name === 'count')!;
		expect(count.displayName).toBe('Series Length');
		expect(count.description).toMatch(/^Number of occurrences: /);
		expect(shown.map((value) => value.displayName).every((label) => label.length <= 'On Which Weekday of the Month'.length)).toBe(true);
	});
});
