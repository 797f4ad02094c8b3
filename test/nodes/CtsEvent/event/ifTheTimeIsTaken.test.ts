/**
 * Event Create and Update with their guards (If the Time Is Taken, Check Calendars, Skip If It
 * Already Exists), run by n8n's real engine against the sandbox over HTTP: every option and
 * every error. What the node asked is read from the sandbox's request log; what it changed, from
 * the API.
 */
import { CtsEvent } from '../../../../nodes/CtsEvent/CtsEvent.node';
import { Engine, type NodeRunOptions } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent() });

// Each test starts with the calendar list unread.
sandboxWithFreshLists(sandbox);

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
const B = 'acc-alice-b/cal-alice-b-primary';
const EXPIRED = 'acc-alice-expired/cal-alice-expired';

function run(parameters: Record<string, unknown>, options: Partial<NodeRunOptions> = {}) {
	return engine.runNode({
		type: 'ctsEvent',
		parameters: { resource: 'event', output: 'raw', ...parameters },
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		...options,
	});
}

/** A Create of a 1-hour event at 10:00 Berlin on 2026-12-01, with `parameters` added. */
function createAt(parameters: Record<string, unknown> = {}, options: Partial<NodeRunOptions> = {}) {
	return run(
		{
			operation: 'create',
			...target,
			title: 'Review',
			start: '2026-12-01T10:00:00',
			endMode: 'duration',
			duration: 'PT1H',
			timeZone: 'Europe/Berlin',
			...parameters,
		},
		options,
	);
}

async function eventsOfDay(calendarId = 'cal-alice-a-primary', accountId = 'acc-alice-a') {
	const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId, calendarIds: calendarId, start: '2026-11-30T23:00:00Z', end: '2026-12-01T23:00:00Z' } });
	return body.data.events as Array<Record<string, any>>;
}

async function sent() {
	return (await sandbox.requests()).map((request) => `${request.method} ${request.path}`);
}

describe('If the Time Is Taken', () => {
	it('Skip outputs the events in the way and creates nothing; one list call for the event\'s own calendar', async () => {
		const busy = await sandbox.createEvent(timedEvent({ title: 'Busy', start: '2026-12-01T10:30:00' }));
		await sandbox.clearRequests();
		const { items, error } = await createAt({ ifTimeTaken: 'skip' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			skipped: true,
			reason: 'The time is taken',
			title: 'Review',
			start: '2026-12-01T09:00:00Z',
			end: '2026-12-01T10:00:00Z',
			conflicts: [
				{
					id: busy.id,
					title: 'Busy',
					start: '2026-12-01T09:30:00Z',
					end: '2026-12-01T10:30:00Z',
					allDay: false,
					calendarId: 'cal-alice-a-primary',
					calendarName: 'cal-alice-a-primary',
					accountId: 'acc-alice-a',
				},
			],
		});
		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.path} ${request.points}`)).toEqual(['/v3/events/list 10']);
		expect(requests[0].query).toMatchObject({ accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary' });
		expect((await eventsOfDay()).map((event) => event.title)).toEqual(['Busy']);

		// Create Anyway (the default) over the same busy event: only the create is sent.
		await sandbox.clearRequests();
		const anyway = await createAt();
		expect(anyway.items[0].json).toMatchObject({ title: 'Review', start: '2026-12-01T10:00:00' });
		expect(await sent()).toEqual(['POST /v3/events/create']);
	});

	it('creates when only events that do not make time busy overlap, or busy ones merely touch', async () => {
		await sandbox.createEvent(timedEvent({ title: 'Free', start: '2026-12-01T10:00:00', freeBusyStatus: 'free' }));
		await sandbox.createEvent(
			timedEvent({ title: 'Declined', start: '2026-12-01T10:00:00', participants: { 'alice@sandbox.example': { email: 'alice@sandbox.example', participationStatus: 'declined' } } }),
		);
		await sandbox.createEvent(timedEvent({ title: 'Before', start: '2026-12-01T09:00:00' }));
		await sandbox.createEvent(timedEvent({ title: 'After', start: '2026-12-01T11:00:00' }));
		const { items, error } = await createAt({ ifTimeTaken: 'fail' });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ title: 'Review', start: '2026-12-01T10:00:00' });
		expect((await eventsOfDay()).map((event) => event.title).sort()).toEqual(['After', 'Before', 'Declined', 'Free', 'Review']);
	});

	it('an all-day event blocks its whole day in the event\'s zone', async () => {
		await sandbox.createEvent(timedEvent({ title: 'Off', start: '2026-12-01T00:00:00', duration: 'P1D', timeZone: null, showWithoutTime: true }));
		const late = await createAt({ ifTimeTaken: 'skip', start: '2026-12-01T23:30:00', duration: 'PT15M', timeZone: 'Pacific/Auckland' });
		expect(late.items[0].json).toMatchObject({ title: 'Review', start: '2026-12-01T10:30:00Z' });
		const taken = await createAt({ ifTimeTaken: 'skip', start: '2026-12-01T23:30:00', duration: 'PT15M' });
		expect(taken.items[0].json).toMatchObject({ skipped: true, conflicts: [{ title: 'Off', allDay: true }] });
	});

	it('Fail stops with an error listing the events in the way (in the event\'s zone) and creates nothing', async () => {
		await sandbox.createEvent(timedEvent({ title: 'Busy', start: '2026-12-01T10:30:00' }));
		await sandbox.createEvent(timedEvent({ title: 'Early', start: '2026-12-01T09:30:00', duration: 'PT45M' }));
		const { error } = await createAt({ ifTimeTaken: 'fail' });
		expect(error?.message).toBe('The time is taken (Europe/Berlin): "Early" 2026-12-01 09:30–10:15 in "cal-alice-a-primary"; "Busy" 2026-12-01 10:30–11:30 in "cal-alice-a-primary"');
		expect(error?.description).toContain('Nothing was created');
		expect((await eventsOfDay()).map((event) => event.title).sort()).toEqual(['Busy', 'Early']);
	});

	it('with Continue On Fail, a taken time is one error item and the other items are created', async () => {
		await sandbox.createEvent(timedEvent({ title: 'Busy', start: '2026-12-01T10:30:00' }));
		const { items, error } = await createAt(
			{ ifTimeTaken: 'fail', start: '={{ $json.start }}' },
			{ continueOnFail: true, items: [{ start: '2026-12-01T10:00:00' }, { start: '2026-12-01T14:00:00' }] },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toMatch(/^The time is taken/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json).toMatchObject({ title: 'Review', start: '2026-12-01T14:00:00' });
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});

	it('checks the calendars picked, across accounts: one list call per account, plus the calendar list', async () => {
		await sandbox.createEvent(timedEvent({ title: 'Other account', accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary', start: '2026-12-01T09:30:00', timeZone: 'Europe/London' }));
		await sandbox.clearRequests();
		const own = await createAt({ ifTimeTaken: 'skip', checkCalendars: [B], title: 'Picked' });
		expect(own.items[0].json).toMatchObject({ skipped: true, conflicts: [{ title: 'Other account', accountId: 'acc-alice-b', calendarName: expect.any(String) }] });
		expect((await sandbox.requests()).map((request) => `${request.path} ${request.query.accountId ?? ''}`)).toEqual([
			'/v3/calendars/list ',
			'/v3/events/list acc-alice-b',
		]);
		// The event's own calendar alone (the default) does not see the other account.
		const alone = await createAt({ ifTimeTaken: 'skip', title: 'Alone' });
		expect(alone.items[0].json).toMatchObject({ title: 'Alone' });
	});

	it('refuses a calendar it cannot read (its events are unknown) and an unknown calendar, before creating', async () => {
		const expired = await createAt({ ifTimeTaken: 'skip', checkCalendars: [EXPIRED] });
		expect(expired.error?.message).toMatch(/^Check Calendars: cannot read "[^"]+" \(cal-alice-expired\)/);
		expect(expired.error?.description).toContain('leave the calendar out of Check Calendars.');
		const unknown = await createAt({ ifTimeTaken: 'fail', checkCalendars: ['no-such-calendar'] });
		expect(unknown.error?.message).toBe('Check Calendars: no calendar with ID "no-such-calendar" in the accounts of this credential');
		expect(await eventsOfDay()).toEqual([]);
		expect((await sent()).filter((line) => line.startsWith('POST'))).toEqual([]);
	});
});

describe('Skip If It Already Exists', () => {
	it('outputs the event of the same title and start as it is, marked, instead of a second one (one list call)', async () => {
		const first = await createAt({ skipIfExists: true, title: '  Review ' });
		expect(first.items[0].json).toMatchObject({ title: '  Review ', start: '2026-12-01T10:00:00' });
		expect(first.items[0].json.alreadyExists).toBeUndefined();
		await sandbox.clearRequests();
		const again = await createAt({ skipIfExists: true, title: 'Review', start: '2026-12-01T09:00:00Z' });
		expect(again.items[0].json).toMatchObject({ id: first.items[0].json.id, title: '  Review ', alreadyExists: true });
		expect((await sandbox.requests()).map((request) => `${request.path} ${request.points}`)).toEqual(['/v3/events/list 10']);
		expect(await eventsOfDay()).toHaveLength(1);
	});

	it('creates when the title or the start differs, or the same event is in another calendar', async () => {
		await sandbox.createEvent(timedEvent({ title: 'Review', start: '2026-12-01T10:00:00' }));
		await sandbox.createEvent(timedEvent({ title: 'Review', calendarId: 'cal-alice-a-team', start: '2026-12-01T11:00:00' }));
		expect((await createAt({ skipIfExists: true, title: 'Review 2' })).items[0].json.alreadyExists).toBeUndefined();
		expect((await createAt({ skipIfExists: true, start: '2026-12-01T10:15:00' })).items[0].json.alreadyExists).toBeUndefined();
		expect((await createAt({ skipIfExists: true, start: '2026-12-01T11:00:00' })).items[0].json.alreadyExists).toBeUndefined();
		expect(await eventsOfDay()).toHaveLength(4);
	});

	it('comes before the time check: an existing event is output, not reported as a conflict with itself', async () => {
		await sandbox.createEvent(timedEvent({ title: 'Review', start: '2026-12-01T10:00:00' }));
		const { items, error } = await createAt({ skipIfExists: true, ifTimeTaken: 'fail' });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ title: 'Review', alreadyExists: true });
		expect((await sandbox.requests()).filter((request) => request.path === '/v3/events/list')).toHaveLength(1);
	});

	it('shapes the existing event like a created one (simplified output)', async () => {
		await sandbox.createEvent(timedEvent({ title: 'Review', start: '2026-12-01T10:00:00' }));
		const { items } = await createAt({ skipIfExists: true, output: 'simplified' });
		expect(items[0].json).toMatchObject({ title: 'Review', alreadyExists: true });
		expect(items[0].json['@type']).toBeUndefined();
	});
});

describe('Update with If the Time Is Taken', () => {
	const update = (id: string, updateFields: Record<string, unknown>, parameters: Record<string, unknown> = {}) =>
		run({ operation: 'update', ...target, identifyBy: 'id', eventId: id, updateFields, ...parameters });

	it('Fail refuses to move an event onto busy time and leaves it as it was', async () => {
		const moving = await sandbox.createEvent(timedEvent({ title: 'Moving', start: '2026-12-01T08:00:00' }));
		await sandbox.createEvent(timedEvent({ title: 'Busy', start: '2026-12-01T10:30:00' }));
		const { error } = await update(String(moving.id), { start: '2026-12-01T10:00:00' }, { ifTimeTaken: 'fail' });
		expect(error?.message).toBe('The time is taken (Europe/Berlin): "Busy" 2026-12-01 10:30–11:30 in "cal-alice-a-primary"');
		expect(error?.description).toContain('Nothing was changed');
		expect((await sandbox.api('GET', '/v3/events', { qs: { id: moving.id } })).body.data.event.start).toBe('2026-12-01T08:00:00');

		// An update that keeps the time is not checked and costs nothing extra.
		await sandbox.clearRequests();
		const renamed = await update(String(moving.id), { title: 'Renamed' }, { ifTimeTaken: 'fail' });
		expect(renamed.items[0].json).toMatchObject({ title: 'Renamed', start: '2026-12-01T08:00:00' });
		expect(await sent()).toEqual(['POST /v3/events/update']);
	});

	it('Skip outputs the events in the way; a move that overlaps only the event itself is made', async () => {
		const moving = await sandbox.createEvent(timedEvent({ title: 'Moving', start: '2026-12-01T08:00:00' }));
		await sandbox.createEvent(timedEvent({ title: 'Busy', start: '2026-12-01T10:30:00' }));
		const skipped = await update(String(moving.id), { start: '2026-12-01T10:00:00' }, { ifTimeTaken: 'skip' });
		expect(skipped.items[0].json).toMatchObject({ skipped: true, start: '2026-12-01T09:00:00Z', end: '2026-12-01T10:00:00Z', conflicts: [{ title: 'Busy' }] });
		expect(skipped.items[0].json).not.toHaveProperty('title');
		const moved = await update(String(moving.id), { start: '2026-12-01T08:30:00' }, { ifTimeTaken: 'skip' });
		expect(moved.items[0].json).toMatchObject({ id: moving.id, start: '2026-12-01T08:30:00' });
	});
});
