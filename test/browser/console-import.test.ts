import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { shot, useOwnerPage } from './browser';
import { debit } from '../../lambdas/credits/credits';

// The forgiving import in Chromium: files as people save them (semicolons, tabs, Windows-1252, no
// header row) are read as the API's CSV before mapping, what was detected is shown and can be
// changed, and a header-less file keeps its first contact.

const service = useTestService();
let page: Page;

/** `count` contacts with distinct valid numbers; a city with an accent and a cell holding a comma. */
function contacts(sep: string, count: number, header = true): string {
  const lines = header ? [['Name', 'Phone', 'City'].join(sep)] : [];
  for (let i = 0; i < count; i++) lines.push([`"Lee, Ann ${i}"`, `(415) ${300 + (i % 600)}-${String(3000 + i).padStart(4, '0')}`, 'Zürich'].join(sep));
  return lines.join('\r\n') + '\r\n';
}

async function start(name: string, bytes: Buffer): Promise<void> {
  await page.goto(`${service.url}/uploads/new`);
  await page.getByRole('heading', { name: 'New upload' }).waitFor();
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: bytes });
  await page.getByRole('button', { name: 'Upload file' }).click();
  await page.getByRole('heading', { name: 'How the file was read' }).waitFor();
}

async function validatedPrice(): Promise<string> {
  await page.getByRole('button', { name: 'Validate' }).click();
  await page.getByRole('heading', { name: 'Confirm' }).waitFor();
  return page.getByRole('button', { name: /Confirm and charge/ }).innerText();
}

useOwnerPage(service, (opened) => (page = opened));

describe('forgiving import in Chromium', () => {
  it('a column name of 5,000 characters wraps in the mapping: the page does not scroll sideways', async () => {
    const long = 'Notes about the contact '.repeat(210).slice(0, 5000);
    await start('long-header.csv', Buffer.from(contacts(',', 120).replace('Name,Phone,City', `Name,Phone,"${long}"`)));
    await page.getByRole('heading', { name: 'Map columns' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot(page, 'import-long-header');
  });

  it('a column without a name, or whose name another shares, cannot be ticked or chosen, and says why', async () => {
    const lines = ['Name,Phone,Phone,,Mobile'];
    for (let i = 0; i < 120; i++) lines.push(`Ann ${i},(415) 555-${String(1000 + i)},(415) 555-${String(3000 + i)},x,(212) 555-${String(5000 + i)}`);
    await start('shared-names.csv', Buffer.from(lines.join('\r\n') + '\r\n'));
    await page.getByRole('heading', { name: 'Map columns' }).waitFor();
    const shared = page.getByRole('checkbox', { name: /^Phone/ });
    expect(await shared.count()).toBe(2);
    for (const box of await shared.all()) {
      expect(await box.isDisabled()).toBe(true);
      expect(await box.isChecked()).toBe(false);
    }
    await page.getByText('(another column has this name: rename one in the file to use it)').first().waitFor();
    const blank = page.getByRole('checkbox', { name: /^\(column 4, no name\)/ });
    expect(await blank.isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /^Mobile/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Full name column').locator('option').allInnerTexts()).toEqual(['(none)', 'Name', 'Mobile']);
    await shot(page, 'import-shared-names');
    expect(await validatedPrice()).toContain('120 credits');
  });

  it('reads a semicolon file as three columns, suggests the phone column and prices 150 numbers', async () => {
    await start('semicolons.csv', Buffer.from(contacts(';', 150)));
    await page.getByText('Detected: UTF-8, semicolon-separated').waitFor();
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['Name', 'Phone', 'City']);
    expect(await page.getByRole('checkbox', { name: /^Phone/ }).isChecked()).toBe(true);
    expect(await page.getByRole('cell', { name: 'Lee, Ann 0' }).count()).toBe(1);
    await shot(page, 'import-semicolon');
    expect(await validatedPrice()).toContain('150 credits');
  });

  it('reads a tab file, and a wrong separator chosen by hand is visible at once and can be undone', async () => {
    await start('tabs.tsv', Buffer.from(contacts('\t', 120)));
    await page.getByText('Detected: UTF-8, tab-separated').waitFor();
    await page.getByLabel('Separator').selectOption(',');
    await page.getByRole('button', { name: 'Read the file again' }).click();
    await page.getByText('Read as UTF-8, comma-separated').waitFor();
    // Read with commas, the name's quoted comma is the only split left: the columns are not the file's, and the page says so.
    expect(await page.getByRole('columnheader').allInnerTexts()).not.toEqual(['Name', 'Phone', 'City']);
    await page.getByText(/^Read with commas, the file gives (one column|\d+ columns); it looks tab-separated\. Check the preview, or choose Tab and read it again\.$/).waitFor();
    await page.getByLabel('Separator').selectOption('\t');
    await page.getByRole('button', { name: 'Read the file again' }).click();
    await page.getByText('Read as UTF-8, tab-separated').waitFor();
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['Name', 'Phone', 'City']);
    expect(await page.getByText(/^Read with /).count()).toBe(0);
    await shot(page, 'import-tab');
    expect(await validatedPrice()).toContain('120 credits');
  });

  it('reads a Windows-1252 file (accents, curly quotes) instead of refusing it', async () => {
    const text = contacts(',', 110).replace('Name,Phone,City', 'Name,Phone,Café “Note”');
    await start('excel-1252.csv', Buffer.from(encode1252(text)));
    await page.getByText('Detected: Windows-1252, comma-separated').waitFor();
    await page.getByRole('columnheader', { name: 'Café “Note”' }).waitFor();
    await page.getByRole('cell', { name: 'Zürich' }).first().waitFor();
    await shot(page, 'import-windows-1252');
    expect(await validatedPrice()).toContain('110 credits');
  });

  it('asks about a header-less file and keeps its first contact; too few rows are said before mapping', async () => {
    await start('no-header.csv', Buffer.from(contacts(',', 101, false)));
    await page.getByRole('group', { name: 'The first row looks like a contact. Is it a header row?' }).waitFor();
    expect(await page.getByRole('radio', { name: /No, it is a contact/ }).isChecked()).toBe(true);
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['column_1', 'column_2', 'column_3']);
    expect(await page.getByRole('checkbox', { name: /^column_2/ }).isChecked()).toBe(true);
    await shot(page, 'import-no-header');
    // Told the first row is a header, it is read as one: 100 rows left, the first contact becomes the column names.
    await page.getByRole('radio', { name: /Yes, it holds the column names/ }).click();
    await page.getByRole('columnheader', { name: 'Lee, Ann 0' }).waitFor();
    await page.getByText('100 rows', { exact: false }).first().waitFor();
    await page.getByRole('radio', { name: /No, it is a contact/ }).click();
    await page.getByRole('columnheader', { name: 'column_1' }).waitFor();
    expect(await validatedPrice()).toContain('101 credits');

    await start('short.csv', Buffer.from(contacts(',', 40)));
    await page.getByRole('alert').filter({ hasText: 'The file has 40 rows of contacts; an upload needs at least 100 valid phone numbers' }).waitFor();
    await shot(page, 'import-too-few');
  });
});

describe('upload page messages beside their controls', () => {
  it('says a missing phone column inside the phone columns, and a refused charge under the Confirm button', async () => {
    await start('messages.csv', Buffer.from(contacts(',', 130)));
    // No phone column chosen: the message is in the fieldset, which points to it.
    await page.getByRole('checkbox', { name: /^Phone/ }).uncheck();
    await page.getByRole('button', { name: 'Validate' }).click();
    const phones = page.getByRole('group', { name: 'Phone columns (up to 10)' });
    const missing = phones.getByRole('alert');
    await missing.getByText('Choose at least one phone column.').waitFor();
    expect(await phones.getAttribute('aria-describedby')).toBe(await missing.getAttribute('id'));
    await shot(page, 'upload-message-phones');
    await page.getByRole('checkbox', { name: /^Phone/ }).check();
    expect(await page.getByRole('alert').count()).toBe(0);

    // A charge the balance cannot cover: refused under the button that asked for it, in view.
    await page.getByRole('button', { name: 'Validate' }).click();
    const button = page.getByRole('button', { name: 'Confirm and charge 130 credits' });
    await button.waitFor();
    const { total } = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    await debit(service.organizationId, 'test:messages-drain', total - 100, { reason: 'test: leave 100 credits', resourceId: 'messages' });
    await button.click();
    const confirm = page.getByRole('region', { name: 'Confirm' });
    const refused = confirm.getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/credit/i);
    expect(await button.getAttribute('aria-describedby')).toBe(await refused.getAttribute('id'));
    const [b, r] = [(await button.boundingBox())!, (await refused.boundingBox())!];
    expect(r.y).toBeGreaterThanOrEqual(b.y + b.height);
    expect(r.y - (b.y + b.height)).toBeLessThan(60);
    await shot(page, 'upload-message-confirm');
    // Nothing was charged.
    const after = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    expect(after.total).toBe(100);
  });
});


/** Text as Windows-1252 bytes (the characters these tests use). */
function encode1252(text: string): Uint8Array {
  const special: Record<string, number> = { '“': 0x93, '”': 0x94 };
  return Uint8Array.from([...text].map((c) => special[c] ?? c.charCodeAt(0)));
}
