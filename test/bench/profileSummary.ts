/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, or profile.js): where the busy time goes by
 * activity (expression evaluation, sending requests, RoutingNode, this package, …), self time by
 * area (this package, n8n-core, n8n-workflow, …), and the functions with the most time including
 * what they call. Given the number of items the profile covers, times are also shown per item.
 *
 *   node build/test/bench/profileSummary.js <file.cpuprofile> [items] [top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

interface Profile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

const AREAS: Array<[string, RegExp]> = [
	['n8n-nodes-base', /n8n-nodes-base/],
	['this package (dist/)', /\/dist\/(nodes|credentials)\//],
	['benchmark and harness', /\/build\/(test|credentials)\//],
	['n8n-core', /n8n-core/],
	['n8n-workflow', /n8n-workflow/],
	['axios, follow-redirects, form-data', /\/(axios|follow-redirects|form-data|proxy-from-env)\//],
	['lodash', /\/lodash\//],
	['luxon', /\/luxon\//],
	['other packages', /node_modules/],
	['Node.js internals', /^node:|^internal\//],
];

function area(node: ProfileNode): string {
	const { url, functionName } = node.callFrame;
	if (!url) {
		if (functionName === '(garbage collector)') return 'garbage collector';
		if (functionName === '(idle)') return 'idle (waiting for I/O)';
		if (functionName === '(program)') return 'V8 / native (program)';
		return `native: ${functionName || '(anonymous)'}`;
	}
	for (const [name, pattern] of AREAS) if (pattern.test(url)) return name;
	return 'other';
}

/**
 * Activities in order of precedence: a sample counts for the first activity that any frame of
 * its stack matches, so time inside an expression evaluation counts as expression evaluation
 * wherever it was called from, and time inside the package's own functions counts for the
 * package unless it is spent evaluating expressions or sending requests.
 */
const ACTIVITIES: Array<[string, (frame: ProfileNode['callFrame']) => boolean]> = [
	['n8n expression evaluation', (frame) => /workflow-expression\.js$/.test(frame.url) && frame.functionName === 'resolveSimpleParameterValue'],
	['sending requests and reading answers (axios, http, sockets)', (frame) => /\/(axios|follow-redirects|backend-network)\/|^node:(http|https|net|_http_\w+)$|undici/.test(frame.url)],
	['this package (dist/)', (frame) => /\/dist\/(nodes|credentials)\//.test(frame.url) && !frame.url.includes('node_modules')],
	['n8n-nodes-base (HTTP Request node)', (frame) => frame.url.includes('n8n-nodes-base')],
	['RoutingNode: parameters, request options, merging', (frame) => /routing-node\.js$/.test(frame.url)],
	['n8n engine, other', (frame) => /n8n-(core|workflow)/.test(frame.url)],
	['benchmark, harness, sandbox control', (frame) => /\/build\/(test|credentials)\//.test(frame.url)],
];

function activity(leaf: ProfileNode, byId: Map<number, ProfileNode>, parent: Map<number, number>): string {
	if (!leaf.callFrame.url && leaf.callFrame.functionName === '(garbage collector)') return 'garbage collector';
	let best = ACTIVITIES.length;
	for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
		const frame = byId.get(id)!.callFrame;
		for (let index = 0; index < best; index++) {
			if (ACTIVITIES[index][1](frame)) {
				best = index;
				break;
			}
		}
	}
	return best < ACTIVITIES.length ? ACTIVITIES[best][0] : 'other (Node.js, V8)';
}

function shortUrl(url: string): string {
	const match = /(n8n-core|n8n-workflow|n8n-nodes-base|dist|build|node_modules)\/(.*)$/.exec(url);
	return match ? `${match[1]}/${match[2]}` : url;
}

function main(): void {
	const [file, itemsText = '0', topText = '25'] = process.argv.slice(2);
	if (!file) throw new Error('usage: profileSummary <file.cpuprofile> [items] [top]');
	const items = Number(itemsText);
	const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

	const activities = new Map<string, number>();
	const self = new Map<string, number>();
	const inclusive = new Map<string, number>();
	let total = 0;
	let busy = 0;
	for (let index = 0; index < profile.samples.length; index++) {
		const micros = profile.timeDeltas[index] ?? 0;
		const leaf = byId.get(profile.samples[index])!;
		total += micros;
		const leafArea = area(leaf);
		self.set(leafArea, (self.get(leafArea) ?? 0) + micros);
		if (leafArea.startsWith('idle')) continue;
		busy += micros;
		const doing = activity(leaf, byId, parent);
		activities.set(doing, (activities.get(doing) ?? 0) + micros);
		const seen = new Set<string>();
		for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
			const frame = byId.get(id)!.callFrame;
			if (!frame.url) continue;
			const key = `${frame.functionName || '(anonymous)'}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
			if (seen.has(key)) continue;
			seen.add(key);
			inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
		}
	}
	const pct = (micros: number, of: number) => `${((micros / of) * 100).toFixed(1).padStart(5)} %`;
	const msText = (micros: number) => `${(micros / 1000).toFixed(0).padStart(7)} ms`;
	const perItem = (micros: number) => (items > 0 ? `${(micros / items).toFixed(1).padStart(7)} µs/item` : '');
	console.log(`Profile ${file}: ${(total / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms busy${items > 0 ? ` (${perItem(busy).trim()} over ${items} items)` : ''}`);
	console.log('\nBusy time by activity:');
	for (const [name, micros] of [...activities.entries()].sort((a, b) => b[1] - a[1])) {
		console.log(`${msText(micros)}  ${pct(micros, busy)}  ${perItem(micros)}  ${name}`);
	}
	console.log('\nSelf time by area (share of busy time):');
	for (const [name, micros] of [...self.entries()].sort((a, b) => b[1] - a[1])) {
		console.log(`${msText(micros)}  ${name.startsWith('idle') ? '       ' : pct(micros, busy)}  ${name}`);
	}
	console.log(`\nTop functions by time including callees (share of busy time):`);
	for (const [key, micros] of [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(topText))) {
		console.log(`${msText(micros)}  ${pct(micros, busy)}  ${key}`);
	}
}

main();
