/**
 * Workflows saved with the last release act the same with the current nodes: the built dist/ keeps
 * every parameter, option value, type and default of the release's node and credential
 * descriptions (recorded in saved-workflow-surface.json, see scripts/saved-workflow-surface.mjs),
 * unless a change comes with a new node version. And the check catches each kind of change on the
 * real descriptions. Needs the built dist/ (`npm run build`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { projectRoot } from '../../scripts/n8n-runtime.mjs';
import { nodeSurface, packageSurface, RECORDED_SURFACE, savedWorkflowBreaks } from '../../scripts/saved-workflow-surface.mjs';

const require = createRequire(import.meta.url);
const { VersionedNodeType } = require('n8n-workflow');
const { CtsTask } = require(join(projectRoot, 'dist', 'nodes', 'CtsTask', 'CtsTask.node.js'));

const current = packageSurface();

/** CTS Task with its description's properties changed by `change` (one node version). */
function changedTask(change, version = 1) {
	const node = new CtsTask();
	node.description = { ...node.description, version, properties: change(node.description.properties) };
	return node;
}

/** The package's surface with CTS Task replaced. */
const withTask = (taskNode) => ({ ...current, nodes: { ...current.nodes, ctsTask: { displayName: 'CTS Task', versions: nodeSurface(taskNode).versions } } });
const breaksWith = (taskNode) => savedWorkflowBreaks(current, withTask(taskNode));

/** Changes the first property named `name` shown for `operation`. */
const editing = (name, operation, edit) => (properties) =>
	properties.map((property) => (property.name === name && property.displayOptions?.show?.operation?.includes(operation) && property.displayOptions?.show?.['@tool']?.[0] !== true ? edit(property) : property));

const renameTitle = editing('title', 'create', (property) => ({ ...property, name: 'taskTitle' }));

describe('saved workflows of the last release', () => {
	it(`act the same with the built nodes: nothing they use renamed, removed, retyped or given another default`, () => {
		const released = JSON.parse(readFileSync(RECORDED_SURFACE, 'utf8'));
		assert.equal(released.package, current.package);
		assert.deepEqual(savedWorkflowBreaks(released, current), [], `changes that make workflows saved with ${released.version} act differently: give the node a new version (see docs/releasing.md)`);
	});

	it('the check names a renamed parameter, a removed option value, a changed type and a changed default', () => {
		assert.deepEqual(breaksWith(changedTask(renameTitle)), ['CTS Task (ctsTask) version 1, @tool=false task/create: title: removed or renamed (saved workflows keep the value under this name)']);
		const withoutClose = (properties) =>
			properties.map((property) => (property.name === 'operation' && property.options?.some((option) => option.value === 'close') ? { ...property, options: property.options.filter((option) => option.value !== 'close') } : property));
		assert.deepEqual(breaksWith(changedTask(withoutClose)), ['CTS Task (ctsTask) version 1, task/*: operation: no longer offers "close"']);
		const returnTaskOn = editing('returnTask', 'create', (property) => ({ ...property, default: true }));
		assert.deepEqual(breaksWith(changedTask(returnTaskOn)), ['CTS Task (ctsTask) version 1, task/create: returnTask: default false became true (saved workflows leave defaults out)']);
		const returnTaskAsOptions = editing('returnTask', 'create', (property) => ({ ...property, type: 'options', options: [{ name: 'Yes', value: true }, { name: 'No', value: false }] }));
		assert.deepEqual(breaksWith(changedTask(returnTaskAsOptions)), ['CTS Task (ctsTask) version 1, task/create: returnTask: type boolean became options']);
	});

	it('the check names a parameter removed inside a collection, a node version no longer offered, and a changed credential field', () => {
		const withoutDue = editing('additionalFields', 'create', (property) => ({ ...property, options: property.options.filter((option) => option.name !== 'due' || option.displayOptions?.show?.['@tool']?.[0] === true) }));
		assert.deepEqual(breaksWith(changedTask(withoutDue)), ['CTS Task (ctsTask) version 1, @tool=false task/create: additionalFields.due: removed or renamed (saved workflows keep the value under this name)']);
		assert.deepEqual(breaksWith(changedTask((properties) => properties, 2)), ['CTS Task (ctsTask): version 1 no longer offered']);
		const credentials = { ...current.credentials, ctsApi: Object.fromEntries(Object.entries(current.credentials.ctsApi).map(([key, entry]) => [key.replace('baseUrl', 'url'), entry])) };
		assert.deepEqual(savedWorkflowBreaks(current, { ...current, credentials }), ['credential ctsApi, */*: baseUrl: removed or renamed (saved workflows keep the value under this name)']);
	});

	it('the same changes in a new node version break nothing: version 1 stays as it was', () => {
		const v1 = new CtsTask();
		const v2 = changedTask((properties) => editing('returnTask', 'create', (property) => ({ ...property, default: true }))(renameTitle(properties)), 2);
		const versioned = new VersionedNodeType({ 1: v1, 2: v2 }, { displayName: 'CTS Task', name: 'ctsTask', group: ['transform'], description: v1.description.description, defaultVersion: 2 });
		assert.deepEqual(Object.keys(nodeSurface(versioned).versions), ['1', '2']);
		assert.deepEqual(breaksWith(versioned), []);
	});

	it('new parameters and new option values break nothing', () => {
		const added = (properties) => [
			...properties.map((property) => (property.name === 'operation' && property.options?.some((option) => option.value === 'close') ? { ...property, options: [...property.options, { name: 'Archive', value: 'archive', action: 'Archive a task' }] } : property)),
			{ displayName: 'Archive Reason', name: 'archiveReason', type: 'string', default: '', displayOptions: { show: { resource: ['task'], operation: ['archive'] } } },
		];
		assert.deepEqual(breaksWith(changedTask(added)), []);
	});
});
