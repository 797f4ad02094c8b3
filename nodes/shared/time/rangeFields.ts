import type { DateTime } from 'luxon';

import type { OperationItem } from '../transport/itemOperation';
import { invalidField, quoted } from '../transport/errors';
import { DATE_TIME_HINT, parseDateInput } from './dates';

/**
 * The Start and End fields of an operation that reads a range, read in `zone` (a time without
 * offset is a wall-clock time there) and checked before any request: both dates and times, End
 * after Start. Each operation checks the range's length against its own limit.
 */
export function readStartEnd({ context, itemIndex, parameter }: OperationItem, zone: string): { start: DateTime; end: DateTime } {
	const node = context.getNode();
	const startValue = parameter('start', '');
	const start = parseDateInput(startValue, zone);
	if (!start) throw invalidField(node, 'Start', `${quoted(startValue)} is not a date and time`, itemIndex, DATE_TIME_HINT);
	const endValue = parameter('end', '');
	const end = parseDateInput(endValue, zone);
	if (!end) throw invalidField(node, 'End', `${quoted(endValue)} is not a date and time`, itemIndex, DATE_TIME_HINT);
	if (end <= start) throw invalidField(node, 'End', 'must be after Start', itemIndex);
	return { start, end };
}
