/**
 * The starter world `npm start` begins with (test/sandbox/starter.ts), tried as a newcomer tries
 * it, through n8n's real engine against the sandbox over HTTP: Fetch Test Event of both triggers
 * finds something, the task list shows the subtasks and tags, and Find Free Time with its
 * defaults gives slots, leaving out the expired and revoked connections with one notice.
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
