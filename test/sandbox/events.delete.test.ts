/**
 * Conformance of the v3 events endpoints: delete, and events surviving a restart (persistence), one test
 * per rule of the interface and of the notes on where it is silent.
 * Over real HTTP against an in-process sandbox; the setup and helpers the events test files share are in
 * `support/events.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSandbox } from './server';
import {
	ACC_A,
	ACC_BOB,
	ACC_EXPIRED,
	ACC_REVOKED,
	CAL_BOB,
	CAL_EXPIRED,
	CAL_REVOKED,
	Events,
	IN_A,
	M,
	useEventsApi,
	weekly,
} from './support/events';
import { BOB, Client, expectErrorBody, expectValidation } from './support/http';

const { api, ev, setConnection, series } = useEventsApi();

describe('delete', () => {
	it('delete: answers 204 with an empty body; get then answers 404 and the list omits it', async () => {
		const { id } = await ev.create();
		const res = await ev.delete(id);
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
		expectErrorBody(await ev.get(id), 404);
		expect(await ev.listEvents()).toEqual([]);
	});

	it('delete: not idempotent: a repeated delete answers 404', async () => {
		const { id } = await ev.create();
		expect((await ev.delete(id)).status).toBe(204);
		expectErrorBody(await ev.delete(id), 404);
	});

	it('delete: the body accepts only id, accountId and calendarId, all required strings', async () => {
		const { id } = await ev.create();
		expectValidation(await api().post('/v3/events/delete', { id }), ['accountId must be a string', 'calendarId must be a string']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A }), ['id must be a string']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A, id: 5 }), ['id must be a string']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A, id, title: 'x' }), ['property title should not exist']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A, id, masterEventId: 'x' }), ['property masterEventId should not exist']);
		expectValidation(await api().post('/v3/events/delete', { ...IN_A, id, seriesUpdateMode: 'all' }), [M.inBody]);
		expect((await ev.getEvent(id)).id).toBe(id);
	});

	it('delete: seriesUpdateMode is accepted only in the query; other query parameters answer 400', async () => {
		const { id } = await ev.create();
		const res = await api().call('POST', '/v3/events/delete', { body: { ...IN_A, id }, query: { id } });
		expectValidation(res, ['property id should not exist']);
		expectValidation(await ev.delete(id, 'every'), ['seriesUpdateMode must be one of the following values: single, future, all']);
	});

	it('delete: all or future on a non-recurring event answers 400', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.delete(id, 'all'), 400, "Cannot apply 'all' series update mode to non-recurring events");
		expectErrorBody(await ev.delete(id, 'future'), 400, "Cannot apply 'future' series update mode to non-recurring events");
		expect((await ev.delete(id, 'single')).status).toBe(204);
	});

	it('delete: single on an occurrence removes that occurrence only; get by its id then answers 404', async () => {
		const master = await series();
		const before = await ev.listEvents();
		expect((await ev.delete(before[1].id)).status).toBe(204);
		expectErrorBody(await ev.get(before[1].id), 404);
		expect((await ev.listEvents()).map((e) => e.id)).toEqual(before.filter((_, i) => i !== 1).map((e) => e.id));
		expect((await ev.getEvent(master.id)).id).toBe(master.id);
		expectErrorBody(await ev.delete(before[1].id), 404);
	});

	it('delete: future on an occurrence ends the series before it', async () => {
		const master = await series();
		const before = await ev.listEvents();
		expect((await ev.delete(before[2].id, 'future')).status).toBe(204);
		expect((await ev.listEvents()).map((e) => e.start)).toEqual(['2026-03-02T09:00:00', '2026-03-09T09:00:00']);
		expect((await ev.getEvent(master.id)).recurrenceRules).toEqual(weekly({ until: '2026-03-09T09:00:00' }));
		expectErrorBody(await ev.get(before[3].id), 404);
		expectErrorBody(await ev.delete(before[2].id, 'future'), 404);
	});

	it('delete: future on the first occurrence deletes the series', async () => {
		const master = await series();
		const [first] = await ev.listEvents();
		expect((await ev.delete(first.id, 'future')).status).toBe(204);
		expect(await ev.listEvents()).toEqual([]);
		expectErrorBody(await ev.get(master.id), 404);
	});

	it('delete: all on an occurrence deletes the series', async () => {
		const master = await series();
		const [, second] = await ev.listEvents();
		expect((await ev.delete(second.id, 'all')).status).toBe(204);
		expect(await ev.listEvents()).toEqual([]);
		expectErrorBody(await ev.get(master.id), 404);
		expectErrorBody(await ev.delete(master.id), 404);
	});

	it('delete: the master id deletes the series', async () => {
		const master = await series();
		expect((await ev.delete(master.id)).status).toBe(204);
		expect(await ev.listEvents()).toEqual([]);
	});

	it('delete: another user\'s event answers 404 and stays', async () => {
		const bobs = await ev.create({ accountId: ACC_BOB, calendarId: CAL_BOB }, BOB);
		expectErrorBody(await ev.delete(bobs.id), 404);
		expect((await ev.getEvent(bobs.id, BOB)).id).toBe(bobs.id);
	});

	it('delete: an expired connection answers 401 and a revoked one 403', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.delete(id, undefined, { accountId: ACC_EXPIRED, calendarId: CAL_EXPIRED }), 401);
		expectErrorBody(await ev.delete(id, undefined, { accountId: ACC_REVOKED, calendarId: CAL_REVOKED }), 403);
		setConnection(ACC_A, 'revoked');
		expectErrorBody(await ev.delete(id), 403);
		setConnection(ACC_A, 'active');
		expect((await ev.delete(id)).status).toBe(204);
	});
});

// ---------------------------------------------------------------------------------------------

describe('persistence', () => {
	it('persistence: events, series and their exceptions survive a restart with the same ids', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-events-'));
		const dataFile = join(dir, 'state.json');
		try {
			const first = await startSandbox({ port: 0, dataFile });
			const one = new Events(() => new Client(first));
			await one.create({ recurrenceRules: weekly() });
			const before = await one.listEvents();
			expect((await one.delete(before[1].id)).status).toBe(204);
			const expected = await one.listEvents();
			await first.close();
			const second = await startSandbox({ port: 0, dataFile });
			const after = await new Events(() => new Client(second)).listEvents();
			await second.close();
			expect(after).toEqual(expected);
			expect(after).toHaveLength(4);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
