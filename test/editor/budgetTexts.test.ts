/**
 * No text of the package or its docs states one budget as every account's: accounts have 100, 300
 * or 500 points per 15 minutes (or a budget counted in requests), and the nodes pace by what the
 * service reports. Read: every string of the node and credential descriptions (fields, hints,
 * notices, node hints, options), the README, BENCHMARKS.md, docs/ and the example workflows.
 * A line may name the sandbox's own default, or the usual budgets side by side.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CtsApi } from '../../credentials/CtsApi.credentials';
import { CtsSyncApi } from '../../credentials/CtsSyncApi.credentials';
import { CtsEvent } from '../../nodes/CtsEvent/CtsEvent.node';
import { CtsEventTrigger } from '../../nodes/CtsEventTrigger/CtsEventTrigger.node';
import { CtsEventV1 } from '../../nodes/CtsEvent/CtsEventV1.node';
import { CtsTask } from '../../nodes/CtsTask/CtsTask.node';
import { CtsTaskTrigger } from '../../nodes/CtsTaskTrigger/CtsTaskTrigger.node';

const ROOT = join(__dirname, '..', '..');

/** Ways of stating a fixed budget: "300 points per 15 minutes", "allows 300 points", "budget of 300 points", "300 per 15". */
const FIXED_BUDGET = [/\b\d+ points?\b[^.;]{0,30}\bper (?:user|15|fifteen)\b/i, /\b(?:allows|budget(?: is| of)?\s*\(?)\s*\d+ points\b/i, /\b\d+ (?:points )?per 15[ -]min/i];
/**
 * A sentence about the sandbox's default, one that names the usual budgets together, one account's
 * figure as reported or assumed ("on a 300-point account"), or a test's scaled window in seconds.
 */
const ALLOWED = [/sandbox/i, /\b100\b.*\b300\b.*\b500\b/, /this account's budget is/, /\b(?:at|on|under|of) (?:a|an) \d+-point/i, /\bper \d+ s\b/];

function statesFixedBudget(text: string): boolean {
	return FIXED_BUDGET.some((rule) => rule.test(text)) && !ALLOWED.some((rule) => rule.test(text));
}

function strings(value: unknown, into: string[] = []): string[] {
	if (typeof value === 'string') into.push(value);
	else if (Array.isArray(value)) for (const entry of value) strings(entry, into);
	else if (value && typeof value === 'object') for (const entry of Object.values(value)) strings(entry, into);
	return into;
}

const descriptions = [new CtsTask(), new CtsEvent(), new CtsEventV1(), new CtsTaskTrigger(), new CtsEventTrigger(), new CtsApi(), new CtsSyncApi()].map((type) => ({
	name: 'description' in type ? type.description.displayName : type.displayName,
	texts: strings('description' in type ? type.description : type.properties),
}));

const documents = ['README.md', 'BENCHMARKS.md', ...readdirSync(join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`), 'scripts/examples.mjs'];

it('the rule catches the ways a fixed budget is stated, and lets the usual budgets and reported figures through', () => {
	expect(statesFixedBudget('The service allows 300 points per 15 minutes per user')).toBe(true);
	expect(statesFixedBudget('of the 300 points the service allows per 15 minutes')).toBe(true);
	expect(statesFixedBudget('the budget (300 points per 15 minutes) is what large runs use up')).toBe(true);
	expect(statesFixedBudget("Each check costs 10 points of the account's 300 per 15 minutes")).toBe(true);
	expect(statesFixedBudget('accounts have 100, 300 or 500 points per 15 minutes')).toBe(false);
	expect(statesFixedBudget("0 of 100 points left; this account's budget is 100 points per 15 min")).toBe(false);
	expect(statesFixedBudget("The sandbox's budget is 300 points per 15-minute window by default")).toBe(false);
});

it.each(descriptions.map(({ name, texts }) => [name, texts]))('%s: no text of its description states a fixed budget', (_name, texts) => {
	expect((texts as string[]).filter(statesFixedBudget)).toEqual([]);
});

/** A document's sentences (a table row counts as one), so that a sentence wrapped over lines is read whole. */
function sentencesOf(text: string): string[] {
	return text
		.split(/\n\s*\n|\n(?=\|)/)
		.map((block) => block.replace(/\s*\n\s*/g, ' '))
		.flatMap((block) => block.split(/(?<=[.!?])\s+(?=[A-Z*`(_])/));
}

it.each(documents)('%s: no sentence states a fixed budget', (file) => {
	expect(sentencesOf(readFileSync(join(ROOT, file), 'utf8')).filter(statesFixedBudget)).toEqual([]);
});
