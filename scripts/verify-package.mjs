#!/usr/bin/env node
/**
 * Checks the package as it would be published: packs it, lists the tarball (only dist/,
 * README.md, LICENSE and package.json may be in it), runs n8n's community-package scanner
 * (`analyzePackage`, the rules n8n applies before it lists a community package) on the unpacked
 * tarball, and `npm audit --omit=dev` (what users install with the package). Exits non-zero on
 * any finding.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzePackage } from '@n8n/scan-community-package/scanner/scanner.mjs';

const work = mkdtempSync(join(tmpdir(), 'cts-pack-'));
let failed = false;
try {
	const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { encoding: 'utf8' }));
	const files = packed.files.map((file) => file.path).sort();
	const unexpected = files.filter((path) => !path.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(path));
	console.log(`tarball: ${packed.filename}, ${files.length} files, ${packed.size} bytes`);
	if (unexpected.length > 0) {
		failed = true;
		console.error(`unexpected files in the tarball:\n  ${unexpected.join('\n  ')}`);
	}
	for (const required of ['README.md', 'LICENSE', 'package.json']) {
		if (!files.includes(required)) {
			failed = true;
			console.error(`missing from the tarball: ${required}`);
		}
	}
	execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
	const result = await analyzePackage(join(work, 'package'), ['**/*.js', 'package.json']);
	if (!result.passed) {
		failed = true;
		console.error(`n8n community package scan failed: ${result.message}\n${result.details ?? ''}`);
	} else {
		console.log('n8n community package scan: passed');
	}
	try {
		console.log(execFileSync('npm', ['audit', '--omit=dev'], { encoding: 'utf8' }).trim());
	} catch (error) {
		failed = true;
		console.error(`npm audit --omit=dev found problems:\n${error.stdout ?? error.message}`);
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
