import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { explainMissingList } from '../../shared/listCache';
import { listTags, type TagInfo } from '../../shared/tagLists';

/** "From List" of the Tag field: every tag by name; a search filters by name or finds an exact ID. */
export async function searchTags(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	let tags: TagInfo[];
	try {
		tags = await listTags(this);
	} catch (error) {
		throw explainMissingList(this, error, 'its tags', 'byId');
	}
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: tags
			.filter((tag) => !needle || String(tag.name ?? '').toLowerCase().includes(needle) || tag.id === filter?.trim())
			.map((tag) => ({ name: tag.name ?? tag.id, value: tag.id }))
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
}
