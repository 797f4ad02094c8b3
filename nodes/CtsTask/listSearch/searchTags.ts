import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { readForPicker } from '../../shared/transport/listCache';
import { listTags } from '../../shared/tasks/tagLists';

/** "From List" of the Tag field: every tag by name; a search filters by name or finds an exact ID. */
export async function searchTags(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const tags = await readForPicker(this, 'its tags', 'byId', async () => await listTags(this));
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: tags
			.filter((tag) => !needle || String(tag.name ?? '').toLowerCase().includes(needle) || tag.id === filter?.trim())
			.map((tag) => ({ name: tag.name ?? tag.id, value: tag.id }))
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
}
