/**
 * The package installed the way users install community packages: the `npm pack` tarball
 * installed into n8n's community-nodes folder (<N8N_USER_FOLDER>/.n8n/nodes), with no custom
 * extension. The node types resolve under the package name
 * (n8n-nodes-calendar-task-service.ctsTask), and the workflow suite runs on them.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

import { projectRoot } from '../../scripts/n8n-runtime.mjs';
import { cliSuite } from './support/cliSuite.mjs';

const PACKAGE = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
const packDir = mkdtempSync(join(tmpdir(), 'cts-pack-'));
after(() => rmSync(packDir, { recursive: true, force: true }));

/** npm without settings inherited from a parent npm run (which would redirect its prefix). */
function npm(args, cwd) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(package|lifecycle|config_(local_prefix|prefix))/i.test(key)));
	return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

cliSuite({
	title: `n8n 2.41.1: the packed tarball installed as a community package (${PACKAGE.name}.*)`,
	line: '2',
	prefix: PACKAGE.name,
	customExtensions: [],
	async prepare(n8n) {
		// What `npm pack` puts in the tarball is what users get from the registry.
		const tarballName = npm(['pack', '--json', '--pack-destination', packDir], projectRoot);
		const [{ filename, files }] = JSON.parse(tarballName);
		assert.ok(files.every(({ path }) => path === 'package.json' || path === 'LICENSE' || path === 'README.md' || path.startsWith('dist/')), 'only dist/ is packed');
		assert.ok(files.some(({ path }) => path === 'dist/nodes/CtsTask/CtsTask.node.js'));

		// The manual install of n8n's docs: npm install in ~/.n8n/nodes.
		const nodesDir = join(n8n.userFolder, '.n8n', 'nodes');
		mkdirSync(nodesDir, { recursive: true });
		writeFileSync(join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
		npm(['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', join(packDir, filename)], nodesDir);
		assert.ok(existsSync(join(nodesDir, 'node_modules', PACKAGE.name, 'dist', 'nodes', 'CtsTask', 'CtsTask.node.js')));
		assert.ok(!existsSync(join(nodesDir, 'node_modules', 'n8n-workflow')), 'the peer dependency comes from n8n itself');

		// n8n lists the package's node types under the package name.
		await n8n.cliOk(['export:nodes', `--output=${join(n8n.userFolder, 'nodes.json')}`]);
		const types = JSON.parse(readFileSync(join(n8n.userFolder, 'nodes.json'), 'utf8')).map((node) => node.name);
		for (const name of ['ctsTask', 'ctsEvent', 'ctsEventV1', 'ctsTaskTrigger']) assert.ok(types.includes(`${PACKAGE.name}.${name}`), `${name} is listed`);
		assert.ok(!types.some((type) => type.startsWith('CUSTOM.')), 'not loaded as a custom extension');
	},
});
