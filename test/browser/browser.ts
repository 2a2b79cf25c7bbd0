import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import axe from 'axe-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { scaled } from '../support/wait';

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

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether the browser fetching this URL leaves the machine: any network scheme to a non-loopback host. */
export function isOutside(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return true;
  }
  if (!['http:', 'https:', 'ws:', 'wss:', 'ftp:'].includes(parsed.protocol)) return false; // data:, blob:, about:, chrome-error:
  return !LOOPBACK_HOSTS.has(parsed.hostname);
}

/**
 * Every request any browser context of this test file made to an address outside the machine (the
 * service and its file store listen on loopback only). The file's last hook asserts there were none.
 */
export const outsideRequests: string[] = [];

// Registered on the importing test file's root suite: every browser test file checks it.
afterAll(() => {
  expect(outsideRequests, 'requests to addresses outside the service').toEqual([]);
});

/** Every page of this test file's contexts still open: what a failed test's report shows. */
const openPages = new Set<Page>();

// A wait that times out says only what it waited for; what the page showed instead (an alert, the
// sign-in form, another page) is what tells a failure in CI apart. On a failed test each open page's
// address and text go to the test's output and a screenshot to SCREENSHOTS/failed-….png.
afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  let n = 0;
  for (const page of openPages) {
    if (page.isClosed()) continue;
    const name = `failed-${task.name.replace(/[^\w]+/g, '-').slice(0, 60)}-${++n}`;
    const text = await Promise.race([page.evaluate('document.body ? document.body.innerText : ""'), new Promise((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5_000).unref())]).catch((e: Error) => `(no text: ${e.message})`);
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, timeout: 10_000 }).catch(() => undefined);
    process.stderr.write(`\n[${task.name}] page ${n} at ${page.url()} showed (screenshot ${name}.png):\n${String(text).slice(0, 2_000)}\n`);
  }
});

/** A fresh context whose every request is counted by `outsideRequests`. */
export async function newContext(browser: Browser, viewport = { width: 1280, height: 860 }): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport, acceptDownloads: true, deviceScaleFactor: 1 });
  // Playwright's own 30 s for every wait and action is a fixed bound; like every other deadline of
  // the suite it scales with the machine's load (beside a second copy of the suite, a webhook
  // registration's ping outlasted it once).
  ctx.setDefaultTimeout(scaled(30_000));
  ctx.on('page', (page) => {
    openPages.add(page);
    page.on('close', () => openPages.delete(page));
  });
  ctx.on('request', (request) => {
    if (isOutside(request.url())) outsideRequests.push(`${request.method()} ${request.url()}`);
  });
  return ctx;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * axe-core (the engine, injected from the devDependency: no network) run on the page as it is now:
 * every WCAG 2.x A/AA rule and axe's best practices. Returns one line per violation and element.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // A page that navigated since the last check has no axe yet; injecting twice is harmless.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  // Runs in the page (a string: the tests are type-checked without the DOM library).
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`)) as AxeViolation[];
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} at ${JSON.stringify(n.target)}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ')})` : ''}`));
}

/** Fails with axe's findings unless the page as it is now has none. */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  const found = await axeViolations(page);
  if (found.length > 0) throw new Error(`axe-core: ${found.length} violation(s) on ${state} (${page.url()}):\n${found.join('\n')}`);
}

/**
 * A full-page screenshot of a state the tests reached, after axe-core found no violation in it:
 * every page and state the browser tests picture is also checked for accessibility.
 */
export async function shot(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
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

/**
 * ownerPage for a test file: opened before its tests (after the file's own beforeAll hooks
 * registered above this call), closed after them; `opened` receives the page.
 */
export function useOwnerPage(service: Parameters<typeof ownerPage>[0], opened: (page: Page) => void): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const owner = await ownerPage(service);
    close = owner.close;
    opened(owner.page);
  });
  afterAll(async () => {
    await close?.();
  });
}
