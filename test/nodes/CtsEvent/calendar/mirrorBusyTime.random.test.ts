/**
 * Calendar → Mirror Busy Time under random changes of its sources, run by n8n's real engine
 * against the sandbox: after every run the target's copies hold exactly the busy time of the
 * sources in the range (computed here from the listed events, independently of the node's
 * code), with no duplicate, no orphan and nothing of a source's content. The seed is in the
 * test's name; set MIRROR_SEED to replay another.
 */
import { DateTime, Duration } from 'luxon';

import { CtsEvent } from '../../../../nodes/CtsEvent/CtsEvent.node';
import { Engine } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent() });

sandboxWithFreshLists(sandbox);
beforeEach(async () => await sandbox.control('limits', { points: 1_000_000 }));

const SEED = Number(process.env.MIRROR_SEED ?? 41041);
const RUNS = 14;
const ZONE = 'Europe/Berlin';
const RANGE = { start: '2026-11-30T00:00:00', end: '2026-12-14T00:00:00' };
const RANGE_MS = { start: DateTime.fromISO(RANGE.start, { zone: ZONE }).toMillis(), end: DateTime.fromISO(RANGE.end, { zone: ZONE }).toMillis() };
const A = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
const TEAM = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-team' };
const TARGET = { accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' };
type Calendar = typeof A;
type Event = Record<string, any>;
const ref = (calendar: Calendar) => `${calendar.accountId}/${calendar.calendarId}`;
const OWNER = 'alice@sandbox.example';

/** mulberry32: a small seeded generator. */
function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

async function list(calendar: Calendar): Promise<Event[]> {
	const { status, body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId: calendar.accountId, calendarIds: calendar.calendarId, start: '2026-11-27T00:00:00Z', end: '2026-12-17T00:00:00Z' } });
	if (status !== 200) throw new Error(`list answered ${status}`);
	return body.data.events as Event[];
}

/** An event's instants, computed here: timed in its zone (floating in Berlin), all-day from midnight to midnight in Berlin. */
function interval(event: Event): { start: number; end: number } {
	const duration = Duration.fromISO(String(event.duration));
	if (event.showWithoutTime) {
		const day = DateTime.fromISO(String(event.start).slice(0, 10), { zone: ZONE });
		return { start: day.toMillis(), end: day.plus({ days: Math.round(duration.as('days')) }).toMillis() };
	}
	const start = DateTime.fromISO(String(event.start), { zone: String(event.timeZone ?? ZONE) });
	return { start: start.toMillis(), end: start.plus(duration).toMillis() };
}

const isBusy = (event: Event) =>
	event.freeBusyStatus !== 'free' && event.status !== 'cancelled' && !Object.values(event.participants ?? {}).some((p: any) => p.email === OWNER && p.participationStatus === 'declined');
const inRange = (event: Event) => {
	const { start, end } = interval(event);
	return end > start && start < RANGE_MS.end && end > RANGE_MS.start;
};
const shown = (event: Event) => {
	const { start, end } = interval(event);
	return `${new Date(start).toISOString()}–${new Date(end).toISOString()}${event.showWithoutTime ? ' all-day' : ''}`;
};
const COPY = /^Busy copy of: ([^|]+) \| ([^|]+) \| ([^|]+) \| [0-9a-f]{16}$/;
const decode = (part: string) => part.replace(/%7C/gi, '|').replace(/%25/g, '%');

it(`keeps the target's busy time equal to the sources' after every one of ${RUNS} runs of random changes, with 0 duplicates, 0 orphans, 0 leaked fields (seed ${SEED})`, async () => {
	const random = generator(SEED);
	const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
	const sources: Array<{ event: Event; calendar: Calendar }> = [];
	const userEvents: Event[] = [];
	let copiesDeletedByUser = 0;
	let mostCopies = 0;
	const secret = (n: number) => ({ description: `secret-description-${n}`, locations: { l: { '@type': 'Location', name: `secret-place-${n}` } } });
	let made = 0;

	const createSource = async () => {
		const calendar = pick([A, TEAM]);
		made += 1;
		const day = DateTime.fromISO(RANGE.start, { zone: ZONE }).plus({ days: Math.floor(random() * 16) - 1 });
		let fields: Record<string, unknown>;
		if (random() < 0.15) fields = { start: `${day.toISODate()}T00:00:00`, duration: `P${1 + Math.floor(random() * 2)}D`, timeZone: null, showWithoutTime: true };
		else fields = { start: `${day.toISODate()}T${String(Math.floor(random() * 24)).padStart(2, '0')}:${pick(['00', '15', '30', '45'])}:00`, duration: `PT${15 * (1 + Math.floor(random() * 12))}M`, timeZone: pick([ZONE, 'America/New_York', 'UTC', 'Australia/Lord_Howe']) };
		if (random() < 0.15) fields.recurrenceRules = [{ '@type': 'RecurrenceRule', frequency: 'daily', count: 2 + Math.floor(random() * 3) }];
		const event = await sandbox.createEvent(timedEvent({ ...calendar, title: `secret-title-${made}`, ...secret(made), ...fields }));
		sources.push({ event, calendar });
	};
	const change = async () => {
		if (sources.length === 0) return await createSource();
		const { event, calendar } = pick(sources);
		const kind = pick(['move', 'delete', 'free', 'busy', 'decline', 'accept', 'occurrence']);
		const target = { id: event.id, ...calendar };
		if (kind === 'move') {
			const start = DateTime.fromISO(RANGE.start, { zone: ZONE }).plus({ hours: Math.floor(random() * 15 * 24) });
			await sandbox.api('POST', '/v3/events/update', { body: { ...target, start: start.toFormat("yyyy-MM-dd'T'HH:mm:ss"), duration: `PT${30 * (1 + Math.floor(random() * 4))}M`, timeZone: ZONE, showWithoutTime: false } });
		} else if (kind === 'delete') {
			await sandbox.api('POST', '/v3/events/delete', { body: target });
			sources.splice(sources.findIndex((entry) => entry.event === event), 1);
		} else if (kind === 'free' || kind === 'busy') {
			await sandbox.api('POST', '/v3/events/update', { body: { ...target, freeBusyStatus: kind } });
		} else if (kind === 'decline' || kind === 'accept') {
			await sandbox.api('POST', '/v3/events/update', { body: { ...target, participants: { [OWNER]: { email: OWNER, participationStatus: kind === 'decline' ? 'declined' : 'accepted' } } } });
		} else {
			const occurrences = (await list(calendar)).filter((listed) => listed.masterEventId === event.id);
			if (occurrences.length > 1) await sandbox.api('POST', '/v3/events/delete', { qs: { seriesUpdateMode: 'single' }, body: { id: pick(occurrences).id, ...calendar } });
		}
	};

	for (let run = 1; run <= RUNS; run++) {
		const changes = run === 1 ? 6 : Math.floor(random() * 4);
		for (let step = 0; step < changes; step++) await (random() < 0.45 ? createSource() : change());
		if (random() < 0.3) userEvents.push(await sandbox.createEvent(timedEvent({ ...TARGET, title: `own-${run}`, description: `own notes ${run}`, start: `2026-12-0${1 + (run % 9)}T07:00:00` })));
		if (random() < 0.25) {
			const copies = (await list(TARGET)).filter((event) => COPY.test(String(event.description ?? '')));
			if (copies.length > 0) {
				await sandbox.api('POST', '/v3/events/delete', { body: { id: pick(copies).id, ...TARGET } });
				copiesDeletedByUser += 1;
			}
		}

		const result = await engine.runNode({
			type: 'ctsEvent',
			parameters: { resource: 'calendar', operation: 'mirrorBusyTime', sourceCalendars: [ref(A), ref(TEAM)], calendarId: { __rl: true, mode: 'list', value: ref(TARGET) }, timeZone: ZONE, ...RANGE },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
		expect(result.error).toBeUndefined();

		const busySources = [...(await list(A)), ...(await list(TEAM))].filter((event) => isBusy(event) && inRange(event));
		const targetEvents = await list(TARGET);
		const copies = targetEvents.filter((event) => COPY.test(String(event.description ?? '')));
		const context = `run ${run} (seed ${SEED})`;
		mostCopies = Math.max(mostCopies, copies.length);
		// The target's busy time is the sources' busy time.
		expect({ context, copies: copies.map(shown).sort() }).toEqual({ context, copies: busySources.map(shown).sort() });
		// 0 duplicates, 0 orphans: one copy per busy source event, each naming it.
		const keys = copies.map((copy) => COPY.exec(String(copy.description))!.slice(1, 4).map(decode).join('/'));
		expect(new Set(keys).size).toBe(copies.length);
		const sourceKeys = new Set(busySources.map((event) => `${String(event.accountId)}/${String(event.calendarId)}/${String(event.id)}`));
		for (const key of keys) expect(sourceKeys.has(key)).toBe(true);
		// 0 leaked fields: a copy has the fixed title, busy, and nothing of its source.
		for (const copy of copies) {
			expect(copy).toMatchObject({ title: 'Busy', freeBusyStatus: 'busy' });
			expect(JSON.stringify(copy)).not.toMatch(/secret-/);
			expect(Object.keys(copy.participants ?? {})).toHaveLength(0);
		}
		// The user's own events of the target are untouched.
		for (const own of userEvents) expect(targetEvents.find((event) => event.id === own.id)).toMatchObject({ title: own.title, description: own.description, start: own.start });
	}
	// The changes reached what they test: copies were made, and some deleted by the user (made again).
	expect(mostCopies).toBeGreaterThanOrEqual(5);
	expect(copiesDeletedByUser).toBeGreaterThan(0);
});
