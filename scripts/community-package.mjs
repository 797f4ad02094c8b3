/**
 * The package as users get it: `npm pack` of the built package, installed into an n8n user
 * folder's community-nodes folder (<N8N_USER_FOLDER>/.n8n/nodes) the way n8n's docs describe a
 * manual install. n8n then loads its node types under the package name
 * (n8n-nodes-calendar-task-service.ctsTask). Plain Node ESM.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { projectRoot } from './n8n-runtime.mjs';

export const PACKAGE_NAME = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).name;

/** npm without settings inherited from a parent npm run (which would redirect its prefix). */
function npm(args, cwd) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(package|lifecycle|config_(local_prefix|prefix))/i.test(key)));
	return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Packs the built package (dist/ must exist) into `destination`. Resolves to the tarball's path
 * and the files npm put in it.
 */
export function packPackage(destination) {
	mkdirSync(destination, { recursive: true });
	const [{ filename, files }] = JSON.parse(npm(['pack', '--json', '--pack-destination', destination], projectRoot));
	return { tarball: join(destination, filename), files };
}

/** Installs a packed tarball into the user folder's community-nodes folder; returns that folder. */
export function installPackage(userFolder, tarball) {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	npm(['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', tarball], nodesDir);
	return nodesDir;
}
