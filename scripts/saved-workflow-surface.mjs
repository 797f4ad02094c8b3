/**
 * What saved workflows rely on in the package's node and credential descriptions: for each node
 * type and node version, every parameter (by resource/operation and path, collections included)
 * (as a tool and not) with its type, its default and the values it offers; for each credential type, its fields.
 * n8n stores a workflow's parameters by name and leaves out every value equal to the default, so
 * a parameter renamed or removed, an option value removed, a type changed or a default changed
 * makes a saved workflow act differently, unless the change comes with a new node version (n8n
 * keeps saved workflows on the version they were made with).
 *
 *   node scripts/saved-workflow-surface.mjs record [version]   write the surface of the built dist/
 *                                                               as the released one (at a release)
 *   node scripts/saved-workflow-surface.mjs check               compare dist/ with the recorded one
 *
 * test/release/saved-workflows.test.mjs runs the check. Plain Node ESM.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { projectRoot } from './n8n-runtime.mjs';

const require = createRequire(import.meta.url);
export const RECORDED_SURFACE = join(projectRoot, 'test', 'release', 'saved-workflow-surface.json');

/** An instance of the class a built node file exports (n8n loads the class named as the file). */
export function loadClass(file) {
	const exported = require(file);
	const name = file.split('/').pop().split('.')[0];
	const Class = exported[name];
	if (typeof Class !== 'function') throw new Error(`${file} does not export ${name}`);
	return new Class();
}

/** A tool variant's default asks the model for the value; its wording for the model is not what a saved workflow relies on. */
const FROM_AI = /\$fromAI\('([^']*)'.*?\)(?= }})/g;

const list = (value) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);

/** Adds the parameters of `properties` under `prefix`, shown for `context` (resource and operation). */
function addParameters(surface, properties, prefix, context) {
	for (const property of properties ?? []) {
		if (property.type === 'notice' || property.type === 'callout') continue;
		const show = property.displayOptions?.show ?? {};
		const resources = list(show.resource) ?? context.resources;
		const operations = list(show.operation) ?? context.operations;
		// Nodes used as AI tools show other variants of some fields (their defaults ask the model).
		const tool = list(show['@tool']) ?? context.tool;
		const variant = tool ? `@tool=${tool.join('|')} ` : '';
		const path = `${prefix}${property.name}`;
		for (const resource of resources ?? ['*']) {
			for (const operation of operations ?? ['*']) {
				const entry = (surface[`${variant}${resource}/${operation}: ${path}`] ??= { types: [], defaults: [], options: [] });
				const add = (field, value) => {
					if (!entry[field].includes(value)) entry[field].push(value);
				};
				add('types', property.type);
				add('defaults', JSON.stringify(property.default ?? null).replace(FROM_AI, "$$fromAI('$1', …)"));
				if ((property.type === 'options' || property.type === 'multiOptions') && Array.isArray(property.options)) {
					for (const option of property.options) add('options', JSON.stringify(option.value));
				}
			}
		}
		const inner = { resources, operations, tool };
		if (property.type === 'collection') addParameters(surface, property.options, `${path}.`, inner);
		if (property.type === 'fixedCollection') {
			for (const group of property.options ?? []) addParameters(surface, group.values, `${path}.${group.name}.`, inner);
		}
	}
	return surface;
}

/** The parameters of `properties`, each list sorted (the file stays the same for the same descriptions). */
function parameters(properties) {
	const surface = addParameters({}, properties, '', {});
	for (const entry of Object.values(surface)) for (const field of ['types', 'defaults', 'options']) entry[field].sort();
	return surface;
}

/** The surface of one node type: its versions, each with its parameters. */
export function nodeSurface(nodeType) {
	// A versioned node type (n8n's VersionedNodeType) holds one node type per version.
	const byVersion = nodeType.nodeVersions ? Object.values(nodeType.nodeVersions) : [nodeType];
	const versions = {};
	let name;
	for (const versioned of byVersion) {
		const { description } = versioned;
		name = description.name;
		for (const version of list(description.version)) versions[String(version)] = parameters(description.properties);
	}
	return { name, displayName: nodeType.description.displayName, versions };
}

/** The surface of the built package in `root` (its package.json `n8n` section and dist/). */
export function packageSurface(root = projectRoot) {
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	const nodes = {};
	for (const file of manifest.n8n.nodes) {
		const surface = nodeSurface(loadClass(join(root, file)));
		nodes[surface.name] = { displayName: surface.displayName, versions: surface.versions };
	}
	const credentials = {};
	for (const file of manifest.n8n.credentials) {
		const credential = loadClass(join(root, file));
		credentials[credential.name] = parameters(credential.properties);
	}
	return { package: manifest.name, version: manifest.version, nodes, credentials };
}

/**
 * What would make a workflow saved with `released` act differently with `current`: one sentence
 * each, naming the node, version, resource/operation and parameter. Empty when nothing would.
 */
export function savedWorkflowBreaks(released, current) {
	const found = [];
	const compare = (where, before, after) => {
		for (const [key, entry] of Object.entries(before)) {
			const now = after[key];
			if (!now) {
				found.push(`${where}, ${key}: removed or renamed (saved workflows keep the value under this name)`);
				continue;
			}
			const lostTypes = entry.types.filter((type) => !now.types.includes(type));
			if (lostTypes.length > 0) found.push(`${where}, ${key}: type ${entry.types.join('/')} became ${now.types.join('/')}`);
			const lostOptions = entry.options.filter((option) => !now.options.includes(option));
			if (lostOptions.length > 0) found.push(`${where}, ${key}: no longer offers ${lostOptions.join(', ')}`);
			if (JSON.stringify(entry.defaults) !== JSON.stringify(now.defaults)) {
				found.push(`${where}, ${key}: default ${entry.defaults.join(' / ')} became ${now.defaults.join(' / ')} (saved workflows leave defaults out)`);
			}
		}
	};
	for (const [name, node] of Object.entries(released.nodes)) {
		const now = current.nodes[name];
		if (!now) {
			found.push(`${node.displayName} (${name}): node type removed`);
			continue;
		}
		for (const [version, parameters] of Object.entries(node.versions)) {
			if (!now.versions[version]) {
				found.push(`${node.displayName} (${name}): version ${version} no longer offered`);
				continue;
			}
			compare(`${node.displayName} (${name}) version ${version}`, parameters, now.versions[version]);
		}
	}
	for (const [name, fields] of Object.entries(released.credentials)) {
		if (!current.credentials[name]) found.push(`credential type ${name} removed`);
		else compare(`credential ${name}`, fields, current.credentials[name]);
	}
	return found;
}

/** The surface as JSON, one parameter a line (readable diffs at a release). */
function printSurface(value, indent = '') {
	if (value === null || typeof value !== 'object' || Array.isArray(value) || 'types' in value) return JSON.stringify(value);
	const inner = `${indent}\t`;
	return `{\n${Object.entries(value).map(([key, entry]) => `${inner}${JSON.stringify(key)}: ${printSurface(entry, inner)}`).join(',\n')}\n${indent}}`;
}

function main([command, version]) {
	if (command === 'record') {
		const surface = packageSurface();
		if (version) surface.version = version;
		writeFileSync(RECORDED_SURFACE, `${printSurface(surface)}\n`);
		console.log(`Recorded what saved workflows of ${surface.package}@${surface.version} rely on in ${RECORDED_SURFACE}`);
	} else if (command === 'check') {
		const released = JSON.parse(readFileSync(RECORDED_SURFACE, 'utf8'));
		const breaks = savedWorkflowBreaks(released, packageSurface());
		for (const line of breaks) console.log(line);
		console.log(breaks.length === 0 ? `Workflows saved with ${released.version} act the same.` : `${breaks.length} changes would make workflows saved with ${released.version} act differently.`);
		process.exitCode = breaks.length === 0 ? 0 : 1;
	} else {
		console.error('usage: node scripts/saved-workflow-surface.mjs record [version] | check');
		process.exitCode = 2;
	}
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
