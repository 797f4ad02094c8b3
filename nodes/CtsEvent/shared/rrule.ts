import type { IDataObject } from 'n8n-workflow';

import { quoted } from '../../shared/transport/errors';

/** The Recurrence fields' values, as the editor's rule holds them (see `toRecurrenceRules`). */
export interface RuleInput {
	frequency?: string;
	interval?: number;
	byDay?: string[];
	nthOfPeriod?: number;
	byMonthDay?: string;
	byMonth?: string[];
	ends?: 'never' | 'count' | 'until';
	count?: number;
	until?: string;
}

const FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'];
const WEEKDAY = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/;

/**
 * An iCalendar RRULE ("FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10"), the one form of a repeating event a
 * text field (and so an AI agent) can give, as the Recurrence fields would hold it. Refuses what
 * the interface's rules cannot express rather than dropping it.
 */
export function parseRrule(text: string): RuleInput {
	const parts = new Map<string, string>();
	for (const part of text.trim().replace(/^RRULE:/i, '').split(';').filter(Boolean)) {
		const [key, value = ''] = part.split('=');
		parts.set(key.trim().toUpperCase(), value.trim().toUpperCase());
	}
	const frequency = (parts.get('FREQ') ?? '').toLowerCase();
	if (!FREQUENCIES.includes(frequency)) throw new Error(`FREQ ${quoted(parts.get('FREQ') ?? '')} is not one of DAILY, WEEKLY, MONTHLY, YEARLY`);
	const rule: RuleInput = { frequency, ends: 'never' };
	for (const [key, value] of parts) {
		if (key === 'FREQ') continue;
		else if (key === 'INTERVAL') rule.interval = Number(value);
		else if (key === 'COUNT') Object.assign(rule, { ends: 'count', count: Number(value) });
		else if (key === 'UNTIL') Object.assign(rule, { ends: 'until', until: untilOf(value) });
		else if (key === 'BYMONTHDAY') rule.byMonthDay = value;
		else if (key === 'BYMONTH') rule.byMonth = value.split(',');
		else if (key === 'BYDAY') Object.assign(rule, weekdaysOf(value));
		else if (key !== 'WKST') throw new Error(`${quoted(key)} is not supported: use FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, COUNT or UNTIL`);
	}
	return rule;
}

/** BYDAY as weekdays and one position in the period ("1MO,1WE": the first Monday and Wednesday). */
function weekdaysOf(value: string): Pick<RuleInput, 'byDay' | 'nthOfPeriod'> {
	const days = value.split(',').map((entry) => {
		const match = WEEKDAY.exec(entry.trim());
		if (!match) throw new Error(`BYDAY ${quoted(entry)} is not a weekday such as MO, 1MO or -1FR`);
		return { nth: Number(match[1] ?? 0), day: match[2].toLowerCase() };
	});
	if (new Set(days.map(({ nth }) => nth)).size > 1) throw new Error('BYDAY: give every weekday the same position (e.g. 1MO,1WE), or none');
	return { byDay: days.map(({ day }) => day), nthOfPeriod: days[0].nth };
}

/** UNTIL as `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]`, as an ISO 8601 date and time. */
function untilOf(value: string): string {
	const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(value);
	if (!match) throw new Error(`UNTIL ${quoted(value)} is not a date such as 20261231 or 20261231T235900Z`);
	const [, year, month, day, hour = '23', minute = '59', second = '59', utc = ''] = match;
	return `${year}-${month}-${day}T${hour}:${minute}:${second}${utc ? 'Z' : ''}`;
}

/** The rule fields as `toRecurrenceRules` takes them: one rule. */
export const asRuleCollection = (rule: RuleInput): IDataObject => ({ rule: [rule] as unknown as IDataObject[] });
