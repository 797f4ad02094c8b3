import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { hasExplicitOffset, LOCAL_DATE_TIME_FORMAT, parseDateInput, toLocalDateTime } from '../../shared/time/dates';
import { invalidField, quoted } from '../../shared/transport/errors';
import { isEmptyValue, toStringList } from '../../shared/fields/fields';
import { canReadCurrentEvent, currentEvent } from './currentEvent';
import { listOf } from './eventBody';
import { asRuleCollection, parseRrule, type RuleInput } from './rrule';

/**
 * One JSCalendar RecurrenceRule from the editor's recurrence fields. `until` is a LocalDateTime
 * in the event's zone: a value with an offset is converted into `zone` (null for all-day events,
 * whose until keeps the date and time as written); a value without one is that zone's wall clock.
 */
export function toRecurrenceRules(value: unknown, zone: string | null): IDataObject[] {
	const rule = listOf<RuleInput>(value, 'rule')[0] ?? {};
	const { frequency = 'weekly', interval = 1, nthOfPeriod = 0, ends = 'count' } = rule;
	const byDay = Array.isArray(rule.byDay) ? rule.byDay.map(String) : [];
	const byMonth = Array.isArray(rule.byMonth) ? rule.byMonth : [];
	if (!Number.isInteger(interval) || interval < 1) throw new Error('interval must be a whole number of 1 or more');
	if (!Number.isInteger(nthOfPeriod)) throw new Error('nth weekday must be a whole number');
	const result: IDataObject = { '@type': 'RecurrenceRule', frequency, interval };
	if (byDay.length > 0) {
		result.byDay = byDay.map((day) => ({ '@type': 'NDay', day, ...(nthOfPeriod ? { nthOfPeriod } : {}) }));
	}
	const monthDays = toStringList(rule.byMonthDay ?? '').map(Number);
	if (monthDays.some((day) => !Number.isInteger(day) || day === 0 || day < -31 || day > 31)) {
		throw new Error(`month days must be whole numbers from 1 to 31 or -31 to -1, got ${quoted(rule.byMonthDay)}`);
	}
	if (monthDays.length > 0) result.byMonthDay = monthDays;
	if (byMonth.length > 0) result.byMonth = byMonth.map(String);
	if (ends === 'count') {
		const count = rule.count ?? 10;
		if (!Number.isInteger(count) || count < 1) throw new Error('count must be a whole number of 1 or more');
		result.count = count;
	}
	if (ends === 'until') {
		const until = parseDateInput(rule.until, zone ?? 'UTC');
		if (!until) throw new Error(`${quoted(rule.until)} is not a date and time for "until"`);
		result.until = zone === null ? until.toFormat(LOCAL_DATE_TIME_FORMAT) : toLocalDateTime(until, zone);
	}
	return [result];
}

/**
 * The zone a recurrence's `until` is converted into: on create the event's Time Zone (null when
 * all-day); on update the new Time Zone or all-day setting, else the event's zone as it is, read
 * once (v3, by Event ID). Undefined when the zone cannot be known.
 */
async function recurrenceZone(context: IExecuteSingleFunctions, collection: string): Promise<string | null | undefined> {
	if (collection === 'additionalFields') {
		if (context.getNodeParameter('allDay', false) === true) return null;
		const zone = context.getNodeParameter('timeZone', '');
		return isEmptyValue(zone) ? undefined : String(zone);
	}
	const fields = context.getNodeParameter(collection, {}) as IDataObject;
	if (fields.allDay === true) return null;
	if (!isEmptyValue(fields.timeZone)) return String(fields.timeZone);
	if (!canReadCurrentEvent(context)) return undefined;
	const event = await currentEvent(context);
	return typeof event.timeZone === 'string' && event.timeZone !== '' ? event.timeZone : null;
}

/** The Recurrence field as `recurrenceRules`, with `until` in the event's zone (see {@link toRecurrenceRules}). */
export function sendRecurrence(collection: string) {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		let value: unknown = this.getNodeParameter(`${collection}.recurrence`, null);
		const rrule = this.getNodeParameter(`${collection}.rrule`, '');
		if (typeof rrule === 'string' && rrule.trim() !== '') {
			if (listOf<RuleInput>(value, 'rule').length > 0) {
				throw invalidField(this.getNode(), 'Repeat (RRULE)', 'give the series either here or in Recurrence, not both', this.getItemIndex());
			}
			try {
				value = asRuleCollection(parseRrule(rrule));
			} catch (error) {
				throw invalidField(this.getNode(), 'Repeat (RRULE)', (error as Error).message, this.getItemIndex(), 'For example FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10 or FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20271231.');
			}
		}
		// Added but no rule filled in yet: no recurrence (never a silent weekly series).
		if (listOf<RuleInput>(value, 'rule').length === 0) return requestOptions;
		const until = listOf<RuleInput>(value, 'rule')[0]?.until;
		let zone: string | null | undefined = null;
		if (hasExplicitOffset(until)) {
			zone = await recurrenceZone(this, collection);
			if (zone === undefined) {
				throw invalidField(
					this.getNode(),
					'Recurrence',
					`Until ${quoted(until)} has an offset, but the event's time zone is not known to convert it into`,
					this.getItemIndex(),
					"Also set the Time Zone, or give Until without offset as the event's local date and time.",
				);
			}
		}
		let rules: IDataObject[];
		try {
			rules = toRecurrenceRules(value, zone);
		} catch (error) {
			throw invalidField(this.getNode(), 'Recurrence', (error as Error).message, this.getItemIndex());
		}
		requestOptions.body = { ...((requestOptions.body as IDataObject) ?? {}), recurrenceRules: rules };
		return requestOptions;
	};
}
