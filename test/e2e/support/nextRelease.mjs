/**
 * The package's next release as the update test publishes it: the packed package at the next minor
 * version, with a second version of CTS Task (as n8n's own nodes add one, `version: [1, 2]`) in
 * which Return Task is on by default. A workflow saved with CTS Task 1 and Return Task left at its
 * default would act differently on version 2; n8n must keep it on version 1. Node types added in
 * the editor afterwards get version 2.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The version after `version` in the minor position (a new node version is not breaking). */
export function nextMinor(version) {
	const [major, minor] = version.split('.').map(Number);
	return `${major}.${minor + 1}.0`;
}

/**
 * CtsTask.node.js of the next release: n8n loads the class named as the file, so the released node
 * moves to CtsTaskV1.node.js (its relative requires stay valid) and this file offers both versions.
 */
const VERSIONED_TASK_NODE = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CtsTask = void 0;
const n8n_workflow_1 = require("n8n-workflow");
const CtsTaskV1_1 = require("./CtsTaskV1.node");
class CtsTaskV2 extends CtsTaskV1_1.CtsTask {
    constructor() {
        super();
        this.description = {
            ...this.description,
            version: 2,
            properties: this.description.properties.map((property) => property.name === 'returnTask' ? { ...property, default: true } : property),
        };
    }
}
class CtsTask extends n8n_workflow_1.VersionedNodeType {
    constructor() {
        const v1 = new CtsTaskV1_1.CtsTask();
        const { displayName, name, icon, group, subtitle, description, usableAsTool } = v1.description;
        super({ 1: v1, 2: new CtsTaskV2() }, { displayName, name, icon, group, subtitle, description, usableAsTool, defaultVersion: 2 });
    }
}
exports.CtsTask = CtsTask;
`;

/** Packs the next release from the packed package `tarball` into `destination`; returns { tarball, version }. */
export function packNextRelease(tarball, destination) {
	const folder = mkdtempSync(join(tmpdir(), 'cts-next-release-'));
	execFileSync('tar', ['-xzf', tarball, '-C', folder]);
	const root = join(folder, 'package');
	const manifestFile = join(root, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
	manifest.version = nextMinor(manifest.version);
	writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
	const nodeFolder = join(root, 'dist', 'nodes', 'CtsTask');
	renameSync(join(nodeFolder, 'CtsTask.node.js'), join(nodeFolder, 'CtsTaskV1.node.js'));
	writeFileSync(join(nodeFolder, 'CtsTask.node.js'), VERSIONED_TASK_NODE);
	const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], { cwd: root, encoding: 'utf8' }));
	return { tarball: join(destination, filename), version: manifest.version };
}
