import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { DateTime } from 'luxon';

/** Every IANA region time zone, with its current UTC offset, for a searchable dropdown. */
export async function getTimeZones(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const now = DateTime.utc();
	const zones = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone.includes('/'))];
	return zones.map((zone) => ({
		name: `${zone} (UTC${now.setZone(zone).toFormat('ZZ')})`,
		value: zone,
	}));
}
