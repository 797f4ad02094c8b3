/**
 * Description format and the calendar's default alerts.
 *
 * The CTS Event node through n8n's real engine against the sandbox over HTTP.
 */
import { CtsEvent } from '../../../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../../../nodes/CtsEvent/CtsEventV1.node';
import { Engine, type NodeRunOptions } from '../../../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

function run(parameters: Record<string, unknown>, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsEvent',
		parameters: { resource: 'event', output: 'raw', ...parameters },
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

/** Create parameters of a timed event on 1 December 2026, 09:00–10:00 Berlin time. */
const createParameters = (extra: Record<string, unknown> = {}) => ({
	operation: 'create',
	...target,
	title: 'Covered',
	start: '2026-12-01T09:00:00',
	end: '2026-12-01T10:00:00',
	timeZone: 'Europe/Berlin',
	...extra,
});

/** An event made through the API, before the node runs; the request log starts after it. */
async function createEvent(fields: Record<string, unknown> = {}) {
	const event = await sandbox.createEvent(timedEvent(fields));
	await sandbox.clearRequests();
	return event;
}

async function storedEvent(id: string) {
	const { status, body } = await sandbox.api('GET', '/v3/events', { qs: { id } });
	expect(status).toBe(200);
	return body.data.event as Record<string, any>;
}

async function lastBody() {
	return (await sandbox.requests()).at(-1)!.body as Record<string, unknown>;
}

describe('description format and default alerts', () => {
	it('sends Description Format on create and on update', async () => {
		const created = await run(createParameters({ additionalFields: { description: '<b>Agenda</b>', descriptionContentType: 'text/html' } }));
		expect(created.error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ description: '<b>Agenda</b>', descriptionContentType: 'text/html' });
		const id = created.items[0].json.id as string;
		expect(await storedEvent(id)).toMatchObject({ description: '<b>Agenda</b>', descriptionContentType: 'text/html' });

		const updated = await run({ operation: 'update', eventId: id, ...target, updateFields: { description: 'Agenda', descriptionContentType: 'text/plain' } });
		expect(updated.error).toBeUndefined();
		expect(await lastBody()).toEqual({ id, ...target, description: 'Agenda', descriptionContentType: 'text/plain' });
		expect(updated.items[0].json).toMatchObject({ description: 'Agenda', descriptionContentType: 'text/plain' });
	});

	it('Use Default Alerts on: sent as true, the event keeps no alerts of its own', async () => {
		const { items, error } = await run(createParameters({ additionalFields: { useDefaultAlerts: true } }));
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ useDefaultAlerts: true });
		expect(await lastBody()).not.toHaveProperty('alerts');
		expect(await storedEvent(items[0].json.id as string)).toMatchObject({ useDefaultAlerts: true });
	});

	it('Use Default Alerts switched on by update removes the event\'s own alerts', async () => {
		const id15 = base64('{"a":"display","to":"-PT15M"}');
		const created = await createEvent({
			alerts: { [id15]: { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: '-PT15M', relativeTo: 'start' }, action: 'display' } },
		});
		expect(created.useDefaultAlerts).toBe(false);
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { useDefaultAlerts: true } });
		expect(error).toBeUndefined();
		expect(await lastBody()).toEqual({ id: created.id, ...target, useDefaultAlerts: true });
		expect(items[0].json.useDefaultAlerts).toBe(true);
		expect(items[0].json).not.toHaveProperty('alerts');
	});
});
