/**
 * Keys the service derives from content. Participants are keyed by the base64 of their e-mail
 * address (alerts by theirs: see `shared/calendar/alerts.ts`).
 */
export function participantKey(email: string): string {
	return Buffer.from(email.trim(), 'utf8').toString('base64');
}

/**
 * Key of a location the node adds: the base64 of its name, like participants' keys. Derived
 * from the content, so a location added again keeps its key and never overwrites another.
 */
export function locationKey(name: string): string {
	return Buffer.from(name.trim(), 'utf8').toString('base64');
}
