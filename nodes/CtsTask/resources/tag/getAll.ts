import type { IDataObject, IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { limitRouting, returnAllAndLimitFields } from '../../../shared/fields/fields';
import { TAG_RESOURCE } from '../../shared/tagFields';
import { showFor } from '../../../shared/fields/displayOptions';

/** Most tags one list call answers with. */
const MAX_TAG_LIMIT = 1000;

/** The tags list answers a bare array: one item per tag. */
export async function eachTag(this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
	return Array.isArray(response.body) ? (response.body as IDataObject[]).map((json) => ({ json })) : items;
}

export const tagGetManyDescription: INodeProperties[] = [
	...returnAllAndLimitFields(showFor(TAG_RESOURCE, ['getAll']), { routing: limitRouting('query', MAX_TAG_LIMIT), maximum: MAX_TAG_LIMIT }),
];
