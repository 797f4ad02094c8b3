/**
 * The processes still running that were started for one test: found by a folder of the test's
 * (a state folder, a user folder) in their command line or environment, as every process a
 * start script launches carries its state folder there. Linux (/proc), where the tests run.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** PIDs of running processes whose command line or environment mention `text`. */
export function processesMentioning(text) {
	return runningProcesses(text).map(({ pid }) => pid);
}

/** The running processes whose command line or environment mention `text`: { pid, args }. */
export function runningProcesses(text) {
	const found = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const state = readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (/^\d+ \(.*\) Z /s.test(state)) continue; // exited, not yet reaped by its parent
			const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
			if ((commandLine + readFileSync(`/proc/${entry}/environ`, 'utf8')).includes(text)) {
				found.push({ pid: Number(entry), args: commandLine.split('\0').filter(Boolean) });
			}
		} catch {
			// gone meanwhile, or another user's process
		}
	}
	return found;
}
