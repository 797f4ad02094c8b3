import type { INodeProperties } from 'n8n-workflow';

import { colorField, nameField, showFor, tagField } from '../../shared/tagFields';

export const tagUpdateDescription: INodeProperties[] = [
	tagField('update', 'body', 'The tag to change'),
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
];
