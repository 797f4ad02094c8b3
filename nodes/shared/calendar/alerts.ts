import type { IDataObject } from 'n8n-workflow';

/**
 * Event alerts: their IDs (the base64 of a compact JSON object with sorted keys, `a` = action and
 * `to` = offset: `{"a":"display","to":"-PT15M"}`), their offsets, and whether an event reminds at
 * all. Without alerts of its own an event reminds with the calendar's default alerts unless
 * `useDefaultAlerts` is false: what the package writes to hold time (busy copies, task blocks)
 * says which it wants.
 */

export function alertId(action: string, offset: string): string {
	// Written out in key order: JSON.stringify keeps insertion order, and `a` sorts before `to`.
	return Buffer.from(JSON.stringify({ a: action, to: offset }), 'utf8').toString('base64');
}

/** Offset of an alert that fires `minutes` before the start: `-PT15M`, `-PT1H30M`, `PT0S` at the start. */
export function alertOffset(minutesBefore: number): string {
	if (minutesBefore === 0) return 'PT0S';
	const hours = Math.floor(minutesBefore / 60);
	const minutes = minutesBefore % 60;
	return `-PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}`;
}

/** An alert as the interface writes it, with its ID. */
export function alertEntry(action: string, offset: string): [string, IDataObject] {
	return [alertId(action, offset), { '@type': 'Alert', trigger: { '@type': 'OffsetTrigger', offset, relativeTo: 'start' }, action }];
}

/** What a create sends for an event that never reminds: not the calendar's default alerts, and no alerts of its own. */
export const NO_ALERTS: IDataObject = { useDefaultAlerts: false };

/** The IDs of an event's own alerts. */
function ownAlertIds(event: IDataObject): string[] {
	const alerts = event.alerts;
	return alerts && typeof alerts === 'object' ? Object.keys(alerts) : [];
}

/**
 * Whether an event reminds: it uses the calendar's default alerts or has alerts of its own. An
 * answer that leaves `useDefaultAlerts` out says nothing of it, so only `true` counts.
 */
export function remindsOfItself(event: IDataObject): boolean {
	return event.useDefaultAlerts === true || ownAlertIds(event).length > 0;
}

/** The fields of an update that leave the event without any alert: defaults off, each own alert removed (null under its ID). */
export function withoutAlerts(event: IDataObject): IDataObject {
	const own = ownAlertIds(event);
	return { ...NO_ALERTS, ...(own.length > 0 ? { alerts: Object.fromEntries(own.map((id) => [id, null])) } : {}) };
}
