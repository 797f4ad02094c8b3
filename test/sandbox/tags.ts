/**
 * v3 tags: list, get, create, update, delete.
 *
 * Tags belong to a user; an id of another user's tag behaves exactly like an unknown id. Answers
 * carry no `data` envelope: the list is a bare array, get the bare tag. The list shows live tags,
 * newest `updated` first; with `updatedAfter` it shows every tag changed after that instant,
 * deleted ones as `{ id, deleted: true }` (delete is soft: the record is kept, `updated` is the
 * time of deletion). Get answers 404 for an unknown or deleted tag; update and delete name the
 * tag to change, so an id that resolves to no live tag is a 400 (`Invalid tag id`), as for tasks,
 * and a repeated delete answers 204 again.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

import { ApiError, validate } from './errors';
import { parseDateTime, toTimestamp } from './formats';
import { LIST_POINTS } from './limits';
import type { Reply, RequestContext, Route } from './router';
import type { TagRecord } from './store';
import { limitParam, updatedAfterParam } from './tasks';

export const TAG_MESSAGES = {
	id: 'id must be a string',
	name: 'name must be longer than or equal to 1 characters',
	nameType: 'name must be a string',
	colorType: 'color must be a string',
	colorShort: 'color must be longer than or equal to 7 characters',
	colorLong: 'color must be shorter than or equal to 7 characters',
	colorHex: 'color must be a hexadecimal color (#rrggbb)',
	body: 'request body must be a JSON object',
	notFound: 'Tag not found',
	invalidTagId: 'Invalid tag id',
} as const;

/** Most tags a list call answers with. Without `limit` it answers every tag. */
export const MAX_TAG_LIMIT = 1000;

// ---------------------------------------------------------------------------------------------
// Schemas (compiled once)

const objectParams = { invalid_type_error: TAG_MESSAGES.body, required_error: TAG_MESSAGES.body };

/** Missing or null is reported as the main rule of the field, another type as "must be a string". */
const stringParams = (missing: string, type: string): z.RawCreateParams => ({
	errorMap: (_issue, ctx) => ({ message: ctx.data === undefined || ctx.data === null ? missing : type }),
});

const idSchema = z.string({ required_error: TAG_MESSAGES.id, invalid_type_error: TAG_MESSAGES.id });

const nameSchema = z.string(stringParams(TAG_MESSAGES.name, TAG_MESSAGES.nameType)).min(1, TAG_MESSAGES.name);

/**
 * `#rrggbb`: exactly 7 characters that form a hexadecimal colour. Each broken rule has its
 * message (`#fff` is a colour but too short; `1234567` has the length but is no colour).
 */
const colorSchema = z
	.string(stringParams(TAG_MESSAGES.colorHex, TAG_MESSAGES.colorType))
	.min(7, TAG_MESSAGES.colorShort)
	.max(7, TAG_MESSAGES.colorLong)
	.regex(/^#?(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i, TAG_MESSAGES.colorHex);

export const createTagSchema = z.object({ name: nameSchema, color: colorSchema }, objectParams).strict();

export const updateTagSchema = z
	.object({ id: idSchema, name: nameSchema.optional(), color: colorSchema.optional() }, objectParams)
	.strict();

export const deleteTagSchema = z.object({ id: idSchema }, objectParams).strict();

export const getTagQuery = z.object({ id: idSchema }).strict();

export const listTagsQuery = z
	.object({ limit: limitParam(MAX_TAG_LIMIT).optional(), updatedAfter: updatedAfterParam.optional() })
	.strict();

/** POST tag endpoints take no query parameters. */
const noQuery = z.object({}).strict();

// ---------------------------------------------------------------------------------------------
// Presentation and helpers

/** A live tag as get and list show it; a deleted one (listed only with `updatedAfter`) as `{ id, deleted }`. */
function presentTag(tag: TagRecord): Record<string, unknown> {
	if (tag.deleted) return { id: tag.id, deleted: true };
	return { id: tag.id, name: tag.name, color: tag.color, updated: tag.updated };
}

/** Newest `updated` first; ties by id (ordinal). */
const newestFirst = (a: TagRecord, b: TagRecord): number =>
	a.updated > b.updated ? -1 : a.updated < b.updated ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

function liveTag(ctx: RequestContext, id: string): TagRecord {
	const tag = ctx.store.tags.get(ctx.user.id)?.get(id);
	if (!tag || tag.deleted) throw new ApiError(400, TAG_MESSAGES.invalidTagId);
	return tag;
}

// ---------------------------------------------------------------------------------------------
// Handlers

function listTags(ctx: RequestContext): Reply {
	const { limit, updatedAfter } = validate(listTagsQuery, ctx.query);
	// Timestamps share one format, so comparing the text compares the instants.
	const after = updatedAfter === undefined ? undefined : toTimestamp(parseDateTime(updatedAfter, true)!);
	const tags = [...(ctx.store.tags.get(ctx.user.id)?.values() ?? [])]
		.filter((tag) => (after === undefined ? !tag.deleted : tag.updated > after))
		.sort(newestFirst)
		.slice(0, limit)
		.map(presentTag);
	return { status: 200, body: tags };
}

function getTag(ctx: RequestContext): Reply {
	const { id } = validate(getTagQuery, ctx.query);
	const tag = ctx.store.tags.get(ctx.user.id)?.get(id);
	if (!tag || tag.deleted) throw new ApiError(404, TAG_MESSAGES.notFound);
	return { status: 200, body: presentTag(tag) };
}

function createTag(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const { name, color } = validate(createTagSchema, ctx.body);
	const tag: TagRecord = { id: randomUUID(), name, color, updated: ctx.clock.nowIso() };
	ctx.store.tagsOf(ctx.user.id).set(tag.id, tag);
	ctx.store.changed('tags', ctx.user.id, tag.id);
	return { status: 200, body: { id: tag.id, name, color } };
}

function updateTag(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const input = validate(updateTagSchema, ctx.body);
	const tag = liveTag(ctx, input.id);
	if (input.name !== undefined) tag.name = input.name;
	if (input.color !== undefined) tag.color = input.color;
	tag.updated = ctx.clock.nowIso();
	ctx.store.changed('tags', ctx.user.id, tag.id);
	return { status: 204 };
}

function deleteTag(ctx: RequestContext): Reply {
	validate(noQuery, ctx.query);
	const { id } = validate(deleteTagSchema, ctx.body);
	const tag = ctx.store.tags.get(ctx.user.id)?.get(id);
	if (!tag) throw new ApiError(400, TAG_MESSAGES.invalidTagId);
	if (!tag.deleted) {
		tag.deleted = true;
		tag.updated = ctx.clock.nowIso();
		ctx.store.changed('tags', ctx.user.id, tag.id);
	}
	return { status: 204 };
}

export const tagRoutes: Route[] = [
	{ method: 'GET', path: '/v3/tags/list', auth: 'apiKey', points: LIST_POINTS, handler: listTags },
	{ method: 'GET', path: '/v3/tags', auth: 'apiKey', handler: getTag },
	{ method: 'POST', path: '/v3/tags/create', auth: 'apiKey', handler: createTag },
	{ method: 'POST', path: '/v3/tags/update', auth: 'apiKey', handler: updateTag },
	{ method: 'POST', path: '/v3/tags/delete', auth: 'apiKey', handler: deleteTag },
];
