/**
 * A small client for the REST API that n8n's editor uses (cookie session): owner setup, login,
 * credentials (create, test), workflows (create, activate) and executions. Plain Node ESM.
 *
 * The session cookie is bound to a browser id, which n8n expects in the `browser-id` header of
 * every later call; the client sends a fixed one.
 */
export class N8nRestClient {
	/**
	 * @param {string} baseUrl  e.g. http://localhost:5678
	 */
	constructor(baseUrl) {
		this.baseUrl = baseUrl.replace(/\/+$/, '');
		this.cookie = '';
		this.browserId = 'cts-n8n-rest-client';
	}

	async request(method, path, body) {
		const response = await fetch(`${this.baseUrl}/rest${path}`, {
			method,
			headers: {
				accept: 'application/json',
				'browser-id': this.browserId,
				...(this.cookie ? { cookie: this.cookie } : {}),
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((line) => line.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await response.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		if (!response.ok) {
			const message = json?.message ?? text.slice(0, 500);
			const error = new Error(`n8n ${method} /rest${path} answered ${response.status}: ${message}`);
			error.status = response.status;
			error.body = json ?? text;
			throw error;
		}
		// Most endpoints wrap their answer in { data }.
		return json && typeof json === 'object' && 'data' in json ? json.data : json;
	}

	/** Whether the instance still waits for its owner account. */
	async needsOwnerSetup() {
		const settings = await this.request('GET', '/settings');
		return settings?.userManagement?.showSetupOnFirstLoad === true;
	}

	/** Creates the owner account (first start only) and keeps its session. */
	async setupOwner({ email, password, firstName = 'CTS', lastName = 'Owner' }) {
		return await this.request('POST', '/owner/setup', { email, password, firstName, lastName });
	}

	async login(email, password) {
		// n8n 1.x and 2.x accept the login id under this name; older 1.x under "email".
		return await this.request('POST', '/login', { emailOrLdapLoginId: email, email, password });
	}

	/** Sets up the owner on a fresh instance, or logs in on a known one. */
	async ensureOwner(owner) {
		if (await this.needsOwnerSetup()) await this.setupOwner(owner);
		else await this.login(owner.email, owner.password);
	}

	async listCredentials() {
		return await this.request('GET', '/credentials');
	}

	/** A credential with its data (secret fields come back redacted, as the editor gets them). */
	async getCredential(id) {
		return await this.request('GET', `/credentials/${id}?includeData=true`);
	}

	async createCredential({ name, type, data }) {
		return await this.request('POST', '/credentials', { name, type, data });
	}

	async deleteCredential(id) {
		return await this.request('DELETE', `/credentials/${id}`);
	}

	async updateCredential(id, { name, type, data }) {
		return await this.request('PATCH', `/credentials/${id}`, { name, type, data });
	}

	/**
	 * Runs the credential type's test the way the editor's "Retry"/"Save" does: n8n sends the
	 * test request and applies the rules. Resolves to { status: 'OK' | 'Error', message }.
	 */
	async testCredential({ id, name, type, data }) {
		return await this.request('POST', '/credentials/test', { credentials: { id, name, type, data } });
	}

	async listWorkflows() {
		return await this.request('GET', '/workflows');
	}

	async getWorkflow(id) {
		return await this.request('GET', `/workflows/${id}`);
	}

	async createWorkflow(workflow) {
		return await this.request('POST', '/workflows', workflow);
	}

	/** Changes a workflow (the fields given, e.g. nodes or settings), as the editor saves it. */
	async updateWorkflow(id, changes) {
		const { versionId } = await this.getWorkflow(id);
		return await this.request('PATCH', `/workflows/${id}`, { ...changes, versionId });
	}

	/**
	 * Activates (in n8n 2.x: publishes) a workflow. 2.x has a dedicated endpoint taking the
	 * version to publish; 1.x activates through an update with `active: true`.
	 */
	async activateWorkflow(id) {
		const workflow = await this.getWorkflow(id);
		try {
			return await this.request('POST', `/workflows/${id}/activate`, { versionId: workflow.versionId });
		} catch (error) {
			if (error.status !== 404) throw error;
			return await this.request('PATCH', `/workflows/${id}`, { active: true, versionId: workflow.versionId });
		}
	}

	async deactivateWorkflow(id) {
		const workflow = await this.getWorkflow(id);
		try {
			return await this.request('POST', `/workflows/${id}/deactivate`, {});
		} catch (error) {
			if (error.status !== 404) throw error;
			return await this.request('PATCH', `/workflows/${id}`, { active: false, versionId: workflow.versionId });
		}
	}

	/**
	 * Runs a workflow as the editor's "Execute workflow" does, from the trigger named (a manual
	 * execution). Resolves to { executionId }.
	 */
	async runWorkflow(id, triggerName) {
		return await this.request('POST', `/workflows/${id}/run`, { triggerToStartFrom: { name: triggerName } });
	}

	/** The owner's personal project (where data tables live), n8n 2.x. */
	async personalProject() {
		return await this.request('GET', '/projects/personal');
	}

	/** The data tables of a project: [{ id, name, columns }]. */
	async listDataTables(projectId) {
		const result = await this.request('GET', `/projects/${projectId}/data-tables`);
		return result?.data ?? result ?? [];
	}

	/** Creates a data table: columns [{ name, type: 'string' | 'number' | 'boolean' | 'date' }]. */
	async createDataTable(projectId, { name, columns }) {
		return await this.request('POST', `/projects/${projectId}/data-tables`, { name, columns });
	}

	async insertDataTableRows(projectId, tableId, rows) {
		return await this.request('POST', `/projects/${projectId}/data-tables/${tableId}/insert`, { data: rows, returnType: 'all' });
	}

	/** Sets `data` in the rows matching every condition of `where` (column: value). */
	async updateDataTableRows(projectId, tableId, where, data) {
		const filters = Object.entries(where).map(([columnName, value]) => ({ columnName, condition: 'eq', value }));
		return await this.request('PATCH', `/projects/${projectId}/data-tables/${tableId}/rows`, { filter: { type: 'and', filters }, data });
	}

	/** The rows of a data table (up to 100), oldest first. */
	async listDataTableRows(projectId, tableId) {
		const result = await this.request('GET', `/projects/${projectId}/data-tables/${tableId}/rows?take=100&sortBy=id:asc`);
		return result?.data ?? result ?? [];
	}

	/** Executions of a workflow, newest first (summaries). */
	async listExecutions(workflowId) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const result = await this.request('GET', `/executions?filter=${filter}`);
		return result?.results ?? result ?? [];
	}

	/**
	 * Every execution of a workflow (summaries), page by page (n8n 2.x pages with a cursor; the
	 * first page also holds the executions still queued or running).
	 */
	async listAllExecutions(workflowId) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const byId = new Map();
		let cursor;
		do {
			const page = await this.request('GET', `/executions?filter=${filter}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
			for (const execution of page?.results ?? []) byId.set(String(execution.id), execution);
			cursor = page?.nextCursor;
		} while (cursor);
		return [...byId.values()];
	}

	/** One execution with its data (n8n sends it flatted-encoded: see parseFlatted). */
	async getExecution(id) {
		return await this.request('GET', `/executions/${id}`);
	}
}

/**
 * Decodes n8n's execution data format (the `flatted` encoding: an array whose first entry is
 * the root and whose string values that are numeric indexes point at other entries).
 */
export function parseFlatted(text) {
	const input = typeof text === 'string' ? JSON.parse(text) : text;
	if (!Array.isArray(input)) return input;
	const values = input.map((value) => (value instanceof String ? value.valueOf() : value));
	const revived = new Set();
	const resolveValue = (value) => {
		if (typeof value === 'string' && /^\d+$/.test(value) && Number(value) < values.length) {
			return reviveEntry(Number(value));
		}
		return value;
	};
	const reviveEntry = (index) => {
		const entry = values[index];
		if (entry === null || typeof entry !== 'object') return entry;
		if (revived.has(index)) return entry;
		revived.add(index);
		for (const key of Object.keys(entry)) entry[key] = resolveValue(entry[key]);
		return entry;
	};
	return reviveEntry(0);
}
