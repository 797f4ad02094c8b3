/**
 * The built package as n8n loads it: package.json's n8n section, every listed node and
 * credential, icons and codex files, and n8n's own validation of node descriptions.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';

const root = resolve(__dirname, '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('built package', () => {
	let loader: PackageDirectoryLoader;

	beforeAll(async () => {
		if (!existsSync(join(root, 'dist'))) throw new Error('Run `npm run build` first: dist/ is missing');
		loader = new PackageDirectoryLoader(root);
		await loader.loadAll();
	});

	it('has no runtime dependencies and lists n8n-workflow as a peer', () => {
		expect(packageJson.dependencies ?? {}).toEqual({});
		expect(packageJson.peerDependencies).toHaveProperty('n8n-workflow');
		expect(packageJson.keywords).toContain('n8n-community-node-package');
		expect(packageJson.files).toEqual(['dist']);
	});

	it('loads every node and credential listed in package.json', () => {
		const nodeNames = Object.keys(loader.nodeTypes).sort();
		const credentialNames = Object.keys(loader.credentialTypes).sort();
		expect(nodeNames).toHaveLength(packageJson.n8n.nodes.length);
		expect(credentialNames).toEqual(['ctsApi', 'ctsSyncApi']);
	});

	it('resolves node and credential icons to files in dist', () => {
		const described = [
			...Object.values(loader.nodeTypes).map(({ type }) => (type as { description: object }).description),
			...Object.values(loader.credentialTypes).map(({ type }) => type),
		] as Array<{ iconUrl?: { light: string; dark: string } }>;
		for (const { iconUrl } of described) {
			// n8n serves `icons/<package>/<path inside the package>`.
			expect(iconUrl).toBeDefined();
			for (const url of [iconUrl!.light, iconUrl!.dark]) {
				const file = url.replace(`icons/${packageJson.name}/`, '');
				expect(existsSync(join(root, file))).toBe(true);
			}
		}
	});

	it('ships a codex file next to each node', () => {
		for (const file of packageJson.n8n.nodes as string[]) {
			expect(existsSync(join(root, file.replace(/\.js$/, '.json')))).toBe(true);
		}
	});
});
