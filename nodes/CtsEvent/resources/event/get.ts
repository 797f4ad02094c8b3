import type { INodeProperties } from 'n8n-workflow';

import { eventIdField, showFor } from '../../shared/eventFields';

export const eventGetDescription: INodeProperties[] = [
	eventIdField(showFor(['get'], ['v3']), 'query', '. Works for single events, series masters and occurrences.'),
];
