/**
 * Test support for the events endpoints: fixture ids, bodies, small call helpers over real HTTP, the
 * expected messages and the setup the `events.*.test.ts` files share (`useEventsApi`).
 */
import { ALICE, useApi, type Client, type Response } from './http';

export const ACC_A = 'acc-alice-a';
export const CAL_A = 'cal-alice-a-primary';
export const CAL_A_TEAM = 'cal-alice-a-team';
export const CAL_A_HOLIDAYS = 'cal-alice-a-holidays';
export const ACC_B = 'acc-alice-b';
export const CAL_B = 'cal-alice-b-primary';
export const ACC_C = 'acc-alice-c';
export const CAL_C = 'cal-alice-c-home';
export const ACC_EXPIRED = 'acc-alice-expired';
export const CAL_EXPIRED = 'cal-alice-expired';
export const ACC_REVOKED = 'acc-alice-revoked';
export const CAL_REVOKED = 'cal-alice-revoked';
export const ACC_BOB = 'acc-bob-a';
export const CAL_BOB = 'cal-bob-a-primary';
export const ALICE_EMAIL = 'alice@sandbox.example';

export const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** Where an event lives (v3 bodies): alice's provider A primary calendar by default. */
export const IN_A = { accountId: ACC_A, calendarId: CAL_A };

/** Timing of a timed event. */
export function timed(start = '2026-03-02T09:00:00', timeZone: string | null = 'Europe/Berlin', duration = 'PT1H') {
	return { start, duration, timeZone, showWithoutTime: false };
}

/** Timing of an all-day event. */
export function allDay(date = '2026-03-02', days = 1) {
	return { start: `${date}T00:00:00`, duration: `P${days}D`, timeZone: null, showWithoutTime: true };
}

export const weekly = (parts: Record<string, unknown> = {}) => [{ '@type': 'RecurrenceRule', frequency: 'weekly', ...parts }];

/** A v3 create body: title, timing and place, plus `extra`. */
export function eventBody(extra: Record<string, unknown> = {}) {
	return { ...IN_A, title: 'Meeting', ...timed(), ...extra };
}

type Json = any;

export class Events {
	constructor(
		private readonly client: () => Client,
		private readonly key = ALICE,
	) {}

	/** Creates a v3 event and returns it (fails the test on any other answer than 200). */
	async create(extra: Record<string, unknown> = {}, key = this.key): Promise<Json> {
		const res = await this.client().post('/v3/events/create', eventBody(extra), { key });
		if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
		return res.body.data.event;
	}

	async get(id: string, key = this.key): Promise<Response> {
		return this.client().get('/v3/events', { id }, { key });
	}

	async getEvent(id: string, key = this.key): Promise<Json> {
		const res = await this.get(id, key);
		if (res.status !== 200) throw new Error(`get failed: ${res.status} ${res.text}`);
		return res.body.data.event;
	}

	async list(query: Record<string, string> = {}, key = this.key): Promise<Response> {
		return this.client().get(
			'/v3/events/list',
			{ accountId: ACC_A, calendarIds: CAL_A, start: '2026-03-01T00:00:00Z', end: '2026-04-01T00:00:00Z', ...query },
			{ key },
		);
	}

	async listEvents(query: Record<string, string> = {}, key = this.key): Promise<Json[]> {
		const res = await this.list(query, key);
		if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
		return res.body.data.events;
	}

	async update(body: Record<string, unknown>, mode?: string, key = this.key): Promise<Response> {
		return this.client().call('POST', '/v3/events/update', {
			key,
			body: { ...IN_A, ...body },
			query: mode === undefined ? {} : { seriesUpdateMode: mode },
		});
	}

	async updated(body: Record<string, unknown>, mode?: string): Promise<Json> {
		const res = await this.update(body, mode);
		if (res.status !== 200) throw new Error(`update failed: ${res.status} ${res.text}`);
		return res.body;
	}

	async delete(id: string, mode?: string, place: Record<string, string> = IN_A, key = this.key): Promise<Response> {
		return this.client().call('POST', '/v3/events/delete', {
			key,
			body: { id, ...place },
			query: mode === undefined ? {} : { seriesUpdateMode: mode },
		});
	}
}

/** The messages the events tests expect, by topic. */
export const M = {
	timing: 'start, duration, timeZone and showWithoutTime must be provided together (timeZone may be null)',
	timeZone: 'Event timeZone should be a valid IANA time zone',
	duration: 'Event duration should be a valid ISO8601 duration',
	identify: 'Event must have either id or both masterEventId and recurrenceId',
	start: 'start must be a valid LocalDateTime (YYYY-MM-DDTHH:mm:ss)',
	alertsWithDefault: 'alerts cannot be combined with useDefaultAlerts true',
	inBody: 'seriesUpdateMode must be given in the query string, not in the body',
	account: 'accountId does not name a calendar account of this user',
	windowLength: 'The window from start to end must not be longer than 6 months',
};

export const ALERT_15 = { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset: '-PT15M', relativeTo: 'start' }, action: 'display' };
export const ALERT_15_ID = b64('{"a":"display","to":"-PT15M"}');
export const ALERT_60_ID = b64('{"a":"email","to":"-PT1H"}');

/**
 * Setup of an events test file: one sandbox for the file (reset before each test) and the helpers over
 * it: `api()`, `ev` (the Events calls), `freeze` / `advance` (the clock), `setConnection` (an account's
 * connection state, set in the store) and `series` (a weekly series on Mondays from 2 March 2026, 09:00 Berlin).
 */
export function useEventsApi() {
	const { api, freeze, advance } = useApi();
	const ev = new Events(api);
	const setConnection = (accountId: string, connection: 'active' | 'expired' | 'revoked') => {
		api().sandbox.store.accounts.get(accountId)!.connection = connection;
	};
	/** A weekly series on Mondays from 2 March 2026, 09:00 Berlin. */
	const series = (extra: Record<string, unknown> = {}) => ev.create({ title: 'Weekly', recurrenceRules: weekly(), ...extra });
	return { api, ev, freeze, advance, setConnection, series };
}
