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

describe('tags made, renamed or deleted by the Tag operations', () => {
	const tagNode = (operation: 'create' | 'update' | 'delete', parameters: Record<string, unknown>) =>
		engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'tag', operation, ...parameters },
			items: [{}],
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
	const upsert = (id: string, tags: string) =>
		engine.runNode({
			type: 'ctsTask',
			parameters: { resource: 'task', operation: 'upsert', source: 'sheet', sourceKey: '={{ $json.id }}', title: '={{ $json.id }}', syncFields: { tags: '={{ $json.tags }}' } },
			items: [{ id, tags }],
			credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
		});
	const tagsNamed = async (name: string) => {
		const { body } = await sandbox.api('GET', '/v3/tags/list');
		return (body as Array<{ id: string; name: string }>).filter((tag) => tag.name === name);
	};

	it('are seen by a sync within the minute the tag list is reused: no tag made twice, no deleted tag given', async () => {
		// The tag list is read, and kept for a minute, by a first upsert.
		expect((await upsert('row-1', 'office')).items[0].json).toMatchObject({ action: 'created', newTags: ['office'] });
		expect((await upsert('row-1', 'office')).items[0].json.action).toBe('unchanged');

		const made = await tagNode('create', { name: 'errands', color: '#00aa00' });
		expect(made.error).toBeUndefined();
		const second = (await upsert('row-2', 'errands')).items[0].json;
		expect(second.action).toBe('created');
		expect(second.newTags ?? []).toEqual([]);
		expect(await tagsNamed('errands')).toHaveLength(1);

		const [errands] = await tagsNamed('errands');
		expect((await tagNode('update', { tagId: { mode: 'id', value: errands.id }, updateFields: { name: 'chores' } })).error).toBeUndefined();
		const third = (await upsert('row-3', 'chores')).items[0].json;
		expect(third.newTags ?? []).toEqual([]);
		expect(await tagsNamed('chores')).toEqual([expect.objectContaining({ id: errands.id })]);

		expect((await tagNode('delete', { tagId: { mode: 'id', value: errands.id } })).error).toBeUndefined();
		const fourth = (await upsert('row-4', 'chores')).items[0].json;
		expect(fourth).toMatchObject({ action: 'created', newTags: ['chores'] });
		const [chores] = await tagsNamed('chores');
		expect(chores.id).not.toBe(errands.id);
	});
});
