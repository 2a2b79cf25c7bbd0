import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { launch, newContext, shot, signIn, useOwnerPage } from './browser';

// The Developer page's people and keys, in Chromium: a key named at creation and listed by name,
// and an owner inviting a member by email. The local service sends no mail, so the page shows the
// password once; the invited person signs in with it and sees the member pages only.

const service = useTestService();
let page: Page;
useOwnerPage(service, (opened) => (page = opened));

const nav = () => page.getByRole('navigation', { name: 'Main' });

describe('keys and members on the Developer page', () => {
  it('names a key at creation and lists it by that name; a name the service refuses is refused beside its field', async () => {
    await nav().getByRole('link', { name: 'Developer' }).click();
    await page.getByLabel('Name (optional)').fill('  CRM sync  ');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Copy the key “CRM sync” now: it is shown only once.').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'CRM sync' });
    await row.getByRole('button', { name: /^Revoke key CRM sync \(svc_live_/ }).waitFor();
    // The key list fits at 1280 px, Revoke buttons included (name and prefix share a column).
    const keyTable = page.locator('.table-wrap', { has: page.getByRole('columnheader', { name: 'Key' }) });
    expect(await keyTable.evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await shot(page, 'developer-named-key');
    // The field holds at most 80 characters; the service refuses a name that is one line no more (its words, beside the field).
    expect(await page.getByLabel('Name (optional)').getAttribute('maxlength')).toBe('80');
    const keysBefore = await page.getByRole('row').count();
    await page.getByLabel('Name (optional)').fill('tab\there');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('alert').filter({ hasText: 'key name' }).waitFor();
    const field = page.getByLabel('Name (optional)');
    const alert = page.locator(`#${(await field.getAttribute('aria-describedby'))!}`);
    expect(await alert.innerText()).toBe('A key name is one line of text, without control characters');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('row').count()).toBe(keysBefore);
    // Revoking the key just shown takes its copy panel away: it no longer offers a dead key.
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: /^Revoke key CRM sync/ }).click();
    await page.getByText(/^Key svc_live_.{3}… revoked\.$/).waitFor();
    expect(await page.getByText('Copy the key “CRM sync” now: it is shown only once.').count()).toBe(0);
    expect(await page.locator('#minted-key').count()).toBe(0);
    await shot(page, 'developer-revoked-minted-key');
  });

  it('keeps a key created while the first read of the list was held up: that older answer, arriving last, does not hide it', async () => {
    await nav().getByRole('link', { name: 'Uploads' }).click();
    // The page's first read of the keys is answered by the service at once (the list before the new
    // key) and handed to the page only after the key is created and the list read again.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let first = true;
    const isKeys = (url: URL) => url.pathname.endsWith('/console/api/keys');
    const holdFirstRead = async (route: Route) => {
      if (route.request().method() !== 'GET' || !first) return route.continue();
      first = false;
      const before = await route.fetch();
      await held;
      await route.fulfill({ response: before });
    };
    await page.route(isKeys, holdFirstRead);
    try {
      await nav().getByRole('link', { name: 'Developer' }).click();
      await page.getByLabel('Name (optional)').fill('Created meanwhile');
      await page.getByRole('button', { name: 'Create key' }).click();
      const row = page.getByRole('row').filter({ hasText: 'Created meanwhile' });
      await row.waitFor();
      const heldAnswer = page.waitForResponse((r) => isKeys(new URL(r.url())) && r.request().method() === 'GET');
      release();
      await (await heldAnswer).finished();
      // Two frames: the answer's promise has settled and the page has rendered what it did with it.
      await page.evaluate(() => {
        const frame = (globalThis as unknown as { requestAnimationFrame(next: () => void): void }).requestAnimationFrame;
        return new Promise<void>((r) => frame(() => frame(() => r())));
      });
      expect(await row.count()).toBe(1);
    } finally {
      release();
      await page.unroute(isKeys, holdFirstRead);
    }
  });

  it('invites a member by email; they sign in with the password shown and see member pages only', async () => {
    await nav().getByRole('link', { name: 'Developer' }).click();
    await page.getByLabel('Email address').fill('not-an-address');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter the email address of the person to invite' }).waitFor();

    await page.getByLabel('Email address').fill('  New.Member@Example.com ');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText('new.member@example.com is invited as a member.').waitFor();
    const password = await page.getByLabel('Password').inputValue();
    expect(password).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(await page.getByLabel('Sign-in address').inputValue()).toBe(`${service.url}/`);
    const memberRow = page.getByRole('row').filter({ hasText: 'new.member@example.com' });
    expect(await memberRow.innerText()).toMatch(/new\.member@example\.com\s+member/);
    await shot(page, 'developer-member-invited');

    // The same address again: refused beside the field, nobody added.
    await page.getByLabel('Email address').fill('new.member@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('alert').filter({ hasText: 'new.member@example.com is already a member of this organization' }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'new.member@example.com' }).count()).toBe(1);

    // The invited person, in a browser of their own.
    const { browser, close } = await launch();
    try {
      const theirs = await (await newContext(browser)).newPage();
      await signIn(theirs, service.url, 'new.member@example.com', password);
      expect(await theirs.getByText('new.member@example.com').first().isVisible()).toBe(true);
      const links = await theirs.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();
      expect(links).not.toContain('Developer');
      expect(links).not.toContain('Webhooks');
      expect(links).toContain('Uploads');
      await theirs.goto(`${service.url}/developer`);
      await theirs.getByRole('alert').filter({ hasText: 'Only organization owners can open the developer panel.' }).waitFor();
      await shot(theirs, 'member-invited-signed-in');
    } finally {
      await close();
    }
  });
});
