/**
 * What the editor offers, run through n8n's real engine against the sandbox: one Event node per
 * interface version with its own credential, the defaults a new node starts with, the Output
 * choice (Simplified, Raw, Selected Fields), optional fields left empty, and service errors in
 * the editor's words.
 */
import { DateTime } from 'luxon';
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1(), ctsTask: new CtsTask() });
const apiKey = () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });
const target = { calendarId: { __rl: true, mode: 'id', value: 'cal-alice-a-primary' }, accountId: 'acc-alice-a' };

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

const runEvent = (parameters: IDataObject, options: { continueOnFail?: boolean } = {}) =>
	engine.runNode({ type: 'ctsEvent', parameters: { resource: 'event', ...parameters }, credentials: apiKey(), ...options });
const runTask = (parameters: IDataObject) =>
	engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', ...parameters }, credentials: apiKey() });
const apiCalls = async () => (await sandbox.requests()).filter((call) => !call.path.startsWith('/_sandbox'));

function operationsOf(node: CtsEvent | CtsEventV1): INodePropertyOptions[] {
	const operation = node.description.properties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes('event'));
	return (operation?.options ?? []) as INodePropertyOptions[];
}

describe('one Event node per interface version', () => {
	it('CTS Event uses the API key and has no RSVP; CTS Event V1 uses the bearer token and lists "Respond to an invitation"', () => {
		const v3 = new CtsEvent();
		const v1 = new CtsEventV1();
		expect(v3.description.credentials?.map((credential) => credential.name)).toEqual(['ctsApi']);
		expect(v1.description.credentials?.map((credential) => credential.name)).toEqual(['ctsSyncApi']);
		expect(operationsOf(v3).map((operation) => operation.action)).toEqual([
			'Create an event',
			'Delete an event',
			'Get an event',
			'Get many events',
			'Update an event',
		]);
		expect(operationsOf(v1).map((operation) => operation.action)).toEqual([
			'Create an event',
			'Delete an event',
			'Get many events',
			'Respond to an invitation',
			'Update an event',
		]);
		// No parameter a credential depends on: the editor would hide it and mix both credential types in one list.
		for (const node of [v3, v1]) {
			expect(node.description.credentials?.every((credential) => credential.displayOptions === undefined)).toBe(true);
			expect(node.description.properties.find((property) => property.name === 'authentication')).toBeUndefined();
		}
		// Descriptions true for each version: V1 has no series modes.
		const v1Texts = JSON.stringify(v1.description.properties);
		expect(v1Texts).not.toContain('seriesUpdateMode');
		expect(v1Texts).not.toContain('This and Following');
	});

	it('CTS Event V1 sends its requests with its bearer token to the V1 interface', async () => {
		const token = await sandbox.token('alice');
		const { error } = await engine.runNode({
			type: 'ctsEventV1',
			parameters: { resource: 'event', operation: 'create', calendarId: 'cal-alice-a-primary', title: 'Sync', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: 'UTC' },
			credentials: { ctsSyncApi: { token, syncUrl: sandbox.url } },
		});
		expect(error).toBeUndefined();
		// The sandbox answers V1 paths only to a valid bearer token (an API key gets 401).
		const [call] = await apiCalls();
		expect([call.path, call.status]).toEqual(['/v1/events/create', 200]);
	});
});

describe('defaults of a new node', () => {
	it('Create: Start now, End an hour later, in the workflow\'s time zone', async () => {
		const { error, items } = await runEvent({ operation: 'create', ...target, title: 'Defaults' });
		expect(error).toBeUndefined();
		const [call] = await apiCalls();
		const body = call.body as IDataObject;
		expect(body).toMatchObject({ title: 'Defaults', duration: 'PT1H', timeZone: 'America/New_York', showWithoutTime: false });
		const sentStart = DateTime.fromISO(String(body.start), { zone: 'America/New_York' });
		expect(Math.abs(sentStart.diffNow('minutes').minutes)).toBeLessThan(2);
		expect(items[0].json).toMatchObject({ title: 'Defaults', timeZone: 'America/New_York' });
	});

	it('an empty Time Zone is the workflow\'s own', async () => {
		const { error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'event', operation: 'create', ...target, title: 'Zone', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: '' },
			credentials: apiKey(),
			timezone: 'Asia/Tokyo',
		});
		expect(error).toBeUndefined();
		expect((await apiCalls())[0].body).toMatchObject({ start: '2026-12-01T09:00:00', timeZone: 'Asia/Tokyo' });
	});

	it('Get Many: from now to one week ahead', async () => {
		const { error } = await runEvent({ operation: 'getAll', accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', returnAll: true });
		expect(error).toBeUndefined();
		const [call] = await apiCalls();
		const start = DateTime.fromISO(String(call.query.start));
		const end = DateTime.fromISO(String(call.query.end));
		expect(Math.abs(start.diffNow('minutes').minutes)).toBeLessThan(2);
		expect(end.diff(start, 'days').days).toBeCloseTo(7, 3);
	});

	it('a Recurrence with only a frequency ends after 10 occurrences, never silently endless', async () => {
		const { error } = await runEvent({
			operation: 'create',
			...target,
			title: 'Weekly',
			start: '2026-12-01T09:00:00',
			end: '2026-12-01T10:00:00',
			timeZone: 'UTC',
			additionalFields: { recurrence: { rule: [{ frequency: 'weekly' }] } },
		});
		expect(error).toBeUndefined();
		expect((await apiCalls())[0].body).toMatchObject({ recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1, count: 10 }] });
	});
});

describe('optional fields added but left empty are not sent', () => {
	it('Task Create: empty Task List ID, Parent Task, Description, Due, Time Zone and Tags', async () => {
		const { error } = await runTask({
			operation: 'create',
			title: 'Only a title',
			returnTask: false,
			additionalFields: {
				taskListId: '',
				parentTaskId: { __rl: true, mode: 'list', value: '' },
				description: ' ',
				due: '',
				timeZone: '',
				tags: [],
			},
		});
		expect(error).toBeUndefined();
		expect((await apiCalls())[0].body).toEqual({ title: 'Only a title' });
	});

	it('Event Update: an empty Title, Description, and Recurrence, Alerts or Participants without entries', async () => {
		const { body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent() });
		await sandbox.clearRequests();
		const { error } = await runEvent({
			operation: 'update',
			...target,
			eventId: { __rl: true, mode: 'id', value: body.data.event.id },
			updateFields: { title: '', description: '', recurrence: {}, alerts: {}, attendees: '', privacy: 'private' },
		});
		expect(error).toBeUndefined();
		const [call] = await apiCalls();
		expect(call.body).toEqual({ id: body.data.event.id, accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary', privacy: 'private' });
	});
});

describe('Output', () => {
	const rich = {
		operation: 'create',
		...target,
		title: 'Review',
		start: '2026-12-01T09:00:00',
		end: '2026-12-01T10:30:00',
		timeZone: 'Europe/Berlin',
		additionalFields: {
			attendees: 'Ann <ann@example.com> (attendee, optional)',
			alerts: { alert: [{ action: 'display', minutesBefore: 15 }] },
			locations: { location: [{ name: 'Room 1' }] },
			requestVirtualRoom: 'default',
			colorId: '4',
		},
	};

	it('Simplified (the default): arrays, end next to start, meetingUrl, no @type and no prefixes', async () => {
		const { error, items } = await runEvent(rich);
		expect(error).toBeUndefined();
		const event = items[0].json;
		expect(event).toMatchObject({
			title: 'Review',
			start: '2026-12-01T09:00:00+01:00',
			end: '2026-12-01T10:30:00+01:00',
			timeZone: 'Europe/Berlin',
			allDay: false,
			participants: [{ email: 'ann@example.com', name: 'Ann', status: 'needs-action', roles: ['attendee', 'optional'] }],
			alerts: [{ action: 'display', offset: '-PT15M', minutesBefore: 15 }],
			locations: ['Room 1'],
			colorId: '4',
			calendarId: 'cal-alice-a-primary',
		});
		expect(event.meetingUrl).toMatch(/^https:\/\//);
		expect(Object.keys(event).filter((key) => key.includes(':') || key.startsWith('@'))).toEqual([]);
		for (const key of ['uid', 'baseEventId', 'masterBaseEventId', 'showWithoutTime', 'descriptionContentType']) expect(event).not.toHaveProperty(key);
	});

	it('Raw: the service\'s event untouched; Selected Fields: only those', async () => {
		const raw = await runEvent({ ...rich, output: 'raw' });
		const id = raw.items[0].json.id as string;
		const { body } = await sandbox.api('GET', '/v3/events', { qs: { id } });
		expect(raw.items[0].json).toEqual(body.data.event);

		const selected = await runEvent({ operation: 'get', eventId: id, output: 'fields', outputFields: ['id', 'end', 'meetingUrl'] });
		expect(Object.keys(selected.items[0].json).sort()).toEqual(['end', 'id', 'meetingUrl']);
	});

	it('tasks: the parent task as parentTaskId, scheduled, no relation map; Raw as the service has it', async () => {
		const parent = await sandbox.createTask({ title: 'Parent' });
		const child = await sandbox.createTask({ title: 'Child', relatedTo: { [parent]: { '@type': 'Relation', relation: { parent: true } } } });
		const simplified = await runTask({ operation: 'get', taskId: { __rl: true, mode: 'id', value: child } });
		expect(simplified.items[0].json).toMatchObject({ id: child, title: 'Child', parentTaskId: parent, scheduled: false, progress: 'needs-action' });
		expect(simplified.items[0].json).not.toHaveProperty('relatedTo');
		expect(simplified.items[0].json).not.toHaveProperty('@type');
		const raw = await runTask({ operation: 'get', taskId: { __rl: true, mode: 'id', value: child }, output: 'raw' });
		const { body } = await sandbox.api('GET', '/v3/tasks', { qs: { id: child } });
		expect(raw.items[0].json).toEqual(body.data.task);
	});
});

describe('consistency between the Task node and its trigger', () => {
	it('Get Many filters by priority, tags and task list as the trigger does', async () => {
		await sandbox.createTask({ title: 'urgent work', priority: 1, tags: ['tag-alice-work'] });
		await sandbox.createTask({ title: 'urgent errand', priority: 1, tags: ['tag-alice-errands'] });
		await sandbox.createTask({ title: 'later work', priority: 9, tags: ['tag-alice-work'] });
		const { error, items } = await runTask({ operation: 'getAll', returnAll: true, filters: { priorities: [1], tags: ['tag-alice-work'] } });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.title)).toEqual(['urgent work']);
	});

	it('Event Create asks how the end is set, End Time or Duration, as calendar nodes label them', () => {
		const endMode = new CtsEvent().description.properties.find((property) => property.name === 'endMode' && property.displayOptions?.show?.operation?.includes('create'));
		expect(endMode?.displayName).toBe('Set End By');
		expect((endMode?.options as INodePropertyOptions[]).map((option) => `${option.name}=${String(option.value)}`)).toEqual(['End Time=end', 'Duration=duration']);
		expect(endMode?.default).toBe('end');
	});

	it('every write has the same Return Task option, off by default, its description stating its cost (no hint)', () => {
		const properties = new CtsTask().description.properties;
		const returnTask = properties.filter((property) => property.name === 'returnTask');
		expect(returnTask.flatMap((property) => property.displayOptions?.show?.operation)).toEqual(['create', 'update', 'move', 'close', 'reopen']);
		expect(new Set(returnTask.map((property) => `${property.displayName}|${String(property.default)}`))).toEqual(new Set(['Return Task|false']));
		expect([...new Set(returnTask.map((property) => property.description))]).toEqual([expect.stringContaining('for 1 more point per item')]);
		expect(returnTask.map((property) => property.hint)).toEqual([undefined, undefined, undefined, undefined, undefined]);
	});
});

describe('service errors in the editor\'s words', () => {
	it('names the field as the editor labels it and shows the errorRef once, in the description', async () => {
		const { error } = await runEvent({ ...{ operation: 'create', title: 'x', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: 'UTC' }, calendarId: { __rl: true, mode: 'id', value: 'cal-alice-a-primary' }, accountId: 'acc-nobody' });
		expect(error?.message).toBe('The service rejected the request: Account does not name a calendar account of this user');
		expect(error?.description).toMatch(/^HTTP 400 · errorRef [\w-]+$/);
	});

	it('under Continue On Fail the output item\'s message carries the errorRef (n8n keeps only the message there)', async () => {
		const { items, error } = await runEvent(
			{ operation: 'create', title: 'x', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: 'UTC', calendarId: { __rl: true, mode: 'id', value: 'cal-alice-a-primary' }, accountId: 'acc-nobody' },
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toMatch(/^The service rejected the request: Account does not name a calendar account of this user \(errorRef [\w-]+\)$/);
	});
});
