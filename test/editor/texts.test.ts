/**
 * The texts the editor shows without being asked, in every node's description: each field's hint,
 * each notice and each node hint. They stay short (at most 30 words, a hint one sentence), a node
 * has at most one notice, and a notice about points links to the README's budget section. Longer
 * explanations belong in the field descriptions (shown on hover) and the README. No text of a form or
 * of an example workflow's note does point arithmetic (costs added up belong in the README's table,
 * behind one link), and none promises what n8n's editor does not show.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodeType } from 'n8n-workflow';

import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';
import { SIMPLIFIED_TASK_FIELDS } from '../../nodes/shared/output/simplifyTask';

const ROOT = join(__dirname, '..', '..');

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

/** Each figure of a cost: "10 points", "1 more point", "a 300-point account", "10 per account", "plus 10". */
const COST_FIGURE = /\b\d+(?:-| (?:more )?)points?\b|\b\d+ per\b|\bplus \d+\b/gi;
const costFigures = (text: string) => text.match(COST_FIGURE)?.length ?? 0;
/** Point arithmetic: more than one cost figure in one text. */
const doesPointArithmetic = (text: string) => costFigures(text) > 1;

function strings(value: unknown, into: string[] = []): string[] {
	if (typeof value === 'string') into.push(value);
	else if (Array.isArray(value)) for (const entry of value) strings(entry, into);
	else if (value && typeof value === 'object') for (const entry of Object.values(value)) strings(entry, into);
	return into;
}

interface ExampleWorkflow {
	name: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
	pinData?: Record<string, Array<{ json: Record<string, unknown> }>>;
}
/** The example workflows `npm start` adds (scripts/examples.mjs is an ES module: read in a child process). */
const EXAMPLES = JSON.parse(
	execFileSync(
		process.execPath,
		['--input-type=module', '-e', "import { exampleWorkflows } from './scripts/examples.mjs'; const c = { id: '1', name: 'c', type: 'ctsApi' }; process.stdout.write(JSON.stringify(exampleWorkflows('p', { api: c, sync: c }, { tasksCsv: '/tmp/tasks.csv', tasksTable: { id: 't', name: 't' } })));"],
		{ cwd: ROOT, encoding: 'utf8' },
	),
) as ExampleWorkflow[];
const NOTES = EXAMPLES.flatMap((workflow) =>
	workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote').map((node) => [workflow.name, String(node.parameters.content)] as [string, string]),
);

describe('no point arithmetic in forms and example notes', () => {
	it('the rule catches costs added up, and lets one cost or a budget size through', () => {
		expect(doesPointArithmetic('Costs 10 points for the calendar list (reused for a minute), 10 per account of the chosen calendars, and with tasks 10 per 100 open tasks.')).toBe(true);
		expect(doesPointArithmetic('List the calendars (10 points, plus 10 for the accounts list at most once a minute)')).toBe(true);
		expect(doesPointArithmetic('Checks at most every 2 minutes on a 300-point account (7.5 on a 100-point one, 75 s on 500)')).toBe(true);
		expect(doesPointArithmetic('Longest range one list call covers (10 points each).')).toBe(false);
		expect(doesPointArithmetic('Checks at most every 7.5 min on a 100-point account, 2 min on 300, 75 s on 500 (per 15 min).')).toBe(false);
	});

	it.each(NODES.map((nodeType) => [nodeType.description.displayName, nodeType]))('%s: no text of its form adds up points', (_name, nodeType) => {
		expect(strings(nodeType.description.properties).filter(doesPointArithmetic)).toEqual([]);
		expect(strings(nodeType.description.hints ?? []).filter(doesPointArithmetic)).toEqual([]);
	});

	it('finds the notes of every example workflow', () => {
		expect(NOTES.length).toBeGreaterThanOrEqual(EXAMPLES.length - 1);
	});

	it.each(NOTES)('%s: its note names no cost (the README\'s budget section has them, behind one link)', (_workflow, content) => {
		expect(content.match(COST_FIGURE)).toBeNull();
		expect((content.match(/\]\(https?:[^)]*\)/g) ?? []).filter((link) => link.includes('point-budget')).length).toBeLessThanOrEqual(1);
	});
});

describe('the task-completed example', () => {
	const workflow = EXAMPLES.find((candidate) => candidate.name === 'CTS example: task completed')!;
	const trigger = workflow.nodes.find((node) => node.type === 'p.ctsTaskTrigger')!;
	const note = NOTES.find(([name]) => name === workflow.name)![1];

	it('its pinned sample is a completed task, shaped as the trigger\'s Simplified output', () => {
		const [sample] = workflow.pinData?.[trigger.name] ?? [];
		expect(sample.json).toMatchObject({ progress: 'completed', triggerEvent: 'completed' });
		expect(Object.keys(sample.json).filter((key) => !SIMPLIFIED_TASK_FIELDS.includes(key) && key !== 'triggerEvent')).toEqual([]);
	});

	it('the message its note suggests shows the completed icon for the sample', () => {
		const expression = /`\{\{ (.+?) \}\} \{\{ \$json\.title \}\}`/.exec(note)?.[1];
		expect(expression).toContain('$json.triggerEvent');
		const icon = new Function('$json', `return ${expression}`)(workflow.pinData![trigger.name][0].json);
		expect(icon).toBe('✅');
	});
});

describe('no promise of what n8n\'s editor does not show', () => {
	/** n8n's editor shows only "Connection tested successfully", never a credential test's own message. */
	const PROMISE = /credential test (?:shows|tells|says)/i;
	const documents = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

	it.each(NODES.map((nodeType) => [nodeType.description.displayName, nodeType]))('%s: no text says the credential test shows something', (_name, nodeType) => {
		expect(strings(nodeType.description).filter((text) => PROMISE.test(text))).toEqual([]);
	});

	it.each(documents)('%s: no sentence says the credential test shows something', (file) => {
		expect(readFileSync(join(ROOT, file), 'utf8').split(/\n\s*\n/).filter((block) => PROMISE.test(block.replace(/\s+/g, ' ')))).toEqual([]);
	});
});

describe('links into the README', () => {
	/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
	const anchorOf = (heading: string) =>
		heading
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
	const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
	const anchors = new Set([...readme.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])));
	const sources = (folder: string): string[] =>
		readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
			entry.isDirectory() ? sources(join(folder, entry.name)) : /\.(ts|json)$/.test(entry.name) ? [join(folder, entry.name)] : [],
		);
	const links = ['nodes', 'credentials'].flatMap(sources).flatMap((file) =>
		[...readFileSync(join(ROOT, file), 'utf8').matchAll(/n8n-nodes-calendar-task-service#([\w-]+)/g)].map((match) => [file, `#${match[1]}`]),
	);

	it('the nodes and credentials link into the README', () => {
		expect(links.length).toBeGreaterThan(5);
	});

	it.each(links)('%s: %s is a heading of the README', (_file, anchor) => {
		expect(anchors).toContain(anchor.slice(1));
	});

	it('every link of the README to a section of its own reaches a heading', () => {
		const own = [...readme.matchAll(/\]\(#([\w-]+)\)/g)].map((match) => match[1]);
		expect(own.length).toBeGreaterThan(5);
		expect(own.filter((anchor) => !anchors.has(anchor))).toEqual([]);
	});

	it('the README stays a user\'s page: at most 45,000 bytes (reference detail lives in docs/)', () => {
		expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(45_000);
	});
});
