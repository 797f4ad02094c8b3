/**
 * Update: a new end.
 *
 * The CTS Event node through n8n's real engine against the sandbox over HTTP.
 */
import { withEnd } from '../../../../nodes/shared/output/simplifyEvent';
import { timedEvent } from '../../../harness/sandboxClient';
import { eventNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = eventNodeSuite();

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

/** An event made through the API, before the node runs; the request log starts after it. */
async function createEvent(fields: Record<string, unknown> = {}) {
	const event = await sandbox.createEvent(timedEvent(fields));
	await sandbox.clearRequests();
	return event;
}

async function calls() {
	return (await sandbox.requests()).map((call) => `${call.method} ${call.path} ${call.status}`);
}

async function lastBody() {
	return (await sandbox.requests()).at(-1)!.body as Record<string, unknown>;
}

describe('a new end on update', () => {
	it('reads the event once and sends its start and zone with the new duration', async () => {
		const created = await createEvent({ start: '2026-12-01T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin' });
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { end: '2026-12-01T11:30:00' } });
		expect(error).toBeUndefined();
		expect(await calls()).toEqual(['GET /v3/events 200', 'POST /v3/events/update 200']);
		expect(await lastBody()).toEqual({
			id: created.id,
			...target,
			start: '2026-12-01T09:00:00',
			duration: 'PT2H30M',
			timeZone: 'Europe/Berlin',
			showWithoutTime: false,
		});
		expect(withEnd(items[0].json)).toMatchObject({ start: '2026-12-01T09:00:00', end: '2026-12-01T11:30:00', duration: 'PT2H30M' });
	});

	it('an end with an offset is converted into the event\'s zone', async () => {
		const created = await createEvent({ start: '2026-12-01T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin' });
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { end: '2026-12-01T10:30:00Z' } });
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ start: '2026-12-01T09:00:00', duration: 'PT2H30M', timeZone: 'Europe/Berlin' });
		expect(withEnd(items[0].json).end).toBe('2026-12-01T11:30:00');
	});

	it('for an all-day event End is the new last day', async () => {
		const created = await createEvent({ start: '2026-12-01T00:00:00', duration: 'P1D', timeZone: null, showWithoutTime: true });
		const { items, error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { end: '2026-12-03' } });
		expect(error).toBeUndefined();
		expect(await lastBody()).toMatchObject({ start: '2026-12-01T00:00:00', duration: 'P3D', timeZone: null, showWithoutTime: true });
		expect(withEnd(items[0].json)).toMatchObject({ duration: 'P3D', end: '2026-12-04T00:00:00' });
	});

	it('an end before the event\'s start is refused after the read, before any change', async () => {
		const created = await createEvent({ start: '2026-12-01T09:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin' });
		const { error } = await run({ operation: 'update', eventId: created.id, ...target, updateFields: { end: '2026-12-01T08:00:00' } });
		expect(error?.message).toBe('End: must be after Start');
		expect(await calls()).toEqual(['GET /v3/events 200']);
	});
});
