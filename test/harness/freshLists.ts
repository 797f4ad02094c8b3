import type { SandboxClient } from './sandboxClient';

/**
 * Starts the sandbox for a test file and resets it before each test, with the nodes' clock moved
 * on by more than a minute each time: the nodes reuse a list for a minute, so no test sees a list
 * another test read.
 */
export function sandboxWithFreshLists(sandbox: SandboxClient): void {
	beforeAll(async () => await sandbox.start());
	afterAll(async () => await sandbox.stop());
	const realNow = Date.now.bind(Date);
	let shift = 0;
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
	beforeEach(async () => {
		shift += 61_000;
		await sandbox.reset();
	});
}
