import type { INodeProperties } from 'n8n-workflow';

import { colorField, nameField, TAG_RESOURCE } from '../../shared/tagFields';
import { showFor } from '../../../shared/fields/displayOptions';

export const tagCreateDescription: INodeProperties[] = [
	{ ...nameField, required: true, displayOptions: showFor(TAG_RESOURCE, ['create']) },
	{ ...colorField, required: true, displayOptions: showFor(TAG_RESOURCE, ['create']) },
];
