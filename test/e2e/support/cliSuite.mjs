/**
 * The workflow suite run through n8n's CLI (`import:credentials`, `import:workflow`,
 * `execute --id --rawOutput`), shared by the n8n 2.x, n8n 1.x and community-package tests:
 * each asserts the outputs n8n produced and what the sandbox then holds (operationTests.mjs).
 */
import { after, before, describe } from 'node:test';

import { N8nHarness } from './n8n.mjs';
import { operationTests, operationWorkflows } from './operationTests.mjs';
import { startSandbox } from './sandbox.mjs';
import { toolExecutorTests, toolExecutorWorkflows } from './toolExecutor.mjs';
import { credentialsFile } from './workflows.mjs';

/**
 * @param {object} options
 * @param {string} options.title       describe() title
 * @param {'2'|'1'} options.line       n8n line
 * @param {string} options.prefix      node type prefix ('CUSTOM' or the package name)
 * @param {(harness: N8nHarness) => Promise<void>} [options.prepare]  e.g. install the package
 * @param {string[]} [options.customExtensions]
 */
export function cliSuite({ title, line, prefix, prepare, customExtensions }) {
	describe(title, () => {
		let sandbox;
		let n8n;

		before(async () => {
			sandbox = await startSandbox();
			n8n = await N8nHarness.create({ line, ...(customExtensions ? { customExtensions } : {}) });
			await prepare?.(n8n);
			await n8n.importCredentials(
				credentialsFile({ sandboxUrl: sandbox.url, token: await sandbox.token('alice', 24 * 3600), expiredToken: await sandbox.token('alice', -60) }),
			);
			await n8n.importWorkflows([...operationWorkflows(prefix), ...(line === '2' ? toolExecutorWorkflows(prefix) : [])]);
		});

		after(async () => {
			await n8n?.dispose();
			await sandbox?.close();
		});

		const runWorkflow = async (id) => {
			const result = await n8n.execute(id);
			return {
				run: result.run,
				failed: result.code !== 0 || Boolean(result.run?.data?.resultData?.error),
				output: `${result.stdout}\n${result.stderr}\n(n8n execute exited with code ${result.code}${result.signal ? `, signal ${result.signal}` : ''})`,
			};
		};
		operationTests({ sandbox: () => sandbox, runWorkflow });
		// n8n 1.x's Tool Executor takes its query in another shape.
		if (line === '2') toolExecutorTests({ sandbox: () => sandbox, runWorkflow });
	});
}
