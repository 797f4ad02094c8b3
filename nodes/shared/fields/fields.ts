import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
	INodeProperties,
	PreSendAction,
} from 'n8n-workflow';

import { invalidField, quoted } from '../transport/errors';
import {
	DATE_TIME_HINT,
	isIanaZone,
	notIanaZoneProblem,
	parseDateInput,
	skippedWallClock,
	skippedWallClockNotice,
	toLocalDateTime,
} from '../time/dates';
import type { OperationItem } from '../transport/itemOperation';
import { addNotice } from '../transport/itemState';

/**
 * A preSend step that reads one parameter, converts it (the converter throws a message naming
 * what is wrong) and writes the result into the request body. Used where a field's value needs
 * more than a plain copy: dates, durations, lists, computed keys.
 */
export function sendConverted(
	parameterPath: string,
	fieldLabel: string,
	bodyKey: string,
	convert: (value: unknown, context: IExecuteSingleFunctions) => unknown,
	{ merge = false }: { merge?: boolean } = {},
): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const value = this.getNodeParameter(parameterPath, undefined);
		let converted: unknown;
		try {
			converted = convert(value, this);
		} catch (error) {
			throw invalidField(this.getNode(), fieldLabel, (error as Error).message, this.getItemIndex());
		}
		// Nothing to send: a field added but left empty (no entries, no list items) changes nothing.
		const empty = converted === undefined || (Array.isArray(converted) ? converted.length === 0 : isPlainObject(converted) && Object.keys(converted).length === 0);
		if (!empty) {
			const body = { ...((requestOptions.body as IDataObject) ?? {}) };
			// `merge` combines maps written by several fields (participants added and removed).
			body[bodyKey] = merge ? { ...((body[bodyKey] as IDataObject) ?? {}), ...(converted as IDataObject) } : (converted as IDataObject[string]);
			requestOptions.body = body;
		}
		return requestOptions;
	};
}

function isPlainObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Comma-separated text or a list (from an expression) as a list of non-empty strings. */
export function toStringList(value: unknown): string[] {
	const entries = Array.isArray(value) ? value : String(value ?? '').split(',');
	return entries.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

/**
 * The value of a resource locator field ("From List" or "By ID"), or of a plain value saved
 * before the field offered a list. Unchanged (IDs are passed byte for byte).
 */
export function locatorValue(value: unknown): string {
	const raw = value !== null && typeof value === 'object' && 'value' in value ? (value as { value: unknown }).value : value;
	return String(raw ?? '');
}

/**
 * A resource locator field with two modes, "From List" (`searchListMethod`, searchable) and
 * "By ID"; `defaultMode` is the one a new field starts in.
 */
export function listOrIdField(
	field: Omit<INodeProperties, 'type' | 'default' | 'modes'>,
	list: { searchListMethod: string; placeholder: string },
	idPlaceholder: string,
	defaultMode: 'list' | 'id' = 'list',
): INodeProperties {
	return {
		...field,
		type: 'resourceLocator',
		default: { mode: defaultMode, value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: list.placeholder,
				typeOptions: { searchListMethod: list.searchListMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: idPlaceholder },
		],
	};
}

/**
 * Routing of an optional text field that is sent as it is: an added but empty (or blank) field is
 * not sent, so it changes nothing and never reaches the service as "".
 */
export function sendUnlessEmpty(property: string): NonNullable<INodeProperties['routing']> {
	return { send: { type: 'body', property, value: '={{ typeof $value === "string" && $value.trim() === "" ? undefined : $value }}' } };
}

/**
 * Refuses a request whose body carries an empty title (or one of spaces only, which would show as
 * an empty row in every list), before it is sent, with the editor's wording.
 */
export async function refuseBlankTitle(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const body = requestOptions.body as IDataObject;
	if ('title' in body && (typeof body.title !== 'string' || body.title.trim() === '')) {
		throw invalidField(this.getNode(), 'Title', 'must not be empty', this.getItemIndex());
	}
	return requestOptions;
}

/** Whether an optional field was added but left empty: such a field is not sent. */
export function isEmptyValue(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Due date of a task (or any LocalDateTime field that has a companion time zone field):
 * normalised to the service's 19-character LocalDateTime in a zone that is always sent along.
 * A value with an offset names an instant and is converted into that zone; a value without one
 * is a wall-clock time in it. The zone is the chosen Time Zone, or else the workflow's time zone
 * (which then must be one the service accepts). A wall-clock time that a daylight-saving change
 * skips is moved forward by the gap, and the output says so.
 */
export function sendLocalDateTime(
	collection: string,
	dateField: string,
	zoneField: string,
	fieldLabel: string,
): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const raw = this.getNodeParameter(`${collection}.${dateField}`, '');
		if (isEmptyValue(raw)) return requestOptions;
		const chosenZone = String(this.getNodeParameter(`${collection}.${zoneField}`, '') ?? '').trim();
		const zone = chosenZone || this.getTimezone();
		if (!isIanaZone(zone)) {
			if (chosenZone) throw invalidField(this.getNode(), 'Time Zone', notIanaZoneProblem(zone), this.getItemIndex());
			throw invalidField(
				this.getNode(),
				fieldLabel,
				`the workflow's time zone ${quoted(zone)} is not one the service accepts, so the date cannot be sent in it: choose a Time Zone`,
				this.getItemIndex(),
				'Add the Time Zone field and choose a region name such as Europe/London or America/New_York, or UTC.',
			);
		}
		const date = parseDateInput(raw, zone);
		if (!date) {
			throw invalidField(
				this.getNode(),
				fieldLabel,
				`${quoted(raw)} is not a date and time`,
				this.getItemIndex(),
				DATE_TIME_HINT,
			);
		}
		const gap = skippedWallClock(raw, zone);
		if (gap) addNotice(this, skippedWallClockNotice(fieldLabel, zone, gap));
		requestOptions.body = {
			...((requestOptions.body as IDataObject) ?? {}),
			[dateField]: toLocalDateTime(date, zone),
			[zoneField]: zone,
		};
		return requestOptions;
	};
}

/** Checks an IANA time zone field before sending it; an empty field is not sent. */
export function sendTimeZone(parameterPath: string, fieldLabel: string, bodyKey = 'timeZone'): PreSendAction {
	return sendConverted(parameterPath, fieldLabel, bodyKey, (value) => {
		if (isEmptyValue(value)) return undefined;
		if (!isIanaZone(value)) throw new Error(notIanaZoneProblem(value));
		return value;
	});
}

/** The time zone dropdown shared by every node: searchable, or an expression. */
export function timeZoneField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Time Zone Name or ID',
		name: 'timeZone',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTimeZones' },
		default: '',
		description:
			'IANA time zone, e.g. Europe/Berlin. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		...overrides,
	} as INodeProperties;
}

/** "Return All" and "Limit", as every n8n list operation has them; `limit` routes a declarative operation's Limit (see {@link limitRouting}). */
export function returnAllAndLimitFields(
	displayOptions: INodeProperties['displayOptions'],
	limit?: { routing: INodeProperties['routing']; maximum?: number },
): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, ...(limit?.maximum ? { maxValue: limit.maximum } : {}) },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...displayOptions?.show, returnAll: [false] } },
			...(limit ? { routing: limit.routing } : {}),
		},
	];
}

/** The number of results an item asks for ("Return All" or "Limit"), refused before any request when not a whole number of 1 or more. */
export function resultLimit({ context, parameter, itemIndex }: OperationItem): number {
	if (parameter('returnAll', false) === true) return Number.POSITIVE_INFINITY;
	return checkedLimit(context.getNode(), parameter('limit', 50), itemIndex);
}

function checkedLimit(node: INode, value: unknown, itemIndex: number, maximum = Number.POSITIVE_INFINITY): number {
	const limit = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw invalidField(node, 'Limit', `${quoted(value)} is not a whole number of 1 or more`, itemIndex);
	}
	if (limit > maximum) throw invalidField(node, 'Limit', `must not be greater than ${maximum}`, itemIndex);
	return limit;
}

/**
 * Routing of the Limit field of a declarative list operation: checked before the request, then
 * sent in the query (`query`, for lists the service limits itself) or applied to the output.
 */
export function limitRouting(apply: 'query' | 'output', maximum?: number): INodeProperties['routing'] {
	const check: PreSendAction = async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		checkedLimit(this.getNode(), this.getNodeParameter('limit', 50), this.getItemIndex(), maximum);
		return requestOptions;
	};
	return apply === 'query'
		? { send: { type: 'query', property: 'limit', preSend: [check] } }
		: { send: { preSend: [check] }, output: { postReceive: [{ type: 'limit', properties: { maxResults: '={{ $value }}' } }] } };
}

/** Whether a description is plain text or HTML (`descriptionContentType`), for tasks and events. */
export const descriptionFormatField: INodeProperties = {
	displayName: 'Description Format',
	name: 'descriptionContentType',
	type: 'options',
	options: [
		{ name: 'Plain Text', value: 'text/plain' },
		{ name: 'HTML', value: 'text/html' },
	],
	default: 'text/plain',
	description: 'Whether the description is plain text or HTML',
	routing: { send: { type: 'body', property: 'descriptionContentType' } },
};

/** An operation's Options collection (one per operation; Maximum Wait is in each). */
export function optionsCollection(options: INodeProperties[], displayOptions?: INodeProperties['displayOptions']): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, ...(displayOptions ? { displayOptions } : {}), options };
}
