/**
 * The nodes as tools of AI agents, through a real MCP client: n8n 2.41.1 with the package
 * installed as a community package publishes the example MCP workflow (the one `npm start`
 * creates); the MCP TypeScript SDK's client connects over Streamable HTTP, lists the tools and
 * calls each with arguments as an agent writes them. The sandbox logs what reached the service.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';

import { MCP_PATH, MCP_TOOLS, mcpServerWorkflow } from '../../scripts/examples.mjs';
import { startSandbox } from './support/sandbox.mjs';
import { n8nForFile } from './support/sharedN8n.mjs';

// The JSON Schema validator the SDK itself uses (its own Ajv), in its JSON Schema 2020-12 build:
// the dialect MCP assumes for a tool's inputSchema.
const sdkRequire = createRequire(import.meta.resolve('@modelcontextprotocol/sdk/client/index.js'));
const Ajv2020 = sdkRequire('ajv/dist/2020').default;

const base64 = (text) => Buffer.from(text, 'utf8').toString('base64');

describe('MCP: the CTS nodes as tools of an MCP server in n8n 2.41.1', () => {
	let sandbox;
	let n8n;
	let client;
	let tools;

	before(async () => {
		sandbox = await startSandbox();
		n8n = await n8nForFile('mcp');
		const credential = async (name, type, data) => ({ ...(await n8n.rest.createCredential({ name, type, data })), type });
		const credentials = {
			api: await credential('CTS API (sandbox)', 'ctsApi', { apiKey: 'sandbox-alice-key', baseUrl: sandbox.url }),
			sync: await credential('CTS Sync API (sandbox)', 'ctsSyncApi', { token: await sandbox.token('alice', 24 * 3600), syncUrl: sandbox.url }),
		};
		const workflow = await n8n.rest.createWorkflow(mcpServerWorkflow(n8n.prefix, credentials));
		await n8n.rest.activateWorkflow(workflow.id);
		client = await connect(`${n8n.url}/mcp/${MCP_PATH}`);
		tools = (await client.listTools()).tools;
	});

	after(async () => {
		await client?.close();
		await n8n?.dispose();
		await sandbox?.close();
	});

	/** Calls a tool; resolves to what the client got (the text parsed as JSON where it is JSON) and the API calls it caused. */
	const call = async (name, args) => {
		const before = (await sandbox.requests()).length;
		const result = await client.callTool({ name, arguments: args });
		const text = result.content.map((part) => part.text).join('\n');
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		const sent = (await sandbox.requests()).slice(before);
		return { isError: result.isError === true, text, json, sent };
	};
	const only = (sent, method, path) => {
		const matching = sent.filter((request) => request.method === method && request.path === path);
		assert.equal(matching.length, 1, `one ${method} ${path} among ${sent.map((request) => `${request.method} ${request.path}`).join(', ')}`);
		return matching[0];
	};

	it('lists every tool with its description and an input schema that is valid JSON Schema 2020-12', () => {
		assert.deepEqual(tools.map((tool) => tool.name).sort(), MCP_TOOLS.map((tool) => tool.name).sort());
		const ajv = new Ajv2020({ strict: true, allErrors: true });
		const sdkValidator = new AjvJsonSchemaValidator();
		const described = {
			id: { key: /Id$/, says: /exactly as received/, seen: [] },
			'date-time': { key: /^(start|end|due)$/, says: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/, seen: [] },
			'time zone': { key: /^timeZone$/, says: /IANA time zone.*e\.g\. Europe\/Berlin/, seen: [] },
		};
		for (const tool of tools) {
			const expected = MCP_TOOLS.find((candidate) => candidate.name === tool.name);
			assert.equal(tool.description, expected.description, tool.name);
			const schema = tool.inputSchema;
			assert.equal(schema.type, 'object', tool.name);
			assert.ok(schema.$schema === undefined || schema.$schema === 'https://json-schema.org/draft/2020-12/schema', `${tool.name}: dialect ${schema.$schema}`);
			assert.ok(ajv.validateSchema(schema), `${tool.name}: ${ajv.errorsText(ajv.errors)}`);
			assert.doesNotThrow(() => ajv.compile(schema), tool.name);
			assert.equal(typeof sdkValidator.getValidator(schema), 'function', tool.name);
			// Every value an agent fills in says what it is.
			for (const [key, property] of Object.entries(schema.properties ?? {})) {
				assert.ok(['string', 'number', 'boolean'].includes(property.type), `${tool.name}.${key}: type ${property.type}`);
				assert.ok(property.description?.length > 10, `${tool.name}.${key} has a description`);
				for (const kind of Object.keys(described)) if (described[kind].key.test(key)) described[kind].seen.push([`${tool.name}.${key}`, property.description]);
			}
		}
		// Ids, date-times and time zones say how to fill them in; each kind is among the tools' values.
		for (const [kind, { seen, says }] of Object.entries(described)) {
			assert.ok(seen.length > 0, `some tool takes a value of kind ${kind}`);
			for (const [name, description] of seen) assert.match(description, says, name);
		}
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));
		assert.deepEqual(byName.create_event.required.sort(), ['calendarId', 'end', 'start', 'timeZone', 'title']);
		assert.deepEqual(byName.update_event.required.sort(), ['calendarId', 'eventId']);
		assert.deepEqual(byName.answer_invitation.required.sort(), ['eventId', 'response']);
		assert.deepEqual(byName.create_task.required, ['title']);
		assert.equal(byName.list_my_tasks.required, undefined, 'list_my_tasks needs no argument');
		// The SDK's validator accepts what an agent sends and refuses a call that lacks a required value.
		const validate = sdkValidator.getValidator(byName.create_event);
		assert.equal(validate({ calendarId: 'c', title: 't', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: 'Europe/Berlin' }).valid, true);
		assert.equal(validate({ calendarId: 'c', start: '2026-12-01T09:00:00', end: '2026-12-01T10:00:00', timeZone: 'Europe/Berlin' }).valid, false);
	});

	it('each tool called with arguments as an agent writes them: what the service received and what the agent got', async () => {
		await sandbox.reset();

		const calendars = await call('list_calendars', {});
		assert.equal(calendars.isError, false, calendars.text);
		const primary = calendars.json.find((calendar) => calendar.id === 'cal-alice-a-primary');
		assert.equal(primary.accountId, 'acc-alice-a');
		only(calendars.sent, 'GET', '/v3/calendars/list');

		const task = await call('create_task', { title: 'Send the report', due: '2026-12-01T17:00:00', timeZone: 'Europe/Berlin', priority: 2 });
		assert.equal(task.isError, false, task.text);
		assert.deepEqual(only(task.sent, 'POST', '/v3/tasks/create').body, { title: 'Send the report', due: '2026-12-01T17:00:00', timeZone: 'Europe/Berlin', priority: 2 });
		const [createdTask] = task.json;
		assert.equal(createdTask.title, 'Send the report');
		assert.equal(createdTask.due, '2026-12-01T17:00:00+01:00');
		assert.equal(createdTask.timeZone, 'Europe/Berlin');
		assert.equal(createdTask['@type'], undefined, 'the simplified task');

		// Called twice with the same key, as an agent retrying would: one task.
		const added = await call('add_task_unless_there', { key: '<CAF1x9@mail.example.com>', title: 'Answer Ann', due: '2026-12-02T12:00:00', timeZone: 'Europe/Berlin' });
		assert.equal(added.isError, false, added.text);
		assert.deepEqual([added.json[0].action, added.json[0].title], ['created', 'Answer Ann']);
		assert.equal(added.sent.filter((request) => request.path === '/v3/tasks/create').length, 1);
		const again = await call('add_task_unless_there', { key: '<CAF1x9@mail.example.com>', title: 'Answer Ann', due: '2026-12-02T12:00:00', timeZone: 'Europe/Berlin' });
		assert.equal(again.isError, false, again.text);
		assert.deepEqual([again.json[0].action, again.json[0].taskId], ['unchanged', added.json[0].taskId]);
		assert.deepEqual(again.sent.filter((request) => request.method === 'POST'), []);

		const tasks = await call('list_my_tasks', {});
		assert.equal(tasks.isError, false, tasks.text);
		assert.ok(tasks.json.some((listed) => listed.id === createdTask.id && listed.title === 'Send the report'));
		assert.ok(tasks.json.length <= 20, 'the default limit of the tool');

		const created = await call('create_event', {
			calendarId: 'cal-alice-a-primary',
			title: 'Planning',
			start: '2026-12-03T10:00:00',
			end: '2026-12-03T10:45:00',
			timeZone: 'Europe/Berlin',
			attendees: 'alice@sandbox.example, ann@example.com',
			videoMeeting: true,
		});
		assert.equal(created.isError, false, created.text);
		const createBody = only(created.sent, 'POST', '/v3/events/create').body;
		assert.deepEqual(
			{ ...createBody, participants: Object.keys(createBody.participants) },
			{
				accountId: 'acc-alice-a',
				calendarId: 'cal-alice-a-primary',
				title: 'Planning',
				start: '2026-12-03T10:00:00',
				duration: 'PT45M',
				timeZone: 'Europe/Berlin',
				showWithoutTime: false,
				participants: [base64('alice@sandbox.example'), base64('ann@example.com')],
				'service.example:requestVirtualRoom': 'default',
			},
		);
		const [event] = created.json;
		// The simplified event: small, flat, with what a follow-up call needs.
		assert.deepEqual(
			{ ...event, id: typeof event.id, meetingUrl: typeof event.meetingUrl, created: undefined, updated: undefined, description: undefined },
			{
				id: 'string',
				title: 'Planning',
				start: '2026-12-03T10:00:00+01:00',
				end: '2026-12-03T10:45:00+01:00',
				timeZone: 'Europe/Berlin',
				allDay: false,
				duration: 'PT45M',
				description: undefined,
				participants: [
					{ email: 'alice@sandbox.example', status: 'needs-action', roles: ['attendee'], accountOwner: true },
					{ email: 'ann@example.com', status: 'needs-action', roles: ['attendee'], accountOwner: false },
				],
				useDefaultAlerts: true,
				meetingUrl: 'string',
				privacy: 'public',
				freeBusyStatus: 'busy',
				calendarId: 'cal-alice-a-primary',
				accountId: 'acc-alice-a',
				integrationId: 'providerA',
				created: undefined,
				updated: undefined,
			},
		);
		assert.match(event.meetingUrl, /^https:\/\//);

		const listed = await call('list_events', {
			accountId: event.accountId,
			calendarIds: event.calendarId,
			rangeStart: '2026-12-03T00:00:00+01:00',
			rangeEnd: '2026-12-04T00:00:00+01:00',
		});
		assert.equal(listed.isError, false, listed.text);
		assert.deepEqual(only(listed.sent, 'GET', '/v3/events/list').query, {
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-02T23:00:00Z',
			end: '2026-12-03T23:00:00Z',
		});
		assert.deepEqual(listed.json.map((item) => [item.id, item.title]), [[event.id, 'Planning']]);

		// The day's agenda: one list call per account of every readable calendar, the open tasks, entries in Berlin time.
		const agenda = await call('get_agenda', { date: '2026-12-03', timeZone: 'Europe/Berlin' });
		assert.equal(agenda.isError, false, agenda.text);
		assert.deepEqual(
			agenda.json.filter((entry) => entry.kind === 'event').map((entry) => [entry.eventId, entry.title, entry.start, entry.end, entry.calendarName]),
			[[event.id, 'Planning', '2026-12-03T10:00:00+01:00', '2026-12-03T10:45:00+01:00', 'Personal']],
		);
		assert.ok(agenda.sent.some((request) => request.path === '/v3/tasks/list'), 'the open tasks are read');

		// The ID exactly as the agent received it (it contains characters such as + / =).
		const moved = await call('update_event', { calendarId: event.calendarId, eventId: event.id, title: 'Planning (moved)', start: '2026-12-03T11:00:00' });
		assert.equal(moved.isError, false, moved.text);
		const updateBody = only(moved.sent, 'POST', '/v3/events/update').body;
		assert.deepEqual(updateBody, {
			id: event.id,
			accountId: 'acc-alice-a',
			calendarId: 'cal-alice-a-primary',
			title: 'Planning (moved)',
			start: '2026-12-03T11:00:00',
			duration: 'PT45M',
			timeZone: 'Europe/Berlin',
			showWithoutTime: false,
		});
		assert.deepEqual(
			(({ id, title, start, end, timeZone }) => ({ id, title, start, end, timeZone }))(moved.json[0]),
			{ id: event.id, title: 'Planning (moved)', start: '2026-12-03T11:00:00+01:00', end: '2026-12-03T11:45:00+01:00', timeZone: 'Europe/Berlin' },
		);

		const answered = await call('answer_invitation', { eventId: event.id, response: 'tentativelyAccept', comment: 'Might be late' });
		assert.equal(answered.isError, false, answered.text);
		assert.deepEqual(only(answered.sent, 'POST', '/v1/events/tentativelyAccept').body, { id: event.id, comment: 'Might be late', notifyOrganizer: true });
		assert.deepEqual(answered.json, [{ id: event.id, response: 'tentativelyAccept', success: true }]);
		const stored = (await sandbox.api('GET', '/v3/events', { qs: { id: event.id } })).body.data.event;
		assert.equal(stored.participants[base64('alice@sandbox.example')].participationStatus, 'tentative');

		// Three tasks planned: previewed (nothing written), then written as previewed.
		const batch = [];
		for (const title of ['Plan A', 'Plan B', 'Plan C']) batch.push((await call('create_task', { title, priority: 2 })).json[0].id);
		const planArgs = { taskIds: batch.join(', '), calendarId: 'cal-alice-a-primary', timeZone: 'Europe/Berlin' };
		const previewed = await call('plan_tasks', planArgs);
		assert.equal(previewed.isError, false, previewed.text);
		assert.deepEqual(previewed.json.map((item) => [item.taskId, item.action, item.preview]), batch.map((id) => [id, 'create', true]));
		assert.deepEqual(previewed.sent.filter((request) => request.method === 'POST'), [], 'a preview writes nothing');
		const planned = await call('plan_tasks', { ...planArgs, preview: false });
		assert.equal(planned.isError, false, planned.text);
		// The plan written is the one previewed (its times may move with the clock between the calls).
		assert.deepEqual(planned.json.map((item) => [item.taskId, item.action, item.durationMinutes, typeof item.eventId]), previewed.json.map((item) => [item.taskId, 'created', item.durationMinutes, 'string']));
		assert.equal(planned.sent.filter((request) => request.path === '/v3/events/create').length, 3);
	});

	it("an agent's job: learn the time, find the calendar and free time, book tomorrow 10:00 for 30 min with two people, list tomorrow in the user's zone, delete it; finish tasks", async () => {
		await sandbox.reset();
		const now = await call('now', {});
		assert.equal(now.isError, false, now.text);
		const [{ now: current }] = now.json;
		// n8n runs here with GENERIC_TIMEZONE=UTC: the user's time zone is UTC.
		assert.match(current, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00 in UTC$/, 'the current time with its offset, and the zone');
		assert.deepEqual(now.sent, []);
		const tomorrow = new Date(Date.parse(current.split(' in ')[0]) + 24 * 3600_000).toISOString().slice(0, 10);

		const calendars = await call('list_calendars', {});
		assert.ok(calendars.text.length < 1500, `list_calendars is small: ${calendars.text.length} characters`);
		const personal = calendars.json.find((calendar) => calendar.name === 'Personal' && calendar.writable);
		assert.deepEqual(Object.keys(personal).sort(), ['accountEmail', 'accountId', 'connected', 'id', 'name', 'provider', 'writable']);
		assert.ok(calendars.json.some((calendar) => calendar.connected === false && calendar.writable === false && calendar.connectionProblem), 'a lost connection is marked, not listed as writable');

		const free = await call('find_free_time', { rangeStart: `${tomorrow}T00:00:00`, rangeEnd: `${tomorrow}T23:59:00`, timeZone: 'Europe/Berlin', minimumMinutes: 30 });
		assert.equal(free.isError, false, free.text);
		// Slots with their start and end, or (tomorrow outside working hours, or all busy) one item with a notice.
		assert.ok(free.json.length > 0 && free.json.every((item) => (item.start && item.end && item.durationMinutes >= 30) || item.notices), free.text);

		const booking = {
			calendarId: personal.id,
			title: 'Review',
			start: `${tomorrow}T10:00:00`,
			end: `${tomorrow}T10:30:00`,
			timeZone: 'Europe/Berlin',
			attendees: 'Carol <carol@example.com>; dave@example.com',
		};
		const booked = await call('create_event', booking);
		assert.equal(booked.isError, false, booked.text);
		const participants = Object.values(only(booked.sent, 'POST', '/v3/events/create').body.participants);
		assert.deepEqual(participants.map(({ email, name }) => ({ email, name })), [{ email: 'carol@example.com', name: 'Carol' }, { email: 'dave@example.com', name: undefined }]);
		const [event] = booked.json;
		// An agent that repeats the call books once: the repeat gets the same event back.
		const repeated = await call('create_event', booking);
		assert.equal(repeated.isError, false, repeated.text);
		assert.deepEqual([repeated.json[0].id, repeated.json[0].alreadyExists], [event.id, true]);
		assert.equal(repeated.sent.filter((request) => request.path === '/v3/events/create').length, 0);

		// Midnight to midnight in Berlin, whatever zone n8n runs in.
		const day = await call('list_events', { accountId: personal.accountId, calendarIds: personal.id, rangeStart: `${tomorrow}T00:00:00`, rangeEnd: `${tomorrow}T23:59:59`, timeZone: 'Europe/Berlin' });
		assert.equal(day.isError, false, day.text);
		assert.deepEqual(day.json.map((item) => [item.id, item.start.slice(0, 19), item.timeZone]), [[event.id, `${tomorrow}T10:00:00`, 'Europe/Berlin']]);
		assert.match(day.json[0].start, /[+-]\d{2}:\d{2}$/, 'the start with its offset');

		const deleted = await call('delete_event', { calendarId: event.calendarId, eventId: event.id });
		assert.equal(deleted.isError, false, deleted.text);
		assert.equal(only(deleted.sent, 'POST', '/v3/events/delete').status, 204);
		assert.deepEqual(deleted.json, [{ id: event.id, deleted: true }]);
		const after = await call('list_events', { accountId: personal.accountId, calendarIds: personal.id, rangeStart: `${tomorrow}T00:00:00`, rangeEnd: `${tomorrow}T23:59:59`, timeZone: 'Europe/Berlin' });
		assert.equal(after.isError, false, after.text);
		assert.ok(!after.text.includes(event.id), `the deleted event is not listed: ${after.text}`);

		const task = (await call('create_task', { title: 'Draft the agenda' })).json[0];
		const blocked = await call('schedule_task', { taskId: task.id, calendarId: personal.id, lengthMinutes: 45, timeZone: 'Europe/Berlin' });
		assert.equal(blocked.isError, false, blocked.text);
		assert.equal(blocked.json[0].action, 'created');
		assert.equal(blocked.json[0].event.title, 'Draft the agenda');
		const again = await call('schedule_task', { taskId: task.id, calendarId: personal.id, lengthMinutes: 45, timeZone: 'Europe/Berlin' });
		assert.equal(again.isError, false, again.text);
		assert.deepEqual([again.json[0].action, again.json[0].event.id], ['kept', blocked.json[0].event.id]);
		const changed = await call('update_task', { taskId: task.id, priority: '3', title: '' });
		assert.equal(changed.isError, false, changed.text);
		assert.deepEqual(only(changed.sent, 'POST', '/v3/tasks/update').body, { id: task.id, priority: 3 });
		const completed = await call('complete_task', { taskId: task.id });
		assert.equal(completed.isError, false, completed.text);
		assert.equal(completed.json[0].progress, 'completed');
		const other = (await call('create_task', { title: 'Obsolete' })).json[0];
		const removed = await call('delete_task', { taskId: other.id });
		assert.equal(removed.isError, false, removed.text);
		assert.deepEqual(removed.json, [{ id: other.id, deleted: true }]);
		const open = await call('list_my_tasks', {});
		assert.deepEqual((open.json ?? []).filter((listed) => [task.id, other.id].includes(listed.id)), []);

		const declined = await call('answer_invitation', { eventId: 'bm90LWFuLWV2ZW50', response: 'Decline' });
		assert.ok(declined.sent.some((request) => request.path === '/v1/events/decline'), 'a capitalised answer is understood');
	});

	it('wrong arguments come back as readable errors naming the field, and nothing is sent', async () => {
		await sandbox.reset();
		const event = { calendarId: 'cal-alice-a-primary', title: 'Planning', start: '2026-12-03T10:00:00', end: '2026-12-03T11:00:00', timeZone: 'Europe/Berlin' };
		const mistakes = [
			['create_event', { ...event, start: 'next Tuesday 10am' }, /start: "next Tuesday 10am" is not a date and time[\s\S]*ISO 8601, for example 2026-11-25T17:00:00/],
			['create_event', { ...event, timeZone: 'GMT+1' }, /timeZone: "GMT\+1" is not an IANA time zone: use a region name such as Europe\/Berlin/],
			['create_event', { ...event, end: '2026-12-03T09:00:00' }, /end: must be after Start/],
			['create_event', { ...event, attendees: 'Ann' }, /attendees: "Ann" is not an e-mail address/],
			['create_event', { ...event, calendarId: '' }, /Calendar: choose a calendar from the list or enter its ID/],
			['update_event', { calendarId: 'cal-alice-a-primary', eventId: '', title: 'x' }, /eventId: enter the ID of the event \(it is empty\)/],
			['answer_invitation', { eventId: 'ZXZ0LTE=', response: 'yes' }, /Response: "yes" is not an answer: use accept, decline or tentativelyAccept/],
			['create_task', { title: 'Report', due: 'end of month' }, /due: "end of month" is not a date and time/],
			['list_events', { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', rangeStart: 'today', rangeEnd: '2026-12-04T00:00:00Z' }, /rangeStart: "today" is not a date and time/],
		];
		for (const [name, args, message] of mistakes) {
			const result = await call(name, args);
			assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}: ${result.text}`);
			assert.match(result.text, message);
			assert.doesNotMatch(result.text, /\n\s+at |<html|<!DOCTYPE/i, 'no stack trace or HTML');
			assert.deepEqual(result.sent.filter((request) => request.path !== '/v3/calendars/list'), [], `${name}: nothing sent`);
		}

		// A required value left out: n8n checks the arguments against the tool's schema before the node runs.
		const missing = await call('create_event', { ...event, title: undefined });
		assert.equal(missing.isError, true, missing.text);
		assert.match(missing.text, /title/);
		assert.deepEqual(missing.sent, []);

		// A reason only the service knows: its message, the status and the errorRef to quote.
		const unknown = await call('update_event', { calendarId: 'cal-alice-a-primary', eventId: 'bm90LWFuLWV2ZW50', title: 'x' });
		assert.equal(unknown.isError, true);
		assert.match(unknown.text, /Event not found[\s\S]*HTTP 404 · errorRef [\w-]+/);
		assert.equal(only(unknown.sent, 'POST', '/v3/events/update').status, 404);
	});

	it('with the budget used up, a tool answers within 20 s with the reset time, and nothing is written later', async () => {
		await sandbox.reset();
		// Two creates with the task read back: 4 points.
		await sandbox.control('limits', { points: 4, windowSeconds: 900 });
		try {
			for (const title of ['first', 'second']) {
				const created = await call('create_task', { title, due: '', timeZone: '', description: '' });
				assert.equal(created.isError, false, created.text);
			}
			const started = Date.now();
			const refused = await call('create_task', { title: 'third' });
			const elapsed = Date.now() - started;
			assert.equal(refused.isError, true, refused.text);
			assert.ok(elapsed < 20_000, `answered in ${elapsed} ms`);
			assert.match(refused.text, /point budget is used up[\s\S]*resets at \d{4}-\d\d-\d\dT/);
			await sleep(3000);
			const creates = (await sandbox.requests()).filter((request) => request.path === '/v3/tasks/create');
			assert.equal(creates.length, 2, 'the refused call wrote nothing afterwards');
		} finally {
			await sandbox.control('limits', { points: null });
		}
	});
});

/** An MCP client over Streamable HTTP; n8n registers a published workflow's webhooks a moment after answering. */
async function connect(url) {
	for (let attempt = 0; ; attempt++) {
		const client = new Client({ name: 'cts-e2e-agent', version: '1.0.0' });
		try {
			await client.connect(new StreamableHTTPClientTransport(new URL(url)));
			return client;
		} catch (error) {
			if (attempt >= 40) throw error;
			await sleep(500);
		}
	}
}
