import type { IDataObject, ILoadOptionsFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ServiceContext } from '../transport/credentialUser';
import { cachedList, listIfCached, pickerOptions, readForPicker } from '../transport/listCache';
import { ctsRequest } from '../transport/transport';

/** A live tag as `GET /v3/tags/list` gives it. */
interface TagInfo extends IDataObject {
	id: string;
	name?: string;
	color?: string;
}

/** Every live tag of the credential's user, newest first (one list call, 10 points, reused for a minute). */
export async function listTags(context: ServiceContext): Promise<TagInfo[]> {
	return await cachedList(context, 'ctsApi', 'tags', async () => {
		// The tags list answers a bare array; without `limit` it holds every tag.
		const answer = (await ctsRequest.call(context, 'ctsApi', { method: 'GET', url: '/v3/tags/list' })) as unknown;
		return Array.isArray(answer) ? (answer as TagInfo[]) : [];
	});
}

/**
 * Names of the given tag IDs, in their order, when the tag list was read in the last minute
 * (a tag picker opened, a filter by tag): never a list call of its own. Undefined when the list
 * is not at hand or names only some of the tags (a partial list would mislead).
 */
export async function tagNamesIfKnown(context: ServiceContext, tagIds: unknown): Promise<string[] | undefined> {
	if (!Array.isArray(tagIds) || tagIds.length === 0) return undefined;
	const tags = await listIfCached<TagInfo[]>(context, 'ctsApi', 'tags');
	if (!tags) return undefined;
	const names = new Map(tags.map((tag) => [tag.id, tag.name]));
	const found = tagIds.map((id) => names.get(String(id)));
	return found.every((name): name is string => typeof name === 'string') ? found : undefined;
}

/** Dropdown of the tags, by name. */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickerOptions(async () => {
		const tags = await readForPicker(this, 'its tags', 'expression', async () => await listTags(this));
		return tags.map((tag) => ({ name: tag.name ?? tag.id, value: tag.id })).sort((a, b) => a.name.localeCompare(b.name));
	});
}

/** The tags of a task (create, update) or of a trigger filter: several from the list, or IDs from an expression. */
export function tagsField(description: string, overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Tag Names or IDs',
		name: 'tags',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getTags' },
		default: [],
		description: `${description} (an expression may give a list, or IDs separated by commas). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
		...overrides,
	} as INodeProperties;
}
