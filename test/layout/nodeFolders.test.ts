/**
 * The layout of `nodes/`: each node folder depends only on its own files and on `nodes/shared/`,
 * and shared code depends on no node folder, so a change inside one node cannot break another.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const NODES = resolve(__dirname, '../../nodes');
const SHARED = 'shared';

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** The top folder under `nodes/` a path lies in (a node's folder, or `shared`). */
function topFolder(path: string): string {
	return relative(NODES, path).split(sep)[0];
}

/** Every relative import of a file, as `file → target` where target leaves the file's top folder wrongly. */
function crossings(file: string, source = readFileSync(file, 'utf8')): string[] {
	const from = topFolder(file);
	const found: string[] = [];
	for (const match of source.matchAll(/(?:from\s+|import\(\s*|require\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
		const target = resolve(dirname(file), match[1]);
		if (relative(NODES, target).startsWith('..')) continue;
		const to = topFolder(target);
		const allowed = to === from || (to === SHARED && from !== SHARED);
		if (!allowed) found.push(`${relative(NODES, file)} → ${match[1]}`);
	}
	return found;
}

describe('nodes/ layout', () => {
	const files = sourceFiles(NODES);

	it('reads the node folders and the shared code', () => {
		const folders = new Set(files.map(topFolder));
		expect([...folders].sort()).toEqual(['CtsEvent', 'CtsEventTrigger', 'CtsTask', 'CtsTaskTrigger', SHARED]);
	});

	it('no node folder imports another node folder, and shared code imports no node folder', () => {
		expect(files.flatMap((file) => crossings(file))).toEqual([]);
	});

	it('finds a crossing when one is written', () => {
		const probe = join(NODES, 'CtsTask', 'resources', 'task', 'probe.ts');
		expect(crossings(probe, "import { withEnd } from '../../../CtsEvent/shared/eventOutput';")).toHaveLength(1);
		expect(crossings(join(NODES, SHARED, 'time', 'probe.ts'), "import { TASK_RESOURCE } from '../../CtsTask/shared/taskFields';")).toHaveLength(1);
		expect(crossings(probe, "import { utcIso } from '../../../shared/time/dates';\nimport { showFor } from '../../shared/taskFields';")).toEqual([]);
	});
});
