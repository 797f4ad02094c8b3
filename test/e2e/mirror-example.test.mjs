/**
 * The mirror example as `npm start` sets it up, in n8n 2.41.1 against the sandbox: published, then
 * run three times as the editor's "Execute workflow" starts it (its schedule, every 15 minutes, is
 * moved out of the test's way first, so that no scheduled run joins them).
 * The first run copies each calendar's busy events into the other (both directions), without
 * alerts; run 2 updates only the copies made to remind in between (as older versions wrote them,
 * or given an alert in the calendar), run 3 writes nothing, and both read each calendar once for
 * both nodes; and no copy of a copy exists: each calendar's copies are exactly the other
 * calendar's own busy events, one copy each, with the same times, no alerts and nothing of the source.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { MIRROR_EXAMPLE } from '../../scripts/examples.mjs';
import { scheduleOutOfTheWay, startExamples } from './support/examples.mjs';
import { nodeOutput, runWorkflow } from './support/executions.mjs';

// The example's calendars (scripts/examples.mjs): work → personal, personal → work.
const WORK = { accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' };
const PERSONAL = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };
const DIRECTIONS = [
	{ node: 'Work → Personal', source: WORK, target: PERSONAL },
	{ node: 'Personal → Work', source: PERSONAL, target: WORK },
];
const COPY_MARKER = /^Busy copy of: ([^|]*) \| ([^|]*) \| ([^|]*) \| ([^|]*)$/m;
const DAY_MS = 24 * 3600 * 1000;

describe('the mirror example of npm start in n8n 2.41.1', () => {
	let examples;
	let rest;
	let workflowId;

	before(async () => {
		examples = await startExamples('mirror-example');
		({ rest } = examples);
		workflowId = examples.workflowId(MIRROR_EXAMPLE);
	});

	after(async () => await examples?.dispose());

	const requests = async () => await examples.sandbox.requests();
	/** A calendar's events (series as their occurrences) over a window wider than the example's range. */
	const eventsOf = async (calendar) => {
		const qs = {
			accountId: calendar.accountId,
			calendarIds: calendar.calendarId,
			start: new Date(Date.now() - 3 * DAY_MS).toISOString(),
			end: new Date(Date.now() + 20 * DAY_MS).toISOString(),
		};
		const { status, body } = await examples.sandbox.api('GET', '/v3/events/list', { qs });
		assert.equal(status, 200, `events of ${calendar.calendarId}: ${status} ${JSON.stringify(body)}`);
		return body.data.events;
	};
	const copyMarker = (event) => COPY_MARKER.exec(String(event.description ?? ''));
	const isBusy = (event) =>
		event.freeBusyStatus !== 'free' &&
		event.status !== 'cancelled' &&
		!Object.values(event.participants ?? {}).some((participant) => participant?.accountOwner === true && participant.participationStatus === 'declined');

	/** Each Mirror node's output in a run. */
	const mirrored = (execution) => Object.fromEntries(DIRECTIONS.map(({ node }) => [node, nodeOutput(execution, node)]));
	const actionsOf = (items) => [...new Set(items.map((item) => item.action))].sort();
	const writes = (log) => log.filter((request) => request.method === 'POST' && request.path.startsWith('/v3/events/'));

	it('published, three runs: the first copies both ways without alerts, the second takes alerts off the copies that remind, the third writes nothing; no copy of a copy exists', async (t) => {
		assert.ok(workflowId, `npm start set up "${MIRROR_EXAMPLE}"`);
		await scheduleOutOfTheWay(rest, workflowId, 'Every 15 Minutes');
		await rest.activateWorkflow(workflowId);
		const published = await rest.getWorkflow(workflowId);
		assert.ok(published.active === true || Boolean(published.activeVersionId), 'the example is published');

		const logged = (await requests()).length;
		const first = mirrored(await runWorkflow(rest, workflowId, 'Every 15 Minutes'));
		const firstWrites = writes((await requests()).slice(logged));
		for (const { node } of DIRECTIONS) {
			assert.ok(first[node].length > 0, `${node}: the starter world has busy events to copy`);
			assert.deepEqual(actionsOf(first[node]), ['created'], `${node}: ${JSON.stringify(first[node]).slice(0, 1000)}`);
		}
		// One create per copy, in both directions, into the right calendar; nothing else written.
		assert.deepEqual(
			firstWrites.map((request) => request.path),
			firstWrites.map(() => '/v3/events/create'),
		);
		for (const { node, target } of DIRECTIONS) {
			const into = firstWrites.filter((request) => request.body?.accountId === target.accountId && request.body?.calendarId === target.calendarId);
			assert.equal(into.length, first[node].length, `${node}: one create per copy`);
		}
		assert.equal(firstWrites.length, first['Work → Personal'].length + first['Personal → Work'].length);
		// Copies never remind: the source does, from its own calendar.
		assert.ok(firstWrites.every((request) => request.body?.useDefaultAlerts === false && request.body?.alerts === undefined), 'every copy is created without alerts');
		t.diagnostic(`run 1: ${DIRECTIONS.map(({ node }) => `${node} ${first[node].length} copies`).join(', ')}; ${firstWrites.length} writes, ${(await requests()).slice(logged).reduce((sum, request) => sum + request.points, 0)} points`);

		// One copy each way made as older versions made them, reminding with the target's default alerts,
		// and one given an alert of its own in the calendar: the next run takes them off, one update each.
		const reminding = DIRECTIONS.map(({ node, target }, index) => ({ node, id: String(first[node][0].copyId), target, change: index === 0 ? { useDefaultAlerts: true } : { alerts: { own: { trigger: { offset: '-PT5M' } } } } }));
		for (const { id, target, change } of reminding) {
			const answer = await examples.sandbox.api('POST', '/v3/events/update', { body: { id, ...target, ...change } });
			assert.equal(answer.status, 200, JSON.stringify(answer.body));
		}

		for (const round of [2, 3]) {
			const before = (await requests()).length;
			const again = mirrored(await runWorkflow(rest, workflowId, 'Every 15 Minutes'));
			const log = (await requests()).slice(before);
			const updated = round === 2 ? reminding.map(({ id }) => id) : [];
			assert.deepEqual(writes(log).map((request) => `${request.path} ${request.body?.id}`), updated.map((id) => `/v3/events/update ${id}`), `run ${round}: only the copies that reminded are written`);
			t.diagnostic(`run ${round}: ${log.length} requests (${log.map((request) => `${request.method} ${request.path}`).join(', ')}), ${updated.length} writes, ${log.reduce((sum, request) => sum + request.points, 0)} points`);
			// Both directions read the same two calendars: once per execution, one list per account.
			assert.equal(log.filter((request) => request.path === '/v3/events/list').length, 2, `run ${round}: each calendar read once for both directions`);
			for (const { node } of DIRECTIONS) {
				const actions = Object.fromEntries(again[node].map((item) => [String(item.copyId), item.action]));
				const expected = Object.fromEntries(first[node].map((item) => [String(item.copyId), updated.includes(String(item.copyId)) ? 'updated' : 'unchanged']));
				assert.deepEqual(actions, expected, `run ${round}, ${node}: the same copies, the reminding ones updated`);
			}
		}

		// Each target's copies are the other calendar's own busy events, one each, with their times and nothing else of them.
		for (const { node, source, target } of DIRECTIONS) {
			const sourceEvents = await eventsOf(source);
			const sourceById = new Map(sourceEvents.map((event) => [String(event.id), event]));
			const copies = (await eventsOf(target)).filter((event) => copyMarker(event));
			const copiesOfSource = copies.filter((event) => copyMarker(event)[1] === source.accountId && copyMarker(event)[2] === source.calendarId);
			assert.equal(copiesOfSource.length, copies.length, `${node}: every copy in the target is of the example's source`);
			const copiedIds = copiesOfSource.map((event) => copyMarker(event)[3]);
			assert.equal(new Set(copiedIds).size, copiedIds.length, `${node}: one copy per source event`);
			assert.deepEqual([...copiedIds].sort(), first[node].map((item) => String(item.sourceEventId)).sort(), `${node}: the copies are the ones the first run made`);
			for (const copy of copiesOfSource) {
				const original = sourceById.get(copyMarker(copy)[3]);
				assert.ok(original, `${node}: copy ${copy.id} stands for an event of the source calendar`);
				assert.equal(copyMarker(original), null, `${node}: copy ${copy.id} is not a copy of a copy`);
				assert.ok(isBusy(original), `${node}: copy ${copy.id} stands for a busy event`);
				assert.equal(copy.title, 'Busy');
				assert.equal(copy.freeBusyStatus, 'busy');
				assert.equal(copy.description.trim(), copyMarker(copy)[0], `${node}: a copy's description is its marker line only`);
				assert.equal(copy.useDefaultAlerts, false, `${node}: copy ${copy.id} does not use the calendar's default alerts`);
				assert.deepEqual(Object.keys(copy.alerts ?? {}), [], `${node}: copy ${copy.id} has no alerts`);
				assert.deepEqual([copy.start, copy.duration, copy.showWithoutTime === true], [original.start, original.duration, original.showWithoutTime === true], `${node}: copy ${copy.id} has its source's times`);
				for (const field of ['location', 'locations', 'links', 'virtualLocations']) {
					assert.ok(copy[field] === undefined || copy[field] === null || Object.keys(copy[field]).length === 0, `${node}: copy ${copy.id} has no ${field}`);
				}
			}
			// Every own busy event of the source well inside the range (today and the next 14 days) has its copy.
			const wellInside = sourceEvents.filter((event) => {
				const start = Date.parse(event.start);
				return !copyMarker(event) && isBusy(event) && start > Date.now() + DAY_MS && start < Date.now() + 13 * DAY_MS;
			});
			assert.ok(wellInside.length > 0, `${node}: the source has busy events in the range`);
			for (const event of wellInside) assert.ok(copiedIds.includes(String(event.id)), `${node}: ${event.id} (${event.start}) has its copy`);
		}

		// No run other than the three (the schedule was out of the way), and all of them green.
		const executions = await rest.listAllExecutions(workflowId);
		assert.equal(executions.length, 3, JSON.stringify(executions.map((execution) => [execution.id, execution.mode, execution.status])));
		assert.ok(executions.every((execution) => execution.status === 'success'));
		await rest.deactivateWorkflow(workflowId);
	});
});
