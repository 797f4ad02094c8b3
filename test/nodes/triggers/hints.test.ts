/**
 * The triggers' hint that says how often they check: each hint's display condition evaluated as
 * n8n's editor evaluates it (the workflow's expression, `getSimpleParameterValue`), for shares and
 * schedules a user picks; exactly one sentence shows, and it names the spacing the pacing uses;
 * then the sentence against the reads each trigger makes over two windows.
 */
import { Workflow, type INode, type IDataObject } from 'n8n-workflow';

import { CtsEventTrigger } from '../../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTaskTrigger } from '../../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PACKAGE_NAME, PollHarness, TestNodeTypes, withPollTimes } from '../../harness/engine';
import { triggerSandbox } from '../../harness/triggerSandbox';

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

const SENTENCE = /^Checks at most every ([\d.]+ (?:s|min|h)) on a 100-point account, ([\d.]+ (?:s|min|h)) on 300, ([\d.]+ (?:s|min|h)) on 500 \(per 15 min\); it paces itself by the budget the service reports\.$/;
const EVERY_POLL_TIME = /^Checks at every poll time of its schedule on accounts of 100, 300, 500 points per 15 min/;
const seconds = (spoken: string) => Number.parseFloat(spoken) * (spoken.endsWith(' h') ? 3600 : spoken.endsWith(' min') ? 60 : 1);

describe('how often a trigger checks, in its hint', () => {
	it.each([
		// share, schedule, the one sentence shown
		[undefined, everyMinute, ['7.5 min', '2 min', '75 s']],
		[1, everyMinute, ['15 min', '15 min', '15 min']],
		[10, everyMinute, ['15 min', '5 min', '3 min']],
		[40, everyMinute, ['4 min', '75 s', '45 s']],
		[100, everyMinute, ['1.5 min', '30 s', '18 s']],
		[10, everyX(2, 'minutes'), ['15 min', '5 min', '3 min']],
		[25, { item: [{ mode: 'everyHour' }, { mode: 'everyMinute' }] }, ['7.5 min', '2 min', '75 s']],
	])('Budget Share %p with schedule %j: at most every %p at 100, 300 and 500 points', (share, pollTimes, spacings) => {
		for (const name of ['ctsTaskTrigger', 'ctsEventTrigger'] as const) {
			const shown = shownHints(name, { pollTimes, options: share === undefined ? {} : { budgetShare: share } });
			expect(shown).toHaveLength(1);
			expect(SENTENCE.exec(shown[0])?.slice(1)).toEqual(spacings);
			expect(shown[0].split(/\s+/).length).toBeLessThanOrEqual(30);
		}
	});

	it.each([
		[50, everyX(5, 'minutes')],
		[25, everyX(10, 'minutes')],
		[25, { item: [{ mode: 'everyHour' }] }],
	])('Budget Share %p with schedule %j, slower than the share allows on any usual budget: every poll time', (share, pollTimes) => {
		for (const name of ['ctsTaskTrigger', 'ctsEventTrigger'] as const) {
			const shown = shownHints(name, { pollTimes, options: { budgetShare: share } });
			expect(shown).toHaveLength(1);
			expect(shown[0]).toMatch(EVERY_POLL_TIME);
		}
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
		['ctsTaskTrigger', 1, 100],
		['ctsTaskTrigger', 25, 100],
		['ctsTaskTrigger', 25, 300],
		['ctsTaskTrigger', 40, 300],
		['ctsTaskTrigger', 10, 500],
		['ctsTaskTrigger', 25, 500],
		['ctsEventTrigger', 25, 100],
		['ctsEventTrigger', 10, 300],
		['ctsEventTrigger', 25, 500],
	] as const)('%s at Budget Share %p on a %p-point account', async (name, share, points) => {
		// A day apart for each case, so no window the process learnt before is still open.
		now = Date.parse('2026-12-01T08:00:00.000Z') + ++day * 24 * 3600 * 1000;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		await sandbox.control('clock', { now: new Date(now).toISOString() });
		const advance = async (seconds: number) => {
			await sandbox.control('clock', { advanceSeconds: seconds });
			now += seconds * 1000;
		};
		await sandbox.control('limits', { points, windowSeconds: WINDOW_SECONDS });

		const [sentence] = shownHints(name, { pollTimes: everyMinute, options: { budgetShare: share } });
		const spoken = SENTENCE.exec(sentence)?.[1 + [100, 300, 500].indexOf(points)];
		expect(spoken).toBeDefined();
		// The schedule (every minute) bounds it from below.
		const spacingSeconds = Math.max(60, seconds(spoken!));
		const checks = Math.round(WINDOW_SECONDS / spacingSeconds);

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
		console.log(`${name} at ${share}% of ${points} points: hint "at most every ${spoken}"; reads per window ${perWindow.join(', ')}, at minutes ${readMinutes.join(' ')}`);
		// As many checks as the sentence implies in each window (a minute's tick may push one into the next),
		// never none, and no pause longer than its spacing plus a tick of the schedule.
		for (const reads of perWindow) {
			expect(reads).toBeLessThanOrEqual(checks);
			expect(reads).toBeGreaterThanOrEqual(Math.max(1, checks - 1));
		}
		expect(Math.max(...gaps)).toBeLessThanOrEqual(spacingSeconds + 60);
	}, 60_000);
});
