/**
 * The browser of the editor tests: Debian's Chromium, headless, driven by playwright-core (which
 * cannot download a browser here), and signing in to n8n's editor as its owner.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium (playwright gives it a fresh profile). A missing browser is a
 * failure, never a skip (`.ci/run` installs Debian's Chromium; CHROMIUM_PATH names another).
 */
export async function launchChromium() {
	let playwright;
	try {
		playwright = require('playwright-core');
	} catch {
		throw new Error('The editor tests need a browser: playwright-core is not installed (npm install)');
	}
	if (!existsSync(CHROMIUM)) throw new Error(`The editor tests need a browser: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
	return await playwright.chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
	});
}

/** A page of a new browser context (1440 × 900, 60 s for each wait). */
export async function newPage(browser) {
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
	context.setDefaultTimeout(60_000);
	return await context.newPage();
}

/** Signs in on n8n's sign-in page (n8n 1.x and 2.x name the fields alike) and waits to leave it. */
export async function signIn(page, baseUrl, { email, password }) {
	await page.goto(`${baseUrl}/signin`);
	await page.fill('input[name="emailOrLdapLoginId"]', email);
	await page.fill('input[name="password"]', password);
	await page.click('[data-test-id="form-submit-button"]');
	await page.waitForURL((url) => !url.pathname.includes('signin'));
}
