/**
 * Recurrence rule parts (Create and Update).
 *
 * The CTS Event node through n8n's real engine against the sandbox over HTTP.
 */
import { eventNodeSuite } from '../../../harness/nodeSuites';

const { sandbox, run } = eventNodeSuite();

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

/** Create parameters of a timed event on 1 December 2026, 09:00–10:00 Berlin time. */
const createParameters = (extra: Record<string, unknown> = {}) => ({
	operation: 'create',
	...target,
	title: 'Covered',
	start: '2026-12-01T09:00:00',
	end: '2026-12-01T10:00:00',
	timeZone: 'Europe/Berlin',
	...extra,
});

async function occurrenceStarts(start: string, end: string, calendar = target) {
	const { status, body } = await sandbox.api('GET', '/v3/events/list', {
		qs: { accountId: calendar.accountId, calendarIds: calendar.calendarId, start, end },
	});
	expect(status).toBe(200);
	return (body.data.events as Array<{ start: string }>).map((event) => event.start);
}

async function lastBody() {
	return (await sandbox.requests()).at(-1)!.body as Record<string, unknown>;
}

describe('recurrence rule parts', () => {
	it('On Month Days: a comma-separated list, -1 the last day of the month', async () => {
		const { items, error } = await run(
			createParameters({
				endMode: 'duration',
				duration: 'PT30M',
				additionalFields: { recurrence: { rule: { frequency: 'monthly', interval: 1, byMonthDay: '1, 15, -1', ends: 'count', count: 6 } } },
			}),
		);
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'monthly', interval: 1, byMonthDay: [1, 15, -1], count: 6 },
		]);
		expect(items[0].json.recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'monthly', interval: 1, byMonthDay: [1, 15, -1], count: 6 },
		]);
		expect(await occurrenceStarts('2026-11-30T00:00:00Z', '2027-03-01T00:00:00Z')).toEqual([
			'2026-12-01T09:00:00',
			'2026-12-15T09:00:00',
			'2026-12-31T09:00:00',
			'2027-01-01T09:00:00',
			'2027-01-15T09:00:00',
			'2027-01-31T09:00:00',
		]);
	});

	it('In Months: month numbers as strings, with a month day, every year', async () => {
		const { error } = await run(
			createParameters({
				start: '2027-03-10T09:00:00',
				end: '2027-03-10T10:00:00',
				additionalFields: { recurrence: { rule: { frequency: 'yearly', interval: 1, byMonth: ['3', '6'], byMonthDay: '10', ends: 'count', count: 4 } } },
			}),
		);
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'yearly', interval: 1, byMonthDay: [10], byMonth: ['3', '6'], count: 4 },
		]);
		expect(await occurrenceStarts('2027-03-01T00:00:00Z', '2027-09-01T00:00:00Z')).toEqual(['2027-03-10T09:00:00', '2027-06-10T09:00:00']);
		expect(await occurrenceStarts('2028-03-01T00:00:00Z', '2028-09-01T00:00:00Z')).toEqual(['2028-03-10T09:00:00', '2028-06-10T09:00:00']);
	});

	it('Nth Weekday of the Period: -1 is the last such weekday of the month', async () => {
		const { error } = await run(
			createParameters({
				start: '2026-12-28T09:00:00',
				end: '2026-12-28T10:00:00',
				additionalFields: { recurrence: { rule: { frequency: 'monthly', interval: 1, byDay: ['mo'], nthOfPeriod: -1, ends: 'count', count: 3 } } },
			}),
		);
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([
			{ '@type': 'RecurrenceRule', frequency: 'monthly', interval: 1, byDay: [{ '@type': 'NDay', day: 'mo', nthOfPeriod: -1 }], count: 3 },
		]);
		// The last Mondays of December 2026, January and February 2027.
		expect(await occurrenceStarts('2026-12-01T00:00:00Z', '2027-03-01T00:00:00Z')).toEqual([
			'2026-12-28T09:00:00',
			'2027-01-25T09:00:00',
			'2027-02-22T09:00:00',
		]);
	});

	it('Nth Weekday of the Period applies to each weekday chosen', async () => {
		const { error } = await run(
			createParameters({
				start: '2026-12-08T09:00:00',
				end: '2026-12-08T10:00:00',
				additionalFields: { recurrence: { rule: { frequency: 'monthly', interval: 1, byDay: ['tu', 'th'], nthOfPeriod: 2, ends: 'count', count: 4 } } },
			}),
		);
		expect(error).toBeUndefined();
		expect((await lastBody()).recurrenceRules).toEqual([
			{
				'@type': 'RecurrenceRule',
				frequency: 'monthly',
				interval: 1,
				byDay: [
					{ '@type': 'NDay', day: 'tu', nthOfPeriod: 2 },
					{ '@type': 'NDay', day: 'th', nthOfPeriod: 2 },
				],
				count: 4,
			},
		]);
		// The second Tuesday and the second Thursday of December 2026 and January 2027.
		expect(await occurrenceStarts('2026-12-01T00:00:00Z', '2027-02-01T00:00:00Z')).toEqual([
			'2026-12-08T09:00:00',
			'2026-12-10T09:00:00',
			'2027-01-12T09:00:00',
			'2027-01-14T09:00:00',
		]);
	});

	it.each([
		['a month day of 0', { byMonthDay: '0' }, 'Recurrence: month days must be whole numbers from 1 to 31 or -31 to -1, got "0"'],
		['a month day that is not a number', { byMonthDay: '1, x' }, 'Recurrence: month days must be whole numbers from 1 to 31 or -31 to -1, got "1, x"'],
		['an nth weekday that is not whole', { byDay: ['mo'], nthOfPeriod: 1.5 }, 'Recurrence: nth weekday must be a whole number'],
	])('refuses %s before any request, naming the field', async (_name, rule, message) => {
		const { error } = await run(
			createParameters({ additionalFields: { recurrence: { rule: { frequency: 'monthly', interval: 1, ends: 'never', ...rule } } } }),
		);
		expect(error?.message).toBe(message);
		expect(await sandbox.requests()).toHaveLength(0);
	});
});
