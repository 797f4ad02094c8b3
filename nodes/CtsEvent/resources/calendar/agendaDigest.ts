import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { Interval } from '../../../shared/calendar/freeTime';
import type { AgendaEntry } from './agendaEntries';
import { zonedIso } from '../../../shared/time/dates';

/**
 * The Digest of an agenda: one item ready to send, with a Markdown text for chat apps, an HTML
 * table for e-mail and counts. Pure: the free time is computed by the caller.
 */

interface DigestInput {
	range: Interval;
	zone: string;
	/** One local day (Period Day), or a range. */
	oneDay: boolean;
	entries: AgendaEntry[];
	/** Free time left in working hours, or undefined for Any Time without working hours. */
	free: Interval[];
	workingHoursText: string;
	/** Working hours were asked for, and the period holds none (a weekend day): said instead of "0 min left". */
	noWorkingHours?: boolean;
	/** The names of the calendars left out because they cannot be read. */
	skipped?: string[];
}

const MINUTE = 60_000;

const local = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).setLocale('en-GB');

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

/** "4 h 30 min", "45 min", "0 min". */
function minutesText(minutes: number): string {
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	if (hours === 0) return `${rest} min`;
	return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** The time column: "All day", "09:00–10:00", a task's "17:00", "Overdue (28 Nov 17:00)"; another day's date where it differs. */
function timeText(entry: AgendaEntry, input: DigestInput): string {
	const { zone } = input;
	const start = local(entry.start, zone);
	if (entry.overdue) return `due ${start.toFormat("d LLL HH:mm")}`;
	if (entry.allDay) return 'All day';
	if (entry.kind === 'task') return `${start.toFormat('HH:mm')} due`;
	const end = local(entry.end, zone);
	const startText = start.toFormat(entry.start < input.range.start ? 'd LLL HH:mm' : 'HH:mm');
	if (entry.start >= input.range.start && end.hasSame(start, 'day')) return `${startText}–${end.toFormat('HH:mm')}`;
	if (entry.start >= input.range.start && end.equals(end.startOf('day')) && end.minus({ days: 1 }).hasSame(start, 'day')) return `${startText}–24:00`;
	return `${startText}–${end.toFormat('d LLL HH:mm')}`;
}

/** What is said after the title: the calendar, a block's or task's task fields, free or declined. */
function notes(entry: AgendaEntry): string[] {
	const notes: string[] = [];
	if (entry.kind === 'timeBlock') notes.push('time block');
	if (entry.kind === 'task') notes.push('task');
	const priority = Number(entry.json.priority ?? 0);
	if (entry.kind !== 'event' && priority > 0) notes.push(`priority ${priority}`);
	if (entry.free) notes.push('free');
	if (entry.declined) notes.push('declined');
	return notes;
}

function dayHeading(date: string, zone: string): string {
	return DateTime.fromISO(date, { zone }).setLocale('en-GB').toFormat('cccc, d LLLL yyyy');
}

function heading(input: DigestInput): string {
	const first = local(input.range.start, input.zone).setLocale('en-GB');
	if (input.oneDay) return `Agenda for ${first.toFormat('cccc, d LLLL yyyy')}`;
	const end = local(input.range.end, input.zone).setLocale('en-GB');
	const midnights = first.equals(first.startOf('day')) && end.equals(end.startOf('day'));
	if (midnights) return `Agenda ${first.toFormat('d LLLL yyyy')} – ${end.minus({ days: 1 }).toFormat('d LLLL yyyy')}`;
	return `Agenda ${first.toFormat('d LLLL yyyy HH:mm')} – ${end.toFormat('d LLLL yyyy HH:mm')}`;
}

/** The counts of a digest. */
function digestCounts(entries: AgendaEntry[]): IDataObject {
	const count = (test: (entry: AgendaEntry) => boolean) => entries.filter(test).length;
	return {
		events: count((entry) => entry.kind === 'event'),
		allDayEvents: count((entry) => entry.kind === 'event' && entry.allDay),
		timeBlocks: count((entry) => entry.kind === 'timeBlock'),
		tasksDue: count((entry) => entry.kind === 'task' && !entry.overdue),
		overdueTasks: count((entry) => entry.overdue),
	};
}

function summaryLine(counts: IDataObject, freeMinutes: number, input: DigestInput): string {
	const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
	const parts = [
		plural(Number(counts.events), 'event', 'events'),
		plural(Number(counts.timeBlocks), 'time block', 'time blocks'),
		plural(Number(counts.tasksDue), 'task due', 'tasks due'),
	];
	if (Number(counts.overdueTasks) > 0) parts.push(`${String(counts.overdueTasks)} overdue`);
	const free = input.noWorkingHours ? `No working hours ${input.oneDay ? 'on this day' : 'in the period'}.` : `Free time left ${input.workingHoursText}: ${minutesText(freeMinutes)}.`;
	return `${parts.join(' · ')}. ${free}`;
}

/** The line naming the calendars left out, or undefined. */
function skippedLine(input: DigestInput): string | undefined {
	const names = input.skipped ?? [];
	if (names.length === 0) return undefined;
	return `Not included (${names.length === 1 ? 'this calendar cannot' : 'these calendars cannot'} be read): ${names.join(', ')}.`;
}

/** Entries grouped under their day (overdue tasks under ""), in order. */
function byDay(input: DigestInput): Array<[string, AgendaEntry[]]> {
	const groups = new Map<string, AgendaEntry[]>();
	for (const entry of input.entries) {
		const date = entry.overdue ? '' : (local(Math.max(entry.start, input.range.start), input.zone).toISODate() ?? '');
		groups.set(date, [...(groups.get(date) ?? []), entry]);
	}
	return [...groups.entries()];
}

function markdown(input: DigestInput, summary: string): string {
	const lines = [`*${heading(input)}* (${input.zone})`, ''];
	if (input.entries.length === 0) lines.push('Nothing on the agenda.');
	for (const [date, entries] of byDay(input)) {
		if (!input.oneDay || date === '') lines.push(date === '' ? '*Overdue*' : `*${dayHeading(date, input.zone)}*`);
		for (const entry of entries) {
			const where = entry.calendarName ? ` _(${entry.calendarName})_` : '';
			const extra = notes(entry);
			lines.push(`• ${timeText(entry, input)}  ${entry.title}${where}${extra.length > 0 ? ` — ${extra.join(', ')}` : ''}`);
		}
	}
	lines.push('', summary);
	const skipped = skippedLine(input);
	if (skipped) lines.push(skipped);
	return lines.join('\n');
}

function html(input: DigestInput, summary: string): string {
	const cell = (text: string) => `<td style="padding:4px 8px;border-bottom:1px solid #ddd">${text}</td>`;
	const rows: string[] = [];
	for (const [date, entries] of byDay(input)) {
		if (!input.oneDay || date === '') {
			rows.push(`<tr><th colspan="4" style="text-align:left;padding:8px 8px 4px">${escapeHtml(date === '' ? 'Overdue' : dayHeading(date, input.zone))}</th></tr>`);
		}
		for (const entry of entries) {
			rows.push(`<tr>${cell(escapeHtml(timeText(entry, input)))}${cell(escapeHtml(entry.title))}${cell(escapeHtml(entry.calendarName ?? ''))}${cell(escapeHtml(notes(entry).join(', ')))}</tr>`);
		}
	}
	if (rows.length === 0) rows.push(`<tr>${cell('')}${cell('Nothing on the agenda.')}${cell('')}${cell('')}</tr>`);
	return [
		`<h3>${escapeHtml(heading(input))} (${escapeHtml(input.zone)})</h3>`,
		'<table style="border-collapse:collapse">',
		'<thead><tr><th style="text-align:left;padding:4px 8px">Time</th><th style="text-align:left;padding:4px 8px">What</th><th style="text-align:left;padding:4px 8px">Calendar</th><th style="text-align:left;padding:4px 8px">Note</th></tr></thead>',
		`<tbody>${rows.join('')}</tbody>`,
		'</table>',
		`<p>${escapeHtml(summary)}</p>`,
		...(skippedLine(input) ? [`<p>${escapeHtml(skippedLine(input)!)}</p>`] : []),
	].join('\n');
}

/** The Digest item (without notices). */
export function digest(input: DigestInput): IDataObject {
	const iso = (ms: number) => zonedIso(ms, input.zone);
	const freeMinutes = Math.round(input.free.reduce((sum, slot) => sum + slot.end - slot.start, 0) / MINUTE);
	const counts = digestCounts(input.entries);
	const summary = summaryLine(counts, freeMinutes, input);
	return {
		title: heading(input),
		start: iso(input.range.start),
		end: iso(input.range.end),
		timeZone: input.zone,
		text: markdown(input, summary),
		html: html(input, summary),
		counts,
		freeMinutes,
		freeSlots: input.free.map((slot) => ({ start: iso(slot.start), end: iso(slot.end) })),
		entries: input.entries.map((entry) => entry.json),
	};
}
