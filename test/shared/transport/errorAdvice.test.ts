/**
 * Advice that follows the cause, as the editor shows it (message and description): a 403 says
 * what to do for its reason, a 404 of something else than the service says the address is wrong
 * (never "an older deployment"), and "not found" says what was not found and where its ID comes from.
 */
import { createServer, type Server } from 'node:http';

import { CtsEvent } from '../../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../../harness/engine';
import { ALICE_KEY, NOPLAN_KEY, SandboxClient } from '../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask(), ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });
/** Another web server (n8n itself, a proxy): HTML for everything, 404. */
let elsewhere: Server;
let elsewhereUrl: string;

beforeAll(async () => {
	await sandbox.start();
	elsewhere = createServer((_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>Cannot GET</body></html>'));
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
	elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}`;
});
afterAll(async () => {
	await sandbox.stop();
	await new Promise((resolve) => elsewhere.close(resolve));
});
beforeEach(async () => await sandbox.reset());

const apiKey = (key = ALICE_KEY, baseUrl = sandbox.url) => ({ ctsApi: { apiKey: key, baseUrl } });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const event = { title: 'x', start: '2026-12-01T09:00:00', endMode: 'end', end: '2026-12-01T10:00:00', timeZone: 'Europe/Berlin' };

describe('a 403 says what to do for its reason', () => {
	it('a read-only calendar: choose one you can write to (not a word about the plan)', async () => {
		const { error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'event', operation: 'create', calendarId: byId('cal-alice-a-holidays'), ...event },
			credentials: apiKey(),
		});
		expect(error?.message).toMatch(/^Access denied: calendar cal-alice-a-holidays is read-only/);
		expect(error?.description).toMatch(/Choose a calendar you can write to/);
		expect(error?.description).not.toMatch(/plan/);
	});

	it('a plan without API access says so', async () => {
		const { error } = await engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', operation: 'create', title: 'x' }, credentials: apiKey(NOPLAN_KEY) });
		expect(error?.description).toMatch(/its plan lacks API access/);
	});

	it('a revoked calendar connection: reconnect the account', async () => {
		const { error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'event', operation: 'create', calendarId: byId('cal-alice-revoked'), ...event },
			credentials: apiKey(),
		});
		expect(error?.description).toMatch(/Reconnect the account in the service/);
	});
});

describe('a 404 that is not the service\'s', () => {
	it('a list read from another server says the Base URL does not point at the service', async () => {
		await expect(
			engine.runListSearch('searchCalendars', { type: 'ctsEvent', parameters: { resource: 'event', operation: 'create' }, credentials: apiKey(ALICE_KEY, elsewhereUrl) }),
		).rejects.toThrow("The Base URL does not point at the service: it answered HTTP 404 with text/html, not the service's answer");
	});

	it('Event Delete with "already gone counts as deleted" does not take it for a deleted event', async () => {
		const { error } = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'event', operation: 'delete', eventId: byId('ZXZ0'), accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary', goneIsSuccess: true },
			credentials: apiKey(ALICE_KEY, elsewhereUrl),
		});
		expect(error?.message).toMatch(/^The Base URL does not point at the service/);
	});

	it("the service's own 404 for a list an older deployment lacks still says so", async () => {
		// The service's error body, as a deployment without the list answers.
		const older = createServer((_request, response) =>
			response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Cannot GET /v3/calendars/list', errorRef: 'ref-1' })),
		);
		await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
		try {
			const url = `http://127.0.0.1:${(older.address() as { port: number }).port}`;
			await expect(
				engine.runListSearch('searchCalendars', { type: 'ctsEvent', parameters: { resource: 'event', operation: 'create' }, credentials: apiKey(ALICE_KEY, url) }),
			).rejects.toThrow('This service cannot list its calendars');
		} finally {
			await new Promise((resolve) => older.close(resolve));
		}
	});
});

describe('"not found" says what and where the ID comes from', () => {
	it('V1 RSVP to an unknown event: "Event not found", once, with where the Event ID comes from', async () => {
		const token = await sandbox.token('alice');
		const { error } = await engine.runNode({
			type: 'ctsEventV1',
			parameters: { resource: 'event', operation: 'rsvp', eventId: 'bm90LWFuLWV2ZW50', rsvpAction: 'accept', comment: '', notifyOrganizer: true },
			credentials: { ctsSyncApi: { token, syncUrl: sandbox.url } },
		});
		expect(error?.message).toBe('Event not found');
		expect(error?.description).toMatch(/^HTTP 404 · errorRef [\w-]+\. Check the Event ID: it is the "id" an event operation or the trigger returned/);
	});

	it('v3 Event Get of an unknown ID says the same', async () => {
		const { error } = await engine.runNode({ type: 'ctsEvent', parameters: { resource: 'event', operation: 'get', eventId: 'bm90LWFuLWV2ZW50' }, credentials: apiKey() });
		expect(error?.message).toMatch(/^Event not found/);
		expect(error?.description).toMatch(/Check the Event ID/);
	});
});
