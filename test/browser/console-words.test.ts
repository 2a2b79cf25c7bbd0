import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { shot, useOwnerPage } from './browser';
import { mintKey, revokeKey } from '../../lambdas/admin/admin';

// Plain words and reachable messages, in Chromium: focus goes to the new page's heading on every
// in-app navigation; a key expiry in the past is refused beside its field in words, not as the
// API's "expires_at must be in the future"; and the Developer page fits a 390 px wide screen.

// The webhook receiver below listens on loopback, which the service refuses unless told (local only).
process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
const service = useTestService();
let page: Page;
useOwnerPage(service, (opened) => (page = opened));

// Run in the page (the test's own TypeScript has no DOM types).
const focused = () => page.evaluate<{ tag: string; text: string }>(`({ tag: document.activeElement?.tagName ?? '', text: document.activeElement?.textContent ?? '' })`);

describe('plain words and reachable messages', () => {
  it('moves focus to the page heading on each navigation, by mouse, keyboard and the back button', async () => {
    for (const [link, heading] of [
      ['Spam monitoring', 'Spam monitoring'],
      ['Credits', 'Credits'],
      ['Developer', 'Developer'],
      ['Webhooks', 'Webhooks'],
      ['New upload', 'New upload'],
      ['Uploads', 'Uploads'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await expect.poll(focused).toEqual({ tag: 'H1', text: heading });
    }
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Credits' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toEqual({ tag: 'H1', text: 'Credits' });
    await page.goBack();
    await expect.poll(focused).toEqual({ tag: 'H1', text: 'Uploads' });
  });

  it('refuses a key expiry in the past beside the field, in words', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Developer' }).click();
    await page.getByLabel('Expires (optional)').fill('2020-01-01T10:00');
    await page.getByRole('button', { name: 'Create key' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Pick an expiry date and time in the future, or leave it empty for a key that never expires.').waitFor();
    // Tied to the field: its description, and the field is marked invalid.
    const field = page.getByLabel('Expires (optional)');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await field.getAttribute('aria-describedby')}`).innerText()).toBe(await alert.innerText());
    expect(await page.locator('main').innerText()).not.toMatch(/expires_at|\/api\/v1|POST /);
    await shot(page, 'developer-expiry-refused');
    // A future time mints a key; the message goes.
    await field.fill('2099-01-01T10:00');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('New API key').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('says a webhook URL is registered already beside the URL field, without the endpoint id', async () => {
    const receiver = createServer((_req, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Endpoint URL').fill(url);
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      await page.getByText(`Ping answered: ${url} is registered.`).waitFor();
      await page.getByLabel('Endpoint URL').fill(url);
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      await page.getByRole('alert').getByText(/^Not registered/).waitFor();
      const field = page.getByLabel('Endpoint URL');
      const alert = page.locator(`#${(await field.getAttribute('aria-describedby'))!}`);
      expect(await alert.innerText()).toBe('Not registered: this URL is registered already; change or delete that endpoint below instead');
      expect(await alert.getAttribute('role')).toBe('alert');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      const hooks = (await (await service.request('GET', '/api/v1/webhooks')).json()) as { url: string }[];
      expect(hooks.filter((h) => h.url === url)).toHaveLength(1);
      await shot(page, 'webhooks-duplicate-url');
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });

  it('fits the Developer page on a 390 px wide screen, a revoked key included', async () => {
    const revoked = await mintKey(service.organizationId, service.userId);
    await revokeKey(revoked.record.id);
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Developer' }).click();
      await page.reload();
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      await page.getByRole('cell', { name: /revoked/ }).first().waitFor();
      const width = await page.evaluate<{ page: number; view: number }>(`({ page: document.documentElement.scrollWidth, view: window.innerWidth })`);
      expect(width.page).toBeLessThanOrEqual(width.view);
      // Every Revoke button is inside the screen.
      for (const button of await page.getByRole('button', { name: /^Revoke key/ }).all()) {
        const box = (await button.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      await shot(page, 'developer-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
