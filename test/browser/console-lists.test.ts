import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { shot, useOwnerPage } from './browser';
import { createUpload } from '../../lambdas/uploads/create-upload';
import { getUpload, insertUpload } from '../../lambdas/uploads/upload-repository';
import { scaled } from '../support/wait';

// Lists that scale in Chromium: 120 uploads paged with the API's cursors (older/newer), searched by
// file name and filtered by status on the server; a draft discarded with nothing charged.

const service = useTestService();
let page: Page;

const csv = Buffer.from(['phone', ...Array.from({ length: 100 }, (_, i) => `212-555-${2000 + i}`)].join('\n') + '\n');

beforeAll(async () => {
  // One real upload, then 119 records like it (newest last): file-0000.csv … file-0119.csv.
  const made = await createUpload(service.runtime.ports, { organizationId: service.organizationId, userId: service.userId, apiKeyId: 'k' }, { csv, filename: 'file-0000.csv', mapping: { phoneColumns: ['phone'] }, tier: 'standard', skipMobileLookup: false, source: 'api' });
  await service.runtime.settleWorkflows();
  const base = (await getUpload(made.id))!;
  for (let i = 1; i < 120; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    await insertUpload({ ...base, id, original_filename: `file-${String(i).padStart(4, '0')}.csv`, status: i % 3 === 0 ? 'failed' : 'completed', created_at: new Date(Date.parse(base.created_at) + i * 1000).toISOString() });
  }
});
useOwnerPage(service, (opened) => (page = opened));

const names = async () => (await page.locator('section[aria-labelledby="all-h"] tbody tr td:first-child').allInnerTexts()).map((t) => t.trim());

describe('uploads list in Chromium', () => {
  it('pages through 120 uploads with older and newer, every one reachable once', async () => {
    await page.getByRole('cell', { name: 'file-0119.csv' }).waitFor();
    const seen: string[] = [];
    const first = await names();
    expect(first).toHaveLength(50);
    seen.push(...first);
    expect(await page.getByRole('button', { name: 'Newer' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Older' }).click();
    await page.getByText('Page 2').waitFor();
    await page.getByRole('cell', { name: 'file-0069.csv' }).waitFor();
    seen.push(...(await names()));
    await page.getByRole('button', { name: 'Older' }).click();
    await page.getByText('Page 3').waitFor();
    await page.getByRole('cell', { name: 'file-0000.csv' }).waitFor();
    seen.push(...(await names()));
    await shot(page, 'uploads-page-3');
    expect(await page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    expect(new Set(seen).size).toBe(120);
    expect(seen).toContain('file-0000.csv');
    await page.getByRole('button', { name: 'Newer' }).click();
    await page.getByText('Page 2').waitFor();
    await page.getByRole('cell', { name: 'file-0069.csv' }).waitFor();
    // The page is in the address: a reload, or Back from an upload's page, shows it again, Newer still works.
    const pageTwo = page.url();
    expect(new URL(pageTwo).searchParams.get('cursor')).toBeTruthy();
    await page.reload();
    await page.getByText('Page 2').waitFor();
    await page.getByRole('cell', { name: 'file-0069.csv' }).waitFor();
    await page.getByRole('link', { name: 'file-0069.csv' }).click();
    await page.getByRole('heading', { name: 'file-0069.csv', level: 1 }).waitFor();
    await page.goBack();
    await page.getByText('Page 2').waitFor();
    expect(await names()).toContain('file-0069.csv');
    await page.getByRole('button', { name: 'Newer' }).click();
    await page.getByText('Page 1').waitFor();
    await page.getByRole('cell', { name: 'file-0119.csv' }).waitFor();
    expect(new URL(page.url()).searchParams.has('cursor')).toBe(false);
    // The same address opened as a new visit (a shared link): that page, and a way to the newest.
    await page.goto('about:blank');
    await page.goto(pageTwo);
    await page.getByText('An older page').waitFor();
    await page.getByRole('cell', { name: 'file-0069.csv' }).waitFor();
    await page.getByRole('button', { name: 'Newest' }).click();
    await page.getByText('Page 1').waitFor();
    await page.getByRole('cell', { name: 'file-0119.csv' }).waitFor();
  });

  it('searches by file name and filters by status on the server', async () => {
    await page.getByLabel('File name contains').fill('FILE-001');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Page 1').waitFor();
    await page.getByRole('cell', { name: 'file-0019.csv' }).waitFor();
    expect((await names()).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `file-${String(10 + i).padStart(4, '0')}.csv`));
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Search' }).click();
    await vi.waitFor(async () => expect(await page.locator('section[aria-labelledby="all-h"] tbody tr').count()).toBe(3), { timeout: scaled(10_000), interval: 100 });
    expect((await names()).sort()).toEqual(['file-0012.csv', 'file-0015.csv', 'file-0018.csv']);
    await shot(page, 'uploads-search');
    // The search is in the address: a reload (or the link shared) shows the same search, form and list.
    expect(new URL(page.url()).search).toBe('?q=FILE-001&status=failed');
    await page.reload();
    await page.getByRole('cell', { name: 'file-0018.csv' }).waitFor();
    expect((await names()).sort()).toEqual(['file-0012.csv', 'file-0015.csv', 'file-0018.csv']);
    expect(await page.getByLabel('File name contains').inputValue()).toBe('FILE-001');
    expect(await page.getByLabel('Status').inputValue()).toBe('failed');
    // An address with a status the list does not know is an unfiltered list, not an error.
    await page.goto(`${service.url}/uploads?status=bogus`);
    await page.getByRole('cell', { name: 'file-0119.csv' }).waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('');
  });

  it('discards a draft: gone from the list, nothing charged', async () => {
    const before = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    await page.getByRole('link', { name: 'New upload' }).first().click();
    await page.getByLabel('CSV file').setInputFiles({ name: 'throwaway.csv', mimeType: 'text/csv', buffer: csv });
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('heading', { name: 'Confirm' }).waitFor();
    const draftPath = new URL(page.url()).pathname;
    await page.getByRole('button', { name: 'Discard this draft' }).click();
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
    await page.getByRole('cell', { name: 'file-0119.csv' }).waitFor();
    expect(await page.getByRole('link', { name: 'throwaway.csv' }).count()).toBe(0);
    const after = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    expect(after.total).toBe(before.total);
    // Back leads to the page before the draft (the list took the draft's place), not to a draft that is gone.
    await page.goBack();
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
    // The draft's own address, opened later: said in words, with a way back.
    await page.goto(new URL(draftPath, page.url()).href);
    await page.getByRole('heading', { name: 'Upload not found', level: 1 }).waitFor();
    await page.getByText('A discarded draft is removed for good; its file was never charged.').waitFor();
    await shot(page, 'upload-not-found');
    await page.getByRole('link', { name: 'Back to uploads' }).click();
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
  });
});

describe('uploads list on a laptop and a phone', () => {
  it('a long file name wraps: every column stays in view at 1280 px, every row stacked on a phone', async () => {
    // A copy of one made in beforeAll (file-0001.csv).
    const base = (await getUpload('00000000-0000-4000-8000-000000000001'))!;
    const long = [`api_pool_${'7c9e6679-7425-40de-944b-e07fc1f90ae7'}.csv`, `${'quarterly-leads-export-'.repeat(8)}final.csv`];
    for (const [i, name] of long.entries()) {
      await insertUpload({ ...base, id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`, original_filename: name, created_at: new Date(Date.parse(base.created_at) + (200 + i) * 1000).toISOString() });
    }
    const overflow = () => page.locator('section[aria-labelledby="all-h"] .table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth);
    for (const [width, height, screenshot] of [[1280, 800, 'uploads-long-names'], [390, 844, 'uploads-phone']] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(new URL('/uploads', page.url()).href);
      await page.getByRole('link', { name: long[1]! }).waitFor();
      expect(await overflow(), `${width} px`).toBeLessThanOrEqual(0);
      const created = page.locator('section[aria-labelledby="all-h"] tbody tr').first().locator('td[data-label="Created"]');
      const box = (await created.boundingBox())!;
      expect(box.x + box.width, `${width} px`).toBeLessThanOrEqual(width);
      await shot(page, screenshot);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("an API upload's page shows its results without the in-app upload steps it never went through", async () => {
    await page.goto(new URL('/uploads', page.url()).href);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'file-0119.csv' }) });
    expect(await row.locator('td[data-label="Source"]').innerText()).toBe('API');
    await page.getByRole('link', { name: 'file-0119.csv' }).click();
    await page.getByRole('heading', { name: 'file-0119.csv', level: 1 }).waitFor();
    // Where it came from and its tier in words, not the API's field values (api · standard).
    await page.getByText(/· from the API · (standard|max) validation · created /).waitFor();
    expect(await page.getByRole('list', { name: 'Upload steps' }).count()).toBe(0);
  });

  it("an upload's tier chart keeps readable words on a phone (labels above their bars, no sideways scroll)", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(new URL('/uploads/00000000-0000-4000-8000-000000000001', page.url()).href);
    const chart = page.getByRole('img', { name: /^Contacts by Answer Intent: / });
    await chart.waitFor();
    const labels = page.locator('.chart .chart-label');
    expect(await labels.count()).toBeGreaterThan(0);
    for (const size of await labels.evaluateAll((all) => all.map((l) => parseFloat(l.ownerDocument.defaultView!.getComputedStyle(l).fontSize)))) expect(size).toBeGreaterThanOrEqual(12);
    expect(await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'upload-results-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

