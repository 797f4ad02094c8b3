/**
 * The time zone `npm start` gives n8n (scripts/time-zone.mjs): a zone of n8n's own list, so
 * Workflow Settings → Timezone shows it as valid. test/e2e/start.test.mjs checks the chosen zone
 * against the list of a running n8n.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { n8nListZone, startTimeZone } from '../../scripts/time-zone.mjs';

describe('npm start: the time zone given to n8n', () => {
	it('a machine in UTC gives Etc/UTC, whatever name of UTC the machine reports', () => {
		for (const machineZone of ['UTC', 'Etc/UTC', 'Etc/UCT', 'Universal', 'Zulu', 'GMT']) {
			assert.equal(startTimeZone({}, machineZone), 'Etc/UTC', machineZone);
		}
		assert.equal(startTimeZone({}, undefined), 'Etc/UTC', 'a machine that tells no zone');
	});

	it("another machine zone is passed as the machine names it", () => {
		for (const machineZone of ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata']) assert.equal(startTimeZone({}, machineZone), machineZone);
	});

	it('GENERIC_TIMEZONE, when set, is the user\'s choice and is passed as given', () => {
		assert.equal(startTimeZone({ GENERIC_TIMEZONE: 'Europe/Lisbon' }, 'UTC'), 'Europe/Lisbon');
	});

	it('n8nListZone leaves zones other than UTC alone', () => {
		assert.equal(n8nListZone('Europe/London'), 'Europe/London');
		assert.equal(n8nListZone('Etc/GMT'), 'Etc/GMT', "a name of UTC that n8n's list holds stays");
		assert.equal(n8nListZone('UTC'), 'Etc/UTC');
	});
});
