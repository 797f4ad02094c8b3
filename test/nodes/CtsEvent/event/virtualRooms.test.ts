/**
 * Virtual rooms of each kind (Create and Update).
 *
 * The CTS Event node through n8n's real engine against the sandbox over HTTP.
 */
import { timedEvent } from '../../../harness/sandboxClient';
import { eventNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = eventNodeSuite();

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
const providerB = { accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' };
const caldav = { accountId: 'acc-alice-c', calendarId: 'cal-alice-c-home' };
const PROVIDER_A_ROOM = /^https:\/\/meet\.provider-a\.example\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/;
const PROVIDER_B_ROOM = /^https:\/\/meetings\.provider-b\.example\/join\/[0-9a-f]{24}$/;

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

async function occurrenceStarts(start: string, end: string, calendar = target) {
	const { status, body } = await sandbox.api('GET', '/v3/events/list', {
		qs: { accountId: calendar.accountId, calendarIds: calendar.calendarId, start, end },
	});
	expect(status).toBe(200);
	return (body.data.events as Array<{ start: string }>).map((event) => event.start);
}

async function lastBody() {
	return (await sandbox.requests()).at(-1)!.body as Record<string, unknown>;
}

describe('virtual rooms', () => {
	it.each([
		['the default room on a provider A calendar', target, 'default', PROVIDER_A_ROOM],
		['a provider A room on a provider A calendar', target, 'providerAMeetingRoom', PROVIDER_A_ROOM],
		['the default room on a provider B calendar', providerB, 'default', PROVIDER_B_ROOM],
		['a provider B room on a provider B calendar', providerB, 'providerBMeetingRoom', PROVIDER_B_ROOM],
	])('creates %s; the link is written into the description', async (_name, calendar, kind, url) => {
		const { items, error } = await run(createParameters({ ...calendar, additionalFields: { requestVirtualRoom: kind } }));
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ 'service.example:requestVirtualRoom': kind });
		const room = (items[0].json['service.example:derived'] as { virtualRoom: { url: string } }).virtualRoom.url;
		expect(room).toMatch(url);
		expect(items[0].json.description).toBe(`Join the meeting: ${room}`);
		expect((await storedEvent(items[0].json.id as string)).description).toBe(`Join the meeting: ${room}`);
	});

	it.each([
		['a provider B room on a provider A calendar', target, 'providerBMeetingRoom', 'providerBMeetingRoom rooms cannot be used on providerA calendars'],
		['a provider A room on a provider B calendar', providerB, 'providerAMeetingRoom', 'providerAMeetingRoom rooms cannot be used on providerB calendars'],
		['any room on a CalDAV calendar', caldav, 'default', 'Virtual rooms are not available on caldav calendars'],
	])('shows the service error for %s, and creates nothing', async (_name, calendar, kind, message) => {
		const { error } = await run(createParameters({ ...calendar, additionalFields: { requestVirtualRoom: kind } }));
		expect(error?.message).toBe(`The service rejected the request: ${message}`);
		expect(error?.httpCode).toBe('400');
		expect(await occurrenceStarts('2026-11-01T00:00:00Z', '2027-01-01T00:00:00Z', calendar)).toEqual([]);
	});

	it('adds a room on update, and a later update keeps it', async () => {
		const created = await createEvent({ description: 'Agenda' });
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { requestVirtualRoom: 'default' } });
		expect(error).toBeUndefined();
		expect(await lastBody()).toEqual({ id: created.id, ...target, 'service.example:requestVirtualRoom': 'default' });
		const room = (items[0].json['service.example:derived'] as { virtualRoom: { url: string } }).virtualRoom.url;
		expect(room).toMatch(PROVIDER_A_ROOM);
		expect(items[0].json.description).toBe(`Agenda\n\nJoin the meeting: ${room}`);

		const renamed = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { title: 'Renamed' } });
		expect(renamed.error).toBeUndefined();
		expect(renamed.items[0].json).toMatchObject({ title: 'Renamed', 'service.example:derived': { virtualRoom: { url: room } } });
	});

	it('writes the link as HTML into an HTML description', async () => {
		const { items, error } = await run(
			createParameters({ additionalFields: { requestVirtualRoom: 'default', description: '<p>Agenda</p>', descriptionContentType: 'text/html' } }),
		);
		expect(error).toBeUndefined();
		const room = (items[0].json['service.example:derived'] as { virtualRoom: { url: string } }).virtualRoom.url;
		expect(items[0].json.description).toBe(`<p>Agenda</p><p>Join the meeting: <a href="${room}">${room}</a></p>`);
	});
});
