/**
 * Event and instance ids: shape, round trip, and the per-series encoder against the byte-level
 * definition.
 */
import fc from 'fast-check';

import { InstanceIds, instanceIdBytes, isEventIdShape, newEventId, parseInstanceId } from './eventIds';
import { formatLocalDateTime } from './recurrence';

const recurrenceId = fc
	.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
	.map((d) => formatLocalDateTime(Math.floor(d.getTime() / 1000) * 1000));

describe('event ids', () => {
	it('ids: a new event id is base64 of 16 bytes with +, / and = and both cases', () => {
		for (let i = 0; i < 500; i++) {
			const id = newEventId();
			expect(isEventIdShape(id)).toBe(true);
			expect(id).toMatch(/^(?=.*\+)(?=.*\/)(?=.*[A-Z])(?=.*[a-z])[A-Za-z0-9+/]{22}==$/);
			expect(Buffer.from(id, 'base64').toString('base64')).toBe(id);
		}
	});

	it('ids: an instance id names its series and recurrence id, differs from the master id and carries its +, / and =', () => {
		fc.assert(
			fc.property(recurrenceId, (rid) => {
				const master = newEventId();
				const id = new InstanceIds(master).of(rid);
				expect(id).toBe(instanceIdBytes(master, rid));
				expect(id).not.toBe(master);
				expect(id).toMatch(/\+/);
				expect(id).toMatch(/\//);
				expect(id.endsWith('==')).toBe(true);
				expect(parseInstanceId(id)).toEqual({ masterId: master, recurrenceId: rid });
			}),
			{ numRuns: 300 },
		);
	});

	it('ids: texts that are not instance ids (wrong check byte, not canonical, other lengths) are not parsed', () => {
		const master = newEventId();
		const id = new InstanceIds(master).of('2026-03-02T09:00:00');
		const bytes = Buffer.from(id, 'base64');
		bytes[21] ^= 1;
		const flipped = bytes.toString('base64');
		expect(parseInstanceId(flipped)).toBeUndefined();
		expect(parseInstanceId(id.replace(/==$/, ''))).toBeUndefined();
		expect(parseInstanceId(master)).toBeUndefined();
		expect(parseInstanceId(id.toLowerCase())).toBeUndefined();
	});
});
