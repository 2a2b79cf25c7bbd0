import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { waitFor } from '../support/wait';
import { shot, useOwnerPage } from './browser';

// Silent token renewal: the console renews its tokens with the refresh token before they expire,
// so a session lasts as long as the provider's, not as long as one access token. The local
// provider's token life is a setting (CONSOLE_TOKEN_SECONDS), set short here; nothing else changes.

const TOKEN_SECONDS = 20;
process.env.CONSOLE_TOKEN_SECONDS = String(TOKEN_SECONDS);
const service = useTestService();
let page: Page;
useOwnerPage(service, (opened) => (page = opened));

interface StoredUser {
  access_token: string;
  refresh_token?: string;
  expires_at: number;
}

/** The signed-in user as the console keeps it in the tab's sessionStorage. */
async function stored(): Promise<StoredUser> {
  return page.evaluate(() => {
    for (let i = 0; i < sessionStorage.length; i++) {
      const k = sessionStorage.key(i)!;
      if (k.startsWith('oidc.user:')) return JSON.parse(sessionStorage.getItem(k)!) as StoredUser;
    }
    throw new Error('no signed-in user in sessionStorage');
  });
}

const expiryOf = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp;
const me = (token: string) => fetch(`${service.url}/console/api/me`, { headers: { authorization: `Bearer ${token}` } });
const refresh = (refreshToken: string) =>
  fetch(`${service.url}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'console' }).toString(),
  });

describe('console session renewal', () => {
  it('renews its tokens before they expire, and keeps working after the first token has expired', async () => {
    const grants: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/oidc/token') grants.push(new URLSearchParams(r.postData() ?? '').get('grant_type') ?? '?');
    });
    const first = await stored();
    expect(first.refresh_token, 'the provider issues a refresh token with the code').toBeTruthy();
    const firstExpiry = expiryOf(first.access_token);
    expect(firstExpiry - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(TOKEN_SECONDS);

    // Waits for the first access token to have expired (a condition on the clock, not a fixed sleep).
    await waitFor('the first access token to expire', () => (Date.now() > (firstExpiry + 1) * 1000 ? true : null), 60_000, 250);
    expect((await me(first.access_token)).status).toBe(401);

    // The page renewed before that: a new token, further out, which the API takes.
    const now = await stored();
    expect(now.access_token).not.toBe(first.access_token);
    expect(expiryOf(now.access_token)).toBeGreaterThan(firstExpiry);
    expect((await me(now.access_token)).status).toBe(200);
    expect(grants).toContain('refresh_token');
    expect(grants.filter((g) => g === 'refresh_token').length, 'renewed once per half-life, not in a loop').toBeLessThanOrEqual(4);

    // And the page works as before: pages load their data, nobody is asked to sign in again.
    await page.getByRole('navigation').getByRole('link', { name: 'Credits', exact: true }).click();
    await page.getByRole('table', { name: /Credit changes/ }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    await shot(page, 'session-renewed');
    // A reload after renewal keeps the session too.
    await page.reload();
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
  });

  it('refuses a forged refresh token, and ends renewal with sign-out', async () => {
    const { refresh_token: refreshToken } = await stored();
    expect((await refresh(`${refreshToken!}x`)).status).toBe(400);
    expect((await refresh('')).status).toBe(400);
    // The page's own token still renews (not rotated: a duplicated tab holding it works too)...
    const again = await refresh(refreshToken!);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { refresh_token?: string }).refresh_token).toBe(refreshToken);
    // ...until sign-out ends the provider's session and its grant.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const after = await refresh(refreshToken!);
    expect(after.status).toBe(400);
    expect(((await after.json()) as { error: string }).error).toBe('invalid_grant');
  });
});
