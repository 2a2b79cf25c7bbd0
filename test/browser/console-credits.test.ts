import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { shot, useOwnerPage } from './browser';
import { debit, replenishIfDue } from '../../lambdas/credits/credits';
import { newCustomer } from '../support/customer';
import { listLedger } from '../../lambdas/console/directory';
import { withUploadNames } from '../../lambdas/console/ledger-uploads';
import { hundredNumbers } from '../support/phone-inputs';

// The credits page's ledger adds up to the balance: the first period's subscription allocation is a
// ledger row (written when the balance is opened), each later period's top-up another, and the
// "Credits" column sums to the total shown.

const service = useTestService();
let page: Page;
useOwnerPage(service, (opened) => (page = opened));

/** The page's total and the signed amounts of its rows (body rows only). */
async function shown(): Promise<{ total: number; rows: { kind: string; amount: number; reason: string }[] }> {
  const table = page.getByRole('table', { name: /Credit changes/ });
  await table.waitFor();
  const parse = (text: string) => Number(text.replace(/[+,\s]/g, ''));
  const rows: string[][] = [];
  for (const tr of await table.locator('tbody tr').all()) rows.push(await tr.locator('td').allInnerTexts());
  const total = parse(await table.locator('tfoot td').first().innerText());
  return { total, rows: rows.map((r) => ({ kind: r[1]!, amount: parse(r[2]!), reason: r[3]! })) };
}

describe('credits in Chromium', () => {
  it('lists the subscription allocation, and its rows add up to the balance, across a new billing period', async () => {
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.getByRole('heading', { name: 'Charges and refunds' }).waitFor();
    let { total, rows } = await shown();
    // The demo organization: 10,000 a month and 1,000,000 purchased, minus the seed's charges.
    expect(rows).toContainEqual({ kind: 'subscription allocation', amount: 10_000, reason: 'monthly allocation (first billing period)' });
    expect(rows).toContainEqual({ kind: 'purchase', amount: 1_000_000, reason: 'initial credits' });
    expect(rows.find((r) => r.kind === 'carried over')).toBeUndefined();
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(total);
    expect(total).toBe(Number((await page.getByRole('definition').first().innerText()).replace(/,/g, '')));

    // A charge, then the next period's top-up (back to the 10,000 allocation, the cap): both rows, still adding up.
    await debit(service.organizationId, 'test:credits-page', 2_500, { reason: 'test charge', resourceId: 'r1' });
    service.clock.set(() => Date.now() + 32 * 86_400_000);
    expect(await service.clock.run(() => replenishIfDue(service.organizationId))).toBe(true);
    service.clock.set(null);
    await page.reload();
    ({ total, rows } = await shown());
    expect(rows.filter((r) => r.kind === 'subscription allocation').map((r) => r.reason)).toEqual(['monthly allocation', 'monthly allocation (first billing period)']);
    expect(rows).toContainEqual({ kind: 'charge', amount: -2_500, reason: 'test charge' });
    expect(await page.getByRole('definition').nth(1).innerText()).toBe('10,000');
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(total);
    await shot(page, 'credits-ledger');
  });

  it("names the upload a charge was for, linked to its page, and never another organization's", async () => {
    const res = await service.request('POST', '/api/v1/uploads', { body: { phone_numbers: hundredNumbers(7), filename: 'spring-list.csv' } });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.reload();
    const { rows } = await shown();
    expect(rows).toContainEqual({ kind: 'charge', amount: -100, reason: 'upload (standard): spring-list.csv' });
    await shot(page, 'credits-ledger-upload');
    await page.getByRole('link', { name: 'spring-list.csv' }).click();
    await page.getByRole('heading', { name: 'spring-list.csv', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/uploads/${id}`);
    // A line naming an upload of another organization (never written, but read defensively) stays unnamed.
    const other = await newCustomer({ name: 'Other ledger', subscriptionActive: true, monthlyAllocation: 0, credits: 500 });
    const theirs = (await (await service.request('POST', '/api/v1/uploads', { body: { phone_numbers: hundredNumbers(8), filename: 'theirs.csv' }, key: other.key })).json()) as { id: string };
    const lines = await withUploadNames(service.organizationId, [{ change_id: `upload:${theirs.id}`, kind: 'debit', amount: -100, subscription_delta: 0, purchased_delta: -100, reason: 'upload (standard)', resource_id: theirs.id, created_at: new Date().toISOString() }]);
    expect(lines[0]!.upload).toBeNull();
    expect((await withUploadNames(other.org.id, lines))[0]!.upload).toEqual({ id: theirs.id, filename: 'theirs.csv' });
  });

  it('opens a new balance with its allocation in the ledger, once', async () => {
    const { org } = await newCustomer({ name: 'Ledger opening', monthlyAllocation: 3_000, credits: 40 });
    const ledger = await listLedger(org.id, 100);
    expect(ledger.map((l) => [l.kind, l.amount, l.reason])).toEqual(
      expect.arrayContaining([
        ['replenish', 3_000, 'monthly allocation (first billing period)'],
        ['purchase', 40, 'initial credits'],
      ]),
    );
    expect(ledger).toHaveLength(2);
  });
});
