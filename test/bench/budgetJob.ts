/**
 * Section 10: a job bound by the point budget, as users would run it with the package and with
 * what they would pick instead, n8n's HTTP Request node: 500 task creates under 300 points per
 * window (`BENCH_WINDOW_SECONDS`, over a minute), each variant from a fresh window. The HTTP
 * Request node as it comes, with its Retry On Fail setting at its most (5 tries, 5 s apart), and
 * with its Batching option set to the budget (300 items per window), which needs the budget known.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Engine, NodeRunOptions } from '../harness/engine';
import { HTTP_REQUEST_VERSION, httpCreateTaskNode } from './httpRequestNode';
import { timed } from './measure';
import type { Row } from './report';
import { apiCredential, forgetDistBudgets } from './setup';
import type { SandboxProcess } from './sandboxProcess';

const POINTS = 300;
const JOB = 500;

export async function sectionBudgetJob(engine: Engine, sandbox: SandboxProcess, rows: Row[], log: (message: string) => void, windowSeconds: number): Promise<void> {
	const windowMs = windowSeconds * 1000;
	// Fixed windows from the first charged call: 500 points need one reset, the least time any client can take.
	const minimumMs = (Math.ceil(JOB / POINTS) - 1) * windowMs;
	const http = (options: IDataObject, extra: Partial<NodeRunOptions> = {}): Partial<NodeRunOptions> => ({ ...httpCreateTaskNode(sandbox.url, options), ...extra });
	const variants: Array<[string, Partial<NodeRunOptions>]> = [
		['CTS Task node, Create (defaults: Return Task off, the package paces itself)', { type: 'ctsTask', parameters: { resource: 'task', operation: 'create', title: '={{ $json.title }}' } }],
		[`HTTP Request node ${HTTP_REQUEST_VERSION}, defaults`, http({})],
		[`HTTP Request node ${HTTP_REQUEST_VERSION}, Retry On Fail (5 tries, 5 s apart: the most it allows)`, http({}, { settings: { retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 } })],
		[`HTTP Request node ${HTTP_REQUEST_VERSION}, Batching 300 items per ${windowSeconds} s (the budget, known beforehand)`, http({ batching: { batch: { batchSize: POINTS, batchInterval: windowMs } } })],
	];
	for (const [label, options] of variants) {
		await sandbox.reset();
		forgetDistBudgets();
		await sandbox.control('limits', { points: POINTS, windowSeconds });
		const prefix = `job-${rows.length}`;
		const items = Array.from({ length: JOB }, (_, index) => ({ title: `${prefix}-${index}` }));
		log(`budget job: ${label}…`);
		const { result, ms } = await timed(async () => await engine.runNode({ credentials: apiCredential(sandbox), items, mode: 'trigger', ...(options as NodeRunOptions) }));
		const calls = (await sandbox.requests()).filter((call) => call.path === '/v3/tasks/create');
		const accepted = calls.filter((call) => call.status === 200);
		const titles = accepted.map((call) => String((call.body as { title: string }).title));
		const distinct = new Set(titles).size;
		const refused = calls.filter((call) => call.status === 429).length;
		const failedItems = result.error ? JOB : result.items.filter((item: INodeExecutionData) => item.error).length;
		const outcome = result.error ? `the node failed (${result.error.message.slice(0, 80)})` : `${JOB - failedItems} of ${JOB} items succeeded`;
		rows.push({
			section: '10',
			benchmark: `Budget-bound job: ${JOB} task creates at ${POINTS} points per ${windowSeconds} s, ${label}`,
			measured: `${(ms / 1000).toFixed(1)} s; ${outcome}; ${accepted.length} creates accepted (${distinct} distinct tasks, ${accepted.length - distinct} duplicates); ${refused} answers 429`,
			reference: `${(minimumMs / 1000).toFixed(0)} s (1 window reset): every task created once, none refused`,
			met: !result.error && failedItems === 0 && distinct === JOB && accepted.length === JOB && ms <= minimumMs * 1.05 + 5000,
		});
	}
}
