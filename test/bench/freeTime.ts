/**
 * Section 9 of `npm run bench`: points and time of Calendar → Find Free Time over a week, a month
 * and 6 months for 1, 3 and 10 calendars. The fixtures have 5 writable calendars, so this section
 * runs its own sandbox in process, with 5 more calendars added to alice's three active accounts;
 * its time therefore includes the sandbox's work on the same CPU.
 */
import { Engine } from '../harness/engine';
import { ALICE_KEY } from '../harness/sandboxClient';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { median, timed } from './measure';
import type { Row } from './report';
import { CtsEvent } from './setup';

const RUNS = 5;
const LIST_POINTS = 10;

const BASE_CALENDARS = [
	['acc-alice-a', 'cal-alice-a-primary'],
	['acc-alice-b', 'cal-alice-b-primary'],
	['acc-alice-c', 'cal-alice-c-home'],
	['acc-alice-a', 'cal-alice-a-team'],
];
const EXTRA_CALENDARS = [
	['acc-alice-a', 'cal-bench-a1'],
	['acc-alice-a', 'cal-bench-a2'],
	['acc-alice-b', 'cal-bench-b1'],
	['acc-alice-b', 'cal-bench-b2'],
	['acc-alice-c', 'cal-bench-c1'],
	['acc-alice-c', 'cal-bench-c2'],
];
const TEN = [...BASE_CALENDARS, ...EXTRA_CALENDARS];

async function api(sandbox: Sandbox, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<any> {
	const response = await fetch(`${sandbox.url}${path}`, {
		method,
		headers: { authorization: `ApiKey ${ALICE_KEY}`, 'content-type': 'application/json', accept: 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
	return text ? JSON.parse(text) : undefined;
}

/** Adds calendars to alice's accounts, as copies of her primary calendar of that account. */
function addCalendars(sandbox: Sandbox): void {
	const calendars = sandbox.store.calendars;
	for (const [index, [accountId, id]] of EXTRA_CALENDARS.entries()) {
		const template = [...calendars.values()].find((calendar) => calendar.accountId === accountId)!;
		calendars.set(id, { ...structuredClone(template), id, name: `Bench ${index + 1}`, primary: false, sortOrder: 10 + index });
	}
}

/** In each calendar: daily standups, three weekly meetings, a monthly all-day event and some single events, over 7 months. */
async function fillCalendars(sandbox: Sandbox): Promise<number> {
	let created = 0;
	const create = async (fields: Record<string, unknown>) => {
		await api(sandbox, 'POST', '/v3/events/create', fields);
		created++;
	};
	for (const [index, [accountId, calendarId]] of TEN.entries()) {
		const base = { accountId, calendarId, timeZone: 'Europe/Berlin', showWithoutTime: false };
		const daily = [{ '@type': 'RecurrenceRule', frequency: 'daily', byDay: ['mo', 'tu', 'we', 'th', 'fr'].map((day) => ({ '@type': 'NDay', day })) }];
		await create({ ...base, title: 'Standup', start: `2026-11-30T09:${String(index * 3).padStart(2, '0')}:00`, duration: 'PT15M', recurrenceRules: daily });
		for (const [offset, day] of ['mo', 'we', 'fr'].entries()) {
			await create({
				...base,
				title: `Weekly ${day}`,
				start: `2026-12-0${1 + offset * 2}T${10 + ((index + offset) % 6)}:00:00`,
				duration: 'PT1H',
				recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'weekly', byDay: [{ '@type': 'NDay', day }] }],
			});
		}
		await create({ ...base, title: 'Offsite', start: `2026-12-${String(10 + index).padStart(2, '0')}T00:00:00`, duration: 'P1D', timeZone: null, showWithoutTime: true, recurrenceRules: [{ '@type': 'RecurrenceRule', frequency: 'monthly' }] });
		for (let single = 0; single < 20; single++) {
			const day = new Date(Date.UTC(2026, 11, 1 + single * 9 + index)).toISOString().slice(0, 10);
			await create({ ...base, title: `Single ${single}`, start: `${day}T${13 + (single % 4)}:30:00`, duration: 'PT45M', freeBusyStatus: single % 5 === 0 ? 'free' : 'busy' });
		}
	}
	return created;
}

const RANGES = [
	['a week', '2026-12-07T00:00:00', '2026-12-14T00:00:00', 1],
	['a month', '2026-12-01T00:00:00', '2027-01-01T00:00:00', 1],
	['6 months', '2026-12-01T00:00:00', '2027-06-01T00:00:00', 3],
] as const;

export async function sectionFreeTime(rows: Row[], log: (message: string) => void): Promise<void> {
	const sandbox = await startSandbox({ port: 0 });
	try {
		await fetch(`${sandbox.url}/_sandbox/limits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ points: null }) });
		addCalendars(sandbox);
		log('creating events in 10 calendars…');
		const created = await fillCalendars(sandbox);
		const engine = new Engine({ ctsEvent: new CtsEvent() });
		for (const calendarCount of [1, 3, 10]) {
			const calendars = TEN.slice(0, calendarCount === 3 ? 3 : calendarCount);
			const accounts = new Set(calendars.map(([accountId]) => accountId)).size;
			for (const [label, start, end, windows] of RANGES) {
				const run = async () => {
					const result = await engine.runNode({
						type: 'ctsEvent',
						parameters: {
							resource: 'calendar',
							operation: 'findFreeTime',
							calendars: calendars.map(([accountId, calendarId]) => `${accountId}/${calendarId}`),
							timeZone: 'Europe/Berlin',
							start,
							end,
						},
						credentials: { ctsApi: { apiKey: ALICE_KEY, baseUrl: sandbox.url } },
					});
					if (result.error) throw new Error(`Find Free Time failed: ${result.error.message}`);
					return result;
				};
				await run();
				const times: number[] = [];
				let slots = 0;
				let calls = 0;
				let calendarCalls = 0;
				for (let round = 0; round < RUNS; round++) {
					await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
					const { result, ms } = await timed(run);
					times.push(ms);
					slots = result.items.length;
					const requests = ((await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { requests: Array<{ path: string }> }).requests;
					calls = requests.filter((request) => request.path === '/v3/events/list').length;
					calendarCalls = requests.filter((request) => request.path === '/v3/calendars/list').length;
				}
				const minimum = accounts * windows;
				rows.push({
					section: '9',
					benchmark: `Find Free Time over ${label}, ${calendarCount} calendar${calendarCount > 1 ? 's' : ''} (${accounts} account${accounts > 1 ? 's' : ''}), working hours, ${created} events and series in 10 calendars`,
					measured: `${calls} event list calls, ${calls * LIST_POINTS} points (+ ${calendarCalls} calendar list calls: reused within a minute; 10 points otherwise); ${slots} slots; ${(median(times)).toFixed(0)} ms (median of ${RUNS})`,
					reference: `${minimum} call${minimum > 1 ? 's' : ''} (${accounts} account${accounts > 1 ? 's' : ''} × ${windows} window${windows > 1 ? 's' : ''} of 2 months) + 1 calendar list`,
					met: calls === minimum,
				});
			}
		}
	} finally {
		await sandbox.close();
	}
}
