import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { accountAndCalendarsFields, getAccounts } from '../shared/calendar/calendarLists';
import { getAccountCalendars } from '../shared/calendar/watchedCalendars';
import { ctsApiTest } from '../shared/credentials/connectionTests';
import { redeliverOption } from '../shared/triggers/redelivery';
import { triggerOutputFields } from '../shared/triggers/triggerOutput';
import { budgetShareOption, checkFrequencyHints, TRIGGER_BUDGET_NOTICE } from '../shared/pacing/triggerPacing';
import { MAX_WINDOW_DAYS, pollEvents } from './poll';
import { SIMPLIFIED_EVENT_FIELDS } from '../shared/output/simplifyEvent';
import { optionsCollection } from '../shared/fields/fields';

export class CtsEventTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CTS Event Trigger',
		name: 'ctsEventTrigger',
		icon: { light: 'file:../../icons/cts-event.svg', dark: 'file:../../icons/cts-event.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + $parameter["events"].join(", ")}}',
		description: 'Starts the workflow when calendar events are created, changed, cancelled, about to start or ended',
		defaults: { name: 'CTS Event Trigger' },
		polling: true,
		hints: checkFrequencyHints(),
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'ctsApi', required: true, testedBy: 'ctsApiTest' }],
		properties: [
			...accountAndCalendarsFields(undefined, 'to watch'),
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{ name: 'Event Cancelled or Deleted', value: 'cancelled', description: 'An event or occurrence in the window was deleted or cancelled' },
					{ name: 'Event Created', value: 'created', description: 'An event (or the occurrences of a new series) was created since the previous check. Occurrences that only come into view as time passes do not count: use Event Starting for those.' },
					{ name: 'Event Ended', value: 'ended', description: 'An occurrence ended' },
					{ name: 'Event Starting', value: 'started', description: 'An occurrence starts within the chosen number of minutes' },
					{ name: 'Event Updated', value: 'updated', description: 'An event or occurrence in the window changed' },
				],
				default: ['created', 'updated', 'cancelled'],
			},
			{
				displayName: 'Minutes Before Start',
				name: 'minutesBefore',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 10,
				description: 'Fire "Event Starting" this many minutes before an occurrence starts (0 = when it starts)',
				displayOptions: { show: { events: ['started'] } },
			},
			{
				displayName: 'Look Ahead (Days)',
				name: 'lookAheadDays',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_WINDOW_DAYS },
				default: 14,
				description: `How far ahead to watch. Each check lists this window once (10 points); at most ${MAX_WINDOW_DAYS} days, what one list call allows.`,
			},
			{
				displayName: TRIGGER_BUDGET_NOTICE,
				name: 'budgetNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Look Back (Days)',
				name: 'lookBackDays',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 30 },
				default: 0,
				description: 'Also watch events that started up to this many days ago (for changes to recent events)',
			},
			...triggerOutputFields('event', SIMPLIFIED_EVENT_FIELDS),
			optionsCollection([budgetShareOption, redeliverOption]),
		],
	};

	methods = { loadOptions: { getAccounts, getAccountCalendars }, credentialTest: { ctsApiTest } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollEvents.call(this);
	}
}
