import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { shot, useOwnerPage } from './browser';
import { createUpload } from '../../lambdas/uploads/create-upload';
import { scaled } from '../support/wait';

// Safe downloads in Chromium: the console's processed downloads neutralize formulas unless the
// person turns it off, and each slice downloads under a name that says what it holds.

const service = useTestService();
let page: Page;
let uploadId: string;
let identityId: string;

beforeAll(async () => {
  const lines = ['Phone,Note', ...Array.from({ length: 100 }, (_, i) => `212-555-${2000 + i},${i === 0 ? '"=HYPERLINK(""http://x.example"")"' : i === 1 ? '+SUM(A1:A2)' : `n${i}`}`)];
  const made = await createUpload(service.runtime.ports, { organizationId: service.organizationId, userId: service.userId, apiKeyId: 'k' }, { csv: Buffer.from(lines.join('\n') + '\n'), filename: 'formulas.csv', mapping: { phoneColumns: ['Phone'] }, tier: 'standard', skipMobileLookup: false, source: 'api' });
  uploadId = made.id;
  const named = ['Name,Phone', ...Array.from({ length: 100 }, (_, i) => `Person ${i},212-555-${3000 + i}`)];
  identityId = (await createUpload(service.runtime.ports, { organizationId: service.organizationId, userId: service.userId, apiKeyId: 'k' }, { csv: Buffer.from(named.join('\n') + '\n'), filename: 'named.csv', mapping: { phoneColumns: ['Phone'], fullNameColumn: 'Name' }, tier: 'standard', skipMobileLookup: false, source: 'api' })).id;
  await service.runtime.settleWorkflows();
});
useOwnerPage(service, (opened) => (page = opened));

async function downloadWith(button: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') };
}

describe('safe downloads in Chromium', () => {
  it('neutralizes formulas by default, keeps cells exactly when asked, and names slices after what they hold', async () => {
    await page.goto(`${service.url}/uploads/${uploadId}`);
    await page.getByText('completed', { exact: true }).waitFor({ timeout: scaled(60_000) });
    const toggle = page.getByRole('checkbox', { name: /Make cells safe to open in a spreadsheet/ });
    expect(await toggle.isChecked()).toBe(true);
    await shot(page, 'downloads-safe');
    const safe = await downloadWith('Download processed file');
    expect(safe.name).toBe('formulas_processed.csv');
    expect(safe.text).toContain(`"'=HYPERLINK(""http://x.example"")"`);
    expect(safe.text).toContain(`"'+SUM(A1:A2)"`);

    await toggle.uncheck();
    const exact = await downloadWith('Download processed file');
    expect(exact.name).toBe('formulas_processed_as-uploaded.csv');
    expect(exact.text).toContain('"=HYPERLINK(""http://x.example"")"');
    expect(exact.text).not.toContain(`'=HYPERLINK`);

    await toggle.check();
    const slice = page.getByRole('group', { name: 'A slice of the results' });
    const first = slice.getByRole('checkbox').first();
    const status = (await first.locator('xpath=..').innerText()).trim();
    await first.check();
    await slice.getByRole('checkbox', { name: 'Best numbers first' }).check();
    const sliced = await downloadWith('Download slice');
    expect(sliced.name).toBe(`formulas_processed_${status.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase()}_best-first.csv`);
    // No names were mapped: there is no identity to include.
    expect(await page.getByRole('checkbox', { name: /Include the identity column/ }).count()).toBe(0);
  });

  it('downloads an identity upload with its identity column when asked (include_identity=true), named _with-identity', async () => {
    await page.goto(`${service.url}/uploads/${identityId}`);
    await page.getByText('completed', { exact: true }).waitFor({ timeout: scaled(60_000) });
    const toggle = page.getByRole('checkbox', { name: /Include the identity column/ });
    expect(await toggle.isChecked()).toBe(false);
    const plain = await downloadWith('Download processed file');
    expect(plain.name).toBe('named_processed.csv');
    expect(plain.text.split(/\r?\n/)[0]).toBe('Name,Phone,Service_Status');

    await toggle.check();
    await shot(page, 'downloads-identity');
    const full = await downloadWith('Download processed file');
    expect(full.name).toBe('named_processed_with-identity.csv');
    expect(full.text.split(/\r?\n/)[0]).toBe('Name,Phone,Service_Status,Service_Identity');
    expect(full.text.trim().split(/\r?\n/)).toHaveLength(101);

    const slice = page.getByRole('group', { name: 'A slice of the results' });
    await slice.getByRole('checkbox', { name: 'Best numbers first' }).check();
    const sliced = await downloadWith('Download slice');
    expect(sliced.name).toBe('named_processed_best-first_with-identity.csv');
    expect(sliced.text.split(/\r?\n/)[0]).toBe('Name,Phone,Service_Status,Service_Identity');
  });
});
