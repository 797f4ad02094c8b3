import type { INodeProperties } from 'n8n-workflow';

import { tagField } from '../../shared/tagFields';

export const tagGetDescription: INodeProperties[] = [tagField('get', 'query', 'The tag to read')];
