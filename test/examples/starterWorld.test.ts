/**
 * The starter world `npm start` begins with (test/sandbox/starter.ts), tried as a newcomer tries
 * it, through n8n's real engine against the sandbox over HTTP: Fetch Test Event of both triggers
 * finds something, the task list shows the subtasks and tags, and Find Free Time with its
 * defaults gives slots, leaving out the expired and revoked connections with one notice. On a
 * 100-point account: what the default Find Free Time, Get Agenda and Plan Tasks runs cost (the
 * broken connections are not read), the notice on the first item only, and a Saturday's Digest.
 */
import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { forgetPacing } from '../../nodes/shared/pacing/triggerPacing';
import { Engine, PollHarness } from '../harness/engine';
import { ALICE_KEY } from '../harness/sandboxClient';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { seedStarterWorld, STARTER_TASK_TITLES } from '../sandbox/starter';

const ZONE = 'Europe/Berlin';
let sandbox: Sandbox;
const engine = new Engine({ ctsTask: new CtsTask(), ctsEvent: new CtsEvent() });
const credentials = () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	// A Friday evening: "the next seven days" cross a weekend.
	sandbox.clock.freeze(Date.parse('2026-11-27T17:30:00Z'));
	seedStarterWorld(sandbox, ZONE);
	forgetPacing();
});
afterAll(async () => await sandbox.close());

it('has open tasks with subtasks and tags, and every task answers the Task node', async () => {
	const { items, error } = await engine.runNode({ type: 'ctsTask', parameters: { resource: 'task', operation: 'getAll', returnAll: true }, credentials: credentials() });
	expect(error).toBeUndefined();
	expect(items.map(({ json }) => json.title).sort()).toEqual([...STARTER_TASK_TITLES].sort());
	const offsite = items.find(({ json }) => json.title === 'Plan the team offsite')!.json;
	expect(offsite).toMatchObject({ due: '2026-12-01T17:00:00+01:00', timeZone: ZONE, priority: 1 });
	const children = items.filter(({ json }) => json.parentTaskId === offsite.id).map(({ json }) => json.title);
	expect(children.sort()).toEqual(['Book the venue', 'Send the invitations']);
	expect(items.filter(({ json }) => Array.isArray(json.tags) && (json.tags as unknown[]).length > 0).length).toBeGreaterThanOrEqual(3);
});

it('Fetch Test Event of the Task Trigger returns one of the open tasks', async () => {
	const poller = new PollHarness(new CtsTaskTrigger(), 'ctsTaskTrigger', { events: ['created', 'updated'], options: {} }, credentials());
	const result = await poller.poll('manual');
	expect(STARTER_TASK_TITLES).toContain(result![0][0].json.title);
});

it('Fetch Test Event of the Event Trigger returns an event of the personal calendar, with the defaults', async () => {
	const poller = new PollHarness(new CtsEventTrigger(), 'ctsEventTrigger', { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', events: ['created', 'updated'] }, credentials());
	const result = await poller.poll('manual');
	expect(result![0][0].json).toMatchObject({ title: 'Focus time', calendarId: 'cal-alice-a-primary' });
});

it('Find Free Time with its defaults gives slots around the week\'s events and one notice about the broken connections', async () => {
	const { items, error } = await engine.runNode({
		type: 'ctsEvent',
		parameters: { resource: 'calendar', operation: 'findFreeTime', timeZone: ZONE, start: '2026-11-30T00:00:00', end: '2026-12-01T00:00:00' },
		credentials: credentials(),
	});
	expect(error).toBeUndefined();
	// Monday: the Project review (15:00–16:00, in another account) is busy.
	expect(items.map(({ json }) => `${String(json.startInZone).slice(11, 16)}–${String(json.endInZone).slice(11, 16)}`)).toEqual(['09:00–15:00', '16:00–17:00']);
	expect(items[0].json.notices).toEqual([expect.stringMatching(/^Skipped 2 calendars that cannot be read.*"Side Project".*"Former Employer"/)]);
	expect(items[1].json.notices).toBeUndefined();
});

describe('a newcomer with a 100-point account, each default run the first of the day', () => {
	const realNow = Date.now();
	let shift = 0;
	let clock: jest.SpyInstance<number, []>;
	beforeAll(() => (clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow + shift)));
	afterAll(() => clock.mockRestore());
	beforeEach(() => {
		// A fresh 100-point window, and the nodes' lists (calendars, accounts) unread.
		sandbox.limiter.configure({ points: 100, windowSeconds: 900 });
		forgetPacing();
		shift += 3600_000 + 61_000;
		sandbox.requestLog.clear();
	});

	/** Points a run cost, from the service's RateLimit-Remaining before and after it (the probes' 1 point each left out). */
	async function pointsOf<T>(run: () => Promise<T>): Promise<{ result: T; points: number }> {
		const probe = async () => Number((await fetch(`${sandbox.url}/v3/tasks?id=probe`, { headers: { authorization: `ApiKey ${ALICE_KEY}` } })).headers.get('ratelimit-remaining'));
		const before = await probe();
		const result = await run();
		return { result, points: before - (await probe()) - 1 };
	}
	const brokenAccountsRead = () => sandbox.requestLog.list().filter((request) => request.path === '/v3/events/list' && ['acc-alice-expired', 'acc-alice-revoked'].includes(String(request.query.accountId))).length;
	const calendar = { resource: 'calendar', timeZone: ZONE };

	it('Find Free Time with its defaults: 50 points (calendars 10, accounts 10, the 3 working accounts 30); the broken ones are not read', async () => {
		const { result, points } = await pointsOf(async () => await engine.runNode({ type: 'ctsEvent', parameters: { ...calendar, operation: 'findFreeTime' }, credentials: credentials() }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.notices).toEqual([expect.stringMatching(/^Skipped 2 calendars that cannot be read/)]);
		expect({ points, brokenAccountsRead: brokenAccountsRead() }).toEqual({ points: 50, brokenAccountsRead: 0 });
	});

	it('Get Agenda with its defaults: 60 points (the same reads and the open tasks 10); the notice on the first entry only', async () => {
		const { result, points } = await pointsOf(async () => await engine.runNode({ type: 'ctsEvent', parameters: { ...calendar, operation: 'getAgenda', day: '2026-12-01' }, credentials: credentials() }));
		expect(result.error).toBeUndefined();
		expect(result.items.map(({ json }) => json.title)).toEqual(['Plan the team offsite', 'Yoga']);
		expect(result.items.map(({ json }) => (json.notices as string[] | undefined)?.length ?? 0)).toEqual([1, 0]);
		expect({ points, brokenAccountsRead: brokenAccountsRead() }).toEqual({ points: 60, brokenAccountsRead: 0 });
	});

	it('the Digest of a Saturday says there are no working hours, and names the calendars left out', async () => {
		const { items, error } = await engine.runNode({ type: 'ctsEvent', parameters: { ...calendar, operation: 'getAgenda', day: '2026-11-28', agendaOutput: 'digest' }, credentials: credentials() });
		expect(error).toBeUndefined();
		const text = String(items[0].json.text);
		expect(text).toContain('No working hours on this day.');
		expect(text).not.toContain('Free time left');
		expect(text).toContain('Not included (these calendars cannot be read): Side Project, Former Employer.');
		expect(String(items[0].json.html)).toContain('Not included (these calendars cannot be read): Side Project, Former Employer.');
		// A working day says how much is left.
		const monday = await engine.runNode({ type: 'ctsEvent', parameters: { ...calendar, operation: 'getAgenda', day: '2026-11-30', agendaOutput: 'digest' }, credentials: credentials() });
		expect(String(monday.items[0].json.text)).toMatch(/Free time left in working hours \(09:00–17:00\): \d/);
	});

	it('Plan Tasks with Open Tasks Matching Filters, after a Manual Trigger, plans the open tasks: 74 points (the open tasks 10, the reads of Find Free Time, 4 blocks, their calendar read again); one notice, on the first item', async () => {
		const plan = () =>
			engine.runNode({
				type: 'ctsTask',
				// Not Before is "now" by default: the sandbox's Friday evening here.
				parameters: { resource: 'task', operation: 'plan', tasksFrom: 'filters', calendarId: { mode: 'list', value: 'acc-alice-a/cal-alice-a-primary' }, timeZone: ZONE, notBefore: '2026-11-27T18:30:00' },
				credentials: credentials(),
			});
		sandbox.requestLog.clear();
		sandbox.limiter.configure({ points: 100, windowSeconds: 900 });
		const { result, points } = await pointsOf(plan);
		expect(result.error).toBeUndefined();
		expect(result.items.map(({ json }) => `${String(json.title)}: ${String(json.action)}`).sort()).toEqual([
			'Book the venue: created',
			// Due Saturday 18:00: no working hours before it.
			'Buy a birthday present: notPlaced',
			'Plan the team offsite: created',
			'Read the CTS nodes README: created',
			'Send the invitations: created',
		]);
		expect(result.items.map(({ json }) => (json.notices as string[] | undefined)?.length ?? 0)).toEqual([1, 0, 0, 0, 0]);
		expect({ points, brokenAccountsRead: brokenAccountsRead() }).toEqual({ points: 74, brokenAccountsRead: 0 });
		// Run again within the minute (lists reused), in the next window: every block stays, nothing is written.
		sandbox.limiter.configure({ points: 100, windowSeconds: 900 });
		const again = await pointsOf(plan);
		expect(again.result.items.map(({ json }) => json.action).sort()).toEqual(['kept', 'kept', 'kept', 'kept', 'notPlaced']);
		expect(again.points).toBe(10 + 30);
	});
});
