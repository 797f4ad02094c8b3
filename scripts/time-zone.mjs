/**
 * The time zone `npm start` gives n8n (GENERIC_TIMEZONE). n8n's Workflow Settings → Timezone
 * offers the zones of its own list (n8n 2.41.1: `dist/timezones.json` of the n8n package, served
 * at `/rest/options/timezones`) and shows "Default Timezone not valid" for a default outside it.
 * That list names UTC `Etc/UTC` (and holds `Etc/GMT`), never `UTC`, so a machine in UTC (Node
 * reports `UTC`, or one of its aliases) gets `Etc/UTC`. Plain Node ESM.
 */

/** Names of UTC that n8n's list lacks. */
const UTC_ALIASES = new Set(['UTC', 'UCT', 'Universal', 'Zulu', 'Etc/UCT', 'Etc/Universal', 'Etc/Zulu', 'GMT', 'GMT0', 'GMT+0', 'GMT-0', 'Greenwich', 'Etc/GMT0', 'Etc/GMT+0', 'Etc/GMT-0', 'Etc/Greenwich']);

/** The zone n8n's list holds for this zone: `Etc/UTC` for any name of UTC, else the zone itself. */
export function n8nListZone(zone) {
	return UTC_ALIASES.has(zone) ? 'Etc/UTC' : zone;
}

/**
 * n8n's time zone: GENERIC_TIMEZONE when set (the user's choice, as given), else this machine's
 * zone as n8n's list names it; `Etc/UTC` when the machine tells none.
 */
export function startTimeZone(env = process.env, machineZone = Intl.DateTimeFormat().resolvedOptions().timeZone) {
	if (env.GENERIC_TIMEZONE) return env.GENERIC_TIMEZONE;
	return n8nListZone(machineZone || 'UTC');
}
