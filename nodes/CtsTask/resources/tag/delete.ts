import type { INodeProperties } from 'n8n-workflow';

import { tagField } from '../../shared/tagFields';

export const tagDeleteDescription: INodeProperties[] = [tagField('delete', 'body', 'The tag to delete. Deleting a deleted tag succeeds again.')];
