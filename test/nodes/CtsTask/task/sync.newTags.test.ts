/**
 * Tags a sync makes are known to its next run at once: the tag list is reused for a minute, and a
 * workflow run again within it (as in n8n, where the nodes' process stays) must not see its new
 * tags as missing, make them again and rewrite every task.
 */
import { CtsTask } from '../../../../nodes/CtsTask/CtsTask.node';
import { Engine } from '../../../harness/engine';
import { sandboxWithFreshLists } from '../../../harness/freshLists';
import { ALICE_KEY, SandboxClient } from '../../../harness/sandboxClient';

const sandbox = new SandboxClient();
const engine = new Engine({ ctsTask: new CtsTask() });

sandboxWithFreshLists(sandbox);

function sync(operation: 'sync' | 'upsert') {
	return engine.runNode({
		type: 'ctsTask',
		parameters: { resource: 'task', operation, source: 'sheet', sourceKey: '={{ $json.id }}', title: '={{ $json.title }}', syncFields: { tags: '={{ $json.tags }}' } },
		items: [{ id: 'row-1', title: 'Row 1', tags: 'office, admin' }],
		credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
	});
}

describe.each(['sync', 'upsert'] as const)('%s: tags it makes', (operation) => {
	it('are found by the next run within the minute the tag list is reused: nothing written, no tag made twice', async () => {
		const first = await sync(operation);
		expect(first.error).toBeUndefined();
		expect(first.items[0].json).toMatchObject({ action: 'created', newTags: ['admin', 'office'] });
		const again = await sync(operation);
		expect(again.items.map((item) => item.json.action)).toEqual(['unchanged']);
		const { body } = await sandbox.api('GET', '/v3/tags/list');
		const names = (body as Array<{ name: string }>).map((tag) => tag.name);
		expect(names.filter((name) => name === 'admin' || name === 'office').sort()).toEqual(['admin', 'office']);
	});
});
