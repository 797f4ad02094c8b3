#!/usr/bin/env node
/**
 * Checks the package as n8n's verification reads it, and exits non-zero on any finding:
 * - package.json (`checkManifest`): the fields the verification and npm's provenance read;
 * - the tarball `npm pack` makes: only dist/, README.md, LICENSE and package.json;
 * - n8n's community-package scanner (`analyzePackage`, what `npx @n8n/scan-community-package`
 *   runs once the package is published) on the sources it lints (nodes/, credentials/,
 *   package.json) and on the unpacked tarball;
 * - `npm audit --omit=dev` (what users install with the package).
 *
 *   node scripts/verify-package.mjs [package folder]   default: this repository
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const COMMUNITY_KEYWORD = 'n8n-community-node-package';
// `n8n-node lint` accepts `"strict": true` only with this eslint.config.mjs (whitespace aside).
const NODE_CLI_DEFAULT_ESLINT_CONFIG = "import { config } from '@n8n/node-cli/eslint'; export default config;";

/** The files under `root/dir` (recursively) whose names end with `suffix`, as package paths. */
function builtFiles(root, dir, suffix) {
	if (!existsSync(join(root, dir))) return [];
	return readdirSync(join(root, dir), { recursive: true })
		.filter((path) => path.endsWith(suffix))
		.map((path) => `${dir}/${path.split('\\').join('/')}`)
		.sort();
}

function sameMembers(listed, built) {
	return Array.isArray(listed) && JSON.stringify([...listed].sort()) === JSON.stringify(built);
}

/**
 * The findings for the package in `root` (its package.json, LICENSE, CHANGELOG.md,
 * eslint.config.mjs and built dist/), each naming the field and what is wrong. Empty when all
 * is well.
 */
export function checkManifest(root) {
	const findings = [];
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

	// Provenance records the GitHub repository the package was built from; npm refuses to
	// publish when repository.url names another, and n8n checks the npm page's links against it.
	const repository = /^git\+https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)\.git$/.exec(manifest.repository?.url ?? '');
	if (manifest.repository?.type !== 'git' || !repository) {
		findings.push(`repository: must be { "type": "git", "url": "git+https://github.com/<owner>/<name>.git" }, is ${JSON.stringify(manifest.repository)}`);
	} else {
		const github = `https://github.com/${repository[1]}/${repository[2]}`;
		if (manifest.homepage !== `${github}#readme`) {
			findings.push(`homepage: must be the repository's README, ${github}#readme, is ${JSON.stringify(manifest.homepage)}`);
		}
		if (manifest.bugs?.url !== `${github}/issues`) {
			findings.push(`bugs.url: must be the repository's issues, ${github}/issues, is ${JSON.stringify(manifest.bugs?.url)}`);
		}
	}

	if (manifest.license !== 'MIT') findings.push(`license: n8n verifies MIT-licensed packages only, is ${JSON.stringify(manifest.license)}`);
	const licenseFile = join(root, 'LICENSE');
	if (!existsSync(licenseFile)) {
		findings.push('LICENSE: the file is missing');
	} else if (!/^MIT License\b[\s\S]*Permission is hereby granted, free of charge/.test(readFileSync(licenseFile, 'utf8'))) {
		findings.push('LICENSE: is not the MIT licence text');
	}

	if (!manifest.keywords?.includes(COMMUNITY_KEYWORD)) findings.push(`keywords: must include "${COMMUNITY_KEYWORD}"`);

	for (const field of ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
		const value = manifest[field];
		if (value && Object.keys(value).length > 0) findings.push(`${field}: verified packages have no runtime dependencies, found ${Object.keys(value).join(', ')}`);
	}
	if (JSON.stringify(manifest.files) !== JSON.stringify(['dist'])) findings.push(`files: must be ["dist"], is ${JSON.stringify(manifest.files)}`);
	if (manifest.publishConfig?.provenance !== true || manifest.publishConfig?.access !== 'public') {
		findings.push('publishConfig: must be { "access": "public", "provenance": true }, so that no publish goes out without provenance');
	}

	const n8n = manifest.n8n ?? {};
	if (n8n.n8nNodesApiVersion !== 1) findings.push(`n8n.n8nNodesApiVersion: must be 1, is ${JSON.stringify(n8n.n8nNodesApiVersion)}`);
	if (typeof n8n.strict !== 'boolean') {
		findings.push(`n8n.strict: must be true or false, is ${JSON.stringify(n8n.strict)}`);
	} else {
		const eslintConfig = existsSync(join(root, 'eslint.config.mjs')) ? readFileSync(join(root, 'eslint.config.mjs'), 'utf8') : '';
		const isDefaultConfig = eslintConfig.replace(/\s+/g, ' ').trim() === NODE_CLI_DEFAULT_ESLINT_CONFIG;
		if (n8n.strict !== isDefaultConfig) {
			findings.push(n8n.strict
				? 'n8n.strict: is true, but eslint.config.mjs is not n8n-node\'s default, so `n8n-node lint` refuses to run'
				: 'n8n.strict: is false, but eslint.config.mjs is n8n-node\'s default: set it to true');
		}
	}
	if (!existsSync(join(root, 'dist'))) {
		findings.push('dist: missing, run `npm run build` first');
	} else {
		// `npm run build` adds to dist/ without removing: a file built from a deleted source stays.
		const stale = 'or dist/ holds an old build: delete it and build again';
		const nodes = builtFiles(root, 'dist/nodes', '.node.js');
		const credentials = builtFiles(root, 'dist/credentials', '.credentials.js');
		if (!sameMembers(n8n.nodes, nodes)) findings.push(`n8n.nodes: must list exactly the built nodes ${JSON.stringify(nodes)}, is ${JSON.stringify(n8n.nodes)} (${stale})`);
		if (!sameMembers(n8n.credentials, credentials)) {
			findings.push(`n8n.credentials: must list exactly the built credentials ${JSON.stringify(credentials)}, is ${JSON.stringify(n8n.credentials)} (${stale})`);
		}
	}

	const changelog = existsSync(join(root, 'CHANGELOG.md')) ? readFileSync(join(root, 'CHANGELOG.md'), 'utf8') : '';
	if (!changelog.includes(`\n## [${manifest.version}] - `)) findings.push(`version: CHANGELOG.md has no "## [${manifest.version}] - <date>" entry`);
	const breaking = breakingVersionFinding(changelog, manifest.version);
	if (breaking) findings.push(breaking);

	return findings;
}

/**
 * A release whose CHANGELOG entry has a "### Breaking" section (a saved workflow would act
 * differently) must be a major one after the release before it: the major number goes up, or
 * the minor one while the major is 0 (semantic versioning's rule for 0.x).
 */
function breakingVersionFinding(changelog, version) {
	const entries = [...changelog.matchAll(/^## \[(\d+)\.(\d+)\.(\d+)\] - .*$/gm)];
	const index = entries.findIndex((entry) => `${entry[1]}.${entry[2]}.${entry[3]}` === version);
	if (index < 0 || index + 1 >= entries.length) return undefined;
	// The entry runs from its heading to the heading of the release before it.
	const entry = changelog.slice(entries[index].index, entries[index + 1].index);
	if (!/^### Breaking\b/m.test(entry)) return undefined;
	const [major, minor] = [Number(entries[index][1]), Number(entries[index][2])];
	const [previousMajor, previousMinor] = [Number(entries[index + 1][1]), Number(entries[index + 1][2])];
	const isMajor = major > previousMajor || (major === 0 && previousMajor === 0 && minor > previousMinor);
	if (isMajor) return undefined;
	const needed = previousMajor === 0 ? `0.${previousMinor + 1}.0` : `${previousMajor + 1}.0.0`;
	return `version: ${version} has a "### Breaking" section in CHANGELOG.md, so it must be a major release after ${entries[index + 1][1]}.${entries[index + 1][2]}.${entries[index + 1][3]} (${needed})`;
}

/** The findings for the tarball of `root` and n8n's scanner on its sources and on the tarball. */
async function checkTarball(root) {
	const findings = [];
	const work = mkdtempSync(join(tmpdir(), 'cts-pack-'));
	try {
		const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }));
		const files = packed.files.map((file) => file.path).sort();
		console.log(`tarball: ${packed.filename}, ${files.length} files, ${packed.size} bytes`);
		const unexpected = files.filter((path) => !path.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(path));
		if (unexpected.length > 0) findings.push(`tarball: unexpected files ${unexpected.join(', ')}`);
		for (const required of ['README.md', 'LICENSE', 'package.json']) {
			if (!files.includes(required)) findings.push(`tarball: ${required} is missing`);
		}
		execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
		const scans = [
			['sources', await analyzePackage(root, SOURCE_FILE_PATTERNS)],
			['tarball', await analyzePackage(join(work, 'package'), ['**/*.js', 'package.json'])],
		];
		for (const [what, result] of scans) {
			if (result.passed) console.log(`n8n community package scan of the ${what}: passed`);
			else findings.push(`n8n community package scan of the ${what}: ${result.message}\n${result.details ?? ''}`);
		}
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
	return findings;
}

function checkAudit(root) {
	try {
		console.log(execFileSync('npm', ['audit', '--omit=dev'], { cwd: root, encoding: 'utf8' }).trim());
		return [];
	} catch (error) {
		return [`npm audit --omit=dev: ${error.stdout ?? error.message}`];
	}
}

async function main(root) {
	const manifestFindings = checkManifest(root);
	if (manifestFindings.length === 0) console.log('package.json: passed');
	const findings = [...manifestFindings, ...(await checkTarball(root)), ...checkAudit(root)];
	for (const finding of findings) console.error(finding);
	process.exitCode = findings.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main(resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), '../..'))).catch((error) => {
		console.error(error.stack ?? error);
		process.exit(1);
	});
}
