/**
 * Conformance of the v3 events endpoints: event ids (opaque, percent-encoded, meaningful only for their
 * user, account and calendar), one test per rule of the interface and of the notes on where it is silent.
 * Over real HTTP against an in-process sandbox; the setup and helpers the events test files share are in
 * `support/events.ts`.
 */
import { ACC_B, ACC_BOB, CAL_A, CAL_A_TEAM, CAL_B, CAL_BOB, useEventsApi } from './support/events';
import { BOB, expectErrorBody } from './support/http';

const { api, ev, series } = useEventsApi();

describe('ids', () => {
	it('ids: event ids are opaque, mixed case, and contain +, / and =', async () => {
		for (let i = 0; i < 20; i++) {
			const { id } = await ev.create();
			expect(id).toMatch(/\+/);
			expect(id).toMatch(/\//);
			expect(id).toMatch(/=/);
			expect(id).toMatch(/[A-Z]/);
			expect(id).toMatch(/[a-z]/);
		}
	});

	it('ids: ids with +, / and = round trip through get, update and delete when percent-encoded', async () => {
		const { id } = await ev.create();
		const raw = await api().call('GET', `/v3/events?id=${encodeURIComponent(id)}`);
		expect(raw.status).toBe(200);
		expect(raw.body.data.event.id).toBe(id);
		expect((await ev.updated({ id, title: 'Renamed' })).id).toBe(id);
		expect((await ev.delete(id)).status).toBe(204);
	});

	it('ids: an id sent in a query without percent-encoding is another id (+ reads as a space): 404', async () => {
		const { id } = await ev.create();
		expectErrorBody(await api().call('GET', `/v3/events?id=${id}`), 404);
	});

	it('ids: a changed id (case, trimmed padding, re-encoded) names no event: 404', async () => {
		const { id } = await ev.create();
		for (const changed of [id.toLowerCase(), id.replace(/=+$/, ''), id.replace(/\+/g, '-').replace(/\//g, '_'), ` ${id}`]) {
			expectErrorBody(await ev.get(changed), 404);
		}
	});

	it('ids: instance ids differ from the master id, are stable across lists, and are accepted by get, update and delete', async () => {
		const master = await series();
		const first = await ev.listEvents();
		const second = await ev.listEvents();
		expect(first.map((e) => e.id)).toEqual(second.map((e) => e.id));
		expect(new Set(first.map((e) => e.id)).size).toBe(first.length);
		for (const instance of first) {
			expect(instance.id).not.toBe(master.id);
			expect(instance.masterEventId).toBe(master.id);
			expect(instance.id).toMatch(/\+/);
			expect(instance.id).toMatch(/\//);
			expect(instance.id).toMatch(/=/);
		}
		const [a, b] = first;
		expect((await ev.getEvent(a.id)).id).toBe(a.id);
		expect((await ev.updated({ id: a.id, title: 'One' })).id).toBe(a.id);
		expect((await ev.delete(b.id)).status).toBe(204);
		expectErrorBody(await ev.get(b.id), 404);
	});

	it('ids: uid is not an id: get, update and delete by uid answer 404', async () => {
		const { uid } = await ev.create();
		expectErrorBody(await ev.get(uid), 404);
		expectErrorBody(await ev.update({ id: uid, title: 'x' }), 404);
		expectErrorBody(await ev.delete(uid), 404);
	});

	it('ids: an id of another user\'s event is unknown: 404 on get, update and delete, and the event is unchanged', async () => {
		const bobs = await ev.create({ accountId: ACC_BOB, calendarId: CAL_BOB }, BOB);
		expectErrorBody(await ev.get(bobs.id), 404);
		expectErrorBody(await ev.update({ id: bobs.id, title: 'Mine' }), 404);
		expectErrorBody(await ev.delete(bobs.id), 404);
		expect((await ev.getEvent(bobs.id, BOB)).title).toBe('Meeting');
	});

	it('ids: an id is meaningful only with its account and calendar: another calendar or account of the same user answers 404', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.update({ id, calendarId: CAL_A_TEAM, title: 'x' }), 404);
		expectErrorBody(await ev.update({ id, accountId: ACC_B, calendarId: CAL_B, title: 'x' }), 404);
		expectErrorBody(await ev.delete(id, undefined, { accountId: ACC_B, calendarId: CAL_B }), 404);
		expect((await ev.getEvent(id)).title).toBe('Meeting');
	});

	it('ids: id and calendarId are not interchangeable', async () => {
		const { id } = await ev.create();
		expectErrorBody(await ev.get(CAL_A), 404);
		expectErrorBody(await ev.update({ id: CAL_A, title: 'x' }), 404);
		expect((await ev.update({ id, calendarId: id, title: 'x' })).status).toBe(400);
	});
});
