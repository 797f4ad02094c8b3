/**
 * Delete with an Event ID an expression left empty.
 *
 * The CTS Event node through n8n's real engine against the sandbox over HTTP.
 */
import { CtsEvent } from '../../../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventV1 } from '../../../../nodes/CtsEvent/CtsEventV1.node';
import { Engine } from '../../../harness/engine';
import { ALICE_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsEvent: new CtsEvent(), ctsEventV1: new CtsEventV1() });

beforeAll(async () => await sandbox.start());
afterAll(async () => await sandbox.stop());
beforeEach(async () => await sandbox.reset());

const target = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary' };

describe('Delete with an Event ID that an expression left empty', () => {
	// An empty ID names no event: "already deleted" would report a deletion that never happened.
	it.each(['v3', 'v1'])('%s: refused before any request, naming the field, not reported as deleted', async (version) => {
		const token = await sandbox.token('alice');
		const { items, error } = await engine.runNode({
			type: version === 'v3' ? 'ctsEvent' : 'ctsEventV1',
			parameters: { resource: 'event', operation: 'delete', eventId: '={{ $json.id }}', ...(version === 'v3' ? target : {}) },
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url }, ctsSyncApi: { token, syncUrl: sandbox.url } },
			items: [{ id: '' }],
		});
		expect(items).toEqual([]);
		expect(error?.message).toMatch(/^Event ID: /);
		expect(await sandbox.requests()).toHaveLength(0);
	});
});
