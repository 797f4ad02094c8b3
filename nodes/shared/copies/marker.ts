/**
 * Marker lines: how the package finds again what it wrote (a task kept in step with another tool,
 * a time block, a mirrored copy). The interface accepts no link field it documents and keeps, so
 * the marker is a line of the description, which round-trips, survives the user's edits of the
 * other lines and can be searched for in the service's app. A marker line is `<label>: <part> |
 * <part> | …`; a part may hold any text (`%`, `|`, line breaks and `<`, `>` are percent-encoded: the
 * last two so that taking HTML tags off a description never eats a part, such as an e-mail's
 * `<Message-ID>`).
 */

const SEPARATOR = ' | ';

function encodePart(part: string): string {
	return part.replace(/%/g, '%25').replace(/\|/g, '%7C').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/</g, '%3C').replace(/>/g, '%3E');
}

function decodePart(part: string): string {
	return part.replace(/%3E/gi, '>').replace(/%3C/gi, '<').replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%7C/gi, '|').replace(/%25/g, '%');
}

/** The marker line of `label` with its parts, exactly as written and searched for. */
export function markerLine(label: string, parts: string[]): string {
	return `${label}: ${parts.map(encodePart).join(SEPARATOR)}`;
}

/** The text's lines, with HTML tags taken off (a description may be HTML: a paragraph or a break ends a line too). */
function plainLines(text: string): string[] {
	return text
		.replace(/<br\s*\/?>|<\/(?:p|div|li)>/gi, '\n')
		.split(/\r?\n/)
		.map((line) => line.replace(/<[^>]*>/g, '').trim());
}

/** The parts of the first marker line of `label` in the text, or undefined. */
export function readMarker(text: unknown, label: string): string[] | undefined {
	const prefix = `${label}: `;
	for (const line of plainLines(String(text ?? ''))) {
		if (line.startsWith(prefix) && line.length > prefix.length) return line.slice(prefix.length).split(SEPARATOR).map(decodePart);
	}
	return undefined;
}

/** The text without its marker line of `label` (and the blank line {@link withMarker} put before it). */
export function withoutMarker(text: unknown, label: string): string {
	const prefix = `${label}: `;
	const lines = String(text ?? '').split('\n');
	const at = lines.findIndex((line) => line.replace(/<[^>]*>/g, '').trim().startsWith(prefix));
	if (at < 0) return String(text ?? '');
	const before = lines.slice(0, at);
	const after = lines.slice(at + 1);
	// A last marker line follows a blank line of its own when there is text before it.
	if (after.length === 0 && before.length >= 2 && before[before.length - 1].trim() === '') before.pop();
	return [...before, ...after].join('\n');
}

/** The text with its marker line of `label` replaced by `line`, or `line` added after a blank line. */
export function withMarker(text: unknown, label: string, line: string): string {
	const rest = withoutMarker(text, label);
	return rest === '' ? line : `${rest}\n\n${line}`;
}

/**
 * A short fingerprint of values (16 hex digits, two 32-bit FNV-1a hashes): enough to tell whether
 * what was written has changed since, never to recover it. Values are compared as their JSON.
 */
export function fingerprint(value: unknown): string {
	const text = JSON.stringify(value);
	let a = 0x811c9dc5;
	let b = 0x01000193 ^ 0x5bd1e995;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		a = Math.imul(a ^ code, 0x01000193) >>> 0;
		b = Math.imul(b ^ code, 0x01000193 + 2) >>> 0;
	}
	return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}
