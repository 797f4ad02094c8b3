/**
 * Measures what the declarative model costs per item, without changing the package: Create as a
 * custom operation (`ctsCustom`, as Get Many is) is applied at run time to a loaded copy of the
 * node, in this process only, and run interleaved with the package as published, n8n's HTTP
 * Request node and the minimal programmatic node. The custom operation reads Title once per item
 * and sends through the package's own transport layer (point budget, retries, errors). A prototype: Title only, no additional fields, no "Continue On Fail".
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node build/test/bench/whatIf.js [rounds=9]
 */
import { createEngine, createVariants, ROOT } from './setup';

import { join } from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { countExpressions } from './expressions';
import { median } from './measure';
import { SandboxProcess } from './sandboxProcess';

// The package's compiled transport layer (point budget, retries, errors), as the nodes use it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const transport = require(join(ROOT, 'dist', 'nodes', 'shared', 'transport', 'transport.js'));

async function createAsCustomOperation(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output = await Promise.all(
		items.map(async (_item, itemIndex) => {
			const title = this.getNodeParameter('title', itemIndex) as string;
			const body = (await transport.ctsRequest.call(this, 'ctsApi', { method: 'POST', url: '/v3/tasks/create', body: { title } }, itemIndex)) as {
				data: IDataObject;
			};
			return { json: { id: body.data.id }, pairedItem: { item: itemIndex } };
		}),
	);
	return [output];
}

async function main(): Promise<void> {
	const rounds = Number(process.argv[2] ?? 9);
	const sandbox = new SandboxProcess();
	const published = createEngine();
	const custom = createEngine();
	const ctsType = 'n8n-nodes-calendar-task-service.ctsTask';
	const customNode = custom.nodeTypes.getByNameAndVersion(ctsType) as { customOperations: Record<string, Record<string, unknown>> };
	customNode.customOperations.task.create = createAsCustomOperation;
	await sandbox.start();
	try {
		const items = Array.from({ length: 1000 }, (_, index) => ({ title: `what-if-${index}` }));
		const base = createVariants(published, sandbox, items);
		const cases: Record<string, { run: () => Promise<{ ms: number; ids: unknown[] }> }> = {
			cts: { run: base.cts.run },
			ctsCustom: { run: createVariants(custom, sandbox, items).cts.run },
			http: { run: base.http.run },
			floor: { run: base.floor.run },
		};
		const names = Object.keys(cases);
		const wall: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
		const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
		const use = async () => {
			await sandbox.reset();
			await sandbox.unlimited();
		};
		for (let round = 0; round <= rounds; round++) {
			for (let index = 0; index < names.length; index++) {
				const name = names[(index + round) % names.length];
				await use();
				const before = process.cpuUsage();
				const { ms, ids } = await cases[name].run();
				const used = process.cpuUsage(before);
				if (new Set(ids).size !== items.length) throw new Error(`${name}: ${ids.length} of ${items.length} created`);
				if (round > 0) {
					wall[name].push(ms);
					cpu[name].push((used.user + used.system) / 1000);
				}
			}
		}
		const paired = (series: Record<string, number[]>, a: string, b: string) => median(series[a].map((value, round) => value / series[b][round]));
		console.log(`| Variant | Expressions per item | Per item | CPU per item | ÷ HTTP Request |`);
		console.log('|---|---|---|---|---|');
		for (const name of names) {
			await use();
			const { total } = await countExpressions(async () => await cases[name].run());
			console.log(
				`| ${name} | ${total / items.length} | ${(median(wall[name]) / items.length).toFixed(3)} ms | ${(median(cpu[name]) / items.length).toFixed(3)} ms | ${paired(wall, name, 'http').toFixed(2)}× |`,
			);
		}
		console.log(`\n${rounds} rounds of ${items.length} items after a warm-up; ratios round by round, then the median.`);
	} finally {
		await sandbox.stop();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
