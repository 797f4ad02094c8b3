import type { INodeProperties } from 'n8n-workflow';

import { colorField, nameField, showFor } from '../../shared/tagFields';

export const tagCreateDescription: INodeProperties[] = [
	{ ...nameField, required: true, displayOptions: showFor('create') },
	{ ...colorField, required: true, displayOptions: showFor('create') },
];
