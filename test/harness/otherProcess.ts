import type { INodeType } from 'n8n-workflow';

import type { Engine } from './engine';

/**
 * n8n's engine and the package's nodes loaded a second time, each module anew (jest's isolated
 * module registry): as another n8n process runs them, e.g. a second queue-mode worker. What the
 * nodes keep in a process (the point budget each user has left, whose turn a run is, the memory a
 * sync handed over, lists reused for a minute) is not shared with the first; the sandbox, over
 * HTTP, is. The process starts afresh before each test, as the first does when the sandbox is reset.
 */
export function engineInAnotherProcess(nodes: (loaded: { CtsTask: new () => INodeType; CtsEvent: new () => INodeType }) => Record<string, INodeType>): Engine {
	let engine: Engine | undefined;
	let restart: (() => void) | undefined;
	jest.isolateModules(() => {
		/* eslint-disable @typescript-eslint/no-require-imports */
		const { Engine: IsolatedEngine } = require('./engine') as typeof import('./engine');
		const { CtsTask } = require('../../nodes/CtsTask/CtsTask.node') as typeof import('../../nodes/CtsTask/CtsTask.node');
		const { CtsEvent } = require('../../nodes/CtsEvent/CtsEvent.node') as typeof import('../../nodes/CtsEvent/CtsEvent.node');
		const { forgetPacing } = require('../../nodes/shared/pacing/triggerPacing') as typeof import('../../nodes/shared/pacing/triggerPacing');
		const { forgetHandedOver } = require('../../nodes/CtsTask/shared/syncMemory') as typeof import('../../nodes/CtsTask/shared/syncMemory');
		/* eslint-enable @typescript-eslint/no-require-imports */
		engine = new IsolatedEngine(nodes({ CtsTask, CtsEvent }));
		restart = () => {
			forgetPacing();
			forgetHandedOver();
		};
	});
	beforeEach(() => restart!());
	return engine!;
}
