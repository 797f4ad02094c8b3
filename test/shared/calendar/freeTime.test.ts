/**
 * The free-time arithmetic (nodes/shared/calendar/freeTime.ts) on cases the sandbox cannot produce
 * (cancelled events are never listed by it) or that are easier to state without requests.
 * Everything else is proven through the engine (CtsEventFreeTime.test.ts, freeTime.property.test.ts).
 */
import { busyEvents, clockMinutes, eventInterval, freeSlots, mergeBusy, notBusyReason } from '../../../nodes/shared/calendar/freeTime';

const timed = (fields: Record<string, unknown> = {}) => ({ start: '2026-12-01T10:00:00', duration: 'PT1H', timeZone: 'Europe/Berlin', showWithoutTime: false, ...fields });
const owner = (participationStatus: string, accountOwner = true) => ({ participants: { x: { email: 'a@example.com', accountOwner, participationStatus } } });

describe('what is busy', () => {
	it.each([
		['an event without freeBusyStatus', timed(), undefined],
		['a tentative event', timed({ status: 'tentative' }), undefined],
		['an event marked free', timed({ freeBusyStatus: 'free' }), 'free'],
		['a cancelled event (status)', timed({ status: 'cancelled' }), 'cancelled'],
		['a cancelled event (flag)', timed({ cancelled: true }), 'cancelled'],
		['an invitation the owner declined', timed(owner('declined')), 'declined'],
		['an invitation the owner accepted', timed(owner('accepted')), undefined],
		['an event another participant declined', timed(owner('declined', false)), undefined],
	])('%s', (_case, event, reason) => {
		expect(notBusyReason(event)).toBe(reason);
		expect(busyEvents([event], { zone: 'UTC' })).toHaveLength(reason ? 0 : 1);
	});

	it('reads a floating timed event in the chosen zone, and an all-day week as seven days there', () => {
		const floating = eventInterval(timed({ timeZone: null }), 'America/New_York')!;
		expect(new Date(floating.start).toISOString()).toBe('2026-12-01T15:00:00.000Z');
		const week = eventInterval({ start: '2026-12-07T00:00:00', duration: 'P1W', timeZone: null, showWithoutTime: true }, 'Asia/Tokyo')!;
		expect([new Date(week.start).toISOString(), new Date(week.end).toISOString()]).toEqual(['2026-12-06T15:00:00.000Z', '2026-12-13T15:00:00.000Z']);
	});
});

it('reads HH:mm working-hour times, 24:00 included, and refuses others', () => {
	expect(['09:00', '9:30', '24:00', '00:00'].map(clockMinutes)).toEqual([540, 570, 1440, 0]);
	expect(['24:01', '12:60', '9', 'nine'].map(clockMinutes)).toEqual([undefined, undefined, undefined, undefined]);
});

it('merges touching busy time into one block and leaves no slot of zero length', () => {
	const range = { start: Date.parse('2026-12-01T09:00:00Z'), end: Date.parse('2026-12-01T12:00:00Z') };
	const busy = busyEvents([timed({ start: '2026-12-01T09:00:00', timeZone: 'UTC' }), timed({ start: '2026-12-01T10:00:00', duration: 'PT2H', timeZone: 'UTC' })], { zone: 'UTC' });
	const blocks = mergeBusy(busy);
	expect(blocks.map((block) => [block.start, block.end, block.events.length])).toEqual([[range.start, range.end, 2]]);
	expect(freeSlots(range, blocks, { zone: 'UTC', minimumMs: 0 })).toEqual([]);
});
