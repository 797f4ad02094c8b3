/**
 * The texts the editor shows without being asked, in every node's description: each field's hint,
 * each notice and each node hint. They stay short (at most 30 words, a hint one sentence), a node
 * has at most one notice, and a notice about points links to the README's budget section. Longer
 * explanations belong in the field descriptions (shown on hover) and the README.
 */
import type { INodeProperties, INodePropertyCollection, INodeType } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';

/** The most words a hint or notice may have. */
const MAX_WORDS = 30;
/** The README's section about points, as its heading's anchor. */
const BUDGET_SECTION = '#the-point-budget-rate-limits-and-retries';

const NODES: INodeType[] = [new CtsTask(), new CtsEvent(), new CtsEventV1(), new CtsTaskTrigger(), new CtsEventTrigger()];

interface ShownText {
	node: string;
	kind: 'hint' | 'notice' | 'node hint';
	where: string;
	text: string;
}

/** Every property of a list, with those nested in collections and fixed collections. */
function allProperties(properties: Array<INodeProperties | INodePropertyCollection>): INodeProperties[] {
	return properties.flatMap((entry) => {
		if ('values' in entry && Array.isArray(entry.values)) return allProperties(entry.values);
		const property = entry as INodeProperties;
		const nested = (property.options ?? []).filter((option): option is INodeProperties | INodePropertyCollection => typeof option === 'object' && ('type' in option || 'values' in option));
		return [property, ...allProperties(nested)];
	});
}

function shownTexts(nodeType: INodeType): ShownText[] {
	const node = nodeType.description.displayName;
	const texts: ShownText[] = [];
	for (const property of allProperties(nodeType.description.properties)) {
		if (property.hint) texts.push({ node, kind: 'hint', where: property.displayName, text: property.hint });
		if (property.type === 'notice') texts.push({ node, kind: 'notice', where: property.name, text: property.displayName });
	}
	for (const hint of nodeType.description.hints ?? []) texts.push({ node, kind: 'node hint', where: hint.location ?? 'node', text: hint.message });
	return texts;
}

const words = (text: string) => text.replace(/<[^>]*>/g, ' ').split(/\s+/).filter(Boolean).length;
/** Sentences, not counting the dots of "e.g." and of numbers. */
const sentences = (text: string) => text.replace(/<[^>]*>/g, ' ').replace(/\be\.g\./g, 'eg').split(/[.!?](?:\s+|$)/).filter((part) => part.trim()).length;

const ALL = NODES.flatMap(shownTexts);

describe('what the editor shows unasked', () => {
	it('finds the texts of every node (the walk reaches nested options)', () => {
		expect(ALL.length).toBeGreaterThan(0);
		expect(ALL.some((text) => text.where === 'Redeliver After a Restart')).toBe(true);
	});

	it.each(ALL.map((text) => [`${text.node} › ${text.kind} of ${text.where}`, text]))(`%s: at most ${MAX_WORDS} words`, (_label, text) => {
		expect(words(text.text)).toBeLessThanOrEqual(MAX_WORDS);
	});

	it.each(ALL.filter((text) => text.kind !== 'notice').map((text) => [`${text.node} › ${text.kind} of ${text.where}`, text]))('%s: one sentence', (_label, text) => {
		expect({ text: text.text, sentences: sentences(text.text) }).toEqual({ text: text.text, sentences: 1 });
	});

	it.each(NODES.map((nodeType) => [nodeType.description.displayName, nodeType]))('%s: at most one notice, and a notice about points links to the README section', (_name, nodeType) => {
		const notices = shownTexts(nodeType).filter((text) => text.kind === 'notice');
		// One notice shown under different conditions (several properties, one text) counts once.
		expect(new Set(notices.map((notice) => notice.text)).size).toBeLessThanOrEqual(1);
		for (const notice of notices.filter((text) => /\bpoints?\b/i.test(text.text))) expect(notice.text).toContain(BUDGET_SECTION);
	});
});
