/**
 * The triggers' hint that says how often they check: each hint's display condition evaluated as
 * n8n's editor evaluates it (the workflow's expression, `getSimpleParameterValue`), for shares and
 * schedules a user picks; exactly one sentence shows, and it names the spacing the pacing uses.
 */
import { Workflow, type INode, type IDataObject } from 'n8n-workflow';

import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { PACKAGE_NAME, TestNodeTypes, withPollTimes } from '../harness/engine';

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
