/**
 * Measures two changes to the package that section 1 of the benchmark suggests, without making
 * them: both are applied at run time to loaded copies of the nodes and credential, in this process
 * only, and run interleaved with the package as published and n8n's HTTP Request node.
 *
 * - `ctsAuth`: the CTS API credential's `authenticate` as a function that sets the Authorization
 *   header and, for relative URLs, `baseURL` from the credential, and no `baseURL` expression in the
 *   CTS Task node's `requestDefaults` (`httpAuth`: the HTTP Request node with that credential).
 * - `ctsCustom`: Create as a custom operation (as Get Many is): Title read once per item,
 *   credentials read once per run and handed to n8n's request helper, the package's own retry and
 *   error rules. A prototype: Title only, no additional fields, no "Continue On Fail".
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node build/test/bench/whatIf.js [rounds=9]
 */
import { createEngine, createVariants, ROOT } from './setup';

import { join } from 'node:path';

import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';

import { credentialTypes } from '../harness/engine';
import { countExpressions } from './expressions';
import { median } from './measure';
import { SandboxProcess } from './sandboxProcess';

// The package's compiled transport and error rules, as the nodes use them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const transport = require(join(ROOT, 'dist', 'nodes', 'shared', 'transport.js'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const errors = require(join(ROOT, 'dist', 'nodes', 'shared', 'errors.js'));

const genericAuthenticate = credentialTypes.ctsApi.authenticate;

async function functionAuthenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const url = String(requestOptions.url ?? (requestOptions as { uri?: string }).uri ?? '');
	if (!/^[a-z]+:\/\//i.test(url) && requestOptions.baseURL === undefined) {
		requestOptions.baseURL = String(credentials.baseUrl).replace(/\/+$/, '');
	}
	requestOptions.headers = { ...(requestOptions.headers ?? {}), Authorization: `ApiKey ${String(credentials.apiKey)}` };
	return requestOptions;
}

async function createAsCustomOperation(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const credentials = await this.getCredentials('ctsApi');
	const baseURL = transport.credentialBaseUrl(credentials, 'ctsApi') as string;
	const credentialsDecrypted = { id: 'ctsApi', name: 'ctsApi', type: 'ctsApi', data: credentials };
	const output = await Promise.all(
		items.map(async (_item, itemIndex) => {
			const title = this.getNodeParameter('title', itemIndex) as string;
			const body = (await transport.withRetries(
				async () => {
					let response: IN8nHttpFullResponse;
					try {
						response = (await this.helpers.httpRequestWithAuthentication.call(
							this,
							'ctsApi',
							{
								method: 'POST',
								baseURL,
								url: '/v3/tasks/create',
								body: { title },
								headers: { Accept: 'application/json' },
								json: true,
								returnFullResponse: true,
								ignoreHttpStatusErrors: true,
							},
							{ credentialsDecrypted },
						)) as IN8nHttpFullResponse;
					} catch (error) {
						throw errors.networkError(this.getNode(), error, itemIndex);
					}
					if (response.statusCode >= 400) throw errors.serviceError(this.getNode(), response, itemIndex, 'task');
					return response.body;
				},
				{ isRead: false, signal: this.getExecutionCancelSignal() },
			)) as { data: IDataObject };
			return { json: { id: body.data.id }, pairedItem: { item: itemIndex } };
		}),
	);
	return [output];
}

async function main(): Promise<void> {
	const rounds = Number(process.argv[2] ?? 9);
	const sandbox = new SandboxProcess();
	const published = createEngine();
	const noBaseUrl = createEngine();
	const custom = createEngine();
	const ctsType = 'n8n-nodes-calendar-task-service.ctsTask';
	delete (noBaseUrl.nodeTypes.getByNameAndVersion(ctsType).description.requestDefaults as IDataObject).baseURL;
	const customNode = custom.nodeTypes.getByNameAndVersion(ctsType) as { customOperations: Record<string, Record<string, unknown>> };
	customNode.customOperations.task.create = createAsCustomOperation;
	await sandbox.start();
	try {
		const items = Array.from({ length: 1000 }, (_, index) => ({ title: `what-if-${index}` }));
		const base = createVariants(published, sandbox, items);
		const cases: Record<string, { run: () => Promise<{ ms: number; ids: unknown[] }>; functionAuth: boolean }> = {
			cts: { run: base.cts.run, functionAuth: false },
			ctsAuth: { run: createVariants(noBaseUrl, sandbox, items).cts.run, functionAuth: true },
			ctsCustom: { run: createVariants(custom, sandbox, items).cts.run, functionAuth: false },
			http: { run: base.http.run, functionAuth: false },
			httpAuth: { run: base.http.run, functionAuth: true },
			floor: { run: base.floor.run, functionAuth: false },
		};
		const names = Object.keys(cases);
		const wall: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
		const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
		const use = async (name: string) => {
			credentialTypes.ctsApi.authenticate = cases[name].functionAuth ? functionAuthenticate : genericAuthenticate;
			await sandbox.reset();
			await sandbox.unlimited();
		};
		for (let round = 0; round <= rounds; round++) {
			for (let index = 0; index < names.length; index++) {
				const name = names[(index + round) % names.length];
				await use(name);
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
		console.log(`| Variant | Expressions per item | Per item | CPU per item | ÷ HTTP Request (as published) | ÷ HTTP Request with the function credential |`);
		console.log('|---|---|---|---|---|---|');
		for (const name of names) {
			await use(name);
			const { total } = await countExpressions(async () => await cases[name].run());
			console.log(
				`| ${name} | ${total / items.length} | ${(median(wall[name]) / items.length).toFixed(3)} ms | ${(median(cpu[name]) / items.length).toFixed(3)} ms | ${paired(wall, name, 'http').toFixed(2)}× | ${paired(wall, name, 'httpAuth').toFixed(2)}× |`,
			);
		}
		console.log(`\n${rounds} rounds of ${items.length} items after a warm-up; ratios round by round, then the median.`);
	} finally {
		credentialTypes.ctsApi.authenticate = genericAuthenticate;
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
