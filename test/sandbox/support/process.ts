/**
 * Test support: the sandbox's entry point (`main.ts`) run as a child process, as `npm run sandbox`
 * runs it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const SANDBOX_DIR = join(__dirname, '..');

/**
 * Compiles the sandbox (without tests) next to the project, so `node` resolves its dependencies.
 * `name` keeps the builds of test files that run at the same time apart.
 */
export function buildSandbox(name: string): string {
	const out = join(SANDBOX_DIR, '..', '..', 'build', `${name}-${process.pid}`);
	mkdirSync(out, { recursive: true });
	for (const entry of readdirSync(SANDBOX_DIR, { withFileTypes: true })) {
		if (entry.isDirectory()) continue;
		if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
		const source = readFileSync(join(SANDBOX_DIR, entry.name), 'utf8');
		const { outputText } = ts.transpileModule(source, {
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
		});
		writeFileSync(join(out, entry.name.replace(/\.ts$/, '.js')), outputText);
	}
	return out;
}

export interface MainProcess {
	child: ChildProcessWithoutNullStreams;
	/** Everything it printed so far (stdout and stderr). */
	output: () => string;
	/** The base URL it printed. */
	url: string;
	/** Resolves with the exit code (null when a signal ended it). */
	exited: Promise<number | null>;
}

/** Starts the built `main.js` with `env` added to this process's environment; resolves once it serves. */
export function runMain(buildDir: string, env: Record<string, string>): Promise<MainProcess> {
	const child = spawn(process.execPath, [join(buildDir, 'main.js')], { env: { ...process.env, ...env } });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`main did not start: ${output}`)), 10_000);
		child.stdout.on('data', () => {
			const match = /listening on (http:\/\/\S+)/.exec(output);
			if (match && output.includes('Ctrl-C')) {
				clearTimeout(timer);
				resolve({ child, output: () => output, url: match[1], exited });
			}
		});
		void exited.then(() => {
			clearTimeout(timer);
			reject(new Error(`main exited: ${output}`));
		});
	});
}
