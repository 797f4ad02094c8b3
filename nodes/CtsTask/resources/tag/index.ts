import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { invalidField, quoted } from '../../../shared/errors';
import { limitRouting, listOrIdField, locatorValue, returnAllAndLimitFields } from '../../../shared/fields';
import { TAG_LIST_HINT } from '../../../shared/tagLists';

export const TAG_RESOURCE = 'tag';

/** Most tags one list call answers with. */
const MAX_TAG_LIMIT = 1000;

const COLOR = /^#[0-9a-f]{6}$/i;

function showFor(operation: string): INodeProperties['displayOptions'] {
	return { show: { resource: [TAG_RESOURCE], operation: [operation] } };
}

/**
 * Name and colour as the service requires them, refused before the request naming the field:
 * a name of at least one character, a colour `#rrggbb`.
 */
async function checkTag(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const body = (requestOptions.body ?? {}) as IDataObject;
	if (this.getNodeParameter('operation', '') === 'update' && body.name === undefined && body.color === undefined) {
		throw invalidField(this.getNode(), 'Update Fields', 'add Name or Color', this.getItemIndex());
	}
	if (body.name !== undefined && (typeof body.name !== 'string' || body.name.length < 1)) {
		throw invalidField(this.getNode(), 'Name', 'must not be empty', this.getItemIndex());
	}
	if (body.color !== undefined && (typeof body.color !== 'string' || !COLOR.test(body.color))) {
		throw invalidField(this.getNode(), 'Color', `${quoted(body.color)} is not a colour of the form #rrggbb`, this.getItemIndex());
	}
	return requestOptions;
}

/** The tags list answers a bare array: one item per tag. */
async function eachTag(this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
	return Array.isArray(response.body) ? (response.body as IDataObject[]).map((json) => ({ json })) : items;
}

/** Update and delete answer 204: the output names the tag and what changed. */
function outputAfterChange(extra: IDataObject) {
	return async function (this: IExecuteSingleFunctions): Promise<INodeExecutionData[]> {
		const changed = this.getNodeParameter('operation', '') === 'update' ? (this.getNodeParameter('updateFields', {}) as IDataObject) : {};
		return [{ json: { id: locatorValue(this.getNodeParameter('tagId', '')), ...changed, ...extra } }];
	};
}

function tagField(operation: string, send: 'body' | 'query', description: string): INodeProperties {
	return listOrIdField(
		{
			displayName: 'Tag',
			name: 'tagId',
			required: true,
			description,
			hint: TAG_LIST_HINT,
			displayOptions: showFor(operation),
			routing: { send: { type: send, property: 'id' } },
		},
		{ searchListMethod: 'searchTags', placeholder: 'Select a tag...' },
		'e.g. 0b8f6c1e-…',
	);
}

const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Urgent',
	routing: { send: { type: 'body', property: 'name' } },
};

const colorField: INodeProperties = {
	displayName: 'Color',
	name: 'color',
	type: 'color',
	default: '#4285f4',
	description: 'Colour of the tag, #rrggbb',
	routing: { send: { type: 'body', property: 'color' } },
};

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
				routing: { request: { method: 'POST', url: '/v3/tags/create' }, send: { preSend: [checkTag] } },
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a tag',
				description: 'Delete a tag; tasks that carry it keep its ID',
				routing: { request: { method: 'POST', url: '/v3/tags/delete' }, output: { postReceive: [outputAfterChange({ deleted: true })] } },
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
					output: { postReceive: [outputAfterChange({ success: true })] },
				},
			},
		],
		default: 'create',
	},
	{ ...nameField, required: true, displayOptions: showFor('create') },
	{ ...colorField, required: true, displayOptions: showFor('create') },
	tagField('get', 'query', 'The tag to read'),
	tagField('update', 'body', 'The tag to change'),
	tagField('delete', 'body', 'The tag to delete. Deleting a deleted tag succeeds again.'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here change',
		displayOptions: showFor('update'),
		options: [colorField, nameField],
	},
	...returnAllAndLimitFields(showFor('getAll'), { routing: limitRouting('query', MAX_TAG_LIMIT), maximum: MAX_TAG_LIMIT }),
];
