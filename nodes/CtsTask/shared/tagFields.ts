import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { invalidField, quoted } from '../../shared/transport/errors';
import { forgetList } from '../../shared/transport/listCache';
import { listOrIdField, locatorValue } from '../../shared/fields/fields';
import { showFor } from '../../shared/fields/displayOptions';

export const TAG_RESOURCE = 'tag';

const COLOR = /^#[0-9a-f]{6}$/i;


/**
 * Name and colour as the service requires them, refused before the request naming the field:
 * a name of at least one character, a colour `#rrggbb`.
 */
export async function checkTag(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
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

/**
 * After a tag is made, renamed or deleted, the tag list reused for a minute is stale: forgetting it
 * has the next reader (a sync's tags by name, a picker) see the change instead of making the tag again.
 */
export async function forgetTagList(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	await forgetList(this, 'ctsApi', 'tags');
	return items;
}

/** Update and delete answer 204: the output names the tag and what changed. */
export function outputAfterChange(extra: IDataObject) {
	return async function (this: IExecuteSingleFunctions): Promise<INodeExecutionData[]> {
		const changed = this.getNodeParameter('operation', '') === 'update' ? (this.getNodeParameter('updateFields', {}) as IDataObject) : {};
		return [{ json: { id: locatorValue(this.getNodeParameter('tagId', '')), ...changed, ...extra } }];
	};
}

/** The Tag field of one operation: from the list or by ID, sent as `id`. */
export function tagField(operation: string, send: 'body' | 'query', description: string): INodeProperties {
	return listOrIdField(
		{
			displayName: 'Tag',
			name: 'tagId',
			required: true,
			description,
			displayOptions: showFor(TAG_RESOURCE, [operation]),
			routing: { send: { type: send, property: 'id' } },
		},
		{ searchListMethod: 'searchTags', placeholder: 'Select a tag...' },
		'e.g. 0b8f6c1e-…',
	);
}

export const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Urgent',
	routing: { send: { type: 'body', property: 'name' } },
};

export const colorField: INodeProperties = {
	displayName: 'Color',
	name: 'color',
	type: 'color',
	default: '#4285f4',
	description: 'Colour of the tag, #rrggbb',
	routing: { send: { type: 'body', property: 'color' } },
};
