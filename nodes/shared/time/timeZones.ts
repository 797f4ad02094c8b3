import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { DateTime } from 'luxon';

/** Every IANA region time zone, with its current UTC offset. */
function zoneOptions(): INodePropertyOptions[] {
	const now = DateTime.utc();
	const zones = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone.includes('/'))];
	return zones.map((zone) => ({
		name: `${zone} (UTC${now.setZone(zone).toFormat('ZZ')})`,
		value: zone,
	}));
}

/**
 * Time zones for a searchable dropdown, first the empty choice: the workflow's time zone. An
 * empty value is then one the editor offers (a dropdown whose value is not an option turns red).
 */
export async function getTimeZones(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return [{ name: `Workflow Time Zone (${this.getTimezone()})`, value: '' }, ...zoneOptions()];
}

/** Time zones of an event change, first the empty choice: the event's own zone (unchanged, or not sent). */
export async function getTimeZonesOrKeep(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return [{ name: "The Event's Own Time Zone", value: '' }, ...zoneOptions()];
}
