/**
 * The package installed, updated and removed the way users do it: from n8n's *Settings → Community
 * nodes* page in Chromium, against a local registry (scripts/local-registry.mjs) and the sandbox, in
 * n8n 2.x and 1.x at once (one n8n per line, one browser).
 *
 * 1. Install: the package name, the risk notice, Install; the five nodes in the node panel with their
 *    icons; both credentials created and tested in the editor; an example workflow green.
 * 2. Update while published workflows run (a Task Trigger every minute, Sync Tasks every 30 s with
 *    tasks completed in the app, Mirror Busy Time every minute), with changes made in the service
 *    before, during and after the update: every change delivered once, no task made twice, no copy
 *    of an unchanged event written, credentials and workflows unchanged. The next release adds
 *    CTS Task version 2 (Return Task on by default, see support/nextRelease.mjs): a workflow saved
 *    with version 1 stays on it and acts as before.
 * 3. Uninstall: n8n stays healthy and the workflows show n8n's "not installed" state; reinstalled
 *    from that state, they are as they were and run again.
 *
 * n8n serves a registry other than npmjs.com only with a license that has the custom-registry
 * feature (`feat:communityNodes:customRegistry`, both lines): without it, Install answers "Your
 * license does not allow for feat:communityNodes:customRegistry". The tests run n8n in its own
 * end-to-end test mode (`E2E_TESTS=true`), which stubs the license with every feature off, and turn
 * on that one feature (`PATCH /rest/e2e/feature`). The update check (`npm outdated` in the nodes
 * folder) asks npm's own configuration, not that setting: the nodes folder gets an `.npmrc` naming
 * the registry, as on an instance that uses a private registry.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { PACKAGE_NAME, packPackage } from '../../scripts/community-package.mjs';
import { exampleWorkflows } from '../../scripts/examples.mjs';
import { startLocalRegistry } from '../../scripts/local-registry.mjs';
import { projectRoot, RUNTIMES } from '../../scripts/n8n-runtime.mjs';
import { loadClass } from '../../scripts/saved-workflow-surface.mjs';
import { launchChromium, newPage, signIn } from './support/browser.mjs';
import { executionIds, hasFinished, newExecutions, readExecution } from './support/executions.mjs';
import { N8nHarness, OWNER } from './support/n8n.mjs';
import { packNextRelease } from './support/nextRelease.mjs';
import { Deliveries, TASK_TRIGGER } from './support/restarts.mjs';
import { startSandbox } from './support/sandbox.mjs';
import { waitFor } from './support/waiting.mjs';

const VERSION = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).version;
const NODE_NAMES = ['CTS Event', 'CTS Event Trigger', 'CTS Event V1', 'CTS Task', 'CTS Task Trigger'];
const WORK = { accountId: 'acc-alice-b', calendarId: 'cal-alice-b-primary' };
const PERSONAL = { accountId: 'acc-alice-a', calendarId: 'cal-alice-a-primary', name: 'Personal (alice@sandbox.example, Provider A)' };
const SYNC_ITEMS = ['K1', 'K2', 'K3', 'K4'].map((key) => ({ key, title: `Synced task ${key}` }));
const DAY_MS = 86_400_000;

/** What n8n recorded as an execution's error, for an assertion's message. */
const errorOf = (execution) => JSON.stringify(execution.data?.resultData?.error ?? {}).slice(0, 1500);

describe('install, update and remove from n8n\'s Community nodes page, with published workflows running', { concurrency: true }, () => {
	let browser;
	const started = Date.now();

	before(async () => {
		browser = await launchChromium();
	});

	after(async () => {
		await browser?.close();
		console.log(`community-nodes.test.mjs: ${Math.round((Date.now() - started) / 1000)} s for both lines`);
	});

	for (const line of ['2', '1']) {
		it(`n8n ${RUNTIMES[line].n8nVersion}`, async (t) => {
			const scenario = new Scenario(line, t);
			try {
				await scenario.run(browser);
			} catch (error) {
				// What n8n said last, to see why.
				console.log(`n8n ${RUNTIMES[line].n8nVersion}'s last output:\n${scenario.n8n?.server?.output().slice(-6000) ?? ''}`);
				throw error;
			} finally {
				await scenario.dispose();
			}
		});
	}
});

/** One n8n line's install, update and removal. */
class Scenario {
	constructor(line, t) {
		this.line = line;
		this.t = t;
		this.work = mkdtempSync(join(tmpdir(), `cts-community-nodes-${line}-`));
		this.started = Date.now();
	}

	log(message) {
		const line = `n8n ${RUNTIMES[this.line].n8nVersion}, ${Math.round((Date.now() - this.started) / 1000)} s: ${message}`;
		this.t.diagnostic(line);
		console.log(line);
	}

	async dispose() {
		await this.n8n?.dispose();
		await this.registry?.stop();
		await this.sandbox?.close();
		rmSync(this.work, { recursive: true, force: true });
	}

	async run(browser) {
		const { t } = this;
		this.sandbox = await startSandbox();
		// An account of 500 points per 15 minutes: the trigger checks every minute beside the
		// scheduled sync and mirror (about 60 points a minute together).
		await this.sandbox.control('limits', { points: 500 });
		this.registry = await startLocalRegistry();
		const { tarball } = packPackage(this.work);
		this.registry.publish(tarball);
		this.nextRelease = packNextRelease(tarball, this.work);

		this.n8n = await N8nHarness.create({
			line: this.line,
			customExtensions: [],
			env: { N8N_COMMUNITY_PACKAGES_REGISTRY: this.registry.url, N8N_UNVERIFIED_PACKAGES_ENABLED: 'true', E2E_TESTS: 'true' },
		});
		const nodesFolder = join(this.n8n.userFolder, '.n8n', 'nodes');
		mkdirSync(nodesFolder, { recursive: true });
		writeFileSync(join(nodesFolder, '.npmrc'), `registry=${this.registry.url}\n`);
		await this.n8n.start();
		this.url = this.n8n.server.url;
		const feature = await fetch(`${this.url}/rest/e2e/feature`, {
			method: 'PATCH',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ feature: 'feat:communityNodes:customRegistry', enabled: true }),
		});
		assert.equal(feature.status, 200, 'n8n\'s test mode turns on the custom-registry feature');
		this.rest = this.n8n.rest;
		await this.rest.ensureOwner(OWNER);
		this.page = await newPage(browser);
		await signIn(this.page, this.url, OWNER);
		this.log('n8n, the registry and the sandbox are up');

		const step = async (name, run) => {
			let passed = false;
			await t.test(name, async () => {
				try {
					await run();
				} catch (error) {
					error.message += `\n${await this.pageState()}`;
					throw error;
				}
				passed = true;
			});
			// A later step builds on this one.
			if (!passed) throw new Error(`stopped after "${name}" failed`);
		};
		await step('installs from Settings → Community nodes: the package name, the risk notice, Install', async () => await this.install());
		await step('creates both credentials in the editor; their tests pass', async () => await this.createCredentials());
		// Before any trigger is published: the example's task changes are not among those the trigger must deliver.
		await step('an example workflow runs green from the editor', async () => await this.runExample());
		await this.publishWorkflows();
		// While the trigger waits for its next check.
		await step('the five nodes are in the node panel, each with its icon', async () => await this.checkNodePanel());
		await step('updates from the editor while the workflows run: every change delivered once, no task made twice, no copy of an unchanged event written, credentials and workflows unchanged', async () => await this.update());
		await step('a workflow saved with CTS Task version 1 stays on it and acts as before; CTS Task added now is version 2', async () => await this.checkNodeVersions());
		await step('uninstalls: n8n stays healthy, the workflows show n8n\'s "not installed" state; reinstalled from there, they are as they were and run again', async () => await this.uninstallAndReinstall());
		this.log('done');
	}

	/** Where the browser is and what it shows (an open dialog first): said with a failed step. */
	async pageState() {
		try {
			const dialog = this.page.locator('.el-dialog:visible, [role="dialog"]:visible').last();
			const text = (await dialog.count()) > 0 ? await dialog.innerText() : await this.page.locator('body').innerText();
			return `the page at ${this.page.url()} showed: ${text.replace(/\s+/g, ' ').slice(0, 1500)}`;
		} catch (error) {
			return `the page could not be read: ${error.message}`;
		}
	}

	communityNodesPage = async () => {
		await this.page.goto(`${this.url}/settings/community-nodes`);
	};

	async install() {
		const { page } = this;
		await this.communityNodesPage();
		await page.getByRole('button', { name: 'Install a community node' }).click();
		await this.installFromModal();
		const card = page.locator('[data-test-id="community-package-card"]');
		const text = await card.innerText();
		assert.match(text, new RegExp(`^${PACKAGE_NAME}$`, 'm'));
		assert.match(text, new RegExp(`v${VERSION.replaceAll('.', '\\.')}`));
		for (const name of NODE_NAMES) assert.ok(text.includes(name), `the card lists ${name}: ${text}`);
		assert.deepEqual((await this.rest.request('GET', '/community-packages')).map((installed) => [installed.packageName, installed.installedVersion]), [[PACKAGE_NAME, VERSION]]);
	}

	/** Fills in the open Install dialog: package name, risk notice, Install; waits until it is done. */
	async installFromModal() {
		const { page } = this;
		const name = page.locator('[data-test-id="package-name-input"] input, input[data-test-id="package-name-input"]').first();
		if ((await name.inputValue()) === '') await name.fill(PACKAGE_NAME);
		assert.equal(await name.inputValue(), PACKAGE_NAME);
		const install = page.locator('[data-test-id="install-community-package-button"]');
		assert.ok(await install.isDisabled(), 'Install waits for the risk notice');
		await page.locator('[data-test-id="user-agreement-checkbox"]').click();
		const started = Date.now();
		await install.click();
		await page.waitForSelector('[data-test-id="communityPackageInstall-modal"]', { state: 'detached', timeout: 120_000 });
		await page.getByText('Package installed').first().waitFor();
		this.log(`installed from the editor in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	}

	async createCredentials() {
		const { page } = this;
		const token = await this.sandbox.token('alice', 24 * 3600);
		const credentials = [
			{ name: 'CTS API', fields: { apiKey: 'sandbox-alice-key', baseUrl: this.sandbox.url }, testRequest: 'GET /v3/tasks' },
			{ name: 'CTS Sync API', fields: { token, syncUrl: this.sandbox.url }, testRequest: 'POST /v1/events/update' },
		];
		for (const { name, fields, testRequest } of credentials) {
			await page.goto(`${this.url}/home/credentials`);
			await page.click('[data-test-id="add-resource-credential"]');
			await page.locator('[data-test-id="new-credential-type-select"] input').first().fill(name);
			await page.locator('[data-test-id="new-credential-type-select-option"]').filter({ hasText: new RegExp(`^${name}$`) }).click();
			await page.click('[data-test-id="new-credential-type-button"]');
			await page.waitForSelector('[data-test-id="credential-edit-dialog"]');
			for (const [field, value] of Object.entries(fields)) await page.locator(`[data-test-id="parameter-input-${field}"] input`).first().fill(value);
			const tests = (await this.sandbox.requests()).length;
			await page.click('[data-test-id="credential-save-button"]');
			const success = page.locator('[data-test-id="credentials-config-container-test-success"]');
			await success.waitFor();
			assert.match(await success.innerText(), /Connection tested successfully/);
			assert.ok((await this.sandbox.requests()).slice(tests).some((call) => `${call.method} ${call.path}` === testRequest), `${name}: n8n sent its test to the service`);
			await page.locator('.el-dialog:has([data-test-id="credential-edit-dialog"]) .el-dialog__headerbtn').first().click();
			await page.waitForSelector('[data-test-id="credential-edit-dialog"]', { state: 'detached' });
		}
		const saved = await this.rest.listCredentials();
		const pick = (type) => {
			const found = saved.find((credential) => credential.type === type);
			assert.ok(found, `a ${type} credential was saved`);
			return { id: found.id, name: found.name, type };
		};
		this.credentials = { api: pick('ctsApi'), sync: pick('ctsSyncApi') };
	}

	node(name, type, typeVersion, position, parameters, credential) {
		return {
			id: `${name}-${type}`.replace(/[^\w-]/g, '-'),
			name,
			type,
			typeVersion,
			position,
			parameters,
			...(credential ? { credentials: { [credential.type]: { id: credential.id, name: credential.name } } } : {}),
		};
	}

	/** The workflows of the update scenario, created through n8n's REST API and published. */
	async publishWorkflows() {
		const { rest, sandbox } = this;
		const api = this.credentials.api;
		const cts = (type) => `${PACKAGE_NAME}.${type}`;
		const link = (from, to) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });
		const every = (field, amount) => ({ rule: { interval: [{ field, [`${field}Interval`]: amount }] } });
		this.workflows = {
			trigger: {
				name: 'Update: task trigger',
				nodes: [
					this.node(TASK_TRIGGER, cts('ctsTaskTrigger'), 1, [0, 0], { pollTimes: { item: [{ mode: 'everyMinute' }] }, events: ['created', 'updated'], filters: { ignoreSyncChanges: true }, options: { budgetShare: 100 } }, api),
					this.node('Handle Task', 'n8n-nodes-base.noOp', 1, [240, 0], {}),
				],
				connections: link(TASK_TRIGGER, 'Handle Task'),
			},
			sync: {
				name: 'Update: sync tasks',
				nodes: [
					this.node('Every 30 Seconds', 'n8n-nodes-base.scheduleTrigger', 1.2, [0, 0], every('seconds', 30)),
					this.node('Source Items', 'n8n-nodes-base.set', 3.4, [220, 0], { mode: 'raw', jsonOutput: JSON.stringify({ items: SYNC_ITEMS }), options: {} }),
					this.node('One Item per Task', 'n8n-nodes-base.splitOut', 1, [440, 0], { fieldToSplitOut: 'items', options: {} }),
					this.node('Sync Tasks', cts('ctsTask'), 1, [660, 0], { resource: 'task', operation: 'sync', source: 'update-test', sourceKey: '={{ $json.key }}', title: '={{ $json.title }}', syncFields: {} }, api),
				],
				connections: { ...link('Every 30 Seconds', 'Source Items'), ...link('Source Items', 'One Item per Task'), ...link('One Item per Task', 'Sync Tasks') },
			},
			mirror: {
				name: 'Update: mirror busy time',
				nodes: [
					this.node('Every Minute', 'n8n-nodes-base.scheduleTrigger', 1.2, [0, 0], every('minutes', 1)),
					this.node(
						'Work → Personal',
						cts('ctsEvent'),
						1,
						[240, 0],
						{
							resource: 'calendar',
							operation: 'mirrorBusyTime',
							sourceCalendars: [`${WORK.accountId}/${WORK.calendarId}`],
							calendarId: { __rl: true, mode: 'list', value: `${PERSONAL.accountId}/${PERSONAL.calendarId}`, cachedResultName: PERSONAL.name },
							copyTitle: 'fixed',
							title: 'Busy',
							options: {},
						},
						api,
					),
				],
				connections: link('Every Minute', 'Work → Personal'),
			},
			// Saved with CTS Task 1 and Return Task at its default (off): run by hand before and after the update.
			saved: {
				name: 'Update: saved with CTS Task 1',
				nodes: [
					this.node('Run', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
					this.node('Create Task', cts('ctsTask'), 1, [240, 0], { resource: 'task', operation: 'create', title: 'Saved with version 1' }, api),
				],
				connections: link('Run', 'Create Task'),
			},
		};
		for (const workflow of Object.values(this.workflows)) {
			const created = await rest.createWorkflow({ ...workflow, settings: { executionOrder: 'v1' }, active: false });
			workflow.id = created.id;
		}
		this.workflows.example = this.example;
		// Three busy events in the work calendar for the mirror: tomorrow and the two days after, 10:00 UTC.
		this.sourceEvents = [];
		for (let day = 1; day <= 3; day++) {
			const start = new Date(Date.now() + day * DAY_MS).toISOString().slice(0, 10);
			const { body } = await sandbox.api('POST', '/v3/events/create', { body: { ...WORK, title: `Meeting ${day}`, start: `${start}T10:00:00`, duration: 'PT1H', timeZone: 'UTC', showWithoutTime: false } });
			this.sourceEvents.push(body.data?.event ?? body.data ?? body);
		}
		// The trigger first, alone: its first check (at publishing: it takes its position and delivers
		// nothing) is then the only list call. Changes it must deliver come after it.
		const logged = (await sandbox.requests()).length;
		await rest.activateWorkflow(this.workflows.trigger.id);
		this.deliveries = new Deliveries({ task: this.workflows.trigger.id });
		this.changes = [];
		await waitFor(async () => (await sandbox.requests()).slice(logged).some((call) => call.path === '/v3/tasks/list'), 90_000, 'the trigger\'s first check');
		this.log('the task trigger is published and has checked once');
		// Change A: a task created before the update.
		this.changes.push(await this.change('created before the update', 'POST', '/v3/tasks/create', { title: 'Task A' }));
		await rest.activateWorkflow(this.workflows.sync.id);
		await rest.activateWorkflow(this.workflows.mirror.id);
		this.log('the sync and the mirror are published');
	}

	/** Makes a task change in the service and answers it as {@link changed} does. */
	async change(when, method, path, body) {
		const { status, body: answer } = await this.sandbox.api(method, path, { body });
		assert.ok(status === 200 || status === 204, `${path}: ${status} ${JSON.stringify(answer)}`);
		return await this.changed(when, body.id ?? answer.data.id);
	}

	/** A change of task `id` just made, with the delivery key the trigger must deliver once. */
	async changed(when, id) {
		const task = await this.sandbox.getTask(id);
		return { when, id, key: `task:${id}@${task.updated}`, at: Date.now() };
	}

	/**
	 * Opens the node panel with `opener` and searches `text` until `name` is listed (keys typed before
	 * the panel's search box has focus are lost: then it opens the panel again and retypes).
	 */
	async searchPanel(opener, text, name) {
		const { page } = this;
		for (let attempt = 1; ; attempt++) {
			await page.click(opener);
			await page.keyboard.type(text);
			const entry = page.locator('[data-test-id="node-creator-item-name"]').filter({ hasText: new RegExp(`^${name}$`) }).first();
			try {
				await entry.waitFor({ timeout: 15_000 });
				return entry;
			} catch (error) {
				if (attempt >= 3) throw error;
				await page.keyboard.press('Escape');
			}
		}
	}

	/**
	 * The node panel lists the package's three apps, each with its icon; an app's page offers the
	 * action node's operations ("Actions (n)") and, for CTS Task and CTS Event, the trigger node's
	 * events ("Triggers (n)"): the five nodes.
	 */
	async checkNodePanel() {
		const { page } = this;
		const description = (file) => loadClass(join(projectRoot, 'dist', 'nodes', `${file}.node.js`)).description;
		const count = (file, parameter) => description(file).properties.filter((property) => property.name === parameter).flatMap((property) => property.options).length;
		const apps = [
			{ name: 'CTS Task', actions: count('CtsTask/CtsTask', 'operation'), triggers: count('CtsTaskTrigger/CtsTaskTrigger', 'events'), example: 'Create a task' },
			{ name: 'CTS Event', actions: count('CtsEvent/CtsEvent', 'operation'), triggers: count('CtsEventTrigger/CtsEventTrigger', 'events'), example: 'Create an event' },
			{ name: 'CTS Event V1', actions: count('CtsEvent/CtsEventV1', 'operation'), example: 'Respond to an invitation' },
		];
		await page.goto(`${this.url}/workflow/new`);
		await (await this.searchPanel('[data-test-id="canvas-plus-button"]', 'manual', 'Manual Trigger')).click();
		await page.waitForSelector('[data-test-id="canvas-handle-plus"]');
		const seen = [];
		for (const app of apps) {
			const entry = page.locator('[data-test-id="item-iterator-item"]').filter({ has: await this.searchPanel('[data-test-id="canvas-handle-plus"]', 'CTS', app.name) }).first();
			const icon = entry.locator('img').first();
			await page.waitForFunction((image) => image.complete && image.naturalWidth > 0, await icon.elementHandle());
			const source = await icon.getAttribute('src');
			assert.match(source, new RegExp(`^/icons/${PACKAGE_NAME}/`), `${app.name}'s icon comes from the package`);
			const served = await fetch(`${this.url}${source}`);
			assert.equal(served.status, 200, `${app.name}'s icon is served`);
			assert.match(served.headers.get('content-type') ?? '', /svg/);
			await entry.click();
			await page.locator('[data-test-id="node-creator-item-name"]').filter({ hasText: new RegExp(`^${app.example}$`) }).first().waitFor();
			const categories = (await page.locator('[data-test-id="node-creator-category-item"]').allInnerTexts()).map((text) => text.trim());
			const expected = [`Actions (${app.actions})`, ...(app.triggers ? [`Triggers (${app.triggers})`] : [])];
			assert.deepEqual(categories.filter((text) => /^(Actions|Triggers) \(/.test(text)), expected, `${app.name}'s page`);
			seen.push(`${app.name} (${source.split('/').pop()}): ${expected.join(', ')}`);
			await page.keyboard.press('Escape');
		}
		this.log(`node panel: ${seen.join('; ')}`);
	}

	async runExample() {
		const example = exampleWorkflows(PACKAGE_NAME, this.credentials, { tasksCsv: '', tasksTable: { id: '', name: '' } }).find((workflow) => workflow.name === 'CTS example: task round trip');
		const { id } = await this.rest.createWorkflow(example);
		this.example = { ...example, id };
		await this.runInEditor(id);
	}

	/**
	 * Opens a workflow in the editor and clicks Execute workflow; answers the run (asserted green)
	 * with its run data.
	 */
	async runInEditor(workflowId) {
		const { page, rest } = this;
		await page.goto(`${this.url}/workflow/${workflowId}`);
		const known = await executionIds(rest, workflowId);
		await page.locator('[data-test-id="execute-workflow-button"]').first().click();
		const [run] = await newExecutions(rest, workflowId, { known, timeoutMs: 90_000 });
		assert.equal(run.status, 'success', errorOf(run));
		return run;
	}

	/** A workflow's nodes and connections as n8n stores them (what an update or removal must keep). */
	async stored(id) {
		const { nodes, connections } = await this.rest.getWorkflow(id);
		return {
			nodes: nodes.map(({ name, type, typeVersion, parameters, credentials }) => ({ name, type, typeVersion, parameters, credentials })),
			connections,
		};
	}

	async storedAll() {
		return Object.fromEntries(await Promise.all(Object.entries(this.workflows).map(async ([key, { id }]) => [key, await this.stored(id)])));
	}

	/** Runs the workflow saved with CTS Task 1 from the editor; answers its output and the requests it made. */
	async runSaved() {
		const logged = (await this.sandbox.requests()).length;
		const { runData } = await this.runInEditor(this.workflows.saved.id);
		const [{ json: output }] = runData['Create Task'][0].data.main[0];
		// Its requests among those of the published workflows: its create, and any read of the task it
		// made (taken before the test reads the task itself).
		const own = (await this.sandbox.requests()).slice(logged).filter((call) => (call.path === '/v3/tasks/create' && call.body?.title === 'Saved with version 1') || call.query?.id === output.id);
		// Its task is a change the trigger delivers, too.
		this.changes.push(await this.changed('made by the workflow saved with CTS Task 1', output.id));
		return { output, requests: own.map((call) => `${call.method} ${call.path}`) };
	}

	/** Finished executions of a workflow that started after `since` (ms). */
	async runsSince(workflowId, since) {
		return (await this.rest.listAllExecutions(workflowId)).filter((execution) => hasFinished(execution) && Date.parse(execution.startedAt ?? execution.createdAt) > since);
	}

	async eventsOf(calendar) {
		const qs = { accountId: calendar.accountId, calendarIds: calendar.calendarId, start: new Date(Date.now() - DAY_MS).toISOString(), end: new Date(Date.now() + 10 * DAY_MS).toISOString() };
		const { status, body } = await this.sandbox.api('GET', '/v3/events/list', { qs });
		assert.equal(status, 200);
		return body.data.events;
	}

	async update() {
		const { page, rest, sandbox } = this;
		// The workflow saved with CTS Task 1, run once before the update.
		this.savedBefore = await this.runSaved();
		// Change A delivered before the update: the cursor it leaves must survive the update.
		await waitFor(async () => {
			await this.deliveries.refresh(rest);
			return this.deliveries.deliveredBy(this.changes[0].key).length > 0;
		}, 150_000, 'the trigger to deliver change A');
		this.log('change A delivered');
		// The sync has made its tasks; one is completed in the app before the update.
		await waitFor(async () => (await this.openSyncTasks()).size === SYNC_ITEMS.length, 90_000, 'the sync\'s tasks');
		const tasksByTitle = await this.openSyncTasks();
		await sandbox.api('POST', '/v3/tasks/close', { body: { id: tasksByTitle.get('Synced task K2').id } });
		const completed = Date.now();
		await waitFor(async () => (await this.runsSince(this.workflows.sync.id, completed)).length > 0, 60_000, 'a sync run after K2 was completed in the app');
		// The mirror has made its copies.
		await waitFor(async () => (await this.eventsOf(PERSONAL)).length === this.sourceEvents.length, 90_000, 'the mirror\'s copies');
		const copiesBefore = await this.eventsOf(PERSONAL);

		const credentialsBefore = await Promise.all(Object.values(this.credentials).map(async ({ id }) => await rest.getCredential(id)));
		const workflowsBefore = await this.storedAll();
		// Change B: task A changed just before the update.
		this.changes.push(await this.change('made just before the update', 'POST', '/v3/tasks/update', { id: this.changes[0].id, title: 'Task A, changed' }));

		this.registry.publish(this.nextRelease.tarball);
		await this.communityNodesPage();
		const card = page.locator('[data-test-id="community-package-card"]');
		await card.getByRole('button', { name: 'Update' }).click();
		await this.dialogNames(Object.values(this.workflows).map(({ name }) => name));
		const answered = page.waitForResponse((response) => response.url().includes('/rest/community-packages') && response.request().method() === 'PATCH', { timeout: 120_000 });
		const updateStarted = Date.now();
		await page.getByRole('button', { name: 'Confirm update' }).click();
		// While n8n fetches and loads the new version: a task created, a synced task completed in the
		// app, and a source event of the mirror moved by an hour.
		const moved = this.sourceEvents[0];
		const during = (async () => {
			const created = await this.change('made during the update', 'POST', '/v3/tasks/create', { title: 'Task C' });
			await sandbox.api('POST', '/v3/tasks/close', { body: { id: tasksByTitle.get('Synced task K3').id } });
			const movedStart = new Date(Date.parse(`${moved.start.slice(0, 19)}Z`) + 3600_000).toISOString().slice(0, 19);
			const { status, body } = await sandbox.api('POST', '/v3/events/update', { body: { id: moved.id, ...WORK, start: movedStart, duration: 'PT1H', timeZone: 'UTC', showWithoutTime: false } });
			assert.equal(status, 200, JSON.stringify(body));
			return { created, doneAt: Date.now() };
		})();
		// Awaited once the update has answered; a failure before that must not go unhandled.
		during.catch(() => {});
		const response = await answered;
		const updateEnded = Date.now();
		assert.equal(response.status(), 200, await response.text());
		const { created, doneAt } = await during;
		this.changes.push(created);
		assert.ok(doneAt < updateEnded, `the changes "during the update" were made while n8n updated (${doneAt - updateStarted} ms after Confirm, the update took ${updateEnded - updateStarted} ms)`);
		await card.getByText(`v${this.nextRelease.version}`).waitFor();
		this.log(`updated from the editor to ${this.nextRelease.version} in ${((updateEnded - updateStarted) / 1000).toFixed(1)} s`);
		// Change D: after the update.
		this.changes.push(await this.change('made after the update', 'POST', '/v3/tasks/create', { title: 'Task D' }));

		// Every change delivered once, a sync run and a mirror run after the update.
		await this.assertDeliveredOnce(150_000, 'the trigger to deliver every change');
		await waitFor(async () => (await this.runsSince(this.workflows.sync.id, updateEnded)).length > 0, 60_000, 'a sync run after the update');
		await waitFor(async () => (await this.runsSince(this.workflows.mirror.id, updateEnded)).length > 0, 90_000, 'a mirror run after the update');

		// The sync: each item's task made once, the two completed in the app not made again.
		const creates = await this.createsByTitle();
		assert.deepEqual(Object.fromEntries(SYNC_ITEMS.map(({ title }) => [title, creates.get(title) ?? 0])), Object.fromEntries(SYNC_ITEMS.map(({ title }) => [title, 1])), 'one create per key');
		assert.deepEqual([...(await this.openSyncTasks()).keys()].sort(), ['Synced task K1', 'Synced task K4']);
		const syncAfter = await this.runsSince(this.workflows.sync.id, updateEnded);
		assert.ok(syncAfter.every((execution) => execution.status === 'success'), JSON.stringify(syncAfter));

		// The mirror: only the moved event's copy written; the unchanged ones untouched.
		const copiesAfter = await this.eventsOf(PERSONAL);
		assert.equal(copiesAfter.length, this.sourceEvents.length, 'one copy per source event');
		const unchanged = copiesBefore.filter((copy) => copy.start.slice(0, 16) !== moved.start.slice(0, 16));
		const movedCopy = copiesAfter.filter((copy) => !copiesBefore.some((before) => before.id === copy.id && before.updated === copy.updated));
		assert.equal(movedCopy.length, 1, `only the moved event's copy changed: ${JSON.stringify(movedCopy)}`);
		for (const copy of unchanged) {
			const now = copiesAfter.find((after) => after.id === copy.id);
			assert.equal(now?.updated, copy.updated, `the copy of an unchanged event (${copy.start}) was not written`);
		}
		const mirrorWritesAfter = (await sandbox.requests()).filter((call) => call.method === 'POST' && call.path.startsWith('/v3/events/') && Date.parse(call.time) > updateEnded);
		assert.ok(mirrorWritesAfter.length <= 1, JSON.stringify(mirrorWritesAfter));
		const mirrorAfter = await this.runsSince(this.workflows.mirror.id, updateEnded);
		assert.ok(mirrorAfter.every((execution) => execution.status === 'success'), JSON.stringify(mirrorAfter));

		// Credentials and workflows as they were; the credentials' tests still pass.
		const credentialsAfter = await Promise.all(Object.values(this.credentials).map(async ({ id }) => await rest.getCredential(id)));
		assert.deepEqual(credentialsAfter.map(({ name, type, data }) => ({ name, type, data })), credentialsBefore.map(({ name, type, data }) => ({ name, type, data })));
		for (const credential of credentialsAfter) {
			const result = await rest.testCredential(credential);
			assert.equal(result.status, 'OK', `${credential.name}: ${result.message}`);
		}
		assert.deepEqual(await this.storedAll(), workflowsBefore);

		const syncRuns = await this.runsSince(this.workflows.sync.id, 0);
		const mirrorRuns = await this.runsSince(this.workflows.mirror.id, 0);
		this.log(
			`update figures: ${this.changes.length} changes (${this.changes.map(({ when }) => when).join('; ')}), each delivered once (0 lost, 0 twice) over ${this.deliveries.executions.size} deliveries; ` +
				`sync: ${syncRuns.length} runs (${syncRuns.filter((run) => run.status !== 'success').length} not green), 4 keys, 1 create each (0 duplicates), the 2 tasks completed in the app not made again; ` +
				`mirror: ${mirrorRuns.length} runs, the moved event's copy moved (${mirrorWritesAfter.length} write after the update; 0 when a run during it moved the copy), 0 writes of the 2 unchanged events' copies`,
		);
		this.updateEnded = updateEnded;
	}

	/** Waits until n8n's Update or Uninstall dialog lists the workflows that use the package (it looks them up after it opens). */
	async dialogNames(names) {
		const dialog = this.page.locator('[data-test-id="communityPackageManageConfirm-modal"]');
		for (const name of names) {
			try {
				await dialog.getByText(name, { exact: true }).first().waitFor({ timeout: 30_000 });
			} catch {
				assert.fail(`the dialog names the workflow "${name}": ${await dialog.innerText()}`);
			}
		}
		return dialog;
	}

	/**
	 * Waits until the trigger has delivered every change made so far, then asserts each was delivered
	 * exactly once, by a green execution, and nothing else was.
	 */
	async assertDeliveredOnce(timeoutMs, what) {
		await waitFor(async () => {
			await this.deliveries.refresh(this.rest);
			return this.changes.every(({ key }) => this.deliveries.deliveredBy(key).length > 0);
		}, timeoutMs, what);
		const executions = [...this.deliveries.executions.values()];
		const delivered = executions.filter((execution) => execution.status === 'success').flatMap((execution) => execution.items.map((item) => `task:${item.id}@${item.updated}`));
		const notOnce = this.changes.filter(({ key }) => this.deliveries.count(key) !== 1);
		assert.deepEqual(notOnce.map(({ when, key }) => `${when}: ${key} × ${this.deliveries.count(key)}`), [], 'every change delivered exactly once');
		assert.deepEqual([...delivered].sort(), this.changes.map(({ key }) => key).sort(), 'nothing else delivered');
		// Only while the package was removed does n8n store the trigger's check as a failed execution
		// ("Unrecognized node type"), and such a check carries no task: the next one delivers them.
		const removed = (execution) => this.removed && execution.createdAt >= this.removed.from && execution.createdAt <= this.removed.to;
		const failed = executions.filter((execution) => execution.status !== 'success');
		assert.deepEqual(failed.filter((execution) => !removed(execution) || execution.items.some((item) => item.id !== undefined)), [], 'every delivery ran green');
		this.failedWhileRemoved = failed.length;
	}

	/** Open tasks the sync made, by title. */
	async openSyncTasks() {
		const { body } = await this.sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '100' } });
		return new Map(body.data.tasks.filter((task) => task.title.startsWith('Synced task ')).map((task) => [task.title, task]));
	}

	/** How many times the service was asked to create a task of each title. */
	async createsByTitle() {
		const counts = new Map();
		for (const call of await this.sandbox.requests()) {
			if (call.method !== 'POST' || call.path !== '/v3/tasks/create') continue;
			counts.set(call.body?.title, (counts.get(call.body?.title) ?? 0) + 1);
		}
		return counts;
	}

	async checkNodeVersions() {
		const { page } = this;
		const saved = await this.stored(this.workflows.saved.id);
		assert.equal(saved.nodes.find((node) => node.name === 'Create Task').typeVersion, 1, 'the saved workflow stays on version 1');
		const after = await this.runSaved();
		// Version 1: Return Task off by default, so the output is the write's summary, as before the update.
		assert.deepEqual(Object.keys(after.output).sort(), Object.keys(this.savedBefore.output).sort());
		assert.deepEqual(after.requests, this.savedBefore.requests);
		assert.deepEqual(after.requests, ['POST /v3/tasks/create']);
		// CTS Task added in the editor now is version 2, with Return Task on.
		await page.goto(`${this.url}/workflow/new`);
		await (await this.searchPanel('[data-test-id="canvas-plus-button"]', 'manual', 'Manual Trigger')).click();
		await page.waitForSelector('[data-test-id="canvas-handle-plus"]');
		await (await this.searchPanel('[data-test-id="canvas-handle-plus"]', 'CTS Task', 'CTS Task')).click();
		await page.locator('[data-test-id="node-creator-item-name"]').filter({ hasText: /^Create a task$/ }).first().click();
		await page.waitForSelector('[data-test-id="ndv"] [data-test-id="parameter-input-returnTask"]');
		assert.equal(await page.locator('[data-test-id="parameter-input-returnTask"] .el-switch.is-checked').count(), 1, 'Return Task is on in version 2');
		await page.keyboard.press('Escape');
		this.log(`saved workflow on CTS Task 1: output keys ${Object.keys(after.output).join(', ')} and requests ${after.requests.join(', ')}, before and after the update; a new CTS Task is version 2`);
	}

	async uninstallAndReinstall() {
		const { page, rest } = this;
		// A new budget window for this step: the published workflows (about 60 points a minute) have
		// used most of the first one by now, and a trigger waiting out its reset is not what this step is about.
		await this.sandbox.control('limits', { points: 500 });
		const before = await this.storedAll();
		await this.communityNodesPage();
		const card = page.locator('[data-test-id="community-package-card"]');
		await card.locator('[data-test-id="action-toggle"]').click();
		await page.locator('[data-test-id="action-uninstall"]').click();
		const dialog = await this.dialogNames(Object.values(this.workflows).map(({ name }) => name));
		const uninstalled = Date.now();
		await page.getByRole('button', { name: 'Confirm uninstall' }).click();
		await dialog.waitFor({ state: 'detached', timeout: 60_000 });
		await card.waitFor({ state: 'detached' });
		assert.deepEqual(await rest.request('GET', '/community-packages'), []);
		this.log(`uninstalled from the editor in ${((Date.now() - uninstalled) / 1000).toFixed(1)} s`);

		// n8n healthy: it answers, runs a workflow without the package's nodes, and keeps every workflow.
		assert.equal((await fetch(`${this.url}/healthz`)).status, 200);
		assert.equal(this.n8n.server.hasExited(), false, 'n8n is still running');
		const plain = await rest.createWorkflow({
			name: 'Without the package',
			nodes: [this.node('Run', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}), this.node('Do Nothing', 'n8n-nodes-base.noOp', 1, [240, 0], {})],
			connections: { Run: { main: [[{ node: 'Do Nothing', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
			active: false,
		});
		await this.runInEditor(plain.id);
		assert.deepEqual(await this.storedAll(), before, 'every workflow kept as it was');

		// The sync workflow opens with n8n's own "not installed" state, which offers Install.
		await page.goto(`${this.url}/workflow/${this.workflows.sync.id}`);
		await page.locator('[data-test-id="canvas-node"]').filter({ hasText: 'Sync Tasks' }).first().dblclick();
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.getByText('Install this node to use it').first().waitFor();
		assert.match(await ndv.innerText(), new RegExp(`This node is not currently installed\\. It's part of the ${PACKAGE_NAME} community package`));
		this.changes.push(await this.change('made while the package was removed', 'POST', '/v3/tasks/create', { title: 'Task R' }));
		const whileRemoved = { sync: await this.runsSince(this.workflows.sync.id, uninstalled), trigger: await this.runsSince(this.workflows.trigger.id, uninstalled) };

		// Reinstalled from there.
		await ndv.getByRole('button', { name: 'Install' }).first().click();
		await page.waitForSelector('[data-test-id="communityPackageInstall-modal"]');
		await this.installFromModal();
		const reinstalled = Date.now();
		this.removed = { from: uninstalled, to: reinstalled };
		assert.deepEqual((await rest.request('GET', '/community-packages')).map((installed) => [installed.packageName, installed.installedVersion]), [[PACKAGE_NAME, this.nextRelease.version]]);
		assert.deepEqual(await this.storedAll(), before, 'nothing of the workflows lost');
		// The published sync runs green again, and still makes nothing twice.
		const again = await waitFor(async () => (await this.runsSince(this.workflows.sync.id, reinstalled))[0], 60_000, 'a sync run after the reinstall');
		assert.equal(again.status, 'success', errorOf(await readExecution(this.rest, again.id)));
		const creates = await this.createsByTitle();
		assert.ok(SYNC_ITEMS.every(({ title }) => creates.get(title) === 1), 'one create per key after the reinstall');
		await this.runSaved();
		// The trigger checks again from where it was: the changes made meanwhile come out once.
		await this.assertDeliveredOnce(120_000, 'the trigger to deliver the changes made while the package was removed');
		const statuses = (runs) => runs.map((run) => run.status).join(', ') || 'none';
		this.log(
			`while removed: sync runs: ${statuses(whileRemoved.sync)}; trigger runs: ${statuses(whileRemoved.trigger)} (${this.failedWhileRemoved} failed checks over the removal, none with a task); after the reinstall the sync ran green and the trigger delivered the ${this.changes.length} changes of the whole run once each`,
		);
	}
}
