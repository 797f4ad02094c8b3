/**
 * Every Task and Event operation (v3 and v1), tags and calendars, and their error paths, as
 * workflows any n8n setup runs, with the outputs n8n must produce and what the sandbox must then
 * hold. The setups differ only in how a workflow is started: `n8n execute` (cliSuite.mjs) or a production webhook in
 * queue mode, where a worker runs it (queue-mode.test.mjs).
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';

import { errorOf, only, outputOf } from './n8n.mjs';
import {
	eventV1Workflow,
	eventV3ErrorsWorkflow,
	eventV3Workflow,
	tagsAndCalendarsWorkflow,
	timeBlockingWorkflow,
	taskErrorsWorkflow,
	taskFailureWorkflow,
	taskOperationsWorkflow,
} from './workflows.mjs';

const base64 = (text) => Buffer.from(text, 'utf8').toString('base64');

/** The workflows the tests below run (node types under `prefix`). */
export function operationWorkflows(prefix) {
	return [
		taskOperationsWorkflow(prefix),
		taskErrorsWorkflow(prefix),
		taskFailureWorkflow(prefix),
		eventV3Workflow(prefix),
		eventV3ErrorsWorkflow(prefix),
		eventV1Workflow(prefix),
		tagsAndCalendarsWorkflow(prefix),
		timeBlockingWorkflow(prefix),
	];
}

/**
 * Defines the tests (inside the caller's describe()).
 *
 * @param {object} options
 * @param {() => import('./sandbox.mjs').SandboxClient} options.sandbox  the sandbox the credentials point at
 * @param {(id: string) => Promise<{ run: object | null, failed: boolean, output: string }>} options.runWorkflow
 *   runs the workflow with that ID to its end: the run as n8n stored it ({ data: { resultData }, status }),
 *   whether it failed, and text to show (and search) when it did
 */
export function operationTests({ sandbox: getSandbox, runWorkflow }) {
	let sandbox;

	before(() => {
		sandbox = getSandbox();
	});

	const execute = async (id) => {
		const result = await runWorkflow(id);
		assert.ok(!result.failed, `workflow ${id} failed:\n${result.output.slice(-3000)}`);
		assert.ok(result.run, `workflow ${id} left no run:\n${result.output.slice(-3000)}`);
		assert.equal(result.run.status ?? 'success', 'success');
		return result.run;
	};

	it('task operations: create, subtask, get, update, move, close, reopen, get many, delete', async () => {
		await sandbox.reset();
		const run = await execute('ctsE2eTaskOps001');

		const created = only(run, 'Create');
		assert.equal(created['@type'], 'Task');
		assert.equal(created.title, 'E2E parent');
		assert.equal(created.due, '2026-12-01T17:00:00');
		assert.equal(created.timeZone, 'Europe/Berlin');
		assert.equal(created.priority, 3);
		assert.deepEqual(created.tags, ['tag-alice-work', 'tag-alice-urgent'], 'the tags chosen in the dropdown');
		assert.equal(created.estimatedDuration, 'PT1H15M');
		assert.equal(created.description, 'Made by n8n');

		const child = only(run, 'Create Subtask');
		assert.deepEqual(child.relatedTo, { [created.id]: { '@type': 'Relation', relation: { parent: true } } });
		const idOnly = only(run, 'Create ID Only');
		assert.deepEqual(idOnly, { id: idOnly.id, title: 'E2E id only', success: true }, 'by default: the ID, the fields sent and success (no read-back)');

		assert.deepEqual(only(run, 'Get'), created);
		const updated = only(run, 'Update');
		assert.equal(updated.title, 'E2E parent (renamed)');
		assert.equal(updated.progress, 'in-process');
		assert.equal(updated.priority, 3, 'fields not set stay as they were');

		const moved = only(run, 'Move');
		assert.equal(moved.id, child.id);
		assert.equal(moved.relatedTo, undefined, 'moved to the root level');
		assert.deepEqual(only(run, 'Move After'), { id: idOnly.id, previousId: created.id, success: true });

		assert.equal(only(run, 'Close').progress, 'completed');
		assert.deepEqual(only(run, 'Reopen'), { id: created.id, success: true });

		const listed = outputOf(run, 'Get Many');
		assert.deepEqual(listed.map((task) => task.title).sort(), ['E2E child', 'E2E id only', 'E2E parent (renamed)']);
		assert.equal(outputOf(run, 'Get Many Limit').length, 1);

		assert.deepEqual(only(run, 'Delete'), { id: created.id, deleted: true });
		assert.deepEqual(only(run, 'Delete Again'), { id: created.id, deleted: true });
		const gone = only(run, 'Get Deleted');
		assert.equal(gone.deleted, true);
		assert.equal(gone.title, 'E2E parent (renamed)');

		// What the service holds now: the parent and its subtree are deleted.
		assert.equal((await sandbox.getTask(created.id)).deleted, true);
		assert.equal((await sandbox.getTask(child.id)).deleted, undefined, 'moved out of the subtree before the delete');
	});

	it('task error paths: each error as n8n shows it, under Continue On Fail', async () => {
		await sandbox.reset();
		const run = await execute('ctsE2eTaskErr001');
		const error = (node) => errorOf(run, node).message;

		assert.match(error('Get Unknown'), /^Task not found: no task with ID "no-such-task"/);
		assert.equal(error('Create Empty Title'), 'Title: must not be empty');
		assert.match(error('Create Bad Zone'), /^Time Zone: "EST" is not an IANA time zone/);
		assert.equal(error('Update Nothing'), 'Update Fields: add at least one field to change');
		assert.match(error('Move Nowhere'), /^Position: choose a new position or a new parent/);
		assert.match(error('Get Many Bad Limit'), /^Limit: "0" is not a whole number/);

		// The service's message, HTTP status and errorRef, as n8n shows them.
		const unknown = errorOf(run, 'Update Unknown');
		assert.match(unknown.message, /^The service rejected the request: Invalid task id \(errorRef [0-9a-f-]{36}\)$/);
		assert.match(unknown.description, /^HTTP 400 · errorRef [0-9a-f-]{36}$/);
		assert.equal(unknown.context.httpStatus, 400);

		const wrongKey = errorOf(run, 'Wrong Key');
		assert.match(wrongKey.message, /^Authentication failed/);
		assert.match(wrongKey.description, /^HTTP 401/);
		assert.ok(!JSON.stringify(run).includes('not-a-valid-key'), 'the key never appears in the execution');

		// Only the two requests that reached the service with a valid key, and the refused key.
		const calls = (await sandbox.requests()).map((call) => `${call.method} ${call.path} ${call.status}`);
		assert.deepEqual(calls.sort(), ['GET /v3/tasks 200', 'GET /v3/tasks 401', 'POST /v3/tasks/update 400'].sort());
	});

	it('a failing node stops the workflow and n8n reports its error', async () => {
		await sandbox.reset();
		const { failed, output } = await runWorkflow('ctsE2eTaskFail01');
		assert.ok(failed, `the run should fail:\n${output.slice(-2000)}`);
		assert.match(output, /Task not found: no task with ID \\?"no-such-task\\?"/);
	});

	it('v3 events: create (timed, all-day, recurring), get, update, occurrence update, get many, delete', async () => {
		await sandbox.reset();
		const run = await execute('ctsE2eEventV3001');

		// "From List" carried the account with the calendar; a calendar "By ID" alone had its
		// account looked up, with one calendar list call for the whole run.
		const created = only(run, 'Create');
		assert.equal(created.accountId, 'acc-alice-a');
		assert.equal(created.calendarId, 'cal-alice-a-primary');
		assert.equal(created.title, 'E2E planning');
		assert.equal(created.start, '2026-12-01T09:00:00');
		assert.equal(created.duration, 'PT1H30M');
		assert.equal(created.timeZone, 'Europe/Berlin');
		assert.equal(created.participants[base64('ann@example.com')].email, 'ann@example.com');
		assert.deepEqual(Object.keys(created.alerts), [base64('{"a":"display","to":"-PT15M"}')]);

		// Simplified: allDay instead of showWithoutTime, end next to start, no @type.
		const allDay = only(run, 'Create All Day');
		assert.equal(allDay.allDay, true);
		assert.equal(allDay.duration, 'P3D');
		assert.equal(allDay.end, '2026-12-13', 'an all-day event\'s days as dates');
		assert.equal(allDay['@type'], undefined);

		const series = only(run, 'Create Series');
		assert.equal(series.recurrenceRules[0].frequency, 'weekly');
		assert.deepEqual([series.accountId, series.calendarId], ['acc-alice-a', 'cal-alice-a-primary']);
		const lists = (await sandbox.requests()).filter((call) => call.path === '/v3/calendars/list');
		assert.deepEqual(lists.map((call) => call.points), [10]);

		assert.equal(only(run, 'Get').id, created.id);
		const updated = only(run, 'Update');
		assert.equal(updated.title, 'E2E planning (moved)');
		assert.equal(updated.start, '2026-12-01T11:00:00');
		assert.equal(updated.duration, 'PT1H30M', 'the duration is kept when only the start moves');
		assert.equal(only(run, 'Update Occurrence').title, 'E2E standup (moved)');

		const listed = outputOf(run, 'Get Many');
		const standups = listed.filter((event) => event.masterEventId === series.id);
		assert.deepEqual(standups.map((event) => event.start), ['2026-12-07T09:00:00', '2026-12-09T09:00:00', '2026-12-14T09:00:00', '2026-12-16T09:00:00']);
		assert.deepEqual(standups.map((event) => event.title), ['E2E standup', 'E2E standup (moved)', 'E2E standup', 'E2E standup']);
		assert.ok(listed.some((event) => event.id === created.id));
		assert.ok(listed.some((event) => event.id === allDay.id));

		const bySeries = outputOf(run, 'Get Many Series');
		assert.equal(bySeries.filter((event) => event.id === series.id).length, 1, 'one item for the series');

		assert.equal(only(run, 'Update Series').description, 'Daily sync');
		assert.deepEqual(only(run, 'Delete'), { id: created.id, deleted: true });
		assert.deepEqual(only(run, 'Delete Series'), { id: series.id, deleted: true });
		assert.deepEqual(only(run, 'Delete Again'), { id: created.id, deleted: true, alreadyDeleted: true });
		assert.equal((await sandbox.api('GET', '/v3/events', { qs: { id: created.id } })).status, 404);
	});

	it('v3 event error paths', async () => {
		await sandbox.reset();
		const run = await execute('ctsE2eEventErr01');
		const unknown = errorOf(run, 'Get Unknown');
		assert.match(unknown.message, /^Event not found/);
		assert.equal(unknown.context.httpStatus, 404);
		assert.match(errorOf(run, 'Create Bad Zone').message, /^Time Zone: "EST" is not an IANA time zone/);
		assert.equal(errorOf(run, 'Create End Before Start').message, 'End: must be after Start');
		const expired = errorOf(run, 'Expired Connection');
		assert.match(expired.message, /^Authentication failed: The calendar connection of account \S+ has expired: reconnect the account/);
		assert.match(expired.description, /the connection between the service and this calendar account has expired or was revoked\. Reconnect the account/);
		assert.doesNotMatch(expired.description, /API key/);
		assert.match(errorOf(run, 'Delete Gone Is Error').message, /^Event not found/);
		assert.match(errorOf(run, 'Create In Read-only Calendar').message, /^Access denied: calendar cal-alice-a-holidays is read-only/);
		assert.equal(errorOf(run, 'Create In Unknown Calendar').message, 'Calendar: no calendar with ID "cal-nowhere" in the accounts of this credential');
	});

	it('tags (create, get the one picked from the list, update, get many, delete) and calendars (get many, find free time)', async () => {
		await sandbox.reset();
		const run = await execute('ctsE2eTagsCal001');
		const created = only(run, 'Create Tag');
		assert.deepEqual(created, { id: created.id, name: 'E2E tag', color: '#00aa55' });
		assert.deepEqual(only(run, 'Get Picked Tag'), { id: 'tag-alice-work', name: 'Work', color: '#4285f4', updated: '2026-01-05T09:00:00.000Z' });
		assert.deepEqual(only(run, 'Update Tag'), { id: created.id, name: 'E2E tag (renamed)', success: true });
		assert.deepEqual(outputOf(run, 'Get Many Tags').map((tag) => tag.name), ['E2E tag (renamed)', 'Errands', 'Urgent', 'Work']);
		assert.deepEqual(only(run, 'Delete Tag'), { id: created.id, deleted: true });
		assert.equal((await sandbox.api('GET', '/v3/tags', { qs: { id: created.id } })).status, 404);
		const calendars = outputOf(run, 'Get Many Calendars');
		assert.equal(calendars.length, 7);
		assert.deepEqual(calendars.find((calendar) => calendar.id === 'cal-alice-a-holidays').writable, false);
		assert.deepEqual(only(run, 'Find Free Time'), {
			start: '2026-12-01T08:00:00Z',
			end: '2026-12-01T11:00:00Z',
			startInZone: '2026-12-01T09:00:00+01:00',
			endInZone: '2026-12-01T12:00:00+01:00',
			timeZone: 'Europe/Berlin',
			durationMinutes: 180,
		});
	});

	it('finds a slot and books it with the conflict guard; time-blocking a task twice leaves one block', async () => {
		await sandbox.reset();
		const run = await execute('ctsE2eTimeBlock1');
		assert.equal(only(run, 'Find Free Time').start, '2026-12-01T08:00:00Z');
		const booked = only(run, 'Book Slot');
		assert.equal(booked.start, '2026-12-01T09:00:00');
		assert.equal(booked.alreadyExists, undefined);
		const again = only(run, 'Book Again');
		assert.equal(again.id, booked.id);
		assert.equal(again.alreadyExists, true);
		const over = only(run, 'Book Over It');
		assert.equal(over.skipped, true);
		assert.deepEqual(over.conflicts.map((event) => [event.id, event.title]), [[booked.id, 'E2E focus']]);
		const first = only(run, 'Schedule');
		assert.equal(first.action, 'created');
		assert.equal(first.event.start, '2026-12-01T10:00:00+01:00');
		assert.equal(first.event.title, 'E2E report');
		const second = only(run, 'Schedule Again');
		assert.equal(second.action, 'kept');
		assert.equal(second.event.id, first.event.id);
		const { body } = await sandbox.api('GET', '/v3/events/list', {
			qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: '2026-11-30T00:00:00Z', end: '2026-12-03T00:00:00Z' },
		});
		assert.deepEqual(body.data.events.map((event) => event.title).sort(), ['E2E focus', 'E2E report']);
	});

	it('v1 events with a bearer token: create, get many, update, RSVP, delete', async () => {
		await sandbox.reset();
		const run = await execute('ctsE2eEventV1001');
		const created = only(run, 'Create');
		assert.equal(created.title, 'E2E invitation');
		assert.equal(created.accountId, 'acc-alice-a');
		assert.ok(outputOf(run, 'Get Many').some((event) => event.id === created.id));
		assert.equal(only(run, 'Update').title, 'E2E invitation (v1)');
		assert.deepEqual(only(run, 'RSVP Tentative'), { id: created.id, response: 'tentativelyAccept', success: true });
		assert.deepEqual(only(run, 'RSVP Accept'), { id: created.id, response: 'accept', success: true });
		assert.deepEqual(only(run, 'Delete'), { id: created.id, deleted: true });
		assert.deepEqual(only(run, 'Delete Again'), { id: created.id, deleted: true, alreadyDeleted: true });
		assert.match(errorOf(run, 'Expired Token').message, /^Authentication failed/);
		const unknown = errorOf(run, 'RSVP Decline Unknown');
		assert.match(unknown.message, /^Event not found/);
		assert.equal(unknown.context.httpStatus, 404);

		const rsvp = (await sandbox.requests()).filter((call) => call.path.startsWith('/v1/events/') && call.body?.id === created.id);
		assert.deepEqual(
			rsvp.map((call) => `${call.path} ${call.status}`).filter((line) => /accept/i.test(line)),
			['/v1/events/tentativelyAccept 204', '/v1/events/accept 204'],
		);
		assert.deepEqual(rsvp.find((call) => call.path === '/v1/events/tentativelyAccept').body, { id: created.id, comment: 'Maybe', notifyOrganizer: false });
	});
}
