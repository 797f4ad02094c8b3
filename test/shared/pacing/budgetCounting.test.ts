/**
 * How the pacer counts a window from answers that arrive out of order while several requests
 * are in flight: an older answer never raises the count, and once every answer is in, the count
 * is exactly what the service said last (no point of the window is left unused).
 */
import { BudgetExhausted, PointBudget } from '../../../nodes/shared/pacing/pointBudget';

const headers = (remaining: number) => ({ 'ratelimit-limit': '30', 'ratelimit-remaining': String(remaining), 'ratelimit-reset': '60' });
const options = { job: 'test', maxWaitMs: 1000 };

it('counts from the lowest Remaining of the window, less what is still in flight', async () => {
	const budget = new PointBudget();
	budget.answered(await budget.take(options), headers(29)); // the first request learns the budget
	const [second, third, fourth] = await Promise.all([budget.take(options), budget.take(options), budget.take(options)]);
	expect(budget.snapshot().remaining).toBe(26);

	// The service processed all three before answering the last one sent, whose answer comes first.
	budget.answered(fourth, headers(26));
	expect(budget.snapshot().remaining).toBe(24); // two still in flight: assume they are not counted yet
	budget.answered(second, headers(28)); // older answers never raise the count above what is known...
	expect(budget.snapshot().remaining).toBe(25);
	budget.answered(third, headers(27));
	expect(budget.snapshot().remaining).toBe(26); // ...and with all answered, it is the service's figure
});

describe('answers without rate-limit headers', () => {
	const quick = { job: 'test', maxWaitMs: 0 };

	it('never make requests wait: an older answer that said little was left is not counted down from', async () => {
		const budget = new PointBudget();
		// The last answer with headers said 2 points were left in a window that resets in 15 minutes.
		budget.answered(await budget.take(quick), { 'ratelimit-limit': '300', 'ratelimit-remaining': '2', 'ratelimit-reset': '900' });
		// Then the headers stop coming (a proxy removes them): 20 requests, none of them waits.
		for (let request = 0; request < 20; request++) budget.answered(await budget.take(quick), { 'content-type': 'application/json' });
		expect(budget.snapshot()).toMatchObject({ remaining: undefined, waiting: 0 });
	});

	it("still keep a 429's Retry-After", async () => {
		const budget = new PointBudget();
		budget.answered(await budget.take(quick), {});
		const [refused, sentBefore] = await Promise.all([budget.take(quick), budget.take(quick)]);
		budget.answered(refused, { 'retry-after': '60' });
		budget.refused(60);
		// An answer without headers to a request sent before the 429 does not lift the wait.
		budget.answered(sentBefore, {});
		await expect(budget.take(quick)).rejects.toBeInstanceOf(BudgetExhausted);
	});
});

describe('what a call costs, as the answers show it', () => {
	const told = (remaining: number, limit = 300) => ({ 'ratelimit-limit': String(limit), 'ratelimit-remaining': String(remaining), 'ratelimit-reset': '900' });
	const list = { job: 'test', maxWaitMs: 1000, kind: 'list' as const };

	it('a budget that counts requests: once a list call sent alone lowers Remaining by 1, list calls reserve 1, not 10', async () => {
		const budget = new PointBudget();
		budget.answered(await budget.take(list), told(299));
		expect(budget.costOf('list')).toBe(10); // the first answer only tells the budget
		budget.answered(await budget.take(list), told(298));
		expect(budget.costOf('list')).toBe(1);
		expect(budget.snapshot()).toMatchObject({ countsRequests: true, listCost: 1, callCost: 1 });
		// Each list call now holds 1 of the 298 points left, where 10 each would hold 29.
		const tickets = await Promise.all(Array.from({ length: 8 }, () => budget.take(list)));
		expect(tickets.every((ticket) => ticket.cost === 1)).toBe(true);
	});

	it('a larger drop is others\' calls on the account, not the price: the table stays', async () => {
		const budget = new PointBudget();
		budget.answered(await budget.take(list), told(290));
		budget.answered(await budget.take(list), told(250));
		expect(budget.costOf('list')).toBe(10);
	});

	it('answers of requests sent together teach nothing of the price', async () => {
		const budget = new PointBudget();
		budget.answered(await budget.take(list), told(290));
		const [first, second] = await Promise.all([budget.take(list), budget.take(list)]);
		budget.answered(first, told(289));
		budget.answered(second, told(288));
		expect(budget.costOf('list')).toBe(10);
	});
});
