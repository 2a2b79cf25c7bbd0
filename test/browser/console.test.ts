import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { scaled } from '../support/wait';
import { buildConsole, expectAccessible, isOutside, launch, newContext, outsideRequests, shot, signIn } from './browser';
import { runSpamTestsNow, spamVerificationCodes } from '../../lambdas/admin/admin';
import { db } from '../../lambdas/platform/table';
import { VALIDATION_PROGRESS_ROWS } from '../../lambdas/console/web-upload';

// The console in a real browser (Debian's Chromium) against the whole local runtime: sign-in on the
// embedded OpenID Connect provider, the in-app upload flow to a downloaded processed file, the
// developer panel, credits; plus the boundary between console sessions and API keys.

// The webhook receiver below listens on loopback, which the service refuses unless told (local only).
process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
const service = useTestService();
let browser: Browser;
let closeBrowser: () => Promise<void>;
let owner: { ctx: BrowserContext; page: Page };

/** 150 distinct valid numbers, one repeated, two invalid cells; names for identity. */
function callList(valid: number): string {
  const lines = ['Name,Phone,Notes'];
  for (let i = 0; i < valid; i++) lines.push(`Person ${i},(415) ${200 + (i % 700)}-${String(1000 + i).padStart(4, '0')},n${i}`);
  lines.push('Dup Person,(415) 200-1000,dup', 'Bad One,12345,bad', 'Bad Two,call me,bad');
  return lines.join('\n') + '\n';
}

/** A loopback webhook receiver that answers 200 and keeps the event types it got. */
async function startReceiver(path: string): Promise<{ url: string; received: { type: string }[]; close(): Promise<void> }> {
  const received: { type: string }[] = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ type: (JSON.parse(body) as { type: string }).type });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`,
    received,
    close: () => new Promise<void>((r) => receiver.close(() => r())),
  };
}

async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    for (let i = 0; i < sessionStorage.length; i++) {
      const k = sessionStorage.key(i)!;
      if (k.startsWith('oidc.user:')) return (JSON.parse(sessionStorage.getItem(k)!) as { access_token: string }).access_token;
    }
    throw new Error('no signed-in user in sessionStorage');
  });
}

beforeAll(async () => {
  buildConsole();
  ({ browser, close: closeBrowser } = await launch());
  const ctx = await newContext(browser);
  owner = { ctx, page: await ctx.newPage() };
});
afterAll(async () => {
  await owner?.ctx.close();
  await closeBrowser?.();
});

describe('console in Chromium', () => {
  it('signs the demo owner in through the OIDC provider (code + PKCE); a wrong password is refused', async () => {
    const { page } = owner;
    const login = service.runtime.console!.owner;
    await page.goto(`${service.url}/`);
    // The page's load event comes before the console has drawn it: under load, axe once read an empty #app.
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot(page, 'signin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email').waitFor();
    expect(page.url()).toContain('/oidc/interaction/');
    await page.getByLabel('Email').fill(login.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Wrong email or password.').waitFor();
    await shot(page, 'signin-provider');
    await page.getByLabel('Password').fill(login.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
    await page.getByText(`${login.email} (owner)`).waitFor();
    // The code went with a PKCE verifier; the token in the tab is a JWT for the console audience.
    const token = await accessToken(page);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims.aud).toBe('urn:phone-validation:console');
    expect(claims.sub).toBe(service.userId);
  });

  it('keeps console sessions and API keys apart', async () => {
    const token = await accessToken(owner.page);
    const asConsole = (path: string, auth?: string) => fetch(`${service.url}${path}`, { headers: auth ? { authorization: auth } : {} });
    expect((await asConsole('/console/api/me', `Bearer ${token}`)).status).toBe(200);
    // An API key never opens a console route, with or without the scheme.
    const withKey = await asConsole('/console/api/keys', `Bearer ${service.apiKey}`);
    expect(withKey.status).toBe(401);
    expect(await withKey.json()).toEqual({ detail: 'API keys cannot be used on console routes; sign in to the console' });
    expect((await asConsole('/console/api/me')).status).toBe(401);
    // A token with one changed signature character, or re-signed claims, is refused.
    const [h, p, s] = token.split('.');
    const flipped = `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await asConsole('/console/api/me', `Bearer ${flipped}`)).status).toBe(401);
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'someone-else' })).toString('base64url')}.${s}`;
    expect((await asConsole('/console/api/me', `Bearer ${forged}`)).status).toBe(401);
    // A console session never opens the public API.
    const api = await fetch(`${service.url}/api/v1/credits/balance`, { headers: { authorization: `Bearer ${token}` } });
    expect(api.status).toBe(401);
  });

  it('takes a CSV from file choice through mapping, validation and confirmation to a downloaded processed file', async () => {
    const { page } = owner;
    const before = await (await service.request('GET', '/api/v1/credits/balance')).json() as { total: number };
    await page.getByRole('link', { name: 'New upload' }).first().click();
    await page.getByRole('heading', { name: 'New upload' }).waitFor();
    await page.getByLabel('CSV file').setInputFiles({ name: 'spring-campaign.csv', mimeType: 'text/csv', buffer: Buffer.from(callList(150)) });
    await shot(page, 'upload-choose');
    await page.getByRole('button', { name: 'Upload file' }).click();

    // pending_mapping: preview and suggested columns
    await page.getByRole('heading', { name: 'Map columns' }).waitFor();
    await page.getByText('pending mapping').waitFor();
    expect(await page.getByRole('checkbox', { name: /^Phone/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /^Notes/ }).isChecked()).toBe(false);
    expect(await page.getByLabel('Full name column').inputValue()).toBe('Name');
    await shot(page, 'upload-mapping');

    // Nothing is an upload yet: the API does not list it.
    const listed = (await (await service.request('GET', '/api/v1/uploads')).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(0);

    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('heading', { name: 'Confirm' }).waitFor();
    const counts = await page.locator('section.card dl.counts').innerText();
    expect(counts).toMatch(/Valid numbers\s*150/);
    expect(counts).toMatch(/Invalid\s*2/);
    expect(counts).toMatch(/Duplicates\s*1/);
    await page.getByText('150 credits', { exact: true }).waitFor();
    await page.getByText('225 credits', { exact: true }).waitFor();
    await shot(page, 'upload-confirm');

    await page.getByRole('radio', { name: /Max/ }).check();
    await page.getByRole('button', { name: 'Confirm and charge 225 credits' }).click();
    await page.getByRole('heading', { name: 'Downloads' }).waitFor();
    // Charged before it became visible, like an API upload.
    const after = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    expect(before.total - after.total).toBe(225);
    const uploads = (await (await service.request('GET', '/api/v1/uploads')).json()) as { data: { source: string; user_id: string; status: string }[] };
    expect(uploads.data).toHaveLength(1);
    expect(uploads.data[0]!.source).toBe('web');
    expect(uploads.data[0]!.user_id).toBe(service.userId);

    await page.getByText('completed', { exact: true }).waitFor({ timeout: scaled(60_000) });
    await page.getByRole('img', { name: /Contacts by tier/ }).waitFor();
    await shot(page, 'upload-results');
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download processed file' }).click()]);
    expect(file.suggestedFilename()).toBe('spring-campaign_processed.csv');
    const processed = await readFile((await file.path())!, 'utf8');
    const lines = processed.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^Name,Phone,Notes,Service_Status/);
    expect(lines).toHaveLength(1 + 153);
  });

  it('fails validation with reasons per row and a downloadable report', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'New upload' }).first().click();
    await page.getByLabel('CSV file').setInputFiles({ name: 'short-list.csv', mimeType: 'text/csv', buffer: Buffer.from(callList(40)) });
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('heading', { name: 'Validation failed' }).waitFor();
    await page.getByText('An upload needs at least 100 valid US/CA phone numbers; 40 remained').waitFor();
    // The bar says the validation stopped, not that the list was validated.
    await page.getByText('All 43 rows checked; why the list was refused is below.').waitFor();
    expect(await page.getByText('Validation stopped', { exact: true }).count()).toBe(1);
    await page.getByText('Invalid cells (2)').click();
    await shot(page, 'upload-validation-failed');
    const [report] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download validation report' }).click()]);
    const text = await readFile((await report.path())!, 'utf8');
    expect(text).toContain('row,column,value,reason');
    expect(text).toMatch(/43,Phone,12345,not a valid US\/CA phone number/);
  });

  it('sends a file over 4 MB straight to the file store (the staging path), then maps it', async () => {
    const { page } = owner;
    // 150 numbers with long notes: about 5 MB.
    const big = callList(150).replace(/,n(\d+)\n/g, (_, i: string) => `,${'n'.repeat(33_000)}${i}\n`);
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(new URL(r.url()).origin === service.url ? new URL(r.url()).pathname + new URL(r.url()).search : `store:${new URL(r.url()).pathname}`));
    await page.getByRole('link', { name: 'New upload' }).first().click();
    await page.getByLabel('CSV file').setInputFiles({ name: 'big-list.csv', mimeType: 'text/csv', buffer: Buffer.from(big) });
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByRole('heading', { name: 'Map columns' }).waitFor();
    page.removeAllListeners('request');
    // The bytes went to the store, not through the console's API.
    expect(posts).toEqual(['/console/api/uploads/staging', `store:/${process.env.FILES_BUCKET ?? 'phone-validation-files'}`, '/console/api/uploads/staged']);
    expect(await page.getByRole('checkbox', { name: /^Phone/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('heading', { name: 'Confirm' }).waitFor();
    expect(await page.locator('section.card dl.counts').innerText()).toMatch(/Valid numbers\s*150/);
    // The store answers CORS for the console's origin only, POST and PUT.
    const store = posts[1]!.slice('store:'.length);
    const storeUrl = `${new URL((await (await service.request('POST', '/api/v1/uploads/staging')).json() as { url: string }).url).origin}${store}`;
    const preflight = (origin: string, method: string) => fetch(storeUrl, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method } });
    const allowed = await preflight(service.url, 'POST');
    // (s3rver answers a matched preflight with `*`; the upload's own response names the origin,
    // which the browser checked above.)
    expect(allowed.status).toBe(200);
    expect((await preflight('http://elsewhere.example', 'POST')).status).toBe(403);
    expect((await preflight(service.url, 'DELETE')).status).toBe(403);
  });

  it('mints a key shown once, which then calls the API; revoking it ends that', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Developer' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Expires (optional)').fill('2099-01-01T12:00');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^svc_live_/);
    await page.getByRole('row', { name: new RegExp(`${key.slice(0, 12)}`) }).waitFor();
    await shot(page, 'developer-key-minted');
    const call = () => fetch(`${service.url}/api/v1/credits/balance`, { headers: { authorization: `Bearer ${key}` } });
    expect((await call()).status).toBe(200);
    const row = page.getByRole('row', { name: new RegExp(key.slice(0, 12).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
    expect(await row.innerText()).toContain('2099');
    // The call above is the key's last use; the panel lists it (it was "—" before).
    expect(await row.locator('td[data-label="Last used"]').innerText()).toBe('—');
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.getByRole('link', { name: 'Developer' }).click();
    const used = await row.locator('td[data-label="Last used"]').innerText();
    expect(used).not.toBe('—');
    expect(used).toMatch(new RegExp(String(new Date().getFullYear())));
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: /Revoke/ }).click();
    await page.getByText(`Key ${key.slice(0, 12)}… revoked.`).waitFor();
    expect((await call()).status).toBe(401);
  });

  it('gives members no developer panel, and an owner can remove them', async () => {
    const memberCtx = await newContext(browser, { width: 390, height: 844 });
    const page = await memberCtx.newPage();
    const member = service.runtime.console!.member;
    await signIn(page, service.url, member.email, member.password);
    expect(await page.getByRole('link', { name: 'Developer' }).count()).toBe(0);
    await page.getByRole('link', { name: /spring-campaign/ }).waitFor();
    await shot(page, 'phone-uploads-member');
    // Every page a member has, and the owners-only page reached by its address, pass axe-core.
    for (const [link, heading] of [
      ['New upload', 'New upload'],
      ['Spam monitoring', 'Spam monitoring'],
      ['Credits', 'Credits'],
      ['Uploads', 'Uploads'],
    ] as const) {
      await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, `member's ${link} page`);
    }
    await page.goto(`${service.url}/developer`);
    await page.getByRole('alert').filter({ hasText: 'Only organization owners can open the developer panel.' }).waitFor();
    await expectAccessible(page, "member's developer page (refused)");
    await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
    await page.getByRole('link', { name: /spring-campaign/ }).click();
    await page.getByRole('heading', { name: 'Downloads' }).waitFor();
    await expectAccessible(page, "member's upload page");
    const token = await accessToken(page);
    expect((await fetch(`${service.url}/console/api/keys`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403);

    await owner.page.getByRole('link', { name: 'Developer' }).click();
    owner.page.once('dialog', (d) => void d.accept());
    await owner.page.getByRole('button', { name: `Remove ${member.email}` }).click();
    await owner.page.getByText(`${member.email} removed; 0 key(s) revoked.`).waitFor();
    await shot(owner.page, 'developer-members');
    expect((await fetch(`${service.url}/console/api/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403);
    // The removed member's page says why and offers a way out to another account.
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'not a member of any organization' }).waitFor();
    await expectAccessible(page, 'removed member');
    const visited: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && visited.push(new URL(f.url()).pathname));
    await page.getByRole('button', { name: 'Sign out' }).click();
    // As Cognito's /logout: the provider ends its session without asking (its page posts its own
    // form at once, nothing loaded from outside) and sends the browser back to the sign-in page.
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(visited).toContain('/oidc/session/end');
    expect(new URL(page.url()).pathname).toBe('/');
    // The provider's session ended too: signing in again asks for the password.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Password').waitFor();
    await expectAccessible(page, 'sign-in after sign-out');
    expect(outsideRequests).toEqual([]);
    await memberCtx.close();
  });

  it('registers a webhook to a loopback receiver: ping outcome, secret once, deliveries log, disable, change its URL', async () => {
    const first = await startReceiver('/hooks');
    const second = await startReceiver('/moved');
    const { received, url: hookUrl } = first;
    try {
      const { page } = owner;
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Register an endpoint' }).waitFor();
      await page.getByLabel('Endpoint URL').fill(hookUrl);
      await page.getByLabel('Description (optional)').fill('CRM sync');
      await page.getByRole('checkbox', { name: 'upload.created' }).first().check();
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      await page.getByText(`Ping answered: ${hookUrl} is registered.`).waitFor();
      expect(await page.getByLabel('Signing secret').inputValue()).toMatch(/^[0-9a-f]{64}$/);
      expect(received.map((r) => r.type)).toEqual(['webhook.ping']);
      const card = page.getByRole('article', { name: `Endpoint ${hookUrl}` });
      await card.getByRole('button', { name: 'Show deliveries' }).click();
      await card.getByRole('cell', { name: 'webhook.ping' }).waitFor();
      expect(await card.getByRole('row').nth(1).innerText()).toMatch(/webhook\.ping\s+succeeded\s+1\s+200/);
      await shot(page, 'webhooks');
      await card.getByRole('button', { name: 'Disable' }).click();
      await card.getByText('disabled', { exact: true }).waitFor();
      const listed = (await (await service.request('GET', '/api/v1/webhooks')).json()) as { is_active: boolean; events: string[]; description: string }[];
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ is_active: false, description: 'CRM sync' });
      expect(listed[0]!.events).toContain('upload.created');
      const hooksOverApi = async () => (await (await service.request('GET', '/api/v1/webhooks')).json()) as { id: string; url: string; verified_at: string; is_active: boolean; events: string[] }[];
      // Re-enable; edit its events from the page (unticking one, ticking another).
      await card.getByRole('button', { name: 'Re-enable' }).click();
      await card.getByText('active', { exact: true }).waitFor();
      const before = (await hooksOverApi())[0]!.events;
      expect(before).toContain('upload.created');
      expect(before).not.toContain('spam.detected');
      // Two ticks in a row, the second before the first has saved (a slow network, played by
      // holding each save back a little): both hold.
      const slowSaves = async (route: Route) => {
        if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 400));
        await route.continue();
      };
      await page.route('**/console/api/webhooks/*', slowSaves);
      await card.getByRole('checkbox', { name: 'upload.created' }).uncheck();
      await card.getByRole('checkbox', { name: 'spam.detected', exact: true }).check();
      const expected = [...before.filter((e) => e !== 'upload.created'), 'spam.detected'].sort();
      // Two saves each held 400 ms: more than expect.poll's default second on a loaded machine.
      await expect.poll(async () => (await hooksOverApi())[0]!.events.sort(), { timeout: scaled(10_000) }).toEqual(expected);
      await page.waitForLoadState('networkidle');
      await page.unroute('**/console/api/webhooks/*', slowSaves);
      expect((await hooksOverApi())[0]!.events.sort()).toEqual(expected);
      expect((await hooksOverApi())[0]!.is_active).toBe(true);
      expect(await card.getByRole('checkbox', { name: 'upload.created' }).isChecked()).toBe(false);
      // Change its URL to a second receiver: the API's update pings it there (the page shows the
      // answer), and the next delivery goes there, not to the first.
      const pingedBefore = (await hooksOverApi())[0]!;
      await card.getByRole('button', { name: `Change URL of ${hookUrl}` }).click();
      await card.getByLabel(`New URL for ${hookUrl}`).fill(second.url);
      await card.getByRole('button', { name: 'Save URL' }).click();
      const moved = page.getByRole('article', { name: `Endpoint ${second.url}` });
      await moved.getByText(`Ping answered 200: events now go to ${second.url}.`).waitFor();
      expect(second.received.map((r) => r.type)).toEqual(['webhook.ping']);
      // Both pings in the deliveries log (the registration's, and the new URL's).
      await expect.poll(() => moved.getByRole('cell', { name: 'webhook.ping' }).count()).toBe(2);
      expect((await hooksOverApi())[0]).toMatchObject({ id: pingedBefore.id, url: second.url, is_active: true });
      await shot(page, 'webhooks-url-changed');
      // Hostile URLs (the metadata service, a private address) are the API's 400: the page shows
      // its reason and the endpoint keeps its URL; nothing is sent anywhere.
      for (const [hostile, reason] of [
        ['http://169.254.169.254/latest/meta-data/', /URL not changed: URL host must resolve to a public address/],
        ['https://10.0.0.7/hooks', /URL not changed: URL host must resolve to a public address/],
      ] as const) {
        await moved.getByRole('button', { name: `Change URL of ${second.url}` }).click();
        await moved.getByLabel(`New URL for ${second.url}`).fill(hostile);
        await moved.getByRole('button', { name: 'Save URL' }).click();
        await moved.getByRole('alert').getByText(reason).waitFor();
        await moved.getByRole('button', { name: 'Cancel' }).click();
        expect((await hooksOverApi())[0]!.url).toBe(second.url);
      }
      await shot(page, 'webhooks-url-refused');
      const verifiedAt = (await hooksOverApi())[0]!.verified_at;
      // The next event: tick upload.created again, create an upload through the API.
      await moved.getByRole('checkbox', { name: 'upload.created' }).check();
      await expect.poll(async () => (await hooksOverApi())[0]!.events).toContain('upload.created');
      const numbers = Array.from({ length: 100 }, (_, i) => `+1415555${String(1000 + i).padStart(4, '0')}`);
      expect((await service.request('POST', '/api/v1/uploads', { body: { phone_numbers: numbers, filename: 'after-move.csv' } })).status).toBe(200);
      await expect.poll(() => second.received.map((r) => r.type), { timeout: scaled(20_000) }).toContain('upload.created');
      expect(received.map((r) => r.type)).toEqual(['webhook.ping']);
      expect((await hooksOverApi())[0]!.verified_at).toBe(verifiedAt);
      // A URL that does not answer 2xx is not registered; the page says why.
      await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/nothing-listens');
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      await page.getByText(/Not registered: The webhook.ping to the URL did not complete/).waitFor();
      // Delete it: the page asks first; dismissing keeps it, accepting removes it.
      page.once('dialog', (d) => void d.dismiss());
      await moved.getByRole('button', { name: `Delete endpoint ${second.url}` }).click();
      expect(await hooksOverApi()).toHaveLength(1);
      page.once('dialog', (d) => void d.accept());
      await moved.getByRole('button', { name: `Delete endpoint ${second.url}` }).click();
      await page.getByText(`${second.url} deleted.`).waitFor();
      await page.getByText('No endpoints yet.').waitFor();
      expect(await hooksOverApi()).toEqual([]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('monitors a caller-ID number from verification by code to its carrier screenshot', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Spam monitoring' }).click();
    await page.getByLabel('Caller-ID number').fill('(202) 318-0666');
    await page.getByRole('button', { name: 'Add number' }).click();
    const card = page.getByRole('article', { name: 'Number +12023180666' });
    await card.getByText('not verified').waitFor();
    await page.getByLabel('Verification code for +12023180666').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').getByText(/Invalid verification code/).waitFor();
    const [message] = await spamVerificationCodes('+12023180666');
    await page.getByLabel('Verification code for +12023180666').fill(message!.code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Number verified; daily spam monitoring has begun.').waitFor();
    await runSpamTestsNow(service.runtime.ports, service.organizationId);
    await page.reload();
    await card.getByRole('row', { name: /verizon/ }).waitFor();
    expect(await card.getByRole('row', { name: /at&t/ }).innerText()).toContain('spam label');
    await card.getByRole('button', { name: 'History and screenshots' }).click();
    await card.getByRole('button', { name: 'View at&t screenshot' }).first().click();
    const img = card.getByRole('img', { name: 'Incoming call screen on at&t for +12023180666' });
    await img.waitFor();
    expect(await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await shot(page, 'spam-monitoring');
    // Stop monitoring it from the page: gone from the page and from the API.
    page.once('dialog', (d) => void d.accept());
    await card.getByRole('button', { name: 'Stop monitoring +12023180666' }).click();
    await page.getByText('+12023180666 is no longer monitored; its history was removed.').waitFor();
    await card.waitFor({ state: 'detached' });
    const numbers = (await (await service.request('GET', '/api/v1/spam/numbers')).json()) as { numbers: unknown[] };
    expect(numbers.numbers).toEqual([]);
  });

  it('works from the keyboard, and every field and button on every page has a name', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const login = service.runtime.console!.owner;
    await page.goto(`${service.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Sign in');
    await page.keyboard.press('Enter');
    await page.getByLabel('Email').waitFor();
    // The email field has focus (autofocus); type, Tab to the password, Enter submits.
    await page.keyboard.type(login.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(login.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
    // The skip link comes first and moves focus past the navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    // Runs in the page (a string, since the tests are type-checked without the DOM library).
    const unnamed = async () =>
      (await page.evaluate(`[...document.querySelectorAll('input, select, textarea, button, a[href]')]
        .filter((el) => el.type !== 'hidden')
        .filter((el) => {
          const labelled = (el.labels && el.labels.length > 0) || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
          const text = (el.textContent || '').trim();
          return !(labelled || ((el.tagName === 'BUTTON' || el.tagName === 'A') && text));
        })
        .map((el) => el.outerHTML.slice(0, 120))`)) as string[];
    for (const [link, heading] of [
      ['New upload', 'New upload'],
      ['Spam monitoring', 'Spam monitoring'],
      ['Credits', 'Credits'],
      ['Developer', 'Developer'],
      ['Webhooks', 'Webhooks'],
      ['Uploads', 'Uploads'],
    ] as const) {
      await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await unnamed(), `unnamed controls on ${link}`).toEqual([]);
      await expectAccessible(page, `owner's ${link} page`);
    }
    await page.getByRole('link', { name: /spring-campaign/ }).click();
    await page.getByRole('heading', { name: 'Downloads' }).waitFor();
    expect(await unnamed()).toEqual([]);
    await expectAccessible(page, "owner's upload page");
    // An address with no page: its own heading and a way back, accessible too.
    await page.goto(`${service.url}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
    await expectAccessible(page, 'page not found');
    await ctx.close();
  });

  it('shows the balance and the ledger of charges', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.getByRole('heading', { name: 'Charges and refunds' }).waitFor();
    await page.getByText('upload (max)').waitFor();
    await shot(page, 'credits');
    await page.getByRole('link', { name: 'Uploads' }).click();
    await page.getByRole('link', { name: /spring-campaign/ }).waitFor();
    await shot(page, 'uploads');
  });

  it('shows validation progress as a determinate bar that rises with the rows the server has checked, to completion', async () => {
    const { page } = owner;
    const rows = 6 * VALIDATION_PROGRESS_ROWS + 500;
    const lines = ['Name,Phone', ...Array.from({ length: rows }, (_, i) => `P${i},(646) ${300 + (i % 600)}-${String(i % 10_000).padStart(4, '0')}`)];
    // A slow database, played by holding each progress write back: the page's reads of the draft
    // (every 250 ms) then meet each step, whatever the machine's speed.
    const client = db() as unknown as { send: (command: unknown) => Promise<unknown> };
    const send = client.send.bind(client);
    const slowProgress = vi.spyOn(client, 'send').mockImplementation(async (command) => {
      const out = await send(command);
      if (command instanceof UpdateCommand && command.input.UpdateExpression?.includes('validated_rows = :n')) await new Promise((r) => setTimeout(r, 400));
      return out;
    });
    try {
      await page.getByRole('link', { name: 'New upload' }).first().click();
      await page.getByLabel('CSV file').setInputFiles({ name: 'big-progress.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n') + '\n') });
      await page.getByRole('button', { name: 'Upload file' }).click();
      await page.getByRole('heading', { name: 'Map columns' }).waitFor();
      // Every value the bar takes, as the page renders it.
      // (A script string: the tests are compiled without the DOM's types.)
      await page.evaluate(`
        window.barValues = [];
        new MutationObserver(() => {
          const bar = document.getElementById('validation-progress');
          if (bar) window.barValues.push(bar.getAttribute('value') + '/' + bar.getAttribute('max'));
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['value', 'max'] });
      `);
      await page.getByRole('button', { name: 'Validate' }).click();
      const bar = page.getByRole('progressbar', { name: 'Validating' });
      await bar.waitFor();
      // An intermediate value, shown in words too; the screenshot is taken mid-way.
      await page.getByText(new RegExp(`^[1-5]0,000 of ${rows.toLocaleString('en-US')} rows checked…$`)).waitFor();
      expect(Number(await bar.getAttribute('max'))).toBe(rows);
      await shot(page, 'upload-validating');
      await page.getByRole('heading', { name: 'Confirm' }).waitFor();
      // It ends complete, and stays so beside the counts.
      const done = page.getByRole('progressbar', { name: 'Validated' });
      expect([await done.getAttribute('value'), await done.getAttribute('max')]).toEqual([String(rows), String(rows)]);
      await page.getByText(`All ${rows.toLocaleString('en-US')} rows checked.`).waitFor();
      const values = [...new Set(await page.evaluate<string[]>('window.barValues'))].map((v) => Number(v.split('/')[0]));
      const between = values.filter((v) => v > 0 && v < rows);
      // Several distinct steps between 0 and the end, each one a multiple of the step (never per row), rising.
      expect(between.length).toBeGreaterThanOrEqual(3);
      for (const v of between) expect(v % VALIDATION_PROGRESS_ROWS).toBe(0);
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(values.at(-1)).toBe(rows);
    } finally {
      slowProgress.mockRestore();
    }
  });

  it('counts every request to an address outside the machine (the suite asserts none, file by file)', () => {
    // What the counter in browser.ts records: any network scheme to a host other than loopback.
    for (const url of ['https://fonts.googleapis.com/css?family=Roboto', 'http://192.0.2.1:8080/x', 'wss://example.com/socket', 'http://[2001:db8::1]/']) expect(isOutside(url), url).toBe(true);
    for (const url of [`${service.url}/console/api/me`, 'http://localhost:3001/bucket/key', 'http://[::1]:3000/', 'data:text/plain,x', 'blob:http://127.0.0.1:3000/1', 'about:blank']) expect(isOutside(url), url).toBe(false);
    // Signing in and out, every page, dialogs and downloads above: nothing left the machine.
    expect(outsideRequests).toEqual([]);
  });
});
