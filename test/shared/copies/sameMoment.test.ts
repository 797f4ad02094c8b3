import { createdBefore, olderFirst } from '../../../nodes/shared/copies/sameMoment';

/** What a check after creating counts (see `giveWayToOlder` and the guards): only what is older than the run's own event. */
describe('olderFirst and createdBefore', () => {
	const own = { id: 'm', created: '2026-11-21T09:30:00.125Z' };

	it('orders by creation, then by ID when two were created in the same millisecond', () => {
		const events = [
			{ id: 'b', created: '2026-11-21T09:30:00.125Z' },
			{ id: 'z', created: '2026-11-21T09:30:00.124Z' },
			{ id: 'a', created: '2026-11-21T09:30:00.125Z' },
		];
		expect([...events].sort(olderFirst).map(({ id }) => id)).toEqual(['z', 'a', 'b']);
	});

	it('counts what was created before, never the event itself, its occurrences or what came after', () => {
		const events = [
			own,
			{ id: 'occurrence-1', masterEventId: 'm', created: '2026-11-21T09:30:00.125Z' },
			{ id: 'earlier', created: '2026-11-21T09:30:00.100Z' },
			{ id: 'a-same-ms', created: '2026-11-21T09:30:00.125Z' },
			{ id: 'z-same-ms', created: '2026-11-21T09:30:00.125Z' },
			{ id: 'later', created: '2026-11-21T09:30:00.126Z' },
		];
		expect(createdBefore(own, events).map(({ id }) => id)).toEqual(['earlier', 'a-same-ms']);
	});
});
