/**
 * Keys the service derives from content. Participants are keyed by the base64 of their e-mail
 * address; alerts by the base64 of a compact JSON object with sorted keys, `a` = action and
 * `to` = offset: `{"a":"display","to":"-PT15M"}`.
 */
export function participantKey(email: string): string {
	return Buffer.from(email.trim(), 'utf8').toString('base64');
}

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

/**
 * Key of a location the node adds: the base64 of its name, like participants' keys. Derived
 * from the content, so a location added again keeps its key and never overwrites another.
 */
export function locationKey(name: string): string {
	return Buffer.from(name.trim(), 'utf8').toString('base64');
}
