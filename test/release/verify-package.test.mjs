/**
 * `npm run verify`'s package.json checks: the package as it is passes, and each check fails on
 * a copy of the package with one thing broken, naming the field. Needs the built dist/
 * (`npm run build`), whose nodes and credentials the n8n section must list.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkManifest } from '../../scripts/verify-package.mjs';

const root = resolve(import.meta.dirname, '../..');
const copied = ['package.json', 'package-lock.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'eslint.config.mjs', 'dist'];
const work = mkdtempSync(join(tmpdir(), 'cts-verify-'));
after(() => rmSync(work, { recursive: true, force: true }));

let copies = 0;
/** A copy of the package's checked files, changed by `change(folder, manifest)`; returns the folder. */
function brokenCopy(change) {
	const folder = join(work, String(++copies));
	for (const name of copied) cpSync(join(root, name), join(folder, name), { recursive: true });
	const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
	change(folder, manifest);
	writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
	return folder;
}

const repo = 'https://github.com/calendar-task-service/n8n-nodes-calendar-task-service';
const breakages = [
	['repository on another host', (_, m) => { m.repository.url = 'git+https://gitlab.com/calendar-task-service/n8n-nodes-calendar-task-service.git'; }, /^repository: must be/],
	['repository as a bare string', (_, m) => { m.repository = `${repo}.git`; }, /^repository: must be/],
	['repository naming another repo than homepage and bugs', (_, m) => { m.repository.url = 'git+https://github.com/someone-else/n8n-nodes-calendar-task-service.git'; }, /^homepage: must be the repository's README, https:\/\/github\.com\/someone-else\//],
	['homepage elsewhere', (_, m) => { m.homepage = 'https://calendar-task-service.example/n8n'; }, /^homepage: must be the repository's README/],
	['bugs elsewhere', (_, m) => { m.bugs = { url: `${repo}/discussions` }; }, /^bugs\.url: must be the repository's issues/],
	['another licence', (_, m) => { m.license = 'Apache-2.0'; }, /^license: n8n verifies MIT-licensed packages only, is "Apache-2.0"/],
	['no LICENSE file', (folder) => rmSync(join(folder, 'LICENSE')), /^LICENSE: the file is missing/],
	['a LICENSE file of another licence', (folder) => writeFileSync(join(folder, 'LICENSE'), 'Apache License\nVersion 2.0, January 2004\n'), /^LICENSE: is not the MIT licence text/],
	['no community keyword', (_, m) => { m.keywords = m.keywords.filter((k) => k !== 'n8n-community-node-package'); }, /^keywords: must include "n8n-community-node-package"/],
	['a runtime dependency', (_, m) => { m.dependencies = { luxon: '3.7.2' }; }, /^dependencies: verified packages have no runtime dependencies, found luxon/],
	['an optional dependency', (_, m) => { m.optionalDependencies = { luxon: '3.7.2' }; }, /^optionalDependencies: /],
	['more published files', (_, m) => { m.files = ['dist', 'test']; }, /^files: must be \["dist"\]/],
	['publishing without provenance', (_, m) => { delete m.publishConfig.provenance; }, /^publishConfig: must be/],
	['another n8n API version', (_, m) => { m.n8n.n8nNodesApiVersion = 2; }, /^n8n\.n8nNodesApiVersion: must be 1, is 2/],
	['no strict flag', (_, m) => { delete m.n8n.strict; }, /^n8n\.strict: must be true or false, is undefined/],
	['strict mode with a custom eslint config', (_, m) => { m.n8n.strict = true; }, /^n8n\.strict: is true, but eslint\.config\.mjs is not n8n-node's default/],
	['the default eslint config without strict mode', (folder) => writeFileSync(join(folder, 'eslint.config.mjs'), "import { config } from '@n8n/node-cli/eslint';\n\nexport default config;\n"), /^n8n\.strict: is false, but eslint\.config\.mjs is n8n-node's default/],
	['a built node not listed', (_, m) => { m.n8n.nodes = m.n8n.nodes.slice(1); }, /^n8n\.nodes: must list exactly the built nodes/],
	['a listed node that is not built', (_, m) => { m.n8n.nodes.push('dist/nodes/CtsNote/CtsNote.node.js'); }, /^n8n\.nodes: must list exactly the built nodes/],
	['a built credential not listed', (_, m) => { m.n8n.credentials = m.n8n.credentials.slice(1); }, /^n8n\.credentials: must list exactly the built credentials/],
	['no n8n section', (_, m) => { delete m.n8n; }, /^n8n\.nodes: must list exactly the built nodes/],
	['no dist', (folder) => rmSync(join(folder, 'dist'), { recursive: true }), /^dist: missing, run `npm run build` first/],
	['a version without a changelog entry', (_, m) => { m.version = '9.9.9'; }, /^version: CHANGELOG\.md has no "## \[9\.9\.9\] - <date>" entry/],
	['a breaking release numbered as a patch', releasing('0.1.1', '### Breaking\n\n- Task Get: the Output option is gone.\n'), /^version: 0\.1\.1 has a "### Breaking" section in CHANGELOG\.md, so it must be a major release after 0\.1\.0 \(0\.2\.0\)/],
];

/** A copy released as `version` with a CHANGELOG entry of `body` above the current first release. */
function releasing(version, body) {
	return (folder, manifest) => {
		manifest.version = version;
		const changelog = readFileSync(join(folder, 'CHANGELOG.md'), 'utf8');
		writeFileSync(join(folder, 'CHANGELOG.md'), changelog.replace(/^## \[\d+\.\d+\.\d+\] - /m, (heading) => `## [${version}] - 2026-12-01\n\n${body}\n${heading}`));
	};
}

describe('npm run verify: package.json checks', () => {
	before(() => {
		if (!existsSync(join(root, 'dist'))) throw new Error('Run `npm run build` first: dist/ is missing');
	});

	it('the package as it is has no findings', () => {
		assert.deepEqual(checkManifest(root), []);
	});

	for (const [what, change, expected] of breakages) {
		it(`fails on ${what}`, () => {
			const findings = checkManifest(brokenCopy(change));
			assert.ok(findings.some((finding) => expected.test(finding)), `expected ${expected} in:\n${findings.join('\n')}`);
		});
	}

	it('a breaking release numbered as a major one (0.x: the minor number) passes, and so does a patch without a Breaking section', () => {
		assert.deepEqual(checkManifest(brokenCopy(releasing('0.2.0', '### Breaking\n\n- Task Get: the Output option is gone.\n'))), []);
		assert.deepEqual(checkManifest(brokenCopy(releasing('0.1.1', '### Fixed\n\n- Task Get: the Output option works again.\n'))), []);
	});

	it('the command exits non-zero on a finding and prints it', () => {
		const folder = brokenCopy((_, m) => { m.license = 'ISC'; });
		const run = () => execFileSync(process.execPath, [join(root, 'scripts/verify-package.mjs'), folder], { encoding: 'utf8', stdio: 'pipe' });
		assert.throws(run, (error) => error.status === 1 && /license: n8n verifies MIT-licensed packages only, is "ISC"/.test(error.stderr));
	});
});
