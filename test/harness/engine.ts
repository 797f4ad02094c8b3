/**
 * Runs the package's nodes and credentials through n8n's real execution engine (n8n-core):
 * WorkflowExecute for nodes (RoutingNode for declarative ones), the credential test as n8n's
 * server runs it, and PollContext for triggers. Only the parts of n8n's server that the engine
 * leaves to its host are provided here: node and credential type registries and a credentials
 * helper that applies `authenticate` the way n8n's own CredentialsHelper does.
 */
import { createHash } from 'node:crypto';

import {
	CredentialTestContext,
	DirectoryLoader,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	WorkflowExecute,
	WorkflowHasIssuesError,
} from 'n8n-core';
import {
	cronNodeOptions,
	ICredentialsHelper,
	NodeConnectionTypes,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type ICredentials,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeListSearchResult,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypes,
	type IRequestOptionsSimplified,
	type IRun,
	type IWorkflowExecuteAdditionalData,
	type IVersionedNodeType,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { CtsApi } from '../../credentials/CtsApi.credentials';
import { CtsSyncApi } from '../../credentials/CtsSyncApi.credentials';

export const PACKAGE_NAME = 'n8n-nodes-calendar-task-service';

export const credentialTypes: Record<string, ICredentialType> = {
	ctsApi: new CtsApi(),
	ctsSyncApi: new CtsSyncApi(),
};

/** Emits the items given in its `items` parameter (a JSON array): the input of the node under test. */
class TestInput implements INodeType {
	description = {
		displayName: 'Test Input',
		name: 'testInput',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Test Input' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'string', default: '[]' }],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

export class TestNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType>();

	/**
	 * `nodes` are the package's nodes by their name in the package; `otherNodes` are nodes of other
	 * packages by their full type name (e.g. `n8n-nodes-base.httpRequest`), for comparisons.
	 */
	constructor(nodes: Record<string, INodeType>, otherNodes: Record<string, INodeType> = {}) {
		this.types.set('test.input', new TestInput());
		for (const [name, node] of Object.entries(nodes)) this.types.set(`${PACKAGE_NAME}.${name}`, node);
		for (const [type, node] of Object.entries(otherNodes)) this.types.set(type, node);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string): INodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** Stored credentials by id, as n8n's database would hold them (decrypted here). */
export type CredentialStore = Map<string, { type: string; data: ICredentialDataDecryptedObject }>;

/** The engine's credentials host: same `authenticate` and defaulting rules as n8n's CredentialsHelper. */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly store: CredentialStore) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = credentialTypes[typeName];
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node) throw new Error('Workflow and node are required for declarative credential authentication');
			requestOptions.headers ??= {};
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as IDataObject)) {
					const resolve = (text: string) =>
						text.startsWith('=')
							? String(
									workflow.expression.getSimpleParameterValue(node, text, 'internal', { $credentials: credentials }, undefined, '') ?? '',
								)
							: text;
					const target = requestOptions as unknown as Record<string, IDataObject>;
					target[outerKey] ??= {};
					target[outerKey][resolve(key)] = resolve(value as string);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('Not used by the engine paths under test');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = nodeCredentials.id ? this.store.get(nodeCredentials.id) : undefined;
		if (!stored || stored.type !== type) throw new Error(`No credential of type ${type} with id ${nodeCredentials.id}`);
		return withDefaults(type, stored.data);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type].properties;
	}
}

/**
 * The id a credential is stored under: different data is a different credential, as two
 * credentials saved in n8n have different ids (caches keyed by credential id rely on that).
 */
function credentialId(type: string, data: ICredentialDataDecryptedObject): string {
	return `cred-${type}-${createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 12)}`;
}

/** Fills unset credential fields with their defaults, as n8n does before using a credential. */
function withDefaults(type: string, data: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
	const result = { ...data };
	for (const property of credentialTypes[type].properties) {
		if (result[property.name] === undefined) result[property.name] = property.default as string;
	}
	return result;
}

/** Each run is an execution of its own, with its own ID, as in n8n. */
let executions = 0;

export function additionalDataFor(
	store: CredentialStore,
	mode: WorkflowExecuteMode,
	workflowData: { id: string; name: string; nodes: INode[]; connections: IDataObject },
): IWorkflowExecuteAdditionalData {
	const executionId = `test-execution-${++executions}`;
	return {
		credentialsHelper: new TestCredentialsHelper(store),
		hooks: new ExecutionLifecycleHooks(mode, executionId, workflowData as never),
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used by these nodes');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('Code tasks are not used by these nodes');
		},
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		executionId,
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface NodeRunOptions {
	/** Node type name inside the package, e.g. `ctsTask`, or the full type name of another package's node. */
	type: string;
	parameters: IDataObject;
	/** Credential data by credential type; stored and referenced as n8n would. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Input items; one empty item by default. */
	items?: IDataObject[];
	continueOnFail?: boolean;
	typeVersion?: number;
	/** The workflow's time zone (n8n's default is America/New_York). */
	timezone?: string;
	/** Node settings of the editor's Settings tab (Retry On Fail, Max. Tries, Wait Between Tries). */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;
	/**
	 * The workflow's stored static data, kept by the caller across runs. As n8n does, a run in any
	 * mode but `manual` stores what the nodes changed of it (a published workflow's runs); a manual
	 * run reads it and stores nothing.
	 */
	staticData?: { stored: IDataObject };
	/** The execution mode: `manual` (the editor, default) or, for a published workflow's run, `trigger`. */
	mode?: WorkflowExecuteMode;
	/**
	 * Further nodes of the same type and credentials in the same execution, each fed by the same
	 * input after the node under test (branches of one trigger, run in the order given).
	 */
	alongside?: Array<{ name: string; parameters: IDataObject }>;
}

export interface NodeRunResult {
	/** Items of the node's first output (empty when the node failed). */
	items: INodeExecutionData[];
	/** The node's error when it failed (without "Continue On Fail"). */
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
	/** The first output of each node of `alongside`, by name. */
	alongside: Record<string, INodeExecutionData[]>;
	run: IRun;
}

export class Engine {
	readonly nodeTypes: TestNodeTypes;

	/** `otherNodes`: nodes of other packages by full type name (see {@link TestNodeTypes}). */
	constructor(nodes: Record<string, INodeType>, otherNodes: Record<string, INodeType> = {}) {
		// n8n's loader adds the declarative nodes' request options (batching, proxy, timeout).
		for (const node of [...Object.values(nodes), ...Object.values(otherNodes)]) {
			DirectoryLoader.applyDeclarativeNodeOptionParameters(node);
		}
		this.nodeTypes = new TestNodeTypes(nodes, otherNodes);
	}

	/** A `listSearch` method (a resource locator's "From List"), with the search text the user typed. */
	async runListSearch(method: string, options: MethodRunOptions & { filter?: string; paginationToken?: string }): Promise<INodeListSearchResult> {
		return await runNodeMethod(this.nodeTypes, 'listSearch', method, options, [options.filter, options.paginationToken]);
	}

	/** A `loadOptions` method (a dropdown's options). */
	async runLoadOptions(method: string, options: MethodRunOptions): Promise<INodePropertyOptions[]> {
		return await runNodeMethod(this.nodeTypes, 'loadOptions', method, options, []);
	}

	/** Runs Test Input → node under test in a real workflow, the way n8n runs a manual execution. */
	async runNode(options: NodeRunOptions): Promise<NodeRunResult> {
		return await this.startNode(options).result;
	}

	/**
	 * Starts the run and hands back a way to stop it, as n8n's "Stop execution" does: the engine
	 * aborts the execution's cancel signal and resolves the run with what was done.
	 */
	startNode(options: NodeRunOptions): { result: Promise<NodeRunResult>; cancel: () => void } {
		const store: CredentialStore = new Map();
		const nodeCredentials: Record<string, INodeCredentialsDetails> = {};
		for (const [type, data] of Object.entries(options.credentials ?? {})) {
			const id = credentialId(type, data);
			store.set(id, { type, data });
			nodeCredentials[type] = { id, name: `${type} account` };
		}
		const input: INode = {
			id: 'input',
			name: 'Input',
			type: 'test.input',
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(options.items ?? [{}]) },
		};
		const node: INode = {
			id: 'node',
			name: 'CTS',
			type: options.type.includes('.') ? options.type : `${PACKAGE_NAME}.${options.type}`,
			typeVersion: options.typeVersion ?? 1,
			position: [200, 0],
			parameters: options.parameters as INode['parameters'],
			credentials: nodeCredentials,
			continueOnFail: options.continueOnFail,
			onError: options.continueOnFail ? 'continueRegularOutput' : undefined,
			...options.settings,
		};
		const others: INode[] = (options.alongside ?? []).map(({ name, parameters }, index) => ({
			...node,
			id: `node-${index + 2}`,
			name,
			position: [200, 200 * (index + 1)],
			parameters: parameters as INode['parameters'],
		}));
		const connections = { Input: { main: [[node, ...others].map(({ name }) => ({ node: name, type: NodeConnectionTypes.Main, index: 0 }))] } };
		const workflowData = { id: 'test-workflow', name: 'Test', nodes: [input, node, ...others], connections };
		const mode = options.mode ?? 'manual';
		const workflow = new Workflow({
			...workflowData,
			active: mode !== 'manual',
			nodeTypes: this.nodeTypes,
			settings: { executionOrder: 'v1', timezone: options.timezone ?? 'America/New_York' },
			staticData: options.staticData ? (JSON.parse(JSON.stringify(options.staticData.stored)) as IDataObject) : undefined,
		});
		const additionalData = additionalDataFor(store, mode, workflowData);
		let running: ReturnType<WorkflowExecute['run']> | undefined;
		const result = (async (): Promise<NodeRunResult> => {
			let run: IRun;
			try {
				running = new WorkflowExecute(additionalData, mode).run({
					workflow,
					startNode: input,
					...(others.length === 0 ? { destinationNode: { nodeName: 'CTS', mode: 'inclusive' as const } } : {}),
				});
				run = await running;
			} catch (error) {
				// n8n refuses to start a workflow whose node has issues (a required parameter missing,
				// a value of the wrong type): the editor shows them on the node before any run.
				if (error instanceof WorkflowHasIssuesError) {
					return { items: [], error: error as NodeRunResult['error'], alongside: {}, run: { data: { resultData: { runData: {} } } } as unknown as IRun };
				}
				throw error;
			}
			if (options.staticData && mode !== 'manual' && workflow.staticData.__dataChanged === true) {
				options.staticData.stored = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			}
			const taskData = run.data.resultData.runData.CTS?.[0];
			return {
				items: taskData?.data?.main?.[0] ?? [],
				error: (taskData?.error ?? run.data.resultData.error) as NodeRunResult['error'],
				alongside: Object.fromEntries(others.map(({ name }) => [name, run.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? []])),
				run,
			};
		})();
		return { result, cancel: () => running?.cancel() };
	}
}

export interface MethodRunOptions {
	/** Node type name inside the package, e.g. `ctsEvent`. */
	type: string;
	/** The node's parameters as the editor holds them while the user edits (its current values). */
	parameters: IDataObject;
	/** Credential data by credential type; stored and referenced as n8n would. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Path of the parameter the list is for, e.g. `parameters.calendarId`. */
	path?: string;
}

/**
 * Runs one of a node's `listSearch` or `loadOptions` methods the way n8n's server does when the
 * editor opens a list (DynamicNodeParametersService, in n8n's cli package, which is not
 * published): on a LoadOptionsContext over a workflow of one temporary node that holds the
 * current parameters and credentials.
 */
async function runNodeMethod<T>(
	nodeTypes: TestNodeTypes,
	kind: 'listSearch' | 'loadOptions',
	method: string,
	options: MethodRunOptions,
	args: unknown[],
): Promise<T> {
	const store: CredentialStore = new Map();
	const nodeCredentials: Record<string, INodeCredentialsDetails> = {};
	for (const [type, data] of Object.entries(options.credentials)) {
		store.set(credentialId(type, data), { type, data });
		nodeCredentials[type] = { id: credentialId(type, data), name: `${type} account` };
	}
	const node: INode = {
		id: 'uuid-1234',
		name: 'Temp-Node',
		type: `${PACKAGE_NAME}.${options.type}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters as INode['parameters'],
		credentials: nodeCredentials,
	};
	const workflowData = { id: 'load-options', name: 'Load options', nodes: [node], connections: {} };
	const workflow = new Workflow({ ...workflowData, active: false, nodeTypes });
	const additionalData = additionalDataFor(store, 'internal', workflowData);
	additionalData.currentNodeParameters = options.parameters as INode['parameters'];
	const nodeType = nodeTypes.getByNameAndVersion(node.type);
	const fn = nodeType.methods?.[kind]?.[method] as ((...fnArgs: unknown[]) => Promise<T>) | undefined;
	if (!fn) throw new Error(`${options.type} has no ${kind} method ${method}`);
	const context = new LoadOptionsContext(workflow, node, additionalData, options.path ?? 'parameters');
	return await fn.call(context, ...args);
}

/**
 * Tests a credential the way n8n's server does for credentials tested by a node (`testedBy`):
 * the first node of the package that names the credential with `testedBy` supplies the test
 * function, called with n8n's CredentialTestContext. (Mirrors CredentialsTester in n8n's cli
 * package, which is not published.)
 */
export async function testCredential(
	type: string,
	data: ICredentialDataDecryptedObject,
	nodes: INodeType[],
): Promise<INodeCredentialTestResult> {
	for (const node of nodes) {
		const testedBy = node.description.credentials?.find((credential) => credential.name === type)?.testedBy;
		const test = typeof testedBy === 'string' ? node.methods?.credentialTest?.[testedBy] : undefined;
		if (!test) continue;
		const additionalData = additionalDataFor(new Map(), 'internal', { id: 'credential-test', name: 'Credential test', nodes: [], connections: {} });
		return await test.call(new CredentialTestContext(additionalData), { id: 'cred', name: 'Credential under test', type, data: withDefaults(type, data) });
	}
	throw new Error(`No node of the package tests the credential ${type}`);
}

/**
 * An action node as n8n runs it when an AI agent or MCP client calls it as a tool (the node type
 * n8n names `<type>Tool`). n8n 2.41.1 calls the tool variant's `execute` directly
 * (n8n-core `get-input-connection-data.js`), which for a declarative node is the RoutingNode
 * wrapper n8n assigns when loading it (n8n `node-types.js`): the node's `customOperations` are
 * not consulted. Here the engine, which would consult them, runs the node without them.
 */
export function asTool<T extends INodeType>(nodeType: T): T {
	return Object.create(nodeType, { customOperations: { value: undefined } }) as T;
}

/** A polling node type as n8n loads it: with the Poll Times parameter n8n-core's directory loader adds. */
export function withPollTimes<T extends INodeType>(nodeType: T): T {
	nodeType.description.properties.unshift({
		displayName: 'Poll Times',
		name: 'pollTimes',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: { item: [{ mode: 'everyMinute' }] },
		options: cronNodeOptions,
	});
	return nodeType;
}

/**
 * A polling trigger as an activated workflow runs it: `poll()` on n8n's PollContext over a real
 * Workflow whose static data carries the trigger's cursor from poll to poll. `restart()` reloads
 * the static data from its JSON form, as after an n8n restart; `restartFromStored()` reloads what
 * n8n's default path has stored of it (see `stored`).
 */
export class PollHarness {
	private workflow!: Workflow;
	private readonly node: INode;
	private readonly store: CredentialStore;
	/**
	 * The static data as n8n's default path stores it: once the activation is done (after its first
	 * poll) and whenever a poll returns items; a poll that returns nothing changes it only in memory.
	 */
	private stored: IDataObject;
	private activated = false;

	constructor(
		private nodeType: INodeType,
		typeName: string,
		parameters: IDataObject,
		credentials: Record<string, ICredentialDataDecryptedObject>,
		private staticData: IDataObject = {},
		nodeName = 'Trigger',
	) {
		this.store = new Map();
		const nodeCredentials: Record<string, INodeCredentialsDetails> = {};
		for (const [type, data] of Object.entries(credentials)) {
			this.store.set(credentialId(type, data), { type, data });
			nodeCredentials[type] = { id: credentialId(type, data), name: `${type} account` };
		}
		this.node = {
			id: 'trigger',
			name: nodeName,
			type: `${PACKAGE_NAME}.${typeName}`,
			typeVersion: 1,
			position: [0, 0],
			parameters: parameters as INode['parameters'],
			credentials: nodeCredentials,
		};
		this.stored = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		this.load();
	}

	private load() {
		const nodeTypes = new TestNodeTypes({ [this.node.type.split('.')[1]]: this.nodeType });
		this.workflow = new Workflow({
			id: 'trigger-workflow',
			name: 'Trigger',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: this.staticData,
			settings: { timezone: 'America/New_York' },
		});
	}

	/** The trigger's static data as n8n would store it (JSON). */
	get savedStaticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
	}

	restart(): void {
		this.staticData = this.savedStaticData;
		this.load();
	}

	/** The static data as n8n's default path has stored it (see `stored`). */
	get storedStaticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.stored)) as IDataObject;
	}

	/**
	 * An n8n restart on the default path: what polls that returned nothing changed is gone. Pass
	 * the node type as a new process loads it (a fresh copy of its modules) for a restart of the
	 * process rather than a re-activation within it.
	 */
	restartFromStored(nodeType?: INodeType): void {
		if (nodeType) this.nodeType = nodeType;
		this.staticData = JSON.parse(JSON.stringify(this.stored)) as IDataObject;
		this.activated = false;
		this.load();
	}

	/**
	 * One poll. `manual` is the editor's Fetch Test Event: as in n8n, it reads the static data the
	 * published workflow has stored, and what it changes of it is not kept.
	 */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<INodeExecutionData[][] | null> {
		const workflowData = { id: this.workflow.id, name: 'Trigger', nodes: [this.node], connections: {} };
		const additionalData = additionalDataFor(this.store, mode, workflowData);
		const workflow = mode === 'manual' ? new Workflow({ ...workflowData, active: false, nodeTypes: this.workflow.nodeTypes, staticData: this.storedStaticData, settings: this.workflow.settings }) : this.workflow;
		const context = new PollContext(workflow, this.node, additionalData, mode, mode === 'manual' ? 'manual' : 'activate');
		const result = await this.nodeType.poll!.call(context);
		if (mode === 'trigger') {
			if (!this.activated || result !== null) this.stored = this.savedStaticData;
			this.activated = true;
		}
		return result;
	}
}
