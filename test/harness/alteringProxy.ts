/**
 * An HTTP proxy in front of the sandbox that passes every request on and can alter the answer
 * on its way back, as a misbehaving proxy or deployment would: headers removed, a body replaced.
 * The sandbox still does the work; only what the node sees changes.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Answer {
	status: number;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

/**
 * Changes an answer for the request `method path` (path without query), or leaves it (returns
 * it as is). It may also act before the answer is passed on (a change made while a node reads).
 */
export type Alteration = (method: string, path: string, answer: Answer) => Answer | Promise<Answer>;

export class AlteringProxy {
	private server?: Server;
	url = '';

	constructor(
		private readonly target: string,
		public alter: Alteration = (_method, _path, answer) => answer,
	) {}

	async start(): Promise<void> {
		const target = new URL(this.target);
		this.server = createServer((incoming, outgoing) => {
			// The proxy's own server would add a Date header: the answer's headers are what the target sent.
			outgoing.sendDate = false;
			const forward = httpRequest(
				{ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
				(answer) => {
					const chunks: Buffer[] = [];
					answer.on('data', (chunk: Buffer) => chunks.push(chunk));
					answer.on('end', async () => {
						const path = (incoming.url ?? '').split('?')[0];
						const altered = await this.alter(incoming.method ?? 'GET', path, {
							status: answer.statusCode ?? 502,
							headers: { ...answer.headers },
							body: Buffer.concat(chunks),
						});
						const headers = { ...altered.headers, 'content-length': String(altered.body.length) };
						delete headers['transfer-encoding'];
						outgoing.writeHead(altered.status, headers as Record<string, string | string[]>);
						outgoing.end(altered.body);
					});
				},
			);
			incoming.pipe(forward);
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
	}

	async stop(): Promise<void> {
		await new Promise((resolve) => this.server?.close(resolve));
	}
}
