import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

// Debian's Chromium driven by playwright-core (no browser download): headless, every feature that
// would reach the network off, a fresh profile per launch (playwright-core makes a new empty
// user-data-dir for every launch() and removes it on close).

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

export async function launch(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
    },
  };
}

export async function newContext(browser: Browser, viewport = { width: 1280, height: 860 }): Promise<BrowserContext> {
  return browser.newContext({ viewport, acceptDownloads: true, deviceScaleFactor: 1 });
}

export async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The console as `npm start` serves it: built once per test run. */
export function buildConsole(): void {
  execFileSync(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build', 'web', '--logLevel', 'warn'], { stdio: 'inherit' });
}

/** Signs in on the local provider's form; ends on the console's uploads page. */
export async function signIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
}
