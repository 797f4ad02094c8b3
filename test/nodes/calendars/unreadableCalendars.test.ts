/**
 * One rule for calendars that cannot be read, in every operation and trigger that reads busy time
 * or lists events across calendars, run by n8n's real engine against the sandbox over HTTP. One
 * table, one assertion: any two of them that treat an unreadable calendar differently make it fail. The sandbox's fixtures have two such calendars: "Side Project" (its connection
 * expired: 401) and "Former Employer" (revoked: 403); the accounts list marks both as needing
 * reconnection.
 */
import { CtsEvent } from '../../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTask } from '../../../nodes/CtsTask/CtsTask.node';
import { Engine, PollHarness, type NodeRunResult } from '../../harness/engine';
import { sandboxWithFreshLists } from '../../harness/freshLists';
import { ALICE_KEY, SandboxClient, timedEvent } from '../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask(), ctsEvent: new CtsEvent() });

sandboxWithFreshLists(sandbox);

const ZONE = 'Europe/Berlin';
const A = 'acc-alice-a/cal-alice-a-primary';
const EXPIRED = 'acc-alice-expired/cal-alice-expired';
const BROKEN_ACCOUNTS = ['acc-alice-expired', 'acc-alice-revoked'];

type Scenario = 'left empty' | 'picked, Fail' | 'picked, Skip';
type Unreadable = 'fail' | 'skip' | undefined;

/** How an operation treated the unreadable calendars, in terms every operation shares. */
interface Treatment {
	/** The error, without the field's name (each operation names its own field). */
	error?: string;
	/** The calendars named in the notice, and the output items that carry it. */
	skipped: string[];
	noticeOnItems: number[];
	/** List calls to the accounts the accounts list marks as needing reconnection. */
	brokenAccountsRead: number;
}

interface Operation {
	name: string;
	/** The scenarios the operation has: the guards have no Unreadable Calendars option, and empty means the event's own calendar. */
	scenarios: Scenario[];
	/** Output of events only (Get Many, the trigger): the same calendars left out, without a notice. */
	withoutNotice?: true;
	run: (calendars: string[], unreadable: Unreadable) => Promise<Pick<NodeRunResult, 'items' | 'error'>>;
}

const credentials = () => ({ ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } });
const options = (unreadable: Unreadable) => (unreadable ? { options: { unreadableCalendars: unreadable } } : {});
let taskIds: string[] = [];

const operations: Operation[] = [
	{
		name: 'Event → Find Free Time',
		scenarios: ['left empty', 'picked, Fail', 'picked, Skip'],
		run: async (calendars, unreadable) =>
			await engine.runNode({
				type: 'ctsEvent',
				parameters: { resource: 'calendar', operation: 'findFreeTime', calendars, timeZone: ZONE, start: '2026-11-30T00:00:00', end: '2026-12-02T00:00:00', ...options(unreadable) },
				credentials: credentials(),
			}),
	},
	{
		name: 'Event → Get Agenda',
		scenarios: ['left empty', 'picked, Fail', 'picked, Skip'],
		run: async (calendars, unreadable) =>
			await engine.runNode({
				type: 'ctsEvent',
				parameters: { resource: 'calendar', operation: 'getAgenda', calendars, timeZone: ZONE, agendaPeriod: 'range', start: '2026-11-30T00:00:00', end: '2026-12-02T00:00:00', includeTasks: false, ...options(unreadable) },
				credentials: credentials(),
			}),
	},
	{
		name: 'Task → Schedule in Calendar',
		scenarios: ['left empty', 'picked, Fail', 'picked, Skip'],
		run: async (calendars, unreadable) =>
			await engine.runNode({
				type: 'ctsTask',
				parameters: {
					resource: 'task',
					operation: 'schedule',
					taskId: { mode: 'id', value: taskIds[0] },
					calendarId: { mode: 'list', value: A },
					checkCalendars: calendars,
					timeZone: ZONE,
					notBefore: '2026-11-30T08:00:00',
					...options(unreadable),
				},
				credentials: credentials(),
			}),
	},
	{
		name: 'Task → Plan Tasks',
		scenarios: ['left empty', 'picked, Fail', 'picked, Skip'],
		run: async (calendars, unreadable) =>
			await engine.runNode({
				type: 'ctsTask',
				parameters: { resource: 'task', operation: 'plan', calendarId: { mode: 'list', value: A }, checkCalendars: calendars, timeZone: ZONE, notBefore: '2026-11-30T08:00:00', preview: true, ...options(unreadable) },
				items: taskIds.map((id) => ({ id })),
				credentials: credentials(),
			}),
	},
	{
		name: 'Event → Create, If the Time Is Taken',
		scenarios: ['picked, Fail'],
		run: async (calendars) =>
			await engine.runNode({
				type: 'ctsEvent',
				parameters: {
					resource: 'event',
					operation: 'create',
					accountId: 'acc-alice-a',
					calendarId: 'cal-alice-a-primary',
					title: 'Review',
					start: '2026-12-01T10:00:00',
					endMode: 'duration',
					duration: 'PT1H',
					timeZone: ZONE,
					ifTimeTaken: 'skip',
					checkCalendars: calendars,
				},
				credentials: credentials(),
			}),
	},
	{
		name: 'Event → Create, Skip If It Already Exists',
		scenarios: ['picked, Fail'],
		run: async (calendars) =>
			await engine.runNode({
				type: 'ctsEvent',
				parameters: {
					resource: 'event',
					operation: 'create',
					accountId: 'acc-alice-a',
					calendarId: 'cal-alice-a-primary',
					title: 'Review',
					start: '2026-12-01T10:00:00',
					endMode: 'duration',
					duration: 'PT1H',
					timeZone: ZONE,
					ifTimeTaken: 'fail',
					skipIfExists: true,
					checkCalendars: calendars,
				},
				credentials: credentials(),
			}),
	},
	{
		name: 'Event → Get Many',
		scenarios: ['left empty'],
		withoutNotice: true,
		run: async (calendars) =>
			await engine.runNode({
				type: 'ctsEvent',
				parameters: { resource: 'event', operation: 'getAll', accountId: '', calendarIds: calendars, start: '2026-11-30T00:00:00Z', end: '2026-12-02T00:00:00Z', returnAll: true },
				credentials: credentials(),
			}),
	},
	{
		name: 'Event Trigger',
		scenarios: ['left empty'],
		withoutNotice: true,
		run: async (calendars) => {
			const trigger = new PollHarness(new CtsEventTrigger(), 'ctsEventTrigger', { accountId: '', calendarIds: calendars, events: ['created', 'updated'], lookAheadDays: 14 }, credentials());
			try {
				// The activation's poll reads the watched calendars (and fires nothing).
				return { items: (await trigger.poll())?.[0] ?? [] };
			} catch (error) {
				return { items: [], error: error as Error };
			}
		},
	},
];

const SCENARIOS: Record<Scenario, { calendars: string[]; unreadable: Unreadable; expected: Treatment }> = {
	// Empty: every readable calendar; the broken ones left out with one notice on the first item, never read.
	'left empty': { calendars: [], unreadable: 'fail', expected: { skipped: ['Side Project', 'Former Employer'], noticeOnItems: [0], brokenAccountsRead: 0 } },
	// Picked by name: the Unreadable Calendars option (Fail) stops the item, naming the calendar.
	'picked, Fail': { calendars: [A, EXPIRED], unreadable: 'fail', expected: { error: 'cannot read "Side Project" (cal-alice-expired)', skipped: [], noticeOnItems: [], brokenAccountsRead: 1 } },
	'picked, Skip': { calendars: [A, EXPIRED], unreadable: 'skip', expected: { skipped: ['Side Project'], noticeOnItems: [0], brokenAccountsRead: 1 } },
};

const NOTICE = /^Skipped (?:\d+ calendars that cannot be read|"[^"]+" \(cal-[^)]+\): it cannot be read)/;

async function treatment(result: Pick<NodeRunResult, 'items' | 'error'>): Promise<Treatment> {
	const noticed = result.items.flatMap(({ json }, index) => (((json.notices as string[] | undefined) ?? []).some((notice) => NOTICE.test(notice)) ? [index] : []));
	const notice = noticed.length > 0 ? ((result.items[noticed[0]].json.notices as string[]).find((text) => NOTICE.test(text)) ?? '') : '';
	const requests = await sandbox.requests();
	return {
		...(result.error ? { error: /^[^:]+: (cannot read "[^"]+" \([^)]+\))/.exec(result.error.message)?.[1] ?? result.error.message } : {}),
		skipped: [...notice.matchAll(/"([^"]+)" \(cal-/g)].map((match) => match[1]),
		noticeOnItems: noticed,
		brokenAccountsRead: requests.filter((request) => request.path === '/v3/events/list' && BROKEN_ACCOUNTS.includes(request.query.accountId)).length,
	};
}

it('every operation and trigger that reads calendars treats a calendar that cannot be read alike', async () => {
	await sandbox.createEvent(timedEvent({ title: 'Monday meeting', start: '2026-11-30T10:00:00', duration: 'PT1H', timeZone: ZONE }));
	await sandbox.createEvent(timedEvent({ title: 'Tuesday meeting', start: '2026-12-01T10:00:00', duration: 'PT1H', timeZone: ZONE }));
	taskIds = [
		await sandbox.createTask({ title: 'Write report', estimatedDuration: 'PT30M', timeZone: ZONE }),
		await sandbox.createTask({ title: 'Read mail', estimatedDuration: 'PT30M', timeZone: ZONE }),
	];
	const realNow = Date.now();
	let shift = 0;
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow + shift);
	const rows: Array<{ operation: string; scenario: Scenario; treatment: Treatment }> = [];
	const expected: typeof rows = [];
	try {
		for (const operation of operations) {
			for (const scenario of operation.scenarios) {
				// Each run with the lists unread, as a first run of the day is.
				shift += 3600_000 + 61_000;
				await sandbox.clearRequests();
				const { calendars, unreadable } = SCENARIOS[scenario];
				rows.push({ operation: operation.name, scenario, treatment: await treatment(await operation.run(calendars, unreadable)) });
				const rule = SCENARIOS[scenario].expected;
				expected.push({ operation: operation.name, scenario, treatment: operation.withoutNotice ? { ...rule, skipped: [], noticeOnItems: [] } : rule });
			}
		}
	} finally {
		clock.mockRestore();
	}
	expect(rows).toEqual(expected);
});
