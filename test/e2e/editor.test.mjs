/**
 * The editor of a started n8n 2.41.1 in a real browser (Debian's Chromium, headless, driven
 * by playwright-core): log in, create a workflow, find "CTS" in the node panel, add the Task
 * node, switch operations and see their fields, open the credential and run its test, run the
 * node and see its output; pick tags for a task, and pick a calendar from the list in the Event
 * node and create an event in it.
 *
 * Screenshots go to test-output/screenshots/; with UPDATE_SCREENSHOTS=1 also to docs/ (the
 * README shows those).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { PACKAGE_NAME } from '../../scripts/community-package.mjs';
import { MCP_EXAMPLE, MIRROR_EXAMPLE, PLANNING_EXAMPLE, SYNC_EXAMPLES } from '../../scripts/examples.mjs';
import { provisionExamples } from '../../scripts/local-instance.mjs';
import { projectRoot } from '../../scripts/n8n-runtime.mjs';
import { loadClass } from '../../scripts/saved-workflow-surface.mjs';
import { launchChromium, newPage, signIn } from './support/browser.mjs';
import { executionIds, newExecutions, nodeOutput } from './support/executions.mjs';
import { startSandbox } from './support/sandbox.mjs';
import { n8nForFile } from './support/sharedN8n.mjs';

const SHOTS = join(projectRoot, 'test-output', 'screenshots');
const DOCS = join(projectRoot, 'docs');

describe('n8n 2.41.1 editor in Chromium', () => {
	let sandbox;
	let n8n;
	let browser;
	let page;
	let stateDir;
	/** "status path: answer" of each list n8n failed to load (see before()). */
	const listLoadFailures = [];

	const shot = async (name, target = page) => {
		// Panels slide in: let them settle.
		await target.waitForTimeout(1000);
		mkdirSync(SHOTS, { recursive: true });
		const file = join(SHOTS, `${name}.png`);
		await target.screenshot({ path: file });
		if (process.env.UPDATE_SCREENSHOTS === '1') {
			mkdirSync(DOCS, { recursive: true });
			copyFileSync(file, join(DOCS, `${name}.png`));
		}
	};

	/** Field names (parameter names) the node's form shows, in order. */
	const formFields = (target = page) =>
		target.evaluate(() =>
			[...document.querySelectorAll('[data-test-id="node-parameters"] [data-test-id^="parameter-input-"]')]
				.map((element) => element.getAttribute('data-test-id').replace('parameter-input-', ''))
				// "hint" is the line n8n shows under a field with an expression (its value).
				.filter((name) => !['field', 'item', 'hint', 'alwaysOutputData', 'executeOnce', 'retryOnFail', 'onError', 'notes', 'notesInFlow'].includes(name)),
		);

	/** Waits (up to 5 s) until the form shows exactly these fields: the editor re-renders a moment after a change. */
	const expectFields = async (expected, target = page) => {
		let shown = await formFields(target);
		for (let attempt = 0; attempt < 20 && JSON.stringify(shown) !== JSON.stringify(expected); attempt++) {
			await target.waitForTimeout(250);
			shown = await formFields(target);
		}
		assert.deepEqual(shown, expected);
	};

	const chooseOperation = async (name, target = page) => {
		const option = target
			.locator('[data-test-id="parameter-input-item"]:visible')
			.filter({ has: target.locator('.option-headline', { hasText: new RegExp(`^${name}$`) }) })
			.first();
		for (let attempt = 0; attempt < 5 && !(await option.isVisible()); attempt++) {
			await target.click('[data-test-id="parameter-input-operation"]');
			await target.waitForTimeout(500);
		}
		await option.click();
		await target.locator('[data-test-id="parameter-input-operation"] input').first().waitFor();
		await target.waitForFunction(
			(expected) => document.querySelector('[data-test-id="parameter-input-operation"] input')?.value === expected,
			name,
		);
	};

	before(async () => {
		sandbox = await startSandbox();
		n8n = await n8nForFile('editor');
		// Where npm start puts the CSV example's file, which n8n may read.
		stateDir = n8n.filesFolder();
		await n8n.rest.createCredential({ name: 'CTS API (sandbox)', type: 'ctsApi', data: { apiKey: 'sandbox-alice-key', baseUrl: sandbox.url } });
		browser = await launchChromium();
		page = await newPage(browser);
		// The lists n8n failed to load, with its answer: said when a list never shows.
		page.context().on('response', (response) => {
			if (!response.url().includes('/dynamic-node-parameters/') || response.ok()) return;
			response
				.text()
				.then((body) => listLoadFailures.push(`${response.status()} ${new URL(response.url()).pathname}: ${body.slice(0, 600)}`))
				.catch(() => {});
		});
	});

	after(async () => {
		await browser?.close();
		await n8n?.dispose();
		await sandbox?.close();
	});

	it('logs in and creates a workflow', async () => {
		await signIn(page, n8n.url, n8n.user);
		await page.goto(`${n8n.url}/workflow/new`);
		await page.waitForSelector('[data-test-id="canvas-plus-button"], [data-test-id="canvas-add-button"]');
		assert.match(page.url(), /\/workflow\//);
	});

	it('finds "CTS" in the node panel and adds the Task node', async () => {
		// A manual trigger first, so the panel offers regular nodes next.
		await page.click('[data-test-id="canvas-plus-button"]');
		await page.keyboard.type('manual');
		await page.locator('[data-test-id="node-creator-item-name"]').filter({ hasText: /^Manual Trigger$/ }).first().click();
		await page.waitForSelector('[data-test-id="canvas-handle-plus"]');
		await page.click('[data-test-id="canvas-handle-plus"]');
		await page.keyboard.type('CTS');
		const names = page.locator('[data-test-id="node-creator-item-name"]');
		await names.filter({ hasText: /^CTS Event$/ }).first().waitFor();
		const listed = (await names.allTextContents()).map((name) => name.trim());
		for (const node of ['CTS Task', 'CTS Event', 'CTS Event V1']) assert.ok(listed.includes(node), `the panel lists "${node}"`);

		await names.filter({ hasText: /^CTS Task$/ }).first().click();
		await names.filter({ hasText: /^Create a task$/ }).first().waitFor();
		const actions = (await names.allTextContents()).map((name) => name.trim());
		for (const action of ['Complete a task', 'Create a task', 'Delete a task', 'Get a task', 'Get many tasks', 'Move a task', 'Reopen a task', 'Schedule a task in a calendar', 'Update a task']) {
			assert.ok(actions.includes(action), `the panel offers "${action}"`);
		}
		// Task actions first, tag actions after them.
		assert.ok(actions.includes('Create a tag'), 'the panel offers "Create a tag"');
		assert.ok(actions.indexOf('Create a task') < actions.indexOf('Create a tag'), `task actions come before tag actions: ${actions.join(', ')}`);
		await shot('node-panel');

		await names.filter({ hasText: /^Create a task$/ }).first().click();
		await page.waitForSelector('[data-test-id="ndv"] [data-test-id="parameter-input-title"]');
		// The only CTS API credential is chosen by itself.
		assert.match(await page.locator('[data-test-id="node-credentials-select"] input').first().inputValue(), /CTS API \(sandbox\)/);
	});

	it('shows the right fields for each operation', async () => {
		await expectFields(['resource', 'operation', 'title', 'returnTask']);
		// Return Task is off (one point per write), and its hint says what switching it on costs.
		assert.equal(await page.locator('[data-test-id="parameter-input-returnTask"] .el-switch.is-checked').count(), 0, 'Return Task is off by default');
		assert.equal(await page.locator('[data-test-id="parameter-input-returnTask"] .el-switch').count(), 1, 'Return Task is a switch');
		// No text about points under the fields: what Return Task costs is in its description (on hover).
		assert.doesNotMatch(await page.locator('[data-test-id="ndv"]').innerText(), /\bpoints?\b/);
		// The Output choice belongs to the task read back: it appears with Return Task on.
		await page.locator('[data-test-id="parameter-input-returnTask"] .el-switch').click();
		await expectFields(['resource', 'operation', 'title', 'returnTask', 'output']);
		await page.locator('[data-test-id="parameter-input-returnTask"] .el-switch').click();
		await expectFields(['resource', 'operation', 'title', 'returnTask']);
		// One Options collection (Maximum Wait lives there), no separate Point Budget collection.
		const form = await page.locator('[data-test-id="ndv"]').evaluate((ndv) => ndv.innerHTML);
		assert.ok(form.includes('Add Option'), 'the Options collection is offered');
		assert.ok(!form.includes('Point Budget'), 'no Point Budget collection');
		await shot('node-form-task-create');
		await chooseOperation('Move');
		await expectFields(['resource', 'operation', 'taskId', 'position', 'parent', 'returnTask']);
		await shot('node-form-move');
		await chooseOperation('Get');
		await expectFields(['resource', 'operation', 'taskId', 'output']);
		await chooseOperation('Get Many');
		await expectFields(['resource', 'operation', 'returnAll', 'limit', 'output']);
		// Filters (several options) is offered as an "Add Filter" dropdown.
		assert.ok(await page.locator('[data-test-id="ndv"]').evaluate((ndv) => ndv.innerHTML.includes('Add Filter')), 'the Filters collection is offered');
		await chooseOperation('Update');
		await expectFields(['resource', 'operation', 'taskId', 'returnTask']);
		await chooseOperation('Delete');
		await expectFields(['resource', 'operation', 'taskId']);
		await chooseOperation('Reopen');
		await expectFields(['resource', 'operation', 'taskId', 'occurrenceStart', 'returnTask']);
		await chooseOperation('Complete');
		await expectFields(['resource', 'operation', 'taskId', 'occurrenceStart', 'returnTask']);
		await chooseOperation('Create');
		await expectFields(['resource', 'operation', 'title', 'returnTask']);
	});

	it('opens the credential and its test passes', async () => {
		await sandbox.reset();
		await page.click('[data-test-id="credential-edit-button"]');
		await page.waitForSelector('[data-test-id="credential-edit-dialog"]');
		// Opening shows the last test's result; Retry runs the test again.
		await page.waitForSelector('[data-test-id="credentials-config-container-test-success"]');
		await page.locator('button[title="Retry credential test"]').click();
		await page.waitForSelector('[data-test-id="credentials-config-container-test-success"]');
		assert.match(await page.locator('[data-test-id="credentials-config-container-test-success"]').innerText(), /Connection tested successfully/);
		await shot('credential');
		const tests = (await sandbox.requests()).filter((call) => call.path === '/v3/tasks' && call.query.id === 'n8n-credential-test');
		assert.ok(tests.length >= 1, 'n8n sent the test request to the service');
		await page.locator('.el-dialog:has([data-test-id="credential-edit-dialog"]) .el-dialog__headerbtn').first().click();
		await page.waitForSelector('[data-test-id="credential-edit-dialog"]', { state: 'detached' });
	});

	it('runs the node and shows its output', async () => {
		await sandbox.reset();
		await page.locator('[data-test-id="parameter-input-title"] input, [data-test-id="parameter-input-title"] textarea').first().fill('Review the CTS nodes');
		await page.click('[data-test-id="node-execute-button"]');
		const output = page.locator('[data-test-id="output-panel"]');
		await output.getByText('Review the CTS nodes').first().waitFor();
		const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '10' } });
		assert.deepEqual(body.data.tasks.map((task) => task.title), ['Review the CTS nodes']);
		await output.getByText('JSON', { exact: true }).first().click();
		await output.getByText(body.data.tasks[0].id).first().waitFor();
		// Simplified by default: no "@type", no service prefixes.
		assert.equal(await output.getByText('@type').count(), 0);
		await shot('node-output');
	});

	/** The option of the open dropdown whose text matches. */
	const option = (target, text) => target.locator('.el-select-dropdown__item:visible, [role="option"]:visible').filter({ hasText: text }).first();

	it('picks tags from the list for a task, and the task gets them', async () => {
		await sandbox.reset();
		await page.locator('[data-test-id="parameter-input-title"] input, [data-test-id="parameter-input-title"] textarea').first().fill('Tagged in the editor');
		await page.locator('[data-test-id="collection-parameter-add"]').first().click();
		await option(page, /^Tag Names or IDs$/).click();
		// The dropdown fills once its list call is answered: open it again until Urgent shows.
		await pickFromList(page, 'tags', /^Urgent$/);
		await option(page, /^Work$/).click();
		assert.deepEqual((await page.locator('.el-select-dropdown__item:visible, [role="option"]:visible').allTextContents()).map((name) => name.trim()), ['Errands', 'Urgent', 'Work']);
		await shot('node-tags');
		await page.keyboard.press('Escape');
		await page.click('[data-test-id="node-execute-button"]');
		const tagged = page.locator('[data-test-id="output-panel"]');
		await tagged.getByText('Tagged in the editor').first().waitFor();
		// The tag names come from the list the dropdown read: no list call of their own.
		await tagged.getByText('tagNames').first().waitFor();
		const { body } = await sandbox.api('GET', '/v3/tasks/list', { qs: { limit: '10' } });
		assert.deepEqual(body.data.tasks.map((task) => [task.title, task.tags]), [['Tagged in the editor', ['tag-alice-urgent', 'tag-alice-work']]]);
		const lists = (await sandbox.requests()).filter((call) => call.path === '/v3/tags/list');
		assert.equal(lists.length, 1, 'the tags were listed once');
	});

	it('says what is wrong in the form\'s words: a blank title before sending, an unknown task with where its ID comes from; the task list tells tasks of one title apart', async () => {
		await sandbox.reset();
		const output = page.locator('[data-test-id="output-panel"]');
		// A title of spaces only is refused before any request.
		await page.locator('[data-test-id="parameter-input-title"] input, [data-test-id="parameter-input-title"] textarea').first().fill('   ');
		await page.click('[data-test-id="node-execute-button"]');
		await output.locator('[data-test-id="node-error-message"]').waitFor();
		assert.match(await output.locator('[data-test-id="node-error-message"]').innerText(), /Title: must not be empty/);
		assert.equal((await sandbox.requests()).filter((call) => call.path === '/v3/tasks/create').length, 0, 'nothing was sent');

		// Two open tasks of one title: the list shows the due date of one and the start of the other's ID.
		await sandbox.api('POST', '/v3/tasks/create', { body: { title: 'Call the plumber', due: '2026-12-01T09:00:00', timeZone: 'Europe/Berlin' } });
		const { body: created } = await sandbox.api('POST', '/v3/tasks/create', { body: { title: 'Call the plumber' } });
		await chooseOperation('Get');
		const task = page.locator('[data-test-id="resource-locator-taskId"]');
		await task.locator('[data-test-id="rlc-input"]').click();
		const items = page.locator('[data-test-id="rlc-item"]');
		await items.first().waitFor();
		assert.deepEqual((await items.allTextContents()).map((name) => name.trim()).sort(), [
			'Call the plumber (ID ' + created.data.id.slice(0, 8) + ')',
			'Call the plumber (due 2026-12-01 09:00)',
		].sort());
		await page.keyboard.press('Escape');

		// An ID that names no task: what was not found, and where the ID comes from.
		await task.locator('[data-test-id="rlc-mode-selector"]').click();
		await option(page, /^By ID$/).click();
		await task.locator('[data-test-id="rlc-input"] input, input[data-test-id="rlc-input"]').first().fill('no-such-task');
		// The editor takes a typed value when the field loses focus.
		await page.keyboard.press('Tab');
		await page.waitForTimeout(500);
		await page.click('[data-test-id="node-execute-button"]');
		await output.getByText('Task not found').first().waitFor();
		assert.match(await output.locator('[data-test-id="node-error-message"]').innerText(), /Task not found: no task with ID "no-such-task" exists in this account/);
		assert.match(await output.locator('[data-test-id="node-error-description"]').innerText(), /pick the task from the list/);
		await chooseOperation('Create');
	});

	/** The names a collection's "Add" dropdown offers (the `index`-th collection of the form). */
	const collectionOptions = async (target, index = 0) => {
		await target.locator('[data-test-id="collection-parameter-add"]').nth(index).click();
		const offered = target.locator('.el-select-dropdown__item:visible, [role="option"]:visible');
		await offered.first().waitFor();
		const names = (await offered.allTextContents()).map((name) => name.trim());
		await target.keyboard.press('Escape');
		return names;
	};

	/** Picks the credential of the open node (several of one type exist once the wrong-address one is added). */
	const useCredential = async (target, name) => {
		await target.click('[data-test-id="node-credentials-select"]');
		await option(target, name).click();
	};

	/** Opens the dropdown of `field` (again, while its list loads) and picks the option that matches. */
	const pickFromList = async (target, field, text) => {
		const wanted = option(target, text);
		for (let attempt = 0; attempt < 5 && !(await wanted.isVisible()); attempt++) {
			await target.click(`[data-test-id="parameter-input-${field}"]`);
			await target.waitForTimeout(1000);
		}
		await wanted.click();
	};

	/**
	 * Types `typed` into the panel or list just opened by clicking `open`, and clicks `item` once it shows.
	 * Keys typed before the search box has focus are lost (more often on a busy machine): then it closes
	 * the panel, opens it again and retypes, three times at most.
	 */
	const typeAndPick = async (tab, open, typed, item) => {
		for (let attempt = 1; ; attempt++) {
			await tab.keyboard.type(typed);
			try {
				await item.waitFor({ timeout: 15_000 });
				await item.click();
				return;
			} catch (error) {
				if (attempt >= 3) throw error;
				await tab.keyboard.press('Escape');
				await tab.click(open);
			}
		}
	};

	/**
	 * Clicks `opener` until `item` shows (waiting 10 s each time, nine times at most): the form of a new
	 * node can render again a moment after it opens, which closes a list opened before, and a busy
	 * machine takes its time to fill a list. A list still open is left to fill (a click would close
	 * it). Answers how many clicks it took; a failure says what the node's panel showed, with a
	 * screenshot in the temporary folder.
	 */
	const openUntilShown = async (tab, opener, item) => {
		const openList = tab.locator('.el-select-dropdown:visible');
		let clicks = 0;
		for (let round = 1; ; round++) {
			if (!(await item.isVisible()) && (await openList.count()) === 0) {
				await opener.click();
				clicks++;
			}
			try {
				await item.waitFor({ timeout: 10_000 });
				return clicks;
			} catch (error) {
				if (round < 9) continue;
				const screenshot = join(tmpdir(), `cts-editor-list-${Date.now()}.png`);
				await tab.screenshot({ path: screenshot });
				const panel = (await tab.locator('[data-test-id="ndv"]').innerText()).replace(/\s+/g, ' ').slice(0, 1500);
				throw new Error(
					`${error.message}\nafter ${clicks} click(s) the open lists showed ${JSON.stringify(await openList.allInnerTexts())}; the panel: ${panel}; ` +
						`lists n8n failed to load: ${JSON.stringify(listLoadFailures.slice(-5))}; screenshot ${screenshot}`,
				);
			}
		}
	};

	/**
	 * A new tab with a new, empty workflow that n8n has stored: n8n 2.41.1 answers a member's list
	 * loads in a workflow it has not stored yet with 404 ("Workflow with ID … not found"), and its
	 * editor stores a new workflow only once it saves it.
	 */
	const newEmptyWorkflowTab = async () => {
		const workflow = await n8n.rest.createWorkflow({ name: `Editor test ${randomUUID().slice(0, 8)}`, nodes: [], connections: {}, settings: { executionOrder: 'v1' }, active: false });
		const tab = await page.context().newPage();
		await tab.goto(`${n8n.url}/workflow/${workflow.id}`);
		return tab;
	};

	/** A new workflow in a tab of its own: a manual trigger, then `node` with `action` from the node panel. */
	const newWorkflowWith = async (node, action) => {
		const tab = await newEmptyWorkflowTab();
		await tab.click('[data-test-id="canvas-plus-button"]');
		const names = tab.locator('[data-test-id="node-creator-item-name"]');
		// Triggers are offered under their app ("CTS Task"), as "On …" actions.
		if (!action.startsWith('On ')) {
			await typeAndPick(tab, '[data-test-id="canvas-plus-button"]', 'manual', names.filter({ hasText: /^Manual Trigger$/ }).first());
			await tab.click('[data-test-id="canvas-handle-plus"]');
		}
		const reopen = action.startsWith('On ') ? '[data-test-id="canvas-plus-button"]' : '[data-test-id="canvas-handle-plus"]';
		await typeAndPick(tab, reopen, node, names.filter({ hasText: new RegExp(`^${node}$`) }).first());
		await names.filter({ hasText: new RegExp(`^${action}$`) }).first().waitFor();
		const actions = (await names.allTextContents()).map((name) => name.trim());
		await names.filter({ hasText: new RegExp(`^${action}$`) }).first().click();
		await tab.waitForSelector('[data-test-id="ndv"]');
		return { tab, actions };
	};

	it('picks a calendar from the list in the Event node, and Create puts the event there', async () => {
		await sandbox.reset();
		// A workflow of its own, in a second tab.
		const tab = await newEmptyWorkflowTab();
		const names = tab.locator('[data-test-id="node-creator-item-name"]');
		await tab.click('[data-test-id="canvas-plus-button"]');
		await typeAndPick(tab, '[data-test-id="canvas-plus-button"]', 'manual', names.filter({ hasText: /^Manual Trigger$/ }).first());
		await tab.click('[data-test-id="canvas-handle-plus"]');
		await typeAndPick(tab, '[data-test-id="canvas-handle-plus"]', 'CTS', names.filter({ hasText: /^CTS Event$/ }).first());
		await names.filter({ hasText: /^Create an event$/ }).first().click();
		await tab.waitForSelector('[data-test-id="ndv"] [data-test-id="parameter-input-title"]');

		const calendar = tab.locator('[data-test-id="resource-locator-calendarId"]');
		const items = tab.locator('[data-test-id="rlc-item"]');
		await openUntilShown(tab, calendar.locator('[data-test-id="rlc-input"]'), items.first());
		const offered = (await items.allTextContents()).map((name) => name.trim());
		assert.deepEqual(offered.slice(0, 2), ['Personal (alice@sandbox.example, Provider A)', 'Team Platform (alice@sandbox.example, Provider A)']);
		assert.ok(!offered.some((name) => name.startsWith('Holidays')), 'the read-only calendar is not offered');
		await shot('node-calendar-picker', tab);
		await items.filter({ hasText: 'Team Platform' }).first().click();
		// "From List" carries the account: no Account ID field.
		assert.ok(!(await formFields(tab)).includes('accountId'));

		await tab.locator('[data-test-id="parameter-input-title"] input').first().fill('Picked in the editor');
		// Start stays at its default ({{ $now }}); the end is set by a Duration (default one hour).
		assert.match(await tab.locator('[data-test-id="ndv"]').innerText(), /Set End By/);
		await tab.click('[data-test-id="parameter-input-endMode"]');
		await option(tab, /^End Time/).waitFor();
		assert.deepEqual(
			(await tab.locator('.el-select-dropdown__item:visible, [role="option"]:visible').allTextContents()).map((name) => name.trim().split(/\s{2,}|\n/)[0]).filter((name) => /^(End Time|Duration)/.test(name)).map((name) => name.replace(/(End Time|Duration).*/, '$1')),
			['End Time', 'Duration'],
		);
		await option(tab, /^Duration/).click();
		await tab.click('[data-test-id="parameter-input-timeZone"]');
		await typeAndPick(tab, '[data-test-id="parameter-input-timeZone"]', 'Europe/Berl', option(tab, /^Europe\/Berlin \(/));
		await tab.click('[data-test-id="node-execute-button"]');
		await tab.locator('[data-test-id="output-panel"]').getByText('Picked in the editor').first().waitFor();

		const now = Date.now();
		const { body } = await sandbox.api('GET', '/v3/events/list', {
			qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-team', start: new Date(now - 3600_000).toISOString(), end: new Date(now + 3 * 3600_000).toISOString() },
		});
		assert.deepEqual(body.data.events.map((event) => [event.title, event.calendarId, event.duration, event.timeZone]), [
			['Picked in the editor', 'cal-alice-a-team', 'PT1H', 'Europe/Berlin'],
		]);

		// "By ID" shows the Account ID field beside the calendar, as before the list existed.
		await calendar.locator('[data-test-id="rlc-mode-selector"]').click();
		await option(tab, /^By ID$/).click();
		await tab.waitForSelector('[data-test-id="parameter-input-accountId"]');
		assert.deepEqual((await formFields(tab)).slice(0, 5), ['resource', 'operation', 'calendarId', 'accountId', 'title']);
		await tab.close();
	});
	it('Event (V3): every operation shows its fields; Create with the defaults runs now, for an hour, in the workflow\'s time zone', async () => {
		await sandbox.reset();
		const { tab, actions } = await newWorkflowWith('CTS Event', 'Create an event');
		assert.deepEqual(actions.filter((name) => /event|calendar|invitation/i.test(name) && !name.startsWith('CTS')).sort(), [
			'Create an event',
			'Delete an event',
			'Find free time in calendars',
			'Get an event',
			'Get many calendars',
			'Get many events',
			'Mirror busy time into a calendar',
			'Update an event',
		]);
		await expectFields(['resource', 'operation', 'calendarId', 'title', 'allDay', 'start', 'endMode', 'end', 'timeZone', 'ifTimeTaken', 'skipIfExists', 'output'], tab);
		await tab.locator('[data-test-id="resource-locator-calendarId"] [data-test-id="rlc-input"]').click();
		await tab.locator('[data-test-id="rlc-item"]').filter({ hasText: 'Personal' }).first().click();
		await tab.locator('[data-test-id="parameter-input-title"] input').first().fill('Defaults in the editor');
		// The empty Time Zone is a choice the dropdown offers (not a red "not supported" value).
		assert.equal(await tab.locator('[data-test-id="parameter-input-timeZone"] .has-issues, [data-test-id="parameter-issues"]').count(), 0);
		await shot('node-form-event-create', tab);
		await tab.click('[data-test-id="node-execute-button"]');
		const output = tab.locator('[data-test-id="output-panel"]');
		await output.getByText('Defaults in the editor').first().waitFor();
		await output.getByText('JSON', { exact: true }).first().click();
		await output.getByText('"end"').first().waitFor();
		assert.equal(await output.getByText('@type').count(), 0, 'the simplified output has no @type');
		await shot('node-output-event', tab);
		// One way to add people: Attendees (names and roles in it), no separate Participants.
		const additional = await collectionOptions(tab);
		assert.ok(additional.includes('Attendees'), `Additional Fields: ${additional.join(', ')}`);
		assert.ok(!additional.some((name) => /Participant/.test(name)), `Additional Fields: ${additional.join(', ')}`);
		const now = Date.now();
		const { body } = await sandbox.api('GET', '/v3/events/list', {
			qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: new Date(now - 3600_000).toISOString(), end: new Date(now + 7200_000).toISOString() },
		});
		const created = body.data.events.find((event) => event.title === 'Defaults in the editor');
		assert.ok(created, 'the event was created around now');
		assert.deepEqual([created.duration, created.timeZone], ['PT1H', 'UTC']);

		await chooseOperation('Get', tab);
		await expectFields(['resource', 'operation', 'eventId', 'output'], tab);
		await chooseOperation('Get Many', tab);
		await expectFields(['resource', 'operation', 'calendarIds', 'accountId', 'start', 'end', 'returnAll', 'limit', 'output'], tab);
		// A text search and an order, as Google Calendar's Get Many has.
		const listOptions = await collectionOptions(tab);
		assert.ok(['Search', 'Order'].every((name) => listOptions.includes(name)), `Options: ${listOptions.join(', ')}`);
		// The Calendars list on first open, with no Account chosen: every readable calendar of every account.
		await tab.click('[data-test-id="parameter-input-calendarIds"]');
		await option(tab, /^Personal \(alice@sandbox.example, Provider A\)/).waitFor({ timeout: 15_000 });
		await option(tab, /^Calendar \(alice@sandbox.example, Provider B\)/).waitFor();
		await tab.keyboard.press('Escape');
		assert.equal(await tab.getByText('Error fetching options').count(), 0, 'no "Error fetching options"');
		await chooseOperation('Update', tab);
		assert.deepEqual((await formFields(tab)).slice(0, 5), ['resource', 'operation', 'calendarId', 'identifyBy', 'eventId']);
		assert.ok((await formFields(tab)).includes('seriesUpdateMode'));
		await chooseOperation('Delete', tab);
		await expectFields(['resource', 'operation', 'calendarId', 'eventId', 'seriesUpdateMode', 'goneIsSuccess'], tab);
		await tab.close();
	});

	it('Event V1: its own node with the bearer-token credential; "Respond to an invitation" is an action and answers the invitation', async () => {
		await sandbox.reset();
		const token = (await sandbox.control('token', { user: 'alice', ttlSeconds: 3600 })).token;
		await n8n.rest.createCredential({ name: 'CTS Sync API (sandbox)', type: 'ctsSyncApi', data: { token, syncUrl: sandbox.url } });
		const invitation = await sandbox.api('POST', '/v3/events/create', {
			body: {
				accountId: 'acc-alice-a',
				calendarId: 'cal-alice-a-primary',
				title: 'Invitation',
				start: '2026-12-03T09:00:00',
				duration: 'PT1H',
				timeZone: 'UTC',
				showWithoutTime: false,
				participants: { [Buffer.from('alice@sandbox.example').toString('base64')]: { '@type': 'Participant', email: 'alice@sandbox.example', roles: { attendee: true } } },
			},
		});
		const eventId = invitation.body.data.event.id;
		const { tab, actions } = await newWorkflowWith('CTS Event V1', 'Respond to an invitation');
		assert.deepEqual(actions.filter((name) => /event|invitation/i.test(name) && !name.startsWith('CTS')).sort(), [
			'Create an event',
			'Delete an event',
			'Get many events',
			'Respond to an invitation',
			'Update an event',
		]);
		assert.match(await tab.locator('[data-test-id="node-credentials-select"] input').first().inputValue(), /CTS Sync API \(sandbox\)/);
		await expectFields(['resource', 'operation', 'eventId', 'rsvpAction', 'comment', 'notifyOrganizer'], tab);
		await tab.locator('[data-test-id="parameter-input-eventId"] input').first().fill(eventId);
		await tab.click('[data-test-id="parameter-input-rsvpAction"]');
		await option(tab, /^Tentatively Accept$/).click();
		await shot('node-form-event-v1-respond', tab);
		await tab.click('[data-test-id="node-execute-button"]');
		await tab.locator('[data-test-id="output-panel"]').getByText('tentativelyAccept').first().waitFor();
		const { body } = await sandbox.api('GET', '/v3/events', { qs: { id: eventId } });
		assert.deepEqual(Object.values(body.data.event.participants).map((participant) => participant.participationStatus), ['tentative']);

		await chooseOperation('Create', tab);
		await expectFields(['resource', 'operation', 'calendarId', 'title', 'allDay', 'start', 'endMode', 'end', 'timeZone', 'output'], tab);
		await chooseOperation('Update', tab);
		await expectFields(['resource', 'operation', 'eventId', 'output'], tab);
		await chooseOperation('Delete', tab);
		await expectFields(['resource', 'operation', 'eventId', 'goneIsSuccess'], tab);

		// The V1 credential's test passes.
		await tab.click('[data-test-id="credential-edit-button"]');
		await tab.waitForSelector('[data-test-id="credential-edit-dialog"]');
		await tab.locator('button[title="Retry credential test"]').click().catch(() => undefined);
		await tab.waitForSelector('[data-test-id="credentials-config-container-test-success"]');
		await shot('credential-v1', tab);
		await tab.close();
	});

	/** The one execution a click started, once finished (its IDs before the click in `known`). */
	const finishedRun = async (workflowId, known) => (await newExecutions(n8n.rest, workflowId, { known }))[0];

	/**
	 * What each example shows after one click of Execute workflow, whichever trigger n8n starts from:
	 * the node a newcomer opens, and what its output holds (items written or read, not only green).
	 */
	const VISIBLE = {
		'CTS example: task round trip': ['Read Deleted Task', (items) => items.length === 1 && items[0].deleted === true],
		'CTS example: event round trip with a recurring series (v3)': ['List Occurrences', (items) => items.some((event) => event.title === 'Weekly planning')],
		'CTS example: RSVP (v1)': ['Read Answer', (items) => items.length === 1 && JSON.stringify(items[0]).includes('accepted')],
		'CTS example: task trigger': ['Handle Task', (items) => items.length === 1 && ['created', 'updated'].includes(items[0].triggerEvent)],
		'CTS example: task completed': ['Post to Chat', (items) => items.length === 1 && items[0].triggerEvent === 'completed'],
		'CTS example: morning briefing': ['Post to Chat', (items) => items.length === 1 && /Agenda/.test(String(items[0].text))],
		[MIRROR_EXAMPLE]: ['Work → Personal', (items) => items.length > 0],
		[PLANNING_EXAMPLE]: ['Plan Open Tasks', (items) => items.some((item) => item.action === 'create' && item.preview === true)],
		[SYNC_EXAMPLES.csv]: ['Sync Tasks', (items) => items.length === 4],
		[SYNC_EXAMPLES.table]: ['Sync Tasks', (items) => items.length === 3],
	};

	/**
	 * Opens each workflow in `tab` and clicks Execute workflow once per round, as a newcomer tries
	 * them; asserts a green run and its visible result, and returns the points spent on the API key.
	 */
	const clickThrough = async (tab, workflows, rounds) => {
		const logged = (await sandbox.requests()).length;
		for (const round of rounds) {
			for (const workflow of workflows) {
				const started = Date.now();
				await tab.goto(`${n8n.url}/workflow/${workflow.id}`);
				const before = await executionIds(n8n.rest, workflow.id);
				const requestsBefore = (await sandbox.requests()).length;
				await tab.locator('[data-test-id="execute-workflow-button"]').first().click();
				const run = await finishedRun(workflow.id, before);
				const calls = (await sandbox.requests()).slice(requestsBefore);
				const [node, holds] = VISIBLE[workflow.name];
				const shown = nodeOutput(run, node);
				assert.ok(
					run.status === 'success' && holds(shown),
					`"${workflow.name}" (round ${round}): ${run.status}; ${run.error ?? ''}; ${node}: ${JSON.stringify(shown).slice(0, 600)}; requests: ${calls.map((call) => `${call.method} ${call.path} ${call.status} (${call.points} points)`).join(', ')}`,
				);
				assert.equal(await tab.getByText('Error fetching options').count(), 0);
				if (round === 1 && workflow.name === 'CTS example: task round trip') await shot('example-task-round-trip', tab);
				const triggers = Object.keys(run.runData).filter((name) => workflow.nodes.some((candidate) => candidate.name === name && /trigger/i.test(candidate.type)));
				const points = calls.reduce((sum, call) => sum + call.points, 0);
				console.log(`round ${round}: "${workflow.name}" from ${triggers.join(', ')}: ${node} ${shown.length} items, ${points} points (opening it in the editor included), ${((Date.now() - started) / 1000).toFixed(1)} s`);
			}
		}
		return (await sandbox.requests()).slice(logged).filter((call) => call.path.startsWith('/v3/')).reduce((sum, call) => sum + call.points, 0);
	};

	it('a fresh `npm start` state: one click of Execute workflow runs every example green with a visible result, twice within the budget', async () => {
		await sandbox.resetToStarterWorld();
		const started = Date.now();
		// The examples as npm start sets them up: its credentials, CSV file and data table.
		await provisionExamples(n8n.rest, { sandboxUrl: sandbox.url, prefix: PACKAGE_NAME, stateDir });
		const examples = await Promise.all((await n8n.rest.listWorkflows()).filter((workflow) => workflow.name.startsWith('CTS example:')).map(async ({ id }) => await n8n.rest.getWorkflow(id)));
		assert.equal(examples.length, 11);
		const byName = (names) => names.map((name) => examples.find((workflow) => workflow.name === name));
		const tab = await page.context().newPage();

		// Twice, as a newcomer tries them: a run from the editor never waits long for the budget (it would
		// fail at once instead), so two green rounds show both fit the starter account's 300 points.
		const firstSeven = examples.filter((workflow) => ![PLANNING_EXAMPLE, MCP_EXAMPLE, ...Object.values(SYNC_EXAMPLES)].includes(workflow.name));
		assert.equal(firstSeven.length, 7);
		const spent = await clickThrough(tab, firstSeven, [1, 2]);
		console.log(`two rounds of the ${firstSeven.length} examples from the editor: ${spent} points of the API key's 300`);
		assert.ok(spent <= 300, `the runs cost ${spent} points`);
		// The round trips and RSVP clean up what they create: after two rounds, no invitation is left. The
		// examples may have used the window up: this read of the test's own gets a budget of its own.
		await sandbox.control('limits', { points: null });
		const now = Date.now();
		const { body: left } = await sandbox.api('GET', '/v3/events/list', {
			qs: { accountId: 'acc-alice-a', calendarIds: 'cal-alice-a-primary', start: new Date(now).toISOString(), end: new Date(now + 7 * 24 * 3600_000).toISOString() },
		});
		assert.deepEqual(left.data.events.filter((event) => event.title === 'Quarterly review'), []);

		// The planning and sync examples, twice, in a budget window of their own (with the seven above they
		// would need more than one 300-point window). The two-way sync starts from Task Completed, which
		// n8n ranks above the schedule: its sample is no completed task, and the rows are synced anyway.
		await sandbox.resetToStarterWorld();
		const others = byName([PLANNING_EXAMPLE, SYNC_EXAMPLES.csv, SYNC_EXAMPLES.table]);
		const spentByOthers = await clickThrough(tab, others, [1, 2]);
		console.log(`two rounds of the planning and sync examples from the editor: ${spentByOthers} points of the API key's 300`);
		assert.ok(spentByOthers <= 300, `the runs cost ${spentByOthers} points`);

		// The MCP server waits for a client's call: the button says so, and Stop ends the wait.
		const [mcp] = byName([MCP_EXAMPLE]);
		await tab.goto(`${n8n.url}/workflow/${mcp.id}`);
		await tab.locator('[data-test-id="execute-workflow-button"]').first().click();
		await tab.getByText('Waiting for trigger event').first().waitFor();
		await tab.locator('[data-test-id="stop-execution-waiting-for-webhook-button"]').click();
		await tab.close();
		console.log(`every example clicked from the editor: ${((Date.now() - started) / 1000).toFixed(0)} s`);
	});

	/** Every operation of the package's action nodes, as their Operation dropdowns offer them per resource, named by its action. */
	const everyOperation = () =>
		[
			['ctsTask', 'CtsTask', 'CtsTask', ''],
			['ctsEvent', 'CtsEvent', 'CtsEvent', ''],
			['ctsEventV1', 'CtsEvent', 'CtsEventV1', ' (V1)'],
		].flatMap(([type, folder, className, suffix]) => {
			return loadClass(join(projectRoot, 'dist', 'nodes', folder, `${className}.node.js`)).description.properties
				.filter((property) => property.name === 'operation')
				.flatMap((property) =>
					property.displayOptions.show.resource.flatMap((resource) => property.options.map((option) => ({ type, resource, operation: option.value, name: `${option.action}${suffix}`, key: `${type} ${resource}.${option.value}` }))),
				);
		});

	/** Runs a node of the open workflow as its Execute step button on the canvas does; answers the toast n8n shows, and the run (when there is one). */
	const executeStep = async (tab, workflowId, name) => {
		// Each step from a clean state, as on a fresh canvas (n8n 2.41.1 fails a step with issues after another step ran).
		const clear = tab.locator('[data-test-id="clear-execution-data-button"]');
		if (await clear.isVisible()) await clear.click();
		const before = await executionIds(n8n.rest, workflowId);
		const node = tab.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
		await node.hover();
		await node.locator('[data-test-id="execute-node-button"]').click();
		const toast = tab.locator('.el-notification').filter({ hasText: /has issues|executed successfully|Problem/ }).first();
		await toast.waitFor();
		const said = (await toast.innerText()).replace(/\s+/g, ' ').trim();
		const run = /executed successfully/.test(said)
			? await finishedRun(workflowId, before).catch((error) => {
					throw new Error(`${name}: "${said}", then ${error.message}`);
				})
			: undefined;
		for (const close of await tab.locator('.el-notification__closeBtn').all()) await close.click().catch(() => undefined);
		await tab.locator('.el-notification').first().waitFor({ state: 'detached' });
		return { said, run };
	};

	it('every CTS operation added fresh after a Manual Trigger: a green first run, or n8n names the field to fill first', async () => {
		await sandbox.resetToStarterWorld();
		const started = Date.now();
		const credentials = await n8n.rest.listCredentials();
		const api = credentials.find((credential) => credential.name === 'CTS API (sandbox)');
		const sync =
			credentials.find((credential) => credential.name === 'CTS Sync API (sandbox)') ??
			(await n8n.rest.createCredential({ name: 'CTS Sync API (sandbox)', type: 'ctsSyncApi', data: { token: await sandbox.token('alice', 3600), syncUrl: sandbox.url } }));
		const credentialFor = (type) => (type === 'ctsEventV1' ? { ctsSyncApi: { id: sync.id, name: sync.name } } : { ctsApi: { id: api.id, name: api.name } });
		// As the node panel adds them: the resource and operation set, every other parameter its default.
		const operations = everyOperation();
		// Each operation is told apart by its key, so that each below is either green or names its fields.
		assert.equal(new Set(operations.map(({ key }) => key)).size, operations.length, 'one key per operation');
		assert.ok(operations.length >= 30, `${operations.length} operations`);
		const nodes = [{ id: randomUUID(), name: 'Run', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }];
		operations.forEach(({ type, resource, operation, name }, index) => {
			nodes.push({ id: randomUUID(), name, type: `${PACKAGE_NAME}.${type}`, typeVersion: 1, position: [300 + 260 * (index % 6), 160 * Math.floor(index / 6)], parameters: { resource, operation }, credentials: credentialFor(type) });
		});
		const connections = { Run: { main: [operations.map(({ name }) => ({ node: name, type: 'main', index: 0 }))] } };
		const { id } = await n8n.rest.createWorkflow({ name: 'Every operation, fresh', nodes, connections, settings: { executionOrder: 'v1' }, active: false });
		const tab = await page.context().newPage();
		await tab.goto(`${n8n.url}/workflow/${id}`);
		await tab.locator('[data-test-id="canvas-node"]').first().waitFor();

		const green = [];
		const toFill = {};
		const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		for (const { name, key } of operations) {
			const { said, run } = await executeStep(tab, id, name);
			if (run) {
				const items = nodeOutput(run, name);
				assert.ok(run.status === 'success' && items.length > 0, `${name}: ${run.status} ${run.error ?? ''} ${items.length} items`);
				green.push(key);
				continue;
			}
			// Before anything is sent: n8n's own check, naming each required field the operation's form leaves empty.
			assert.match(said, new RegExp(`^Workflow execution cannot start The '${escaped(name)}' node has issues:( - Parameter "[^"]+" is required\\.)+$`), `${name}: ${said}`);
			toFill[key] = [...said.matchAll(/Parameter "([^"]+)" is required/g)].map((match) => match[1]);
		}
		console.log(`${operations.length} operations added fresh, each run once: ${green.length} green, the others name what to fill (${((Date.now() - started) / 1000).toFixed(0)} s)`);
		// The lists and reads work with their defaults; everything else acts on something the user picks or names.
		assert.deepEqual(green.sort(), [
			'ctsEvent calendar.findFreeTime',
			'ctsEvent calendar.getAgenda',
			'ctsEvent calendar.getAll',
			'ctsEvent event.getAll',
			'ctsTask tag.getAll',
			'ctsTask task.getAll',
		]);
		assert.deepEqual(toFill['ctsTask task.plan'], ['Calendar']);
		assert.deepEqual(toFill['ctsTask task.sync'], ['Source']);
		assert.deepEqual(toFill['ctsTask task.upsert'], ['Source']);

		await tab.close();
		console.log(`fresh operations: ${((Date.now() - started) / 1000).toFixed(0)} s`);
	});

	it('pickers with the point budget used up say so where the user looks: a greyed option, the From List error view', async () => {
		// Bob's budget, whose lists no earlier step read.
		await sandbox.control('limits', { points: 10, user: 'bob' });
		assert.equal((await sandbox.api('GET', '/v3/tasks/list', { key: 'sandbox-bob-key' })).status, 200);
		const bob = await n8n.rest.createCredential({ name: 'CTS API (bob)', type: 'ctsApi', data: { apiKey: 'sandbox-bob-key', baseUrl: sandbox.url } });
		try {
			const pickers = await n8n.rest.createWorkflow({
				name: 'Pickers with the budget used up',
				nodes: [
					{ id: randomUUID(), name: 'Find Free Time', type: `${PACKAGE_NAME}.ctsEvent`, typeVersion: 1, position: [0, 0], parameters: { resource: 'calendar', operation: 'findFreeTime' }, credentials: { ctsApi: { id: bob.id, name: bob.name } } },
					{ id: randomUUID(), name: 'Get Task', type: `${PACKAGE_NAME}.ctsTask`, typeVersion: 1, position: [300, 0], parameters: { resource: 'task', operation: 'get' }, credentials: { ctsApi: { id: bob.id, name: bob.name } } },
				],
				connections: {},
				settings: { executionOrder: 'v1' },
				active: false,
			});
			/** The pickers' workflow in a tab of its own, with one node's panel open. */
			const openNode = async (name) => {
				const tab = await page.context().newPage();
				await tab.goto(`${n8n.url}/workflow/${pickers.id}`);
				await tab.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).dblclick();
				return tab;
			};
			const reason = /The point budget is used up \(\d+ of 10 points left\): this list loads again in/;
			let tab = await openNode('Find Free Time');
			// A dropdown: the reason is its one option, greyed.
			const offered = tab.locator('.el-select-dropdown__item:visible').filter({ hasText: reason }).first();
			await openUntilShown(tab, tab.locator('[data-test-id="parameter-input-calendars"]'), offered);
			assert.match(await offered.getAttribute('class'), /is-disabled/);
			assert.equal(await tab.getByText('Error fetching options').count(), 0, 'no "Error fetching options"');
			await tab.close();
			// From List: the list's error view shows the reason, and what to do meanwhile.
			tab = await openNode('Get Task');
			await tab.locator('[data-test-id="resource-locator-taskId"] [data-test-id="rlc-input"]').click();
			const failed = tab.locator('[data-test-id="rlc-error-container"]');
			await failed.getByText(reason).first().waitFor();
			await failed.getByText('Meanwhile choose "By ID" and enter the ID.').first().waitFor();
			await tab.close();
		} finally {
			// A node added later would be given the newest credential of its type: Bob's, its budget used up.
			await n8n.rest.deleteCredential(bob.id);
		}
	});

	it('a freshly added Find Free Time: no "Error fetching options", "Empty: all readable calendars", and its defaults find slots', async () => {
		await sandbox.resetToStarterWorld();
		const { tab } = await newWorkflowWith('CTS Event', 'Find free time in calendars');
		const calendars = tab.locator('[data-test-id="parameter-input-calendars"]');
		await calendars.waitFor();
		// The lists of a new node load before n8n sets its credential: give that time to show.
		await tab.waitForTimeout(3000);
		assert.equal(await tab.getByText('Error fetching options').count(), 0, 'no "Error fetching options"');
		// Empty means every readable calendar, and the field's hint says so.
		await tab.locator('[data-test-id="ndv"]').getByText('Empty: all readable calendars.').first().waitFor();
		// The list shows the calendars without an Account or any other field. The form of a new node can
		// render again a moment after it opens, which closes a list opened before: open it again then.
		const opened = await openUntilShown(tab, calendars, option(tab, /^Personal \(alice@sandbox.example, Provider A\)/));
		console.log(`Find Free Time's Calendars: the list showed the calendars after ${opened} open(s)`);
		assert.equal(await tab.getByText('Error fetching options').count(), 0, 'no "Error fetching options" in the open list');
		await tab.keyboard.press('Escape');
		await shot('node-find-free-time', tab);
		await tab.click('[data-test-id="node-execute-button"]');
		const output = tab.locator('[data-test-id="output-panel"]');
		await output.getByText('JSON', { exact: true }).first().click();
		await output.getByText('Skipped 2 calendars that cannot be read', { exact: false }).first().waitFor();
		// Said once, on the first slot only.
		assert.equal(await output.getByText('Skipped 2 calendars', { exact: false }).count(), 1);
		assert.equal(await output.locator('[data-test-id="node-error-message"]').count(), 0);
		await shot('node-output-find-free-time', tab);
		await tab.close();
	});

	it('a CTS API credential whose Base URL is not the service fails its test, saying so', async () => {
		// n8n's own address answers (with HTML): the test must not call that a success.
		await n8n.rest.createCredential({ name: 'CTS API (wrong address)', type: 'ctsApi', data: { apiKey: 'sandbox-alice-key', baseUrl: n8n.url } });
		const { tab } = await newWorkflowWith('CTS Task', 'Get a task');
		await tab.click('[data-test-id="node-credentials-select"]');
		await option(tab, /CTS API \(wrong address\)/).click();
		await tab.click('[data-test-id="credential-edit-button"]');
		await tab.waitForSelector('[data-test-id="credential-edit-dialog"]');
		// Opening the credential runs its test; "More details" shows the test's message.
		await tab.getByText('More details').first().click();
		await tab.getByText('The Base URL does not point at the service').first().waitFor();
		await shot('credential-wrong-base-url', tab);
		await tab.close();
	});

	it('Task Trigger and Event Trigger: Fetch Test Event returns a real task and event of the starter world', async () => {
		await sandbox.resetToStarterWorld();

		const task = await newWorkflowWith('CTS Task', 'On task created');
		// Poll Times ("mode") is n8n's own field of every polling trigger.
		await expectFields(['mode', 'events', 'output'], task.tab);
		await task.tab.getByText('points', { exact: false }).first().waitFor();
		// How often it checks with the default share (25%) and schedule (every minute), in one sentence:
		// the editor cannot know the account's budget, so it says it for the usual ones.
		await task.tab
			.getByText("Checks at most every 7.5 min on a 100-point account, 2 min on 300, 75 s on 500 (per 15 min); it paces itself by the budget the service reports.", { exact: true })
			.first()
			.waitFor();
		await useCredential(task.tab, /^CTS API \(sandbox\)/);
		await task.tab.click('[data-test-id="node-execute-button"]');
		await task.tab.locator('[data-test-id="output-panel"]').getByText('JSON', { exact: true }).first().click();
		await task.tab.locator('[data-test-id="output-panel"]').getByText(/Plan the team offsite|Book the venue|Send the invitations|Buy a birthday present|Read the CTS nodes README/).first().waitFor();
		assert.equal(await task.tab.getByText('Error fetching options').count(), 0);
		await shot('trigger-task', task.tab);
		await task.tab.close();

		const event = await newWorkflowWith('CTS Event', 'On event created');
		await useCredential(event.tab, /^CTS API \(sandbox\)/);
		// Calendars on first open, no Account chosen: every readable calendar of every account, no error.
		await openUntilShown(event.tab, event.tab.locator('[data-test-id="parameter-input-calendarIds"]'), option(event.tab, /^Personal \(alice@sandbox.example, Provider A\)/));
		await event.tab.keyboard.press('Escape');
		assert.equal(await event.tab.getByText('Error fetching options').count(), 0);
		// An empty Account (every account) is one of its choices: the editor marks no field as having an issue.
		assert.equal(await event.tab.locator('[data-test-id="ndv"] [data-test-id="parameter-issues"]').count(), 0, 'no field marked with an issue');
		// Fetch Test Event with the defaults: nothing picked (empty Calendars: every readable calendar).
		await event.tab.click('[data-test-id="node-execute-button"]');
		await event.tab.locator('[data-test-id="output-panel"]').getByText('JSON', { exact: true }).first().click();
		// The defaults fire on created, updated and cancelled: the newest created event of the starter world, labelled so.
		const output = event.tab.locator('[data-test-id="output-panel"]');
		await output.getByText(/Team sync|Focus time|Lunch with Sam|Project review|Yoga|Dentist/).first().waitFor();
		assert.match(await output.innerText(), /triggerEvent\W+created/);
		assert.equal(await event.tab.getByText('Error fetching options').count(), 0);
		await shot('trigger-event', event.tab);
		await event.tab.close();
	});
});
