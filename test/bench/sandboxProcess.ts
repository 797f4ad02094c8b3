/**
 * The sandbox in a child process (the built `main.js`, state in memory, any free port), driven
 * through the same control and API helpers the tests use. A separate process keeps the
 * service's CPU time and memory out of what the benchmark measures in its own process, as a
 * real service would be.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { SandboxClient } from '../harness/sandboxClient';
import { forgetDistBudgets } from './setup';

export class SandboxProcess extends SandboxClient {
	private child?: ChildProcess;
	private baseUrl?: string;

	override get url(): string {
		if (!this.baseUrl) throw new Error('Sandbox not started');
		return this.baseUrl;
	}

	override async start(): Promise<void> {
		const main = join(__dirname, '..', 'sandbox', 'main.js');
		const child = spawn(process.execPath, [main], {
			// The request log keeps a run of 10,000 items whole (section 11 counts every call of a run).
			env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_DATA: '', SANDBOX_HOST: '127.0.0.1', SANDBOX_REQUEST_LOG: '50000' },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		this.child = child;
		this.baseUrl = await new Promise<string>((resolve, reject) => {
			let output = '';
			child.stdout!.on('data', (chunk: Buffer) => {
				output += chunk.toString();
				const match = /listening on (http:\/\/\S+)/.exec(output);
				if (match) resolve(match[1]);
			});
			child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${output}`)));
		});
		child.stdout!.resume();
	}

	override async stop(): Promise<void> {
		const child = this.child;
		if (!child || child.exitCode !== null) return;
		await new Promise<void>((resolve) => {
			child.once('exit', () => resolve());
			child.kill('SIGTERM');
		});
	}

	/** Fixtures and full budgets; the nodes under test (from dist/) forget what they learnt of the old ones. */
	override async reset(): Promise<void> {
		await super.reset();
		forgetDistBudgets();
	}

	/** Turns rate limiting off (`{"points":null}`). */
	async unlimited(): Promise<void> {
		await this.control('limits', { points: null });
	}

	/** Freezes the sandbox clock at `iso`. */
	async freezeClock(iso: string): Promise<void> {
		await this.control('clock', { now: iso });
	}

	async advanceClock(seconds: number): Promise<void> {
		await this.control('clock', { advanceSeconds: seconds });
	}

	/**
	 * Creates `count` tasks one after another on a frozen clock moved 1 ms after each, so no two
	 * share an `updated` value (the case in which the list can be paged with the fewest calls).
	 */
	async createDistinctTasks(count: number, prefix: string): Promise<string[]> {
		const ids: string[] = [];
		for (let index = 0; index < count; index++) {
			ids.push(await this.createTask({ title: `${prefix}-${index}`, priority: index % 10 }));
			await this.advanceClock(0.001);
		}
		return ids;
	}

	/** Calls and points of the API calls logged since the last clear. */
	async usage(): Promise<{ calls: number; points: number; byPath: Record<string, number>; statuses: Record<string, number> }> {
		const log = await this.requests();
		const byPath: Record<string, number> = {};
		const statuses: Record<string, number> = {};
		for (const call of log) {
			byPath[`${call.method} ${call.path}`] = (byPath[`${call.method} ${call.path}`] ?? 0) + 1;
			statuses[call.status] = (statuses[call.status] ?? 0) + 1;
		}
		return { calls: log.length, points: log.reduce((sum, call) => sum + call.points, 0), byPath, statuses };
	}
}
