import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { shot, useOwnerPage } from './browser';
import { createUpload } from '../../lambdas/uploads/create-upload';
import { getUpload, insertUpload } from '../../lambdas/uploads/upload-repository';
import { filesBucket, putObject } from '../../lambdas/platform/blob';
import { keys, type UploadRecord } from '../../lambdas/uploads/upload';
import { scaled } from '../support/wait';

// Pages that recover, in Chromium: a poll that fails (a dropped connection, a server answering 502
// while it restarts) shows "Reconnecting…" and the page keeps its content until the service is
// back; processing shows numbers done, a percentage and time left; a 409 on confirm reloads the
// draft and says what changed.

const service = useTestService();
let page: Page;
let processing: UploadRecord;

beforeAll(async () => {
  const csv = Buffer.from(['phone', ...Array.from({ length: 100 }, (_, i) => `212-555-${2000 + i}`)].join('\n') + '\n');
  const made = await createUpload(service.runtime.ports, { organizationId: service.organizationId, userId: service.userId, apiKeyId: 'k' }, { csv, filename: 'base.csv', mapping: { phoneColumns: ['phone'] }, tier: 'standard', skipMobileLookup: false, source: 'api' });
  await service.runtime.settleWorkflows();
  // An upload caught mid-processing: 20,000 numbers in 4 chunks of 5,000, 2 of them classified.
  processing = { ...(await getUpload(made.id))!, id: '00000000-0000-4000-8000-00000000c0de', original_filename: 'big-list.csv', status: 'processing', valid_number_count: 20_000, result_summary: null, processed_available: false, updated_at: new Date(Date.now() - 30_000).toISOString() };
  await insertUpload(processing);
  const chunk = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ key: `+1212${5_000_000 + i}`, e164: `+1212${5_000_000 + i}` })));
  for (let n = 0; n < 4; n++) await putObject(filesBucket(), keys.chunk(processing, n), chunk, 'application/json');
  // Prepare is done once it has written the index of which item each cell is.
  await putObject(filesBucket(), keys.cellItems(processing), Buffer.alloc(0), 'application/octet-stream');
  for (let n = 0; n < 2; n++) await putObject(filesBucket(), keys.chunkResult(processing, n), '[]', 'application/json');
});
useOwnerPage(service, (opened) => (page = opened));

describe('pages that recover, in Chromium', () => {
  it('shows processing progress; a dropped connection and a restarting server show "Reconnecting…", then the page recovers', async () => {
    await page.getByRole('link', { name: 'big-list.csv' }).click();
    await page.getByText(/^10,000 of 20,000 numbers classified \(50%\), about \d+ seconds? left$/).waitFor();
    expect(await page.getByLabel('Processing').getAttribute('value')).toBe('50');
    await shot(page, 'processing-progress');
    // The connection drops, then the server answers 502 while it comes back.
    let failed = 0;
    await page.route('**/console/api/uploads/*', (route) => (failed++ < 2 ? route.abort('connectionreset') : route.fulfill({ status: 502, body: '' })));
    await page.getByText('Reconnecting… the connection to the service was lost').waitFor();
    // Two dropped connections and a 502 (retried after 1 s, 2 s): the notice stays, the content too.
    await vi.waitFor(() => expect(failed).toBeGreaterThanOrEqual(3), { timeout: scaled(15_000), interval: 100 });
    expect(await page.getByText('Reconnecting…').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'big-list.csv' }).isVisible()).toBe(true);
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
    await shot(page, 'processing-reconnecting');
    await putObject(filesBucket(), keys.chunkResult(processing, 2), '[]', 'application/json');
    await page.unroute('**/console/api/uploads/*');
    await page.getByText('15,000 of 20,000 numbers classified (75%)').waitFor({ timeout: scaled(20_000) });
    await page.getByText('Reconnecting…').waitFor({ state: 'detached' });
  });

  /** A draft of 120 people with a phone and a mobile each, validated with the phone column and the name: on its Confirm step. */
  async function validatedTwoPhones(name: string): Promise<void> {
    const lines = ['Name,Phone,Mobile', ...Array.from({ length: 120 }, (_, i) => `P${i},(415) 300-${String(1000 + i)},(415) 400-${String(1000 + i)}`)];
    await page.goto(`${service.url}/uploads/new`);
    await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n') + '\n') });
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByRole('heading', { name: 'Map columns' }).waitFor();
    if (await page.getByRole('checkbox', { name: /^Mobile/ }).isChecked()) await page.getByRole('checkbox', { name: /^Mobile/ }).uncheck();
    await page.getByLabel('Full name column').selectOption('Name');
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('button', { name: 'Confirm and charge 120 credits' }).waitFor();
  }

  /** Another tab of the same person maps this draft's columns again (the console API, with the page's own token). */
  const otherTabMaps = (mapping: Record<string, unknown>): Promise<number> =>
    page.evaluate(
      async ([draftId, body]) => {
        let token = '';
        for (let i = 0; i < sessionStorage.length; i++) {
          const k = sessionStorage.key(i)!;
          if (k.startsWith('oidc.user:')) token = (JSON.parse(sessionStorage.getItem(k)!) as { access_token: string }).access_token;
        }
        const res = await fetch(`/console/api/uploads/${draftId}/mapping`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
        return res.status;
      },
      [page.url().split('/').pop()!, JSON.stringify(mapping)] as const,
    );

  it('a 409 on confirm (the mapping changed in another tab) reloads the draft and says what changed', async () => {
    await validatedTwoPhones('two-tabs.csv');
    // Another tab maps both phone columns: 240 numbers.
    expect(await otherTabMaps({ phone_columns: ['Phone', 'Mobile'], full_name_column: 'Name' })).toBe(200);
    const before = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    await page.getByRole('button', { name: 'Confirm and charge 120 credits' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'This upload was changed elsewhere' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Phone columns: now Phone, Mobile (was Phone).');
    expect(await alert.innerText()).toContain('Price at standard: now 240 credits (was 120).');
    // The page shows the new mapping and the new price.
    expect(await page.getByRole('checkbox', { name: /^Mobile/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Confirm and charge 240 credits' }).waitFor();
    await shot(page, 'confirm-409-reloaded');
    const after = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    expect(after.total).toBe(before.total);
  });

  it('the same at the same price: columns validated in another tab are not confirmed from a page that showed others', async () => {
    await validatedTwoPhones('same-price.csv');
    // Another tab leaves the name out: the same 120 numbers, the same price, other columns.
    expect(await otherTabMaps({ phone_columns: ['Phone'], full_name_column: null })).toBe(200);
    const balance = async () => ((await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number }).total;
    const before = await balance();
    await page.getByRole('button', { name: 'Confirm and charge 120 credits' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'This upload was changed elsewhere' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Name columns: now none (was full name Name).');
    expect(await page.getByLabel('Full name column').inputValue()).toBe('');
    expect(await balance()).toBe(before);
  });
});
