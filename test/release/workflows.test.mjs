/**
 * The GitHub Actions workflows pass both validators of `npm run lint:workflows`, and the
 * validators catch each kind of mistake a workflow edit can make: broken YAML, an unknown key or
 * event, a wrong permission value, an expression reading a property that does not exist, an
 * action without a version.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { lintWorkflow } from '../../scripts/lint-workflows.mjs';

const root = resolve(import.meta.dirname, '../..');
const ciPath = join(root, '.github/workflows/ci.yml');
const publishPath = join(root, '.github/workflows/publish.yml');
const work = mkdtempSync(join(tmpdir(), 'cts-workflows-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Writes `source` with `from` replaced by `to` to a temporary file and lints it. */
async function lintChanged(source, from, to) {
	const text = readFileSync(source, 'utf8');
	assert.ok(text.includes(from), `${source} no longer contains ${JSON.stringify(from)}`);
	const file = join(work, `changed-${Math.random().toString(36).slice(2)}.yml`);
	writeFileSync(file, text.replace(from, to));
	return lintWorkflow(file);
}

describe('GitHub Actions workflows', () => {
	it('ci.yml and publish.yml have no findings', async () => {
		assert.deepEqual(await lintWorkflow(ciPath), []);
		assert.deepEqual(await lintWorkflow(publishPath), []);
	});

	it('publish.yml publishes with provenance from a version tag, with an OIDC token', () => {
		const text = readFileSync(publishPath, 'utf8');
		assert.match(text, /^ {6}id-token: write$/m);
		assert.match(text, /run: npm publish --provenance --access public$/m);
		assert.match(text, /^ {4}tags:\n {6}- 'v\[0-9\]\+\.\[0-9\]\+\.\[0-9\]\+'$/m);
	});

	const mistakes = [
		['YAML that does not parse', publishPath, '      - run: npm ci --no-audit --no-fund', '    - run: npm ci --no-audit --no-fund', /Parse Error/],
		['an unknown job key', ciPath, 'runs-on: ubuntu-latest', 'runson: ubuntu-latest', /unexpected key "runson"/],
		['an unknown event', ciPath, '  push:\n', '  pushed:\n', /unknown Webhook event "pushed"/],
		['a wrong permission value', publishPath, 'id-token: write', 'id-token: writ', /"writ" is invalid for permission of scope "id-token"/],
		['an undefined matrix property', ciPath, 'matrix.node }}-bookworm', 'matrix.nodes }}-bookworm', /property "nodes" is not defined/],
		['an undefined step', ciPath, 'steps.runtimes.outputs.key', 'steps.runtime.outputs.key', /property "runtime" is not defined/],
		['an action without a version', publishPath, 'uses: actions/checkout@v4', 'uses: actions/checkout', /ref is missing/],
	];
	for (const [what, source, from, to, expected] of mistakes) {
		it(`finds ${what}`, async () => {
			const findings = await lintChanged(source, from, to);
			assert.ok(findings.some((finding) => expected.test(finding)), `expected ${expected} in:\n${findings.join('\n')}`);
		});
	}

	it('the command exits non-zero and names the file and line', async () => {
		const file = join(work, 'broken.yml');
		writeFileSync(file, readFileSync(publishPath, 'utf8').replace('id-token: write', 'id-token: writ'));
		const run = () => execFileSync(process.execPath, [join(root, 'scripts/lint-workflows.mjs'), file], { encoding: 'utf8', stdio: 'pipe' });
		assert.throws(run, (error) => error.status === 1 && /broken\.yml:\d+:\d+: "writ" is invalid/.test(error.stderr));
	});
});
