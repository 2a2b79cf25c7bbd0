import { describe, expect, it, vi } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from 'playwright-core';
import { db } from '../../lambdas/platform/table';
import { useTestService } from '../support/runtime';
import { scaled } from '../support/wait';
import { shot, useOwnerPage } from './browser';

// Confirming a validated web upload in Chromium: what is charged is what the page shows.

const service = useTestService();
let page: Page;
useOwnerPage(service, (opened) => (page = opened));

/** 120 people with a phone and a mobile each, and names for identity. */
function twoPhones(): string {
  const lines = ['Name,Phone,Mobile'];
  for (let i = 0; i < 120; i++) lines.push(`Person ${i},(415) ${200 + i}-${String(1000 + i).padStart(4, '0')},(628) ${300 + i}-${String(2000 + i).padStart(4, '0')}`);
  return lines.join('\n') + '\n';
}

/** A new web upload of `csv`, validated with the suggested mapping; ends on its Confirm step. */
async function validated(name: string, csv: string): Promise<string> {
  await page.goto(`${service.url}/uploads/new`);
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Upload file' }).click();
  await page.getByRole('heading', { name: 'Map columns' }).waitFor();
  await page.getByRole('button', { name: 'Validate' }).click();
  await page.getByRole('heading', { name: 'Confirm' }).waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

const balance = async () => ((await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number }).total;

describe('confirming a web upload in Chromium', () => {
  it('validating by keyboard leaves the focus on what the validation gave, not on the page', async () => {
    // A string, evaluated in the page (this file's types hold no DOM).
    const focused = () =>
      page.evaluate<string>(`(() => {
        const el = document.activeElement;
        return el ? (el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' + (el.tagName === 'BUTTON' ? el.innerText : '')).trim() : '';
      })()`);
    const validateByKeyboard = async () => {
      await page.getByRole('button', { name: 'Validate' }).focus();
      await page.keyboard.press('Enter');
    };
    await validated('keyboard.csv', twoPhones());
    // Refused (the name column mapped as a phone column too): back on Validate, which its error describes.
    await page.getByRole('checkbox', { name: /^Name/ }).check();
    await validateByKeyboard();
    await page.locator('#validate-error').waitFor();
    await expect.poll(focused).toBe('button Validate');
    // Mapped as validated before: the Confirm step's heading. That heading stayed on the page while
    // this validation ran (the draft was validated before), so the poll, not a wait for the heading,
    // outlasts the request: the focus is on the page until it answers.
    await page.getByRole('checkbox', { name: /^Name/ }).uncheck();
    await validateByKeyboard();
    await expect.poll(focused).toBe('h2#confirm-h');
    // Too few numbers: the failure's heading.
    const short = twoPhones().split('\n').slice(0, 41).join('\n') + '\n';
    await page.goto(`${service.url}/uploads/new`);
    await page.getByLabel('CSV file').setInputFiles({ name: 'short.csv', mimeType: 'text/csv', buffer: Buffer.from(short) });
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByRole('heading', { name: 'Map columns' }).waitFor();
    await page.getByRole('checkbox', { name: /^Mobile/ }).uncheck();
    await validateByKeyboard();
    await page.getByRole('heading', { name: 'Validation failed' }).waitFor();
    await expect.poll(focused).toBe('h2#fail-h');
  });

  it('offers no Confirm for a mapping changed after validation, and again once it is changed back', async () => {
    await validated('two-phones.csv', twoPhones());
    expect(await page.getByRole('checkbox', { name: /^Mobile/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Full name column').inputValue()).toBe('Name');
    const confirm = page.getByRole('button', { name: /^Confirm and charge/ });
    expect(await confirm.isEnabled()).toBe(true);
    const before = await balance();

    await page.getByRole('checkbox', { name: /^Mobile/ }).uncheck();
    await page.getByLabel('Full name column').selectOption('');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByText(/The mapping above was changed after it was validated/).waitFor();
    await shot(page, 'upload-confirm-remapped');
    // A click on the disabled button does nothing: nothing is charged, no upload is made.
    await confirm.click({ force: true });
    await page.waitForTimeout(500);
    expect(await balance()).toBe(before);
    expect(((await (await service.request('GET', '/api/v1/uploads')).json()) as { data: unknown[] }).data).toHaveLength(0);

    // Back to the validated mapping: its price is offered again.
    await page.getByRole('checkbox', { name: /^Mobile/ }).check();
    await page.getByLabel('Full name column').selectOption('Name');
    expect(await confirm.isEnabled()).toBe(true);
    expect(await page.getByText(/The mapping above was changed/).count()).toBe(0);

    // Validating the edited mapping offers its own price.
    await page.getByRole('checkbox', { name: /^Mobile/ }).uncheck();
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('heading', { name: 'Confirm' }).waitFor();
    await page.getByText(/The mapping above was changed/).waitFor({ state: 'detached', timeout: scaled(30_000) });
    expect(await page.getByRole('checkbox', { name: /^Mobile/ }).isChecked()).toBe(false);
    expect(await confirm.isEnabled()).toBe(true);
  });

  it('a Confirm that lost to another tab follows the upload the other confirmed, charged once, and says so', async () => {
    const id = await validated('two-tabs.csv', twoPhones());
    const before = await balance();
    const token = await page.evaluate(`(() => {
      for (let i = 0; i < sessionStorage.length; i++) {
        const k = sessionStorage.key(i);
        if (k.startsWith('oidc.user:')) return JSON.parse(sessionStorage.getItem(k)).access_token;
      }
    })()`) as string;
    // The other tab's confirmation is held in 'confirming' for a while (a slow charge), so this
    // tab's Confirm meets it there, as two clicks at once do.
    const client = db() as unknown as { send: (command: unknown) => Promise<unknown> };
    const send = client.send.bind(client);
    let held = false;
    const slow = vi.spyOn(client, 'send').mockImplementation(async (command) => {
      const out = await send(command);
      const values = command instanceof UpdateCommand ? (command.input.ExpressionAttributeValues ?? {}) : {};
      if (!held && values[':from0'] === 'awaiting_confirmation' && Object.values(values).includes('confirming')) {
        held = true;
        await new Promise((r) => setTimeout(r, 3000));
      }
      return out;
    });
    try {
      const other = fetch(`${service.url}/console/api/uploads/${id}/confirm`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ validation_tier: 'standard', expected_credits: 240 }) });
      await vi.waitFor(() => expect(held).toBe(true), { timeout: scaled(10_000) });
      await page.getByRole('button', { name: 'Confirm and charge 240 credits' }).click();
      const note = page.getByRole('status').filter({ hasText: 'This upload was confirmed elsewhere' });
      await note.waitFor();
      expect(await note.innerText()).toContain('It is being confirmed; this page follows it to its results.');
      await shot(page, 'confirm-elsewhere-following');
      expect((await other).status).toBe(200);
      await page.getByRole('heading', { name: 'Downloads' }).waitFor({ timeout: scaled(30_000) });
      await note.getByText('Its results are below.').waitFor();
    } finally {
      slow.mockRestore();
    }
    const body = await page.locator('body').innerText();
    expect(body).not.toMatch(/only an upload awaiting confirmation|Review it and confirm again|Confirming…/);
    expect(before - (await balance())).toBe(240);
    const uploads = ((await (await service.request('GET', '/api/v1/uploads')).json()) as { data: { id: string }[] }).data;
    expect(uploads.map((u) => u.id)).toEqual([id]);
    await page.getByText('completed', { exact: true }).waitFor({ timeout: scaled(60_000) });
    await shot(page, 'confirm-elsewhere-results');
  });
});
