/**
 * The starter world `npm start` begins with, so that a newcomer's first tries find something: a
 * few open tasks of alice (one with subtasks, tagged ones, one due soon) and the events of her
 * next seven days, a weekly series among them, in the calendars of her working accounts. The
 * expired and revoked connections of the fixtures stay as they are.
 *
 * Everything is made through the sandbox's own create routes (their validation, ids, positions
 * and derived fields), as an API call would make it, but in-process: nothing is charged or logged.
 * Times are relative to the sandbox's clock and read in `zone`, the zone the user's n8n runs in.
 */
import { DateTime } from 'luxon';

import { eventRoutes } from './events';
import type { RequestContext, SandboxState } from './router';
import { taskRoutes } from './tasks';

const USER = 'alice';

/** What the starter world holds, for the banner and the tests. */
export const STARTER_TASK_TITLES = ['Plan the team offsite', 'Book the venue', 'Send the invitations', 'Buy a birthday present', 'Read the CTS nodes README'];

/** Answers a create route as the API would, in-process. */
function create(state: SandboxState, path: string, body: Record<string, unknown>): Record<string, unknown> {
	const route = [...taskRoutes, ...eventRoutes].find((candidate) => candidate.method === 'POST' && candidate.path === path);
	const user = state.store.users.get(USER);
	if (!route || !user) throw new Error(`starter world: no route ${path} or no user ${USER}`);
	const ctx: RequestContext = { sandbox: state, store: state.store, clock: state.clock, method: 'POST', path, query: {}, body, headers: {}, user };
	const reply = route.handler(ctx);
	if (reply instanceof Promise) throw new Error(`starter world: ${path} answers asynchronously`);
	if (reply.status !== 200) throw new Error(`starter world: ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
	return (reply.body as { data: Record<string, unknown> }).data;
}

const local = (time: DateTime) => time.toFormat("yyyy-LL-dd'T'HH:mm:ss");

/** Adds the starter tasks and events to the state (call it once, on a new state). */
export function seedStarterWorld(state: SandboxState, zone: string): void {
	const today = DateTime.fromMillis(state.clock.now(), { zone }).startOf('day');
	const task = (body: Record<string, unknown>) => String(create(state, '/v3/tasks/create', body).id);
	const offsite = task({ title: 'Plan the team offsite', due: local(today.plus({ days: 4 }).set({ hour: 17 })), timeZone: zone, priority: 1, estimatedDuration: 'PT2H', tags: ['tag-alice-work'] });
	task({ title: 'Book the venue', relatedTo: { [offsite]: { '@type': 'Relation', relation: { parent: true } } }, tags: ['tag-alice-work'] });
	task({ title: 'Send the invitations', relatedTo: { [offsite]: { '@type': 'Relation', relation: { parent: true } } } });
	task({ title: 'Buy a birthday present', due: local(today.plus({ days: 1 }).set({ hour: 18 })), timeZone: zone, priority: 2, tags: ['tag-alice-errands', 'tag-alice-urgent'] });
	task({ title: 'Read the CTS nodes README', description: 'Where the points go, and how the triggers pace themselves.' });

	const event = (accountId: string, calendarId: string, title: string, start: DateTime, duration: string, extra: Record<string, unknown> = {}) =>
		create(state, '/v3/events/create', { accountId, calendarId, title, start: local(start), duration, timeZone: zone, showWithoutTime: false, ...extra });
	const at = (days: number, hour: number, minute = 0) => today.plus({ days }).set({ hour, minute });
	event('acc-alice-a', 'cal-alice-a-team', 'Team sync', at(0, 10), 'PT30M', {
		recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', interval: 1, count: 8 }],
	});
	event('acc-alice-a', 'cal-alice-a-primary', 'Focus time', at(1, 9), 'PT2H');
	event('acc-alice-a', 'cal-alice-a-primary', 'Lunch with Sam', at(2, 12, 30), 'PT1H', { locations: { venue: { '@type': 'Location', name: 'Café am Markt' } } });
	event('acc-alice-b', 'cal-alice-b-primary', 'Project review', at(3, 15), 'PT1H');
	event('acc-alice-c', 'cal-alice-c-home', 'Yoga', at(4, 18, 30), 'PT1H');
	event('acc-alice-a', 'cal-alice-a-primary', 'Dentist', at(6, 11), 'PT45M');
}
