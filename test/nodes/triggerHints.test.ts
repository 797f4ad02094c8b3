/**
 * The triggers' hint that says how often they check: each hint's display condition evaluated as
 * n8n's editor evaluates it (the workflow's expression, `getSimpleParameterValue`), for shares and
 * schedules a user picks; exactly one sentence shows, and it names the spacing the pacing uses;
 * then the sentence against the reads each trigger makes over two windows.
 */
import { Workflow, type INode, type IDataObject } from 'n8n-workflow';

import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PACKAGE_NAME, PollHarness, TestNodeTypes, withPollTimes } from '../harness/engine';
import { triggerSandbox } from '../harness/triggerSandbox';

const nodeTypes = new TestNodeTypes({ ctsTaskTrigger: withPollTimes(new CtsTaskTrigger()), ctsEventTrigger: withPollTimes(new CtsEventTrigger()) });

/** The hints the editor shows for a trigger with these parameters. */
function shownHints(name: 'ctsTaskTrigger' | 'ctsEventTrigger', parameters: IDataObject): string[] {
	const node: INode = { id: '1', name: 'Trigger', type: `${PACKAGE_NAME}.${name}`, typeVersion: 1, position: [0, 0], parameters: parameters as INode['parameters'] };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const hints = nodeTypes.getByNameAndVersion(node.type).description.hints ?? [];
	return hints
		.filter((hint) => workflow.expression.getSimpleParameterValue(node, hint.displayCondition ?? '=true', 'internal', {}) === true)
		.map((hint) => hint.message);
}

const everyMinute = { item: [{ mode: 'everyMinute' }] };
const WINDOW_SECONDS = 900;
const everyX = (value: number, unit: 'minutes' | 'hours') => ({ item: [{ mode: 'everyX', value, unit }] });

describe('how often a trigger checks, in its hint', () => {
	it.each([
		// share, schedule, the one sentence shown
		[undefined, everyMinute, /checks about every 2 minutes, not at every poll time: its Budget Share holds 7 checks \(70 points\)/],
		[10, everyMinute, /checks about every 5 minutes, not at every poll time: its Budget Share holds 3 checks/],
		[40, everyMinute, /checks about every 75 seconds, not at every poll time: its Budget Share holds 12 checks/],
		[50, everyMinute, /checks at every poll time of its schedule/],
		[4, everyMinute, /checks about every 15 minutes, not at every poll time: its Budget Share holds 1 check \(10 points\)/],
		[25, everyX(5, 'minutes'), /checks at every poll time of its schedule/],
		[10, everyX(2, 'minutes'), /checks about every 5 minutes/],
		[25, { item: [{ mode: 'everyHour' }] }, /checks at every poll time of its schedule/],
		[25, { item: [{ mode: 'everyHour' }, { mode: 'everyMinute' }] }, /checks about every 2 minutes/],
	])('Budget Share %p with schedule %j: %p', (share, pollTimes, sentence) => {
		for (const name of ['ctsTaskTrigger', 'ctsEventTrigger'] as const) {
			const shown = shownHints(name, { pollTimes, options: share === undefined ? {} : { budgetShare: share } });
			expect(shown).toHaveLength(1);
			expect(shown[0]).toMatch(sentence);
		}
	});

	it('at 100% and every minute, the share holds more checks than the schedule asks: every poll time', () => {
		expect(shownHints('ctsTaskTrigger', { pollTimes: everyMinute, options: { budgetShare: 100 } })).toEqual([
			'This trigger checks at every poll time of its schedule: its Budget Share holds more checks than the schedule asks for.',
		]);
	});
});

/**
 * The sentence against the pacing itself: each trigger polled every minute for two 15-minute
 * windows against the sandbox's real budget (300 points per 900 s, RateLimit-* headers), with the
 * sandbox's clock and this process's (`Date.now`, which the budget reads) moved together. The
 * checks read in each window and the longest pause between two are what the hint says.
 */
describe('the hint against the reads the trigger makes', () => {
	const { sandbox, target, credentials } = triggerSandbox();
	let now = 0;
	afterEach(() => jest.restoreAllMocks());

	const trigger = (name: 'ctsTaskTrigger' | 'ctsEventTrigger', options: IDataObject) =>
		name === 'ctsTaskTrigger'
			? new PollHarness(withPollTimes(new CtsTaskTrigger()), name, { events: ['created', 'updated'], filters: {}, options, pollTimes: everyMinute }, credentials())
			: new PollHarness(
					withPollTimes(new CtsEventTrigger()),
					name,
					{ accountId: target.accountId, calendarIds: [target.calendarId], events: ['created', 'updated', 'cancelled'], options, pollTimes: everyMinute },
					credentials(),
				);

	let day = 0;
	it.each([
		['ctsTaskTrigger', 4],
		['ctsTaskTrigger', 10],
		['ctsTaskTrigger', 25],
		['ctsTaskTrigger', 40],
		['ctsEventTrigger', 10],
		['ctsEventTrigger', 25],
	] as const)('%s at Budget Share %p', async (name, share) => {
		// A day apart for each case, so no window the process learnt before is still open.
		now = Date.parse('2026-12-01T08:00:00.000Z') + ++day * 24 * 3600 * 1000;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		await sandbox.control('clock', { now: new Date(now).toISOString() });
		const advance = async (seconds: number) => {
			await sandbox.control('clock', { advanceSeconds: seconds });
			now += seconds * 1000;
		};
		await sandbox.control('limits', { points: 300, windowSeconds: WINDOW_SECONDS });

		const [sentence] = shownHints(name, { pollTimes: everyMinute, options: { budgetShare: share } });
		const [, spoken, unit, checks] = /checks about every ([\d.]+) (seconds|minutes), not at every poll time: its Budget Share holds (\d+) check/.exec(sentence) ?? [];
		expect(checks).toBeDefined();
		const spacingSeconds = Number(spoken) * (unit === 'minutes' ? 60 : 1);

		const polled = trigger(name, { budgetShare: share });
		await polled.poll();
		await advance(WINDOW_SECONDS); // the activation's window is over
		await sandbox.clearRequests();
		const readMinutes: number[] = [];
		for (let minute = 0; minute < 30; minute++) {
			const before = (await sandbox.requests()).length;
			await polled.poll();
			if ((await sandbox.requests()).length > before) readMinutes.push(minute);
			await advance(60);
		}
		const perWindow = [0, 1].map((window) => readMinutes.filter((minute) => Math.floor(minute / 15) === window).length);
		const gaps = readMinutes.slice(1).map((minute, index) => (minute - readMinutes[index]) * 60);
		console.log(`${name} at ${share}%: hint "${checks} checks, about every ${spoken} ${unit}"; reads per window ${perWindow.join(', ')}, at minutes ${readMinutes.join(' ')}`);
		// As many checks as the sentence names in each window (a minute's tick may push one into the next),
		// and no pause longer than its spacing plus a tick of the schedule.
		for (const reads of perWindow) {
			expect(reads).toBeLessThanOrEqual(Number(checks));
			expect(reads).toBeGreaterThanOrEqual(Number(checks) - 1);
		}
		expect(Math.max(...gaps)).toBeLessThanOrEqual(spacingSeconds + 60);
	}, 60_000);
});
