/**
 * Calendar → Find Free Time of the CTS Event node, run by n8n's real engine against the sandbox
 * over HTTP: every option and every error. What the node asked is read from the sandbox's
 * request log. The randomized comparison with a brute-force computation is in
 * `freeTime.property.test.ts`.
 */
import { CtsEvent } from '../../../../nodes/CtsEvent/CtsEvent.node';
import { AlteringProxy } from '../../../harness/alteringProxy';
import { Engine, type NodeRunOptions } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent() });

// Each test starts with the calendar list unread.
sandboxWithFreshLists(sandbox);

const A = 'acc-alice-a/cal-alice-a-primary';
const TEAM = 'acc-alice-a/cal-alice-a-team';
const B = 'acc-alice-b/cal-alice-b-primary';
const EXPIRED = 'acc-alice-expired/cal-alice-expired';
const REVOKED = 'acc-alice-revoked/cal-alice-revoked';

function run(parameters: Record<string, unknown>, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsEvent',
		parameters: {
			resource: 'calendar',
			operation: 'findFreeTime',
			calendars: [A],
			timeZone: 'Europe/Berlin',
			start: '2026-11-30T00:00:00',
			end: '2026-12-02T00:00:00',
			...parameters,
		},
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

async function create(fields: Record<string, unknown>) {
	return await sandbox.createEvent(timedEvent(fields));
}

/** Slots as "local start–local end" in the zone, for readable comparisons. */
function slots(items: Array<{ json: Record<string, unknown> }>) {
	return items.map(({ json }) => `${String(json.startInZone).slice(0, 16)}–${String(json.endInZone).slice(11, 16)}`);
}

async function eventLists() {
	return (await sandbox.requests()).filter((request) => request.path === '/v3/events/list');
}

describe('Find Free Time: free slots', () => {
	it('finds the free slots within working hours across calendars of two accounts, with one list call per account', async () => {
		await create({ title: 'Standup', start: '2026-11-30T10:00:00' });
		await create({ title: 'Lunch talk', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-11-30T12:00:00', duration: 'PT90M', timeZone: 'Europe/London' });
		await create({ title: 'Evening', start: '2026-11-30T18:00:00' });
		await sandbox.clearRequests();
		const { items, error } = await run({ calendars: [A, B] });
		expect(error).toBeUndefined();
		expect(slots(items)).toEqual(['2026-11-30T09:00–10:00', '2026-11-30T11:00–13:00', '2026-11-30T14:30–17:00', '2026-12-01T09:00–17:00']);
		expect(items[0].json).toEqual({
			start: '2026-11-30T08:00:00Z',
			end: '2026-11-30T09:00:00Z',
			startInZone: '2026-11-30T09:00:00+01:00',
			endInZone: '2026-11-30T10:00:00+01:00',
			timeZone: 'Europe/Berlin',
			durationMinutes: 60,
		});
		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.path} ${request.points}`)).toEqual(['/v3/calendars/list 10', '/v3/events/list 10', '/v3/events/list 10']);
		expect(requests.slice(1).map((request) => [request.query.accountId, request.query.calendarIds])).toEqual([
			['acc-alice-a', 'cal-alice-a-primary'],
			['acc-alice-b', 'cal-alice-b-primary'],
		]);
		// Widened by a day either side: all-day events are placed by their dates read in UTC.
		expect(requests[1].query).toMatchObject({ start: '2026-11-28T23:00:00Z', end: '2026-12-02T23:00:00Z' });
	});

	it('does not count events marked free, invitations the owner declined, or a deleted occurrence; counts the other occurrences of a series', async () => {
		await create({ title: 'Focus (free)', start: '2026-11-30T09:00:00', duration: 'PT3H', freeBusyStatus: 'free' });
		await create({
			title: 'Declined',
			start: '2026-11-30T13:00:00',
			participants: { 'alice@sandbox.example': { email: 'alice@sandbox.example', participationStatus: 'declined' } },
		});
		await create({
			title: 'Accepted',
			start: '2026-11-30T15:00:00',
			participants: { 'alice@sandbox.example': { email: 'alice@sandbox.example', participationStatus: 'accepted' } },
		});
		const series = await create({ title: 'Daily', start: '2026-11-30T16:00:00', duration: 'PT30M', recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', count: 3 }] });
		const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: '2026-12-01T00:00:00Z', end: '2026-12-02T00:00:00Z' } });
		const tuesday = (body.data.events as Array<Record<string, string>>).find((event) => event.masterEventId === series.id)!;
		const deleted = await sandbox.api('POST', '/v3/events/delete', { qs: { seriesUpdateMode: 'single' }, body: { id: tuesday.id, accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' } });
		expect(deleted.status).toBe(204);
		const { items, error } = await run({});
		expect(error).toBeUndefined();
		expect(slots(items)).toEqual(['2026-11-30T09:00–15:00', '2026-11-30T16:30–17:00', '2026-12-01T09:00–17:00']);
	});

	it('blocks the whole days of an all-day event in the chosen zone, or ignores all-day events when asked', async () => {
		await create({ title: 'Off', start: '2026-12-01T00:00:00', duration: 'P1D', timeZone: null, showWithoutTime: true });
		const blocked = await run({ timeZone: 'America/New_York', start: '2026-11-30T00:00:00', end: '2026-12-03T00:00:00' });
		expect(slots(blocked.items)).toEqual(['2026-11-30T09:00–17:00', '2026-12-02T09:00–17:00']);
		const ignored = await run({ timeZone: 'America/New_York', start: '2026-11-30T00:00:00', end: '2026-12-03T00:00:00', options: { allDayEvents: 'ignore' } });
		expect(slots(ignored.items)).toEqual(['2026-11-30T09:00–17:00', '2026-12-01T09:00–17:00', '2026-12-02T09:00–17:00']);
	});

	it('keeps buffers free before and after busy events, and honours the minimum length', async () => {
		await create({ start: '2026-11-30T10:00:00' });
		await create({ start: '2026-11-30T12:00:00' });
		const { items } = await run({ end: '2026-12-01T00:00:00', minimumMinutes: 15, options: { bufferBefore: 15, bufferAfter: 30 } });
		expect(slots(items)).toEqual(['2026-11-30T09:00–09:45', '2026-11-30T11:30–11:45', '2026-11-30T13:30–17:00']);
		const longer = await run({ end: '2026-12-01T00:00:00', minimumMinutes: 45, options: { bufferBefore: 15, bufferAfter: 30 } });
		expect(slots(longer.items)).toEqual(['2026-11-30T09:00–09:45', '2026-11-30T13:30–17:00']);
	});

	it('starts slots on round times in the zone, also where the offset is not whole hours (Lord Howe, UTC+10:30 or +11)', async () => {
		await create({ start: '2026-11-30T10:00:00', duration: 'PT50M', timeZone: 'Australia/Lord_Howe' });
		const { items } = await run({ timeZone: 'Australia/Lord_Howe', end: '2026-12-01T00:00:00', options: { slotStep: 60 } });
		expect(slots(items)).toEqual(['2026-11-30T09:00–10:00', '2026-11-30T11:00–17:00']);
		expect(items[1].json.startInZone).toBe('2026-11-30T11:00:00+11:00');
	});

	it('follows the chosen working days and hours, and searches any time of any day when asked', async () => {
		await create({ start: '2026-12-05T23:00:00', duration: 'PT2H' });
		const weekend = await run({ start: '2026-12-05T00:00:00', end: '2026-12-07T00:00:00', workingDays: [6, 7], workFrom: '08:30', workTo: '24:00' });
		expect(slots(weekend.items)).toEqual(['2026-12-05T08:30–23:00', '2026-12-06T08:30–00:00']);
		const anyTime = await run({ start: '2026-12-05T00:00:00', end: '2026-12-07T00:00:00', workingHours: 'any' });
		expect(slots(anyTime.items)).toEqual(['2026-12-05T00:00–23:00', '2026-12-06T01:00–00:00']);
		expect(anyTime.items[1].json.durationMinutes).toBe(23 * 60);
	});

	it('follows a daylight-saving change: 09:00–17:00 Berlin time on both sides of it', async () => {
		const { items } = await run({ start: '2026-03-27T00:00:00', end: '2026-03-31T00:00:00' });
		expect(items.map(({ json }) => `${String(json.start)} ${String(json.startInZone)}`)).toEqual([
			'2026-03-27T08:00:00Z 2026-03-27T09:00:00+01:00',
			'2026-03-30T07:00:00Z 2026-03-30T09:00:00+02:00',
		]);
	});

	it('reads a time the clocks pass twice as the earlier instant, and one they skip as moved forward, as the service does', async () => {
		await create({ start: '2026-10-25T02:30:00', duration: 'PT30M' });
		await create({ start: '2026-03-29T02:30:00', duration: 'PT30M' });
		const autumn = await run({ start: '2026-10-25T00:00:00', end: '2026-10-25T06:00:00', freeTimeOutput: 'busy' });
		expect(autumn.items.map(({ json }) => `${String(json.start)} ${String(json.startInZone)}`)).toEqual(['2026-10-25T00:30:00Z 2026-10-25T02:30:00+02:00']);
		const spring = await run({ start: '2026-03-29T00:00:00', end: '2026-03-29T06:00:00', freeTimeOutput: 'busy' });
		expect(spring.items.map(({ json }) => `${String(json.start)} ${String(json.startInZone)}`)).toEqual(['2026-03-29T01:30:00Z 2026-03-29T03:30:00+02:00']);
	});

	it('reads every calendar the user may read when Calendars is empty, leaving out the broken connections with one notice naming them', async () => {
		await create({ accountId: 'acc-alice-c', calendarId: 'cal-alice-c-home', start: '2026-11-30T09:00:00', duration: 'PT8H' });
		// The default Unreadable Calendars (Fail) is about calendars the user chose: these were not chosen.
		const { items, error } = await run({ calendars: [] });
		expect(error).toBeUndefined();
		expect(slots(items)).toEqual(['2026-12-01T09:00–17:00']);
		expect(items[0].json.notices).toEqual([
			'Skipped 2 calendars that cannot be read, so their events are not included. "Side Project" (cal-alice-expired): the access token has expired and could not be refreshed; reconnect the account in the service. "Former Employer" (cal-alice-revoked): access to the calendar account was revoked at the provider; reconnect the account in the service.',
		]);
		// The accounts list marks both as needing reconnection: they are not read (10 points each saved).
		const listed = await eventLists();
		expect(listed.map((request) => request.query.accountId)).toEqual(['acc-alice-a', 'acc-alice-b', 'acc-alice-c']);
		expect(listed[0].query.calendarIds).toBe('cal-alice-a-primary,cal-alice-a-team,cal-alice-a-holidays');
	});

	it('says what was skipped once, on the first item, not on every slot', async () => {
		const { items, error } = await run({ calendars: [A, EXPIRED], end: '2026-12-04T00:00:00', options: { unreadableCalendars: 'skip' } });
		expect(error).toBeUndefined();
		expect(slots(items)).toEqual(['2026-11-30T09:00–17:00', '2026-12-01T09:00–17:00', '2026-12-02T09:00–17:00', '2026-12-03T09:00–17:00']);
		expect(items[0].json.notices).toEqual([expect.stringMatching(/^Skipped "Side Project" \(cal-alice-expired\): it cannot be read, so its events are not included\. Reason: .*expired/)]);
		expect(items.slice(1).map(({ json }) => json.notices)).toEqual([undefined, undefined, undefined]);
	});

	it('fails on a chosen calendar whose connection expired (401) or was revoked (403), naming it', async () => {
		const expired = await run({ calendars: [A, EXPIRED] });
		expect(expired.error?.description).toContain('never counted as free');
		expect(expired.error?.message).toMatch(/^Calendars: cannot read "Side Project" \(cal-alice-expired\)/);
		const revoked = await run({ calendars: [REVOKED] });
		expect(revoked.error?.message).toMatch(/^Calendars: cannot read "Former Employer" \(cal-alice-revoked\): .*revoked/);
	});

	it('leaves a calendar the user may not read out of the default, and refuses it when chosen, before listing any events', async () => {
		// The service's calendar list says the team calendar may not be read (the fixtures have no such calendar).
		const proxy = new AlteringProxy(sandbox.url, (_method, path, answer) => {
			if (path !== '/v3/calendars/list') return answer;
			const body = JSON.parse(answer.body.toString());
			for (const calendar of body.data.calendars) {
				if (calendar.id === 'cal-alice-a-team') Object.assign(calendar.myRights, { mayReadItems: false, mayReadFreeBusy: false });
			}
			return { ...answer, body: Buffer.from(JSON.stringify(body)) };
		});
		await proxy.start();
		try {
			const viaProxy = { credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: proxy.url } } };
			const chosen = await run({ calendars: [TEAM, A] }, viaProxy);
			expect(chosen.error?.message).toBe('Calendars: cannot read "Team Platform" (cal-alice-a-team): the user has no right to read it');
			expect(await eventLists()).toEqual([]);
			const skipped = await run({ calendars: [TEAM, A], options: { unreadableCalendars: 'skip' } }, viaProxy);
			expect(skipped.items[0].json.notices).toEqual(['Skipped "Team Platform" (cal-alice-a-team): it cannot be read, so its events are not included. Reason: the user has no right to read it.']);
			expect((await eventLists()).map((request) => request.query.calendarIds)).toEqual(['cal-alice-a-primary']);
			await sandbox.clearRequests();
			await run({ calendars: [], options: { unreadableCalendars: 'skip' } }, viaProxy);
			expect((await eventLists())[0].query.calendarIds).toBe('cal-alice-a-primary,cal-alice-a-holidays');
		} finally {
			await proxy.stop();
		}
	});

	it('takes calendar IDs from an expression, finding their accounts in the calendar list', async () => {
		await create({ calendarId: 'cal-alice-a-team', start: '2026-11-30T09:00:00', duration: 'PT8H' });
		await sandbox.clearRequests();
		const { items, error } = await run({ calendars: '={{ ["cal-alice-a-team", "cal-alice-b-primary"] }}' });
		expect(error).toBeUndefined();
		expect(slots(items)).toEqual(['2026-12-01T09:00–17:00']);
		expect((await eventLists()).map((request) => request.query.calendarIds)).toEqual(['cal-alice-a-team', 'cal-alice-b-primary']);
	});

	it('answers "no slot" with one item and a notice, not an error', async () => {
		await create({ start: '2026-11-30T09:00:00', duration: 'PT8H' });
		const { items, error } = await run({ end: '2026-12-01T00:00:00' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({ notices: ['No free slot of at least 30 minutes between 2026-11-30 00:00 and 2026-12-01 00:00 (Europe/Berlin) within the working hours 09:00–17:00'] });
	});
});

describe('Find Free Time: busy blocks and is free', () => {
	it('outputs merged busy blocks (overlapping, or meeting once the buffers are added), buffers included, with the events behind them', async () => {
		const first = await create({ title: 'One', start: '2026-11-30T10:00:00' });
		const second = await create({ title: 'Two', calendarId: 'cal-alice-a-team', start: '2026-11-30T10:30:00' });
		await create({ title: 'Three', start: '2026-11-30T14:00:00', duration: 'PT30M' });
		await create({ title: 'Four', start: '2026-11-30T14:40:00', duration: 'PT20M' });
		const { items, error } = await run({ calendars: [A, TEAM], end: '2026-12-01T00:00:00', freeTimeOutput: 'busy', options: { bufferAfter: 10 } });
		expect(error).toBeUndefined();
		expect(items.map(({ json }) => `${String(json.startInZone).slice(11, 16)}–${String(json.endInZone).slice(11, 16)}`)).toEqual(['10:00–11:40', '14:00–15:10']);
		expect((items[1].json.events as Array<{ title: string }>).map((event) => event.title)).toEqual(['Three', 'Four']);
		expect(items[0].json.events).toEqual([
			expect.objectContaining({ id: first.id, title: 'One', start: '2026-11-30T09:00:00Z', end: '2026-11-30T10:00:00Z', calendarName: 'Personal', allDay: false }),
			expect.objectContaining({ id: second.id, title: 'Two', calendarId: 'cal-alice-a-team', calendarName: 'Team Platform' }),
		]);
	});

	it('lists, for a block cut at the edge of the range, only the events behind the part inside the range', async () => {
		// 08:30–10:45, 10:30–11:00 and (with the 15-minute buffer after) 10:40–11:00 merge into one block 08:30–11:15.
		const inside = await create({ title: 'Inside', start: '2026-11-30T08:30:00', duration: 'PT135M' });
		await create({ title: 'After the end', start: '2026-11-30T10:30:00', duration: 'PT30M' });
		await create({ title: 'Later', start: '2026-11-30T11:00:00', duration: 'PT15M' });
		const bufferReaches = await create({ title: 'Before the start', start: '2026-11-30T07:40:00', duration: 'PT10M' });
		const { items, error } = await run({ start: '2026-11-30T08:00:00', end: '2026-11-30T10:00:00', freeTimeOutput: 'busy', options: { bufferAfter: 15 } });
		expect(error).toBeUndefined();
		expect(items.map(({ json }) => `${String(json.startInZone).slice(11, 16)}–${String(json.endInZone).slice(11, 16)}`)).toEqual(['08:00–08:05', '08:30–10:00']);
		// The 07:40 event's buffer reaches 08:05: it is behind the first part, not the events after 10:00.
		expect((items[0].json.events as Array<{ id: string }>).map((event) => event.id)).toEqual([bufferReaches.id]);
		expect((items[1].json.events as Array<{ id: string }>).map((event) => event.id)).toEqual([inside.id]);
	});

	it('says whether the whole range is free, and names the events in the way', async () => {
		const meeting = await create({ title: 'Review', start: '2026-11-30T15:00:00' });
		const free = await run({ start: '2026-11-30T13:00:00', end: '2026-11-30T14:45:00', freeTimeOutput: 'isFree' });
		expect(free.items.map(({ json }) => json)).toEqual([expect.objectContaining({ free: true, conflicts: [], startInZone: '2026-11-30T13:00:00+01:00' })]);
		const buffered = await run({ start: '2026-11-30T13:00:00', end: '2026-11-30T14:45:00', freeTimeOutput: 'isFree', options: { bufferBefore: 30 } });
		expect(buffered.items[0].json).toMatchObject({ free: false, conflicts: [expect.objectContaining({ id: meeting.id, title: 'Review' })] });
		const busy = await run({ start: '2026-11-30T15:30:00', end: '2026-11-30T18:00:00', freeTimeOutput: 'isFree' });
		expect(busy.items[0].json).toMatchObject({ free: false, conflicts: [expect.objectContaining({ id: meeting.id })] });
	});

	it('outputs one item with a notice when there is no busy time', async () => {
		const { items } = await run({ freeTimeOutput: 'busy' });
		expect(items.map(({ json }) => json)).toEqual([{ notices: ['No busy time between 2026-11-30 00:00 and 2026-12-02 00:00 (Europe/Berlin)'] }]);
	});
});

describe('Find Free Time: errors and cost', () => {
	it.each([
		['a range over 6 months', { start: '2026-12-01T00:00:00', end: '2027-06-01T00:01:00' }, 'End: must be at most 6 months after Start'],
		['an end before the start', { start: '2026-12-02T00:00:00', end: '2026-12-01T00:00:00' }, 'End: must be after Start'],
		['working hours that end before they start', { workFrom: '17:00', workTo: '09:00' }, 'To: 09:00 is not after From (17:00)'],
		['working hours that end when they start', { workFrom: '09:00', workTo: '09:00' }, 'To: 09:00 is not after From (09:00)'],
		['a From that is not a time', { workFrom: '9am' }, 'From: "9am" is not a time of day'],
		['no working day', { workingDays: [] }, 'Working Days: choose at least one day of the week'],
		['a zone that is not an IANA zone', { timeZone: 'CET' }, 'Time Zone: "CET" is not an IANA time zone'],
		['a start that is not a date', { start: 'soon' }, 'Start: "soon" is not a date and time'],
		['a negative buffer', { options: { bufferBefore: -5 } }, 'Buffer Before (Minutes): must be a whole number of minutes from 0 to 1440'],
		['a minimum length of 0', { minimumMinutes: 0 }, 'Minimum Length (Minutes): must be a whole number of minutes from 1'],
	])('refuses %s before any request, naming the field', async (_case, parameters, message) => {
		const { error } = await run(parameters);
		expect(error?.message).toContain(message);
		expect(await sandbox.requests()).toEqual([]);
	});

	it('refuses a 6-month-and-a-minute range but accepts exactly 6 months, in 3 list calls of 2 months (counted in the zone)', async () => {
		const { error } = await run({ start: '2026-12-01T00:00:00', end: '2027-06-01T00:00:00' });
		expect(error).toBeUndefined();
		const lists = await eventLists();
		expect(lists).toHaveLength(3);
		expect(lists.map((request) => [request.query.start, request.query.end])).toEqual([
			['2026-11-29T23:00:00Z', '2027-01-31T23:00:00Z'],
			['2027-01-31T23:00:00Z', '2027-03-31T22:00:00Z'],
			['2027-03-31T22:00:00Z', '2027-06-01T22:00:00Z'],
		]);
	});

	it('refuses a calendar ID that no account has, after reading the calendar list', async () => {
		const { error } = await run({ calendars: 'cal-nobody' });
		expect(error?.message).toBe('Calendars: no calendar with ID "cal-nobody" in the accounts of this credential');
		expect((await sandbox.requests()).map((request) => request.path)).toEqual(['/v3/calendars/list']);
	});

	it('with Continue On Fail, outputs one error item per failed input item and the slots of the others', async () => {
		const { items, error } = await run(
			{ workFrom: '={{ $json.from }}' },
			{ continueOnFail: true, items: [{ from: '09:00' }, { from: '18:00' }] },
		);
		expect(error).toBeUndefined();
		expect(items.filter((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 0)).toHaveLength(2);
		const failed = items.filter((item) => (item.pairedItem as { item: number }).item === 1);
		expect(failed).toHaveLength(1);
		expect(failed[0].json.error).toContain('To: 17:00 is not after From (18:00)');
	});
});
