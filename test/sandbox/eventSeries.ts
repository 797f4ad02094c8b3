/**
 * Series: occurrences, instances and exceptions of a recurring event, the update, delete and
 * RSVP of a target (single event, whole series, one occurrence, or this and following), and the
 * list window's entries (series expanded in the window).
 */
import { DateTime } from 'luxon';

import { ApiError } from './errors';
import { type Environment, applyPatch } from './eventBuild';
import { instanceIdOf, instanceIdsOf, newEventId, newUid, parseInstanceId } from './eventIds';
import {
	EVENT_FIELD_KEYS,
	EVENT_MESSAGES,
	type EventFields,
	type FieldKey,
	type InstanceOverride,
	type ParticipationStatus,
	type SeriesUpdateMode,
	type StoredEvent,
	TIMING_KEYS,
	isRecurring,
	pickFields,
	sameEmail,
} from './eventModel';
import { type PatchInput } from './eventSchemas';
import {
	expandOccurrences,
	findOccurrence,
	formatLocalDateTime,
	parseLocalDateTime,
	splitSeries,
	type RecurrenceRule,
} from './recurrence';

// ---------------------------------------------------------------------------------------------
// Series: occurrences, instances, exceptions

function seriesInput(master: StoredEvent) {
	return {
		start: master.start,
		timeZone: master.timeZone,
		duration: master.duration,
		rules: master.recurrenceRules ?? [],
		excluded: master.excluded,
	};
}

/** The occurrence of the series with this recurrence id (not deleted), or null. */
export function occurrenceOf(master: StoredEvent, recurrenceId: string): { recurrenceId: string; start: string } | null {
	if (!isRecurring(master)) return null;
	return findOccurrence({ ...seriesInput(master), recurrenceId });
}

/** Start and end instants (epoch ms) of an event's timing; all-day and floating times read as UTC. */
export function spanOf(fields: Pick<EventFields, 'start' | 'duration' | 'timeZone'>): { startMs: number; endMs: number } {
	const occurrence = findOccurrence({
		start: fields.start,
		timeZone: fields.timeZone,
		duration: fields.duration,
		rules: [],
		recurrenceId: fields.start,
	})!;
	return { startMs: occurrence.startUtc.getTime(), endMs: occurrence.endUtc.getTime() };
}

/** The fields of one occurrence: the master's, its generated start, and the occurrence's own changes. */
export function instanceFields(master: StoredEvent, recurrenceId: string, start: string): EventFields {
	const fields: Record<string, unknown> = { ...pickFields(master), start };
	const override = master.overrides?.[recurrenceId];
	if (override) {
		for (const [key, value] of Object.entries(override.fields)) {
			if (value === null && key !== 'timeZone') delete fields[key];
			else fields[key] = value;
		}
	}
	return fields as unknown as EventFields;
}

/** What an id (or master id and recurrence id) designates. */
export type Target =
	| { kind: 'event'; event: StoredEvent }
	| { kind: 'instance'; master: StoredEvent; recurrenceId: string; start: string };

export function targetEvent(target: Target): StoredEvent {
	return target.kind === 'event' ? target.event : target.master;
}

/**
 * Resolves an id among the user's events: a single event, a series master, or an occurrence
 * (instance id). `record` is the stored record the id belongs to even when it is deleted (so the
 * account's connection can be checked first); `target` is set only for a live event.
 */
export function resolveId(events: Map<string, StoredEvent>, id: string): { record?: StoredEvent; target?: Target } {
	const event = events.get(id);
	if (event) return event.deleted ? { record: event } : { record: event, target: { kind: 'event', event } };
	const instance = parseInstanceId(id);
	if (!instance) return {};
	const master = events.get(instance.masterId);
	if (!master) return {};
	return { record: master, target: liveInstance(master, instance.recurrenceId) };
}

/** The instance of a live series, or undefined when the series or the occurrence does not exist. */
export function liveInstance(master: StoredEvent, recurrenceId: string): Target | undefined {
	if (master.deleted || !isRecurring(master)) return undefined;
	const occurrence = occurrenceOf(master, recurrenceId);
	return occurrence ? { kind: 'instance', master, recurrenceId, start: occurrence.start } : undefined;
}

/** A recurrence id given in another zone, read in the series' zone. */
export function recurrenceIdInZone(recurrenceId: string, from: string | undefined, seriesZone: string | null): string {
	if (from === undefined || seriesZone === null || from === seriesZone) return recurrenceId;
	const local = DateTime.fromISO(recurrenceId, { zone: from }).setZone(seriesZone);
	return local.isValid ? local.toFormat("yyyy-MM-dd'T'HH:mm:ss") : recurrenceId;
}

/** The id of a target as the interface shows it. */
export function targetId(target: Target): string {
	return target.kind === 'event' ? target.event.id : instanceIdOf(target.master.id, target.recurrenceId);
}

/** The fields of a target (an instance's include its own changes). */
export function targetFields(target: Target): EventFields {
	return target.kind === 'event' ? pickFields(target.event) : instanceFields(target.master, target.recurrenceId, target.start);
}

/** Whether the series generates this recurrence id (exclusions ignored). */
function generates(master: StoredEvent, recurrenceId: string): boolean {
	return findOccurrence({ ...seriesInput(master), excluded: [], recurrenceId }) !== null;
}

const localOf = (text: string): number => parseLocalDateTime(text)!;

/**
 * Sets a series' (or a single event's) fields, keeping its exceptions consistent: the fields the
 * patch set replace the same fields changed on single occurrences (the series-wide change wins);
 * when the start moves, the recurrence ids of deleted and changed occurrences move with it and
 * changed occurrences lose their own timing; exceptions the series no longer generates are dropped.
 * Rules set to null (removed) or [] (kept as given) make the series a single event.
 */
function setSeriesFields(
	event: StoredEvent,
	fields: EventFields,
	touched: ReadonlySet<FieldKey>,
	rules: RecurrenceRule[] | null | undefined,
	now: string,
): void {
	const oldStart = event.start;
	const timingChanged = TIMING_KEYS.some((key) => event[key] !== fields[key]);
	for (const key of EVENT_FIELD_KEYS) {
		const value = fields[key];
		if (value === undefined) delete (event as Partial<EventFields>)[key];
		else (event as unknown as Record<string, unknown>)[key] = value;
	}
	if (rules === null) delete event.recurrenceRules;
	else if (rules !== undefined) event.recurrenceRules = rules;
	event.updated = now;
	if (!isRecurring(event)) {
		delete event.excluded;
		delete event.overrides;
		return;
	}
	const delta = localOf(event.start) - localOf(oldStart);
	const shift = (id: string) => (delta === 0 ? id : formatLocalDateTime(localOf(id) + delta));
	if (event.excluded) {
		const excluded = event.excluded.map(shift).filter((id) => generates(event, id));
		if (excluded.length > 0) event.excluded = excluded;
		else delete event.excluded;
	}
	if (event.overrides) {
		const overrides: Record<string, InstanceOverride> = {};
		for (const [id, override] of Object.entries(event.overrides)) {
			const moved = shift(id);
			if (!generates(event, moved)) continue;
			if (timingChanged) for (const key of TIMING_KEYS) delete override.fields[key];
			for (const key of touched) delete override.fields[key];
			if (Object.keys(override.fields).length > 0) overrides[moved] = override;
		}
		if (Object.keys(overrides).length > 0) event.overrides = overrides;
		else delete event.overrides;
	}
}

/** The patch as it applies to a whole series when it was sent for one occurrence: its start moves the series' start by the same amount. */
function patchForSeries(patch: PatchInput, series: StoredEvent, occurrenceStart: string | undefined): PatchInput {
	if (patch.start === undefined || occurrenceStart === undefined) return patch;
	const delta = localOf(patch.start) - localOf(occurrenceStart);
	const start = formatLocalDateTime(localOf(series.start) + delta);
	if (parseLocalDateTime(start) === null) throw new ApiError(400, JSON.stringify([EVENT_MESSAGES.start]));
	return { ...patch, start };
}

/** Applies a patch to a whole series or a single event. */
function updateWhole(event: StoredEvent, patch: PatchInput, env: Environment, now: string, occurrenceStart?: string): void {
	const seriesPatch = patchForSeries(patch, event, occurrenceStart);
	const { fields, touched } = applyPatch(pickFields(event), seriesPatch, env);
	setSeriesFields(event, fields, touched, patch.recurrenceRules, now);
}

/** Applies a patch to one occurrence: stored as that occurrence's changes. */
function updateOccurrence(master: StoredEvent, recurrenceId: string, start: string, patch: PatchInput, env: Environment, now: string): void {
	const current = instanceFields(master, recurrenceId, start);
	const { fields, touched } = applyPatch(current, patch, env);
	const overrides = (master.overrides ??= {});
	const override = (overrides[recurrenceId] ??= { updated: now, fields: {} });
	for (const key of touched) {
		const value = fields[key];
		(override.fields as Record<string, unknown>)[key] = value === undefined ? null : value;
	}
	override.updated = now;
}

/**
 * Splits a series at an occurrence ("this and following"): `master` ends before it, and the new
 * series returned (new id and uid) starts at it, with the exceptions from it on.
 */
function splitAt(master: StoredEvent, recurrenceId: string, now: string): StoredEvent {
	const split = splitSeries({ start: master.start, rules: master.recurrenceRules!, excluded: master.excluded, at: recurrenceId });
	const next = JSON.parse(JSON.stringify(master)) as StoredEvent;
	next.id = newEventId();
	next.uid = newUid();
	next.created = now;
	next.updated = now;
	next.start = split.after.start;
	next.recurrenceRules = split.after.rules;
	delete next['service.example:metadata'];
	if (split.after.excluded.length > 0) next.excluded = split.after.excluded;
	else delete next.excluded;
	const later: Record<string, InstanceOverride> = {};
	const earlier: Record<string, InstanceOverride> = {};
	for (const [id, override] of Object.entries(master.overrides ?? {})) {
		if (id >= recurrenceId) later[id] = override;
		else earlier[id] = override;
	}
	if (Object.keys(later).length > 0) next.overrides = later;
	else delete next.overrides;

	master.recurrenceRules = split.before!.rules;
	if (split.before!.excluded.length > 0) master.excluded = split.before!.excluded;
	else delete master.excluded;
	if (Object.keys(earlier).length > 0) master.overrides = earlier;
	else delete master.overrides;
	master.updated = now;
	return next;
}

/**
 * Applies an update to a target in a series mode and answers the event the interface returns:
 * - a single event: only `single` (omitted) is allowed; the event;
 * - a master: every mode edits the whole series; the master;
 * - an occurrence, `single`: that occurrence alone; the occurrence (same id);
 * - an occurrence, `all`: the whole series (the occurrence's start change moves every occurrence
 *   by the same amount); the master;
 * - an occurrence, `future`: the series is split at the occurrence ("this and following"): the
 *   original ends before it, a new series (new id) starts at it with the changes; the new master.
 *   At the series' first occurrence it is `all`.
 */
export function updateTarget(
	events: Map<string, StoredEvent>,
	target: Target,
	mode: SeriesUpdateMode,
	patch: PatchInput,
	env: Environment,
	now: string,
): Target {
	if (target.kind === 'event') {
		const event = target.event;
		if (!isRecurring(event) && mode !== 'single') throw new ApiError(400, EVENT_MESSAGES.seriesMode(mode));
		updateWhole(event, patch, env, now);
		return { kind: 'event', event };
	}
	const { master, recurrenceId, start } = target;
	if (mode === 'single') {
		if (patch.recurrenceRules !== undefined) throw new ApiError(400, EVENT_MESSAGES.rulesOnSingle);
		updateOccurrence(master, recurrenceId, start, patch, env, now);
		const occurrence = occurrenceOf(master, recurrenceId)!;
		return { kind: 'instance', master, recurrenceId, start: occurrence.start };
	}
	if (mode === 'future' && recurrenceId !== master.start) {
		// Split and update copies, stored only when everything succeeded: a refused update changes nothing.
		const before = JSON.parse(JSON.stringify(master)) as StoredEvent;
		const next = splitAt(before, recurrenceId, now);
		updateWhole(next, patch, env, now, instanceFields(next, recurrenceId, start).start);
		events.set(before.id, before);
		events.set(next.id, next);
		return { kind: 'event', event: next };
	}
	updateWhole(master, patch, env, now, instanceFields(master, recurrenceId, start).start);
	return { kind: 'event', event: master };
}

/**
 * Deletes a target in a series mode:
 * - a single event: only `single` (omitted); the event is deleted;
 * - a master: the series is deleted, whatever the mode;
 * - an occurrence: `single` removes that occurrence, `future` ends the series before it (the
 *   whole series when it is the first), `all` deletes the series.
 */
export function deleteTarget(target: Target, mode: SeriesUpdateMode, now: string): void {
	if (target.kind === 'event') {
		const event = target.event;
		if (!isRecurring(event) && mode !== 'single') throw new ApiError(400, EVENT_MESSAGES.seriesMode(mode));
		event.deleted = true;
		event.updated = now;
		return;
	}
	const { master, recurrenceId } = target;
	master.updated = now;
	if (mode === 'all' || (mode === 'future' && recurrenceId === master.start)) {
		master.deleted = true;
		return;
	}
	if (mode === 'single') {
		master.excluded = [...(master.excluded ?? []), recurrenceId].sort();
		if (master.overrides) {
			delete master.overrides[recurrenceId];
			if (Object.keys(master.overrides).length === 0) delete master.overrides;
		}
		return;
	}
	const split = splitSeries({ start: master.start, rules: master.recurrenceRules!, excluded: master.excluded, at: recurrenceId });
	master.recurrenceRules = split.before!.rules;
	if (split.before!.excluded.length > 0) master.excluded = split.before!.excluded;
	else delete master.excluded;
	if (master.overrides) {
		for (const id of Object.keys(master.overrides)) if (id >= recurrenceId) delete master.overrides[id];
		if (Object.keys(master.overrides).length === 0) delete master.overrides;
	}
}

/** Sets the account owner's participation status on a target (an occurrence: on that occurrence only). */
export function respond(target: Target, status: ParticipationStatus, ownerEmail: string, now: string): void {
	const fields = targetFields(target);
	const participants = fields.participants ?? {};
	const entry = Object.entries(participants).find(
		([, participant]) => participant.accountOwner || sameEmail(participant.email, ownerEmail),
	);
	if (!entry) throw new ApiError(400, EVENT_MESSAGES.ownerNotParticipant(ownerEmail));
	const next = { ...participants, [entry[0]]: { ...entry[1], participationStatus: status } };
	if (target.kind === 'event') {
		target.event.participants = next;
		target.event.updated = now;
		return;
	}
	const overrides = (target.master.overrides ??= {});
	const override = (overrides[target.recurrenceId] ??= { updated: now, fields: {} });
	override.fields.participants = next;
	override.updated = now;
}

// ---------------------------------------------------------------------------------------------
// Lists

export interface ListEntry {
	startMs: number;
	id: string;
	target: Target;
}

/**
 * The live events and occurrences of the calendars that overlap the window
 * (`eventStart < end && eventEnd > start`; all-day and floating times read as UTC), ascending by
 * start instant, then by id. Series masters are not listed, their occurrences are.
 */
export function listWindow(
	events: Map<string, StoredEvent>,
	calendarIds: ReadonlySet<string>,
	windowStart: number,
	windowEnd: number,
): ListEntry[] {
	const entries: ListEntry[] = [];
	const from = new Date(windowStart);
	const to = new Date(windowEnd);
	for (const event of events.values()) {
		if (event.deleted || !calendarIds.has(event.calendarId)) continue;
		if (!isRecurring(event)) {
			const span = spanOf(event);
			if (span.startMs < windowEnd && span.endMs > windowStart) {
				entries.push({ startMs: span.startMs, id: event.id, target: { kind: 'event', event } });
			}
			continue;
		}
		const overrides = event.overrides ?? {};
		const overridden = Object.keys(overrides);
		const occurrences = expandOccurrences({
			start: event.start,
			timeZone: event.timeZone,
			duration: event.duration,
			rules: event.recurrenceRules!,
			excluded: overridden.length > 0 ? [...(event.excluded ?? []), ...overridden] : event.excluded,
			windowStart: from,
			windowEnd: to,
		});
		const ids = instanceIdsOf(event.id);
		for (const occurrence of occurrences) {
			entries.push({
				startMs: occurrence.startUtc.getTime(),
				id: ids.of(occurrence.recurrenceId),
				target: { kind: 'instance', master: event, recurrenceId: occurrence.recurrenceId, start: occurrence.start },
			});
		}
		for (const recurrenceId of overridden) {
			const occurrence = occurrenceOf(event, recurrenceId);
			if (!occurrence) continue;
			const fields = instanceFields(event, recurrenceId, occurrence.start);
			const span = spanOf(fields);
			if (span.startMs < windowEnd && span.endMs > windowStart) {
				entries.push({
					startMs: span.startMs,
					id: instanceIdOf(event.id, recurrenceId),
					target: { kind: 'instance', master: event, recurrenceId, start: occurrence.start },
				});
			}
		}
	}
	entries.sort((a, b) => a.startMs - b.startMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	return entries;
}
