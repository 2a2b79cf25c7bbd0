import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

// Debian's Chromium driven by playwright-core (no browser download): headless, every feature that
// would reach the network off, a fresh profile per launch (playwright-core makes a new empty
// user-data-dir for every launch() and removes it on close).

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// `npm test` writes its screenshots beside the other test output (ignored by git), so a run leaves
// the checkout as it found it; `npm run screenshots` retakes the ones the README and docs show.
export const SCREENSHOTS = resolve(import.meta.dirname, '..', '..', ...(process.env.UPDATE_SCREENSHOTS === '1' ? ['docs', 'screenshots'] : ['.test-cache', 'screenshots']));

export async function launch(): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH`);
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

const WEB = resolve(import.meta.dirname, '..', '..', 'web');
const DIST = join(WEB, 'dist');
const STAMP = join(DIST, '.built-from');
const LOCK = join(WEB, '.build-lock');

/** The newest modification time among the console's sources. */
function newestSource(): number {
  const walk = (dir: string): number =>
    Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)));
  return Math.max(walk(join(WEB, 'src')), walk(join(WEB, 'public')), statSync(join(WEB, 'index.html')).mtimeMs, statSync(join(WEB, 'vite.config.ts')).mtimeMs);
}

const upToDate = () => existsSync(STAMP) && Number(readFileSync(STAMP, 'utf8')) >= newestSource();

/**
 * The console as `npm start` serves it. Test files run in parallel and a build empties web/dist
 * first, so builds are serialized by a lock file and skipped when the sources have not changed
 * since the last one.
 */
export function buildConsole(): void {
  if (upToDate()) return;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      closeSync(openSync(LOCK, 'wx'));
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${LOCK} held for two minutes; remove it if no build is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (upToDate()) return;
    const sources = newestSource();
    execFileSync(process.execPath, [resolve(WEB, '..', 'node_modules/vite/bin/vite.js'), 'build', WEB, '--logLevel', 'warn'], { stdio: 'inherit' });
    writeFileSync(STAMP, String(sources));
  } finally {
    rmSync(LOCK, { force: true });
  }
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

/**
 * The console built, Chromium started, and the runtime's demo owner signed in on a fresh page;
 * `close` ends the context and the browser.
 */
export async function ownerPage(service: { url: string; runtime: { console?: { owner: { email: string; password: string } } | null } }): Promise<{ page: Page; close(): Promise<void> }> {
  buildConsole();
  const { browser, close } = await launch();
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  const login = service.runtime.console!.owner;
  await signIn(page, service.url, login.email, login.password);
  return {
    page,
    close: async () => {
      await ctx.close();
      await close();
    },
  };
}
