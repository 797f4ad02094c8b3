/**
 * The CTS Event Trigger as an activated workflow runs it (PollContext over a real Workflow,
 * static data carried between polls) against the sandbox with a controlled clock.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { PollHarness } from '../../harness/engine';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../harness/sandboxClient';

const sandbox = new SandboxClient();
const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => {
	await sandbox.reset();
	await sandbox.control('clock', { now: '2026-12-01T08:00:00.000Z' });
});

// These tests are about what fires; sharing the point budget has its own tests, so the trigger
// may use all of it here (the sandbox's clock stands still, its window never resets).
function trigger(parameters: IDataObject = {}) {
	return new PollHarness(
		new CtsEventTrigger(),
		'ctsEventTrigger',
		{
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			events: ['created', 'updated', 'cancelled', 'started', 'ended'],
			minutesBefore: 10,
			lookAheadDays: 14,
			lookBackDays: 0,
			options: { budgetShare: 100 },
			...parameters,
		},
		{ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
	);
}

const fired = (result: INodeExecutionData[][] | null) =>
	(result?.[0] ?? []).map((item) => `${item.json.triggerEvent}:${item.json.title}`).sort();
const advance = async (minutes: number) => await sandbox.control('clock', { advanceSeconds: minutes * 60 });

async function createEvent(fields: Record<string, unknown>) {
	const { status, body } = await sandbox.api('POST', '/v3/events/create', { body: timedEvent({ timeZone: 'UTC', ...fields }) });
	if (status !== 200) throw new Error(`create answered ${status}: ${JSON.stringify(body)}`);
	return body.data.event as Record<string, any>;
}

it('a first poll learns the window without firing; an idle poll is one list call', async () => {
	await createEvent({ title: 'existing', start: '2026-12-02T09:00:00' });
	const poller = trigger();
	await sandbox.clearRequests();
	expect(await poller.poll()).toBeNull();
	// The sandbox's clock stands days away from this machine's: the window is placed again once.
	expect((await sandbox.requests()).map((call) => call.path)).toEqual(['/v3/events/list', '/v3/events/list']);
	await advance(1);
	await sandbox.clearRequests();
	expect(await poller.poll()).toBeNull();
	const calls = await sandbox.requests();
	expect(calls).toHaveLength(1);
	expect(calls[0]).toMatchObject({ path: '/v3/events/list', points: 10 });
});

it('on the service\'s real clock a first poll is one list call', async () => {
	await sandbox.control('clock', { now: null });
	const poller = trigger();
	await sandbox.clearRequests();
	expect(await poller.poll()).toBeNull();
	expect(await sandbox.requests()).toHaveLength(1);
});

it('fires created, updated and cancelled once each; a deletion is confirmed with one read', async () => {
	const poller = trigger();
	await poller.poll();
	await advance(1);
	const event = await createEvent({ title: 'new', start: '2026-12-03T09:00:00' });
	expect(fired(await poller.poll())).toEqual(['created:new']);
	await advance(1);
	expect(await poller.poll()).toBeNull();
	await sandbox.api('POST', '/v3/events/update', { body: { id: event.id, ...target, title: 'renamed' } });
	await advance(1);
	expect(fired(await poller.poll())).toEqual(['updated:renamed']);
	await sandbox.api('POST', '/v3/events/delete', { body: { id: event.id, ...target } });
	await advance(1);
	await sandbox.clearRequests();
	expect(fired(await poller.poll())).toEqual(['cancelled:renamed']);
	expect((await sandbox.requests()).map((call) => call.path)).toEqual(['/v3/events/list', '/v3/events']);
	await advance(1);
	expect(await poller.poll()).toBeNull();
});

it('fires "starting" N minutes before the start and "ended" after the end, once per occurrence', async () => {
	const poller = trigger();
	await poller.poll();
	await createEvent({ title: 'soon', start: '2026-12-01T08:30:00', duration: 'PT30M' });
	await advance(1);
	expect(fired(await poller.poll())).toEqual(['created:soon']);
	await advance(15); // 08:16: 14 minutes to go
	expect(await poller.poll()).toBeNull();
	await advance(5); // 08:21: within 10 minutes
	expect(fired(await poller.poll())).toEqual(['started:soon']);
	await advance(5);
	expect(await poller.poll()).toBeNull();
	await advance(35); // 09:01: ended at 09:00
	expect(fired(await poller.poll())).toEqual(['ended:soon']);
	await advance(5);
	expect(await poller.poll()).toBeNull();
});

it('tells an event moved out of the window (updated) from a deleted one, and ignores the window moving on', async () => {
	const poller = trigger({ events: ['created', 'updated', 'cancelled'] });
	const moving = await createEvent({ title: 'moving', start: '2026-12-05T09:00:00' });
	await createEvent({ title: 'passing', start: '2026-12-01T08:10:00', duration: 'PT10M' });
	await poller.poll();
	await advance(1);
	await sandbox.api('POST', '/v3/events/update', {
		body: { id: moving.id, ...target, start: '2027-02-01T09:00:00', duration: 'PT1H', timeZone: 'UTC', showWithoutTime: false },
	});
	await advance(60); // "passing" ended and leaves the window by time alone
	expect(fired(await poller.poll())).toEqual(['updated:moving']);
	await advance(60);
	expect(await poller.poll()).toBeNull();
});

it('counts each occurrence of a series on its own as the window moves', async () => {
	const poller = trigger({ events: ['created', 'updated', 'cancelled'] });
	await poller.poll();
	const series = await createEvent({
		title: 'weekly',
		start: '2026-12-02T09:00:00',
		recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1, count: 10 }],
	});
	await advance(1);
	// 14 days ahead: the occurrences of Dec 2 and Dec 9.
	const first = await poller.poll();
	expect(fired(first)).toEqual(['created:weekly', 'created:weekly']);
	expect(new Set(first![0].map((item) => item.json.id)).size).toBe(2);
	expect(first![0].every((item) => item.json.masterEventId === series.id)).toBe(true);
	await advance(7 * 24 * 60); // a week later: Dec 16 enters the window, which creates nothing
	expect(await poller.poll()).toBeNull();
	const occurrences = (await sandbox.api('GET', '/v3/events/list', {
		qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: '2026-12-08T00:00:00Z', end: '2026-12-20T00:00:00Z' },
	})).body.data.events;
	await sandbox.api('POST', '/v3/events/update', { qs: { seriesUpdateMode: 'single' }, body: { id: occurrences[0].id, ...target, title: 'one off' } });
	await advance(1);
	expect(fired(await poller.poll())).toEqual(['updated:one off']);
});

describe('Event Created means created since the previous check', () => {
	it('a daily stand-up created before activation never fires it as its occurrences come into view; Event Starting does', async () => {
		await createEvent({
			title: 'stand-up',
			start: '2026-12-01T09:00:00',
			duration: 'PT15M',
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1 }],
		});
		const poller = trigger({ lookAheadDays: 3 });
		await advance(60);
		await poller.poll();
		const seen: string[] = [];
		for (let day = 0; day < 3; day++) {
			await advance(24 * 60); // a new occurrence enters the 3-day window every day
			seen.push(...fired(await poller.poll()));
		}
		expect(seen.sort()).toEqual(['ended:stand-up', 'ended:stand-up', 'ended:stand-up', 'started:stand-up', 'started:stand-up', 'started:stand-up']);
	});

	it('an old event moved into the window by a change fires Event Updated, not Event Created', async () => {
		const later = await createEvent({ title: 'later', start: '2027-03-01T09:00:00' });
		await advance(60);
		const poller = trigger({ events: ['created', 'updated', 'cancelled'] });
		await poller.poll();
		await advance(1);
		await sandbox.api('POST', '/v3/events/update', {
			body: { id: later.id, ...target, start: '2026-12-03T09:00:00', duration: 'PT1H', timeZone: 'UTC', showWithoutTime: false },
		});
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['updated:later']);
	});

	it('a new series fires Event Created once per occurrence in the window', async () => {
		const poller = trigger({ events: ['created'], lookAheadDays: 3 });
		await poller.poll();
		await advance(1);
		await createEvent({
			title: 'new daily',
			start: '2026-12-01T12:00:00',
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1, count: 10 }],
		});
		await advance(1);
		expect(fired(await poller.poll())).toEqual(['created:new daily', 'created:new daily', 'created:new daily']);
	});
});

it('a failed poll fires nothing and keeps its state; the next poll fires it', async () => {
	const poller = trigger();
	await poller.poll();
	await createEvent({ title: 'during outage', start: '2026-12-04T09:00:00' });
	await advance(1);
	const before = poller.savedStaticData;
	await sandbox.control('faults', { status: 503, count: 4 });
	await expect(poller.poll()).rejects.toThrow(/The service failed/);
	expect(poller.savedStaticData).toEqual(before);
	expect(fired(await poller.poll())).toEqual(['created:during outage']);
});

it('survives a restart from its saved static data', async () => {
	const poller = trigger();
	await poller.poll();
	await createEvent({ title: 'before restart', start: '2026-12-04T09:00:00' });
	await advance(1);
	expect(fired(await poller.poll())).toEqual(['created:before restart']);
	poller.restart();
	await advance(1);
	expect(await poller.poll()).toBeNull();
});

describe('recurring series edits', () => {
	async function weeklySeries(poller: PollHarness) {
		const series = await createEvent({
			title: 'weekly',
			start: '2026-12-02T09:00:00',
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1, count: 5 }],
		});
		await advance(1);
		expect(fired(await poller.poll())).toHaveLength(5);
		const { body } = await sandbox.api('GET', '/v3/events/list', {
			qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: '2026-12-01T00:00:00Z', end: '2027-01-01T00:00:00Z' },
		});
		await advance(1);
		return { series, occurrences: body.data.events as Array<Record<string, any>> };
	}

	it('"this and following" fires one update per changed occurrence and nothing for the earlier ones', async () => {
		const poller = trigger({ events: ['created', 'updated', 'cancelled'], lookAheadDays: 40 });
		await poller.poll();
		const { occurrences } = await weeklySeries(poller);
		await sandbox.api('POST', '/v3/events/update', { qs: { seriesUpdateMode: 'future' }, body: { id: occurrences[2].id, ...target, title: 'later' } });
		await advance(1);
		const result = await poller.poll();
		expect(fired(result)).toEqual(['updated:later', 'updated:later', 'updated:later']);
		expect(result![0].map((item) => item.json.recurrenceId)).toEqual(occurrences.slice(2).map((event) => `${event.recurrenceId}Z`));
		await advance(1);
		expect(await poller.poll()).toBeNull();
	});

	it('deleting one occurrence fires one cancellation and nothing for its siblings', async () => {
		const poller = trigger({ events: ['created', 'updated', 'cancelled'], lookAheadDays: 40 });
		await poller.poll();
		const { occurrences } = await weeklySeries(poller);
		await sandbox.api('POST', '/v3/events/delete', { qs: { seriesUpdateMode: 'single' }, body: { id: occurrences[1].id, ...target } });
		await advance(1);
		const result = await poller.poll();
		expect(result![0].map((item) => `${item.json.triggerEvent}:${item.json.id}`)).toEqual([`cancelled:${occurrences[1].id}`]);
	});
});
