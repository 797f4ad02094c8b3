import type { INodeProperties } from 'n8n-workflow';

import { colorField, nameField, TAG_RESOURCE, tagField } from '../../shared/tagFields';
import { showFor } from '../../../shared/fields/displayOptions';

export const tagUpdateDescription: INodeProperties[] = [
	tagField('update', 'body', 'The tag to change'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here change',
		displayOptions: showFor(TAG_RESOURCE, ['update']),
		options: [colorField, nameField],
	},
];
