/**
 * Both time-blocking operations (Schedule in Calendar, Plan Tasks) on the night the clocks go
 * back, run by n8n's real engine against the sandbox over HTTP: a block whose first free start is
 * in the second pass of the repeated hour is written where it belongs. An event's start is a
 * local time without offset, which the service reads as the first pass, so such a block is
 * written in UTC; where it landed is read back from the service's own list (events overlapping a
 * window), not from the node's output. A second run finds the block and keeps it.
 */
import { DateTime } from 'luxon';

import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });

sandboxWithFreshLists(sandbox);

const A = 'acc-alice-a/cal-alice-a-primary';

type Operation = 'schedule' | 'plan';

async function runOperation(operation: Operation, taskId: string, zone: string, day: string) {
	const common = {
		resource: 'task',
		operation,
		calendarId: { mode: 'list', value: A },
		checkCalendars: [A],
		timeZone: zone,
		notBefore: `${day}T00:00:00`,
		notAfter: `${day}T12:00:00`,
		workingDays: [7],
		workFrom: '00:00',
		workTo: '06:00',
	};
	const parameters = operation === 'schedule' ? { ...common, taskId: { mode: 'id', value: taskId } } : common;
	return await engine.runNode({ type: 'ctsTask', parameters, items: [{ id: taskId }], credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } } });
}

/** The titles of the events the service lists as overlapping [start, end) (UTC). */
async function listedBetween(start: string, end: string): Promise<string[]> {
	const { body } = await sandbox.api('GET', '/v3/events/list', { qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start, end } });
	return (body.data.events as Array<Record<string, unknown>>).map((event) => String(event.title));
}

describe.each([
	// Berlin, last Sunday of October: 03:00 summer time becomes 02:00 again; 02:30 is 00:30Z, then 01:30Z.
	{ zone: 'Europe/Berlin', day: '2026-10-25', busyUntil: '2026-10-25T01:30:00', firstPass: '2026-10-25T00:30:00Z', secondPass: '2026-10-25T01:30:00Z', blockEnd: '2026-10-25T02:00:00Z' },
	// New York, first Sunday of November: 02:00 summer time becomes 01:00 again; 01:30 is 05:30Z, then 06:30Z.
	{ zone: 'America/New_York', day: '2026-11-01', busyUntil: '2026-11-01T06:30:00', firstPass: '2026-11-01T05:30:00Z', secondPass: '2026-11-01T06:30:00Z', blockEnd: '2026-11-01T07:00:00Z' },
])('the repeated hour in $zone', ({ zone, day, busyUntil, firstPass, secondPass, blockEnd }) => {
	it.each<Operation>(['schedule', 'plan'])('%s writes a block that starts in the second pass where it belongs, and a re-run keeps it', async (operation) => {
		// Busy from local midnight until the second pass of the repeated hour.
		const midnight = DateTime.fromISO(`${day}T00:00:00`, { zone });
		const busyMinutes = DateTime.fromISO(busyUntil, { zone: 'UTC' }).diff(midnight, 'minutes').minutes;
		await sandbox.createEvent({ accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary', title: 'Night shift', start: `${day}T00:00:00`, duration: `PT${busyMinutes}M`, timeZone: zone, showWithoutTime: false });
		const taskId = await sandbox.createTask({ title: 'Night work', estimatedDuration: 'PT30M', timeZone: zone });
		const first = await runOperation(operation, taskId, zone, day);
		expect(first.error).toBeUndefined();
		// The service lists the block in the second pass (and not in the first).
		const secondPassTitles = await listedBetween(secondPass, blockEnd);
		const firstPassTitles = await listedBetween(firstPass, DateTime.fromISO(firstPass).plus({ minutes: 30 }).toUTC().toISO()!);
		expect({ second: secondPassTitles.includes('Night work'), first: firstPassTitles.includes('Night work') }).toEqual({ second: true, first: false });
		await sandbox.clearRequests();
		const again = await runOperation(operation, taskId, zone, day);
		expect(again.error).toBeUndefined();
		expect(again.items[0].json.action).toBe('kept');
		expect((await sandbox.requests()).filter((request) => request.method === 'POST')).toEqual([]);
	});
});
