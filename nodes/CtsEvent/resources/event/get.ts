import type { INodeProperties } from 'n8n-workflow';

import { EVENT_RESOURCE, eventIdField } from '../../shared/eventFields';
import { showFor } from '../../../shared/fields/displayOptions';

export const eventGetDescription: INodeProperties[] = [
	eventIdField(showFor(EVENT_RESOURCE, ['get'], { apiVersion: ['v3'] }), 'query', '. Works for single events, series masters and occurrences.'),
];
