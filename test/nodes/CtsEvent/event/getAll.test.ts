/**
 * Event Get Many.
 *
 * The CTS Event node (v3) run by n8n's real engine against the sandbox over HTTP. What the node
 * sent is read from the sandbox's request log; what it changed is read back through the API.
 */
import { eventApi, eventNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = eventNodeSuite();
const { createEvent } = eventApi(sandbox);

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

describe('Get Many', () => {
	it('Search keeps events whose title, description or location contains the text; Order sorts them; Limit counts what is kept', async () => {
		await createEvent({ title: 'Budget review', start: '2026-12-03T10:00:00' });
		await createEvent({ title: 'Standup', start: '2026-12-01T09:00:00' });
		await createEvent({ title: 'Planning', description: 'The BUDGET for 2027', start: '2026-12-02T09:00:00' });
		await createEvent({ title: 'Offsite', start: '2026-12-04T09:00:00', locations: { bG9j: { '@type': 'Location', name: 'Budget room' } } });
		const list = (options: Record<string, unknown>, limit?: number) =>
			run({
				operation: 'getAll',
				...target,
				calendarIds: 'cal-alice-a-primary',
				start: '2026-11-30T00:00:00Z',
				end: '2026-12-10T00:00:00Z',
				returnAll: limit === undefined,
				...(limit === undefined ? {} : { limit }),
				options,
			});
		const titles = async (options: Record<string, unknown>, limit?: number) => (await list(options, limit)).items.map((item) => item.json.title);
		expect(await titles({ search: 'budget' })).toEqual(['Planning', 'Budget review', 'Offsite']);
		expect(await titles({ search: 'budget', orderBy: 'startDescending' })).toEqual(['Offsite', 'Budget review', 'Planning']);
		expect(await titles({ search: 'budget' }, 2)).toEqual(['Planning', 'Budget review']);
		expect(await titles({})).toEqual(['Standup', 'Planning', 'Budget review', 'Offsite']);
		expect(await titles({ search: 'nothing like this' })).toEqual([]);
	});

	it('splits a long range into windows of at most 2 months and merges them without duplicates', async () => {
		const spanning = await createEvent({ title: 'Across', start: '2027-01-31T23:00:00', duration: 'PT4H', timeZone: 'UTC' });
		await createEvent({ title: 'Early', start: '2026-12-05T10:00:00' });
		await createEvent({ title: 'Late', start: '2027-06-20T10:00:00' });
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary, cal-alice-a-team',
			start: '2026-12-01T00:00:00Z',
			end: '2027-07-01T00:00:00Z',
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.title)).toEqual(['Early', 'Across', 'Late']);
		expect(items.filter((item) => item.json.id === spanning.id)).toHaveLength(1);
		const calls = await sandbox.requests();
		expect(calls.map((call) => [call.query.start, call.query.end])).toEqual([
			['2026-12-01T00:00:00Z', '2027-02-01T00:00:00Z'],
			['2027-02-01T00:00:00Z', '2027-04-01T00:00:00Z'],
			['2027-04-01T00:00:00Z', '2027-06-01T00:00:00Z'],
			['2027-06-01T00:00:00Z', '2027-07-01T00:00:00Z'],
		]);
		expect(calls.every((call) => call.query.calendarIds === 'cal-alice-a-primary,cal-alice-a-team')).toBe(true);
	});

	it('uses fewer calls with a larger window, up to 6 months', async () => {
		const { error } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-12-01T00:00:00Z',
			returnAll: true,
			options: { windowMonths: 6 },
		});
		expect(error).toBeUndefined();
		expect(await sandbox.requests()).toHaveLength(2);
	});

	it('refuses End before Start and a window over 6 months before any request', async () => {
		const reversed = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2027-01-01T00:00:00Z',
			end: '2026-12-01T00:00:00Z',
			returnAll: true,
		});
		expect(reversed.error?.message).toContain('End: must be after Start');
		const tooWide = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-01-01T00:00:00Z',
			returnAll: true,
			options: { windowMonths: 7 },
		});
		expect(tooWide.error?.message).toContain('Window Size (Months): must be a whole number from 1 to 6');
		expect(await sandbox.requests()).toHaveLength(0);
	});

	it.each([0, -1, 2.5, '={{ NaN }}', 'many'])('refuses Limit %p before any request', async (limit) => {
		const { error, items } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-01-01T00:00:00Z',
			returnAll: false,
			limit,
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/^Limit: ".*" is not a whole number of 1 or more$/);
		expect(await sandbox.requests()).toHaveLength(0);
	});

	it('outputs one item per series when asked, reading each master once', async () => {
		const series = await createEvent({
			title: 'Weekly',
			recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1 }],
		});
		await createEvent({ title: 'Single', start: '2026-12-03T12:00:00' });
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-01-01T00:00:00Z',
			returnAll: true,
			options: { recurringEvents: 'series' },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items.map((item) => item.json.id)).toContain(series.id);
		expect(items.find((item) => item.json.id === series.id)!.json.recurrenceRules).toEqual([{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1 }]);
		const calls = await sandbox.requests();
		expect(calls.map((call) => call.path)).toEqual(['/v3/events/list', '/v3/events']);
	});

	it('Limit stops after that many events', async () => {
		await createEvent({ recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'daily', interval: 1 }] });
		await sandbox.clearRequests();
		const { items, error } = await run({
			operation: 'getAll',
			accountId: 'acc-alice-a',
			calendarIds: 'cal-alice-a-primary',
			start: '2026-12-01T00:00:00Z',
			end: '2027-06-01T00:00:00Z',
			returnAll: false,
			limit: 5,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		expect(await sandbox.requests()).toHaveLength(1);
	});
});
