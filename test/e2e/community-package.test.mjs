/**
 * The package installed the way users install community packages: the `npm pack` tarball
 * installed into n8n's community-nodes folder (<N8N_USER_FOLDER>/.n8n/nodes), with no custom
 * extension. The node types resolve under the package name
 * (n8n-nodes-calendar-task-service.ctsTask), and the workflow suite runs on them.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

import { installPackage, PACKAGE_NAME, packPackage } from '../../scripts/community-package.mjs';
import { cliSuite } from './support/cliSuite.mjs';

const packDir = mkdtempSync(join(tmpdir(), 'cts-pack-'));
after(() => rmSync(packDir, { recursive: true, force: true }));

cliSuite({
	title: `n8n 2.41.1: the packed tarball installed as a community package (${PACKAGE_NAME}.*)`,
	line: '2',
	prefix: PACKAGE_NAME,
	customExtensions: [],
	async prepare(n8n) {
		// What `npm pack` puts in the tarball is what users get from the registry.
		const { tarball, files } = packPackage(packDir);
		assert.ok(files.every(({ path }) => path === 'package.json' || path === 'LICENSE' || path === 'README.md' || path.startsWith('dist/')), 'only dist/ is packed');
		assert.ok(files.some(({ path }) => path === 'dist/nodes/CtsTask/CtsTask.node.js'));

		// The manual install of n8n's docs: npm install in ~/.n8n/nodes.
		const nodesDir = installPackage(n8n.userFolder, tarball);
		assert.ok(existsSync(join(nodesDir, 'node_modules', PACKAGE_NAME, 'dist', 'nodes', 'CtsTask', 'CtsTask.node.js')));
		assert.ok(!existsSync(join(nodesDir, 'node_modules', 'n8n-workflow')), 'the peer dependency comes from n8n itself');

		// n8n lists the package's node types under the package name.
		await n8n.cliOk(['export:nodes', `--output=${join(n8n.userFolder, 'nodes.json')}`]);
		const types = JSON.parse(readFileSync(join(n8n.userFolder, 'nodes.json'), 'utf8')).map((node) => node.name);
		for (const name of ['ctsTask', 'ctsEvent', 'ctsEventV1', 'ctsTaskTrigger']) assert.ok(types.includes(`${PACKAGE_NAME}.${name}`), `${name} is listed`);
		assert.ok(!types.some((type) => type.startsWith('CUSTOM.')), 'not loaded as a custom extension');
	},
});
