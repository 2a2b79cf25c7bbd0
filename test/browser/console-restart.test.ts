import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startRuntime, type Runtime } from '../../local/runtime';
import { buildConsole, launch, newContext, signIn } from './browser';
import { tempDir } from '../support/temp-dirs';

// `npm start` restarted on the same data folder keeps people signed in to the local OpenID
// Connect provider: its sessions and grants are in DATA_DIR/console-oidc-sessions.json. A new tab
// (no token of its own) that asks the provider again is signed in without the login form.

let browser: Browser;
let closeBrowser: () => Promise<void>;
const dataDir = tempDir('console-restart-');
let runtime: Runtime | null = null;

const start = (port: number) => startRuntime({ port, host: '127.0.0.1', dataDir, maxBodyBytes: 10 * 1024 * 1024, seedDemo: true });

beforeAll(async () => {
  process.env.TABLE_NAME = `test-${Math.random().toString(36).slice(2, 10)}`;
  process.env.CONTACT_POOL_INTERVAL_MS ??= '3600000';
  process.env.LOCAL_RECOVERY_INTERVAL_MS ??= '3600000';
  // The restart takes the API's port again (the console's origin); the file store would take that
  // port + 1, which another process on a busy machine may hold by then. This test needs no link
  // to outlive the restart, so the store takes any free port.
  process.env.FILES_PORT = '0';
  buildConsole();
  ({ browser, close: closeBrowser } = await launch());
});
afterAll(async () => {
  await runtime?.stop();
  await closeBrowser?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('local console sign-in across a restart', () => {
  it('keeps the provider session: a new tab after the restart signs in without the login form', async () => {
    runtime = await start(0);
    const url = runtime.url;
    const port = Number(new URL(url).port);
    const owner = runtime.console!.owner;
    const ctx = await newContext(browser);
    const first = await ctx.newPage();
    await signIn(first, url, owner.email, owner.password);
    const file = join(dataDir, 'console-oidc-sessions.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    await runtime.stop();
    runtime = null;
    runtime = await start(port);
    expect(runtime.url).toBe(url);

    // A tab of its own (no token in its sessionStorage): only the provider's session can sign it in.
    const second = await ctx.newPage();
    await second.goto(`${url}/`);
    await second.getByRole('button', { name: 'Sign in' }).click();
    await second.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
    await second.getByText(`${owner.email} (owner)`).waitFor();
    expect(await second.getByLabel('Password').count()).toBe(0);

    // Another browser profile (no provider cookie) still gets the login form.
    const stranger = await newContext(browser);
    const page = await stranger.newPage();
    await page.goto(`${url}/`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Password').waitFor();
    await stranger.close();
    await ctx.close();
  });
});
