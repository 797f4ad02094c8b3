import { TOOL_ZONE_READING, type ToolTexts } from '../../shared/fields/toolInputs';
import { ATTENDEES_TOOL_TEXT } from './eventFields';

/** How an event's own times are read: in the event's time zone, which the tool sets. */
const EVENT_ZONE_READING =
	"a time without offset is read in the event's time zone (set in this tool; by default the workflow's); a time with an offset, e.g. 2026-12-01T09:00:00+01:00, is converted into it";
const CALENDAR_ID_SOURCE = 'its ID exactly as the service returned it (the "id" of a calendar in the calendar list, case-sensitive)';

/**
 * What a model reads for the Event node's fields when the node is an AI tool, where the
 * editor's description would point at fields the model never sees (Time Zone, Recurrence). Each
 * text stands on its own: an ID says where it comes from, a time gives an example and its zone.
 */
export const EVENT_TOOL_TEXTS: ToolTexts = {
	'update:title': 'New title of the event',
	description: 'Details of the event',
	attendees: ATTENDEES_TOOL_TEXT,
	'create:calendarId': `Calendar to create the event in: ${CALENDAR_ID_SOURCE}`,
	'getAll:calendarIds': `One or more calendars of one account, separated by commas: each ${CALENDAR_ID_SOURCE}`,
	'create:start': `When the event starts, e.g. 2026-12-01T09:00:00: ${EVENT_ZONE_READING}. For an all-day event, its first day, e.g. 2026-12-01.`,
	'create:end': `When the event ends, e.g. 2026-12-01T10:00:00: ${EVENT_ZONE_READING}. For an all-day event, its last day (inclusive), e.g. 2026-12-01.`,
	'update:start': `New start, e.g. 2026-12-01T09:00:00: a time without offset is read in the event's time zone (the one set in this tool, else the event's own); a time with an offset, e.g. 2026-12-01T09:00:00+01:00, is converted into it`,
	'update:end': `New end instead of a new duration, e.g. 2026-12-01T10:00:00: a time without offset is read in the event's time zone (the one set in this tool, else the event's own); a time with an offset is converted into it. For an all-day event, its last day (inclusive), e.g. 2026-12-01.`,
	'getAll:start': `Events that end after this moment are listed, e.g. 2026-12-01T00:00:00: ${TOOL_ZONE_READING}; a time with an offset, e.g. 2026-12-01T00:00:00+01:00, is taken as it is.`,
	'getAll:end': `Events that start before this moment are listed, e.g. 2026-12-08T00:00:00: ${TOOL_ZONE_READING}; a time with an offset, e.g. 2026-12-08T00:00:00+01:00, is taken as it is. Long ranges are read in several calls automatically.`,
	'findFreeTime:start': `Beginning of the time to search, e.g. 2026-12-01T08:00:00: ${TOOL_ZONE_READING}; a time with an offset, e.g. 2026-12-01T08:00:00+01:00, is taken as it is.`,
	'findFreeTime:end': `End of the time to search, at most 6 months after its beginning, e.g. 2026-12-08T18:00:00: ${TOOL_ZONE_READING}; a time with an offset, e.g. 2026-12-08T18:00:00+01:00, is taken as it is.`,
	'mirrorBusyTime:start': `Beginning of the time whose busy events are copied, e.g. 2026-12-01T00:00:00: ${TOOL_ZONE_READING}; a time with an offset, e.g. 2026-12-01T00:00:00+01:00, is taken as it is.`,
	'mirrorBusyTime:end': `End of the time whose busy events are copied, at most 6 months after its beginning, e.g. 2026-12-15T00:00:00: ${TOOL_ZONE_READING}; a time with an offset is taken as it is.`,
	rrule:
		'The series as one iCalendar RRULE text: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, BYDAY (MO, 1MO, -1FR), BYMONTHDAY, BYMONTH, and COUNT or UNTIL (a date such as 20271231). Without COUNT or UNTIL the series does not end.',
};
