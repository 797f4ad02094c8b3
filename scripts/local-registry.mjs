/**
 * A local npm registry (Verdaccio, a development dependency) on the loopback address, so that n8n
 * installs, updates and removes the package from its own *Settings → Community nodes* page, as
 * users do, without the package being on npmjs.com.
 *
 *   node scripts/local-registry.mjs [--port 4873]
 *
 * builds and packs the package, publishes it, prints how to point an n8n at the registry, and
 * runs until Ctrl-C (its storage is a temporary folder, removed on exit). The end-to-end tests
 * start and stop it through `startLocalRegistry`.
 *
 * The registry has no uplink: it serves only what is published to it. The package has no runtime
 * dependencies and n8n's install leaves out its dev and peer dependencies, so nothing else is
 * needed; a dependency that crept in would make the install fail here instead of being fetched
 * from the internet. Verdaccio needs Node.js 22 or newer: with an older Node.js it runs on the
 * pinned Node.js of the n8n 2.x install (scripts/n8n-runtime.mjs).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureRuntime, freePort, projectRoot } from './n8n-runtime.mjs';

const VERDACCIO = join(projectRoot, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
/** Verdaccio accepts any token for `publish: $all`; npm only wants one to send. */
const PUBLISH_TOKEN = 'local-registry';

/** A Node.js binary Verdaccio accepts (22 or newer). */
async function verdaccioNode() {
	if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
	return (await ensureRuntime('2')).nodeBin;
}

/** npm without settings inherited from a parent npm run (which would redirect its prefix or registry). */
function npm(args, cwd) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(package|lifecycle|config_)/i.test(key)));
	return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Starts Verdaccio on 127.0.0.1 with an empty storage of its own. Resolves to
 * { url, publish(tarball), versions(name), stop() } once it answers.
 */
export async function startLocalRegistry({ port, timeoutMs = 60_000 } = {}) {
	// First the Node.js to run it on (which may install it): a folder made before would outlive an interrupted install.
	const node = await verdaccioNode();
	const folder = mkdtempSync(join(tmpdir(), 'cts-registry-'));
	const listenPort = port ?? (await freePort());
	const url = `http://127.0.0.1:${listenPort}/`;
	writeFileSync(
		join(folder, 'config.yaml'),
		[
			`storage: ${join(folder, 'storage')}`,
			'auth:',
			'  htpasswd:',
			`    file: ${join(folder, 'htpasswd')}`,
			'    max_users: -1',
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $all',
			'    unpublish: $all',
			'web:',
			'  enable: false',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const child = spawn(node, [VERDACCIO, '--config', join(folder, 'config.yaml'), '--listen', `127.0.0.1:${listenPort}`], {
		cwd: folder,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
	child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
	const exited = new Promise((resolve) => child.on('exit', resolve));

	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
			await exited;
			clearTimeout(timer);
		}
		rmSync(folder, { recursive: true, force: true });
	};

	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (child.exitCode !== null) {
			await stop();
			throw new Error(`Verdaccio exited before it answered:\n${output}`);
		}
		try {
			if ((await fetch(`${url}-/ping`)).ok) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`Verdaccio did not answer within ${timeoutMs / 1000} s:\n${output}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}

	const host = url.replace(/^http:/, '');
	return {
		url,
		output: () => output,
		/** Publishes a packed tarball (as `npm publish` does; no provenance, which only a CI service can make). */
		publish(tarball) {
			npm(['publish', tarball, `--registry=${url}`, `--${host}:_authToken=${PUBLISH_TOKEN}`, '--provenance=false', '--ignore-scripts'], tmpdir());
		},
		/** The versions the registry serves of a package, and its `latest` tag. */
		async versions(name) {
			const response = await fetch(`${url}${encodeURIComponent(name).replace('%40', '@')}`);
			if (response.status === 404) return { versions: [], latest: undefined };
			const document = await response.json();
			return { versions: Object.keys(document.versions ?? {}), latest: document['dist-tags']?.latest };
		},
		stop,
	};
}

async function main(argv) {
	const portIndex = argv.indexOf('--port');
	const port = portIndex >= 0 ? Number(argv[portIndex + 1]) : 4873;
	const { PACKAGE_NAME, packPackage } = await import('./community-package.mjs');
	console.log('Building the package…');
	execFileSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'inherit'] });
	const registry = await startLocalRegistry({ port });
	const packed = mkdtempSync(join(tmpdir(), 'cts-registry-pack-'));
	try {
		const { tarball } = packPackage(packed);
		registry.publish(tarball);
		const { latest } = await registry.versions(PACKAGE_NAME);
		console.log(`\nLocal registry: ${registry.url} serves ${PACKAGE_NAME}@${latest} (and nothing else).`);
		console.log('Point an n8n at it (a custom registry is an n8n license feature, see docs/community-nodes.md):');
		console.log(`  N8N_COMMUNITY_PACKAGES_REGISTRY=${registry.url}`);
		console.log(`and let npm's update check ask it too: echo "registry=${registry.url}" > ~/.n8n/nodes/.npmrc`);
		console.log('Publish another build: npm pack, then');
		console.log(`  npm publish <file>.tgz --registry=${registry.url} --${registry.url.replace(/^http:/, '')}:_authToken=${PUBLISH_TOKEN} --provenance=false`);
		console.log('\nCtrl-C stops the registry.');
	} finally {
		rmSync(packed, { recursive: true, force: true });
	}
	await new Promise((resolve) => {
		process.once('SIGINT', resolve);
		process.once('SIGTERM', resolve);
	});
	await registry.stop();
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main(process.argv.slice(2)).catch((error) => {
		console.error(error.message ?? error);
		process.exit(1);
	});
}
