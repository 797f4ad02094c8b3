/**
 * Runs the package's nodes and credentials through n8n's real execution engine (n8n-core):
 * WorkflowExecute for nodes (RoutingNode for declarative ones), the credential test as n8n's
 * server runs it, and PollContext for triggers. Only the parts of n8n's server that the engine
 * leaves to its host are provided here: node and credential type registries and a credentials
 * helper that applies `authenticate` the way n8n's own CredentialsHelper does.
 */
import {
	DirectoryLoader,
	ExecuteContext,
	ExecutionLifecycleHooks,
	PollContext,
	RoutingNode,
	WorkflowExecute,
	WorkflowHasIssuesError,
} from 'n8n-core';
import {
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
	type INodeExecutionData,
	type INodeProperties,
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

/** Fills unset credential fields with their defaults, as n8n does before using a credential. */
function withDefaults(type: string, data: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
	const result = { ...data };
	for (const property of credentialTypes[type].properties) {
		if (result[property.name] === undefined) result[property.name] = property.default as string;
	}
	return result;
}

export function additionalDataFor(
	store: CredentialStore,
	mode: WorkflowExecuteMode,
	workflowData: { id: string; name: string; nodes: INode[]; connections: IDataObject },
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new TestCredentialsHelper(store),
		hooks: new ExecutionLifecycleHooks(mode, 'test-execution', workflowData as never),
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
		executionId: 'test-execution',
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
}

export interface NodeRunResult {
	/** Items of the node's first output (empty when the node failed). */
	items: INodeExecutionData[];
	/** The node's error when it failed (without "Continue On Fail"). */
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
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

	/** Runs Test Input → node under test in a real workflow, the way n8n runs a manual execution. */
	async runNode(options: NodeRunOptions): Promise<NodeRunResult> {
		const store: CredentialStore = new Map();
		const nodeCredentials: Record<string, INodeCredentialsDetails> = {};
		for (const [type, data] of Object.entries(options.credentials ?? {})) {
			const id = `cred-${type}`;
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
		};
		const connections = { Input: { main: [[{ node: 'CTS', type: NodeConnectionTypes.Main, index: 0 }]] } };
		const workflowData = { id: 'test-workflow', name: 'Test', nodes: [input, node], connections };
		const workflow = new Workflow({
			...workflowData,
			active: false,
			nodeTypes: this.nodeTypes,
			settings: { executionOrder: 'v1', timezone: options.timezone ?? 'America/New_York' },
		});
		const additionalData = additionalDataFor(store, 'manual', workflowData);
		let run: IRun;
		try {
			run = await new WorkflowExecute(additionalData, 'manual').run({
				workflow,
				startNode: input,
				destinationNode: { nodeName: 'CTS', mode: 'inclusive' },
			});
		} catch (error) {
			// n8n refuses to start a workflow whose node has issues (a required parameter missing,
			// a value of the wrong type): the editor shows them on the node before any run.
			if (error instanceof WorkflowHasIssuesError) {
				return { items: [], error: error as NodeRunResult['error'], run: { data: { resultData: { runData: {} } } } as unknown as IRun };
			}
			throw error;
		}
		const taskData = run.data.resultData.runData.CTS?.[0];
		return {
			items: taskData?.data?.main?.[0] ?? [],
			error: (taskData?.error ?? run.data.resultData.error) as NodeRunResult['error'],
			run,
		};
	}
}

/**
 * Tests a credential the way n8n's server does for credentials that declare a `test` request:
 * the request runs through RoutingNode with the credential applied, then the rules decide.
 * (Mirrors CredentialsTester.testCredentials in n8n's cli package, which is not published.)
 */
export async function testCredential(
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const credentialType = credentialTypes[type];
	const testRequest = credentialType.test!;
	const store: CredentialStore = new Map([['cred', { type, data }]]);
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'test.credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: { id: 'cred', name: 'Credential under test' } },
	};
	const nodeType: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['input'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: type, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' },
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflowData = { id: 'credential-test', name: 'Credential test', nodes: [node], connections: {} };
	const workflow = new Workflow({ ...workflowData, active: false, nodeTypes });
	const additionalData = additionalDataFor(store, 'internal', workflowData);
	const decrypted = {
		id: 'cred',
		name: 'Credential under test',
		type,
		data: await additionalData.credentialsHelper.getDecrypted(additionalData, { id: 'cred', name: '' }, type, 'internal'),
	};
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		{ resultData: { runData: {} } } as never,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(executeFunctions, nodeType, decrypted).runNode();
	} catch (error) {
		const cause = (error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }).cause;
		if (cause?.response) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === cause.response.status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			return { status: 'Error', message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}` };
		}
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: String((error as Error).message) };
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const body = response?.[0]?.[0]?.json as IDataObject;
			if (body?.[rule.properties.key] === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
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
		private readonly nodeType: INodeType,
		typeName: string,
		parameters: IDataObject,
		credentials: Record<string, ICredentialDataDecryptedObject>,
		private staticData: IDataObject = {},
	) {
		this.store = new Map();
		const nodeCredentials: Record<string, INodeCredentialsDetails> = {};
		for (const [type, data] of Object.entries(credentials)) {
			this.store.set(`cred-${type}`, { type, data });
			nodeCredentials[type] = { id: `cred-${type}`, name: `${type} account` };
		}
		this.node = {
			id: 'trigger',
			name: 'Trigger',
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

	/** An n8n restart on the default path: what polls that returned nothing changed is gone. */
	restartFromStored(): void {
		this.staticData = JSON.parse(JSON.stringify(this.stored)) as IDataObject;
		this.activated = false;
		this.load();
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<INodeExecutionData[][] | null> {
		const workflowData = { id: this.workflow.id, name: 'Trigger', nodes: [this.node], connections: {} };
		const additionalData = additionalDataFor(this.store, mode, workflowData);
		const context = new PollContext(this.workflow, this.node, additionalData, mode, mode === 'manual' ? 'manual' : 'activate');
		const result = await this.nodeType.poll!.call(context);
		if (mode === 'trigger') {
			if (!this.activated || result !== null) this.stored = this.savedStaticData;
			this.activated = true;
		}
		return result;
	}
}
