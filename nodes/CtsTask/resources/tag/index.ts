import type { INodeProperties } from 'n8n-workflow';

import { maxWaitOnlyOptions } from '../../../shared/transport/transport';
import { checkTag, forgetTagList, outputAfterChange, TAG_RESOURCE } from '../../shared/tagFields';
import { tagCreateDescription } from './create';
import { tagDeleteDescription } from './delete';
import { tagGetDescription } from './get';
import { eachTag, tagGetManyDescription } from './getAll';
import { tagUpdateDescription } from './update';

export { TAG_RESOURCE } from '../../shared/tagFields';

export const tagDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [TAG_RESOURCE] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a tag',
				description: 'Create a tag with a name and a colour',
				routing: { request: { method: 'POST', url: '/v3/tags/create' }, send: { preSend: [checkTag] }, output: { postReceive: [forgetTagList] } },
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a tag',
				description: 'Delete a tag; tasks that carry it keep its ID',
				routing: { request: { method: 'POST', url: '/v3/tags/delete' }, output: { postReceive: [forgetTagList, outputAfterChange({ deleted: true })] } },
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a tag',
				description: 'Read one tag by its ID',
				routing: { request: { method: 'GET', url: '/v3/tags' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many tags',
				description: 'List the tags, newest first (one list call, 10 points)',
				routing: { request: { method: 'GET', url: '/v3/tags/list' }, output: { postReceive: [eachTag] } },
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a tag',
				description: 'Rename a tag or change its colour',
				routing: {
					request: { method: 'POST', url: '/v3/tags/update' },
					send: { preSend: [checkTag] },
					output: { postReceive: [forgetTagList, outputAfterChange({ success: true })] },
				},
			},
		],
		default: 'create',
	},
	...tagCreateDescription,
	...tagGetDescription,
	...tagUpdateDescription,
	...tagDeleteDescription,
	...tagGetManyDescription,
	maxWaitOnlyOptions({ show: { resource: [TAG_RESOURCE], operation: ['create', 'delete', 'get', 'getAll', 'update'] } }),
];
