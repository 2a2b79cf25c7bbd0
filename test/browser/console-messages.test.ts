import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { ownerPage, shot } from './browser';

// Messages next to the control they concern, on the upload page: a mapping refused shows under
// the Validate button, a charge refused under the Confirm button, each tied to its control
// (aria-describedby) and in view where the person clicked, not at the top of the page.

const service = useTestService();
let closePage: (() => Promise<void>) | undefined;
let page: Page;

beforeAll(async () => {
  ({ page, close: closePage } = await ownerPage(service));
}, 120_000);
afterAll(async () => {
  await closePage?.();
});

/** Whether the element is wholly inside the window as it is scrolled now. */
async function inView(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= size.height;
}

describe('messages beside their controls on the upload page', () => {
  it('shows a refused mapping under Validate and a refused charge under Confirm, each described by its control', async () => {
    const lines = ['Name,Phone', ...Array.from({ length: 120 }, (_, i) => `P${i},(415) 500-${String(1000 + i)}`)];
    await page.goto(`${service.url}/uploads/new`);
    await page.locator('input[type=file]').setInputFiles({ name: 'messages.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n') + '\n') });
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByRole('heading', { name: 'Map columns' }).waitFor();

    // No phone column: the message is in the mapping form, right under its button.
    const phone = page.getByRole('checkbox', { name: /^Phone/ });
    if (await phone.isChecked()) await phone.uncheck();
    const validate = page.getByRole('button', { name: 'Validate' });
    await validate.click();
    const mapError = page.locator('form', { has: validate }).getByRole('alert');
    await mapError.getByText('Choose at least one phone column').waitFor();
    expect(await validate.getAttribute('aria-describedby')).toBe(await mapError.getAttribute('id'));
    expect(await page.getByRole('group', { name: 'Phone columns (up to 10)' }).getAttribute('aria-describedby')).toBe('map-error');
    expect(await inView(mapError)).toBe(true);
    await shot(page, 'upload-mapping-message');

    // Mapped: the charge is refused (the server says why); the words appear under the Confirm button.
    await phone.check();
    await validate.click();
    const confirm = page.getByRole('button', { name: 'Confirm and charge 120 credits' });
    await confirm.waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.route('**/console/api/uploads/*/confirm', (route) => route.fulfill({ status: 402, contentType: 'application/json', body: JSON.stringify({ detail: 'Not enough credits: this upload needs 120 and the balance is 0' }) }));
    await confirm.scrollIntoViewIfNeeded();
    await confirm.click();
    const section = page.getByRole('region', { name: 'Confirm' });
    const confirmError = section.getByRole('alert');
    await confirmError.getByText('Not enough credits: this upload needs 120 and the balance is 0').waitFor();
    expect(await confirm.getAttribute('aria-describedby')).toBe(await confirmError.getAttribute('id'));
    expect(await inView(confirmError)).toBe(true);
    // Only there: the mapping's message went when the mapping was accepted.
    expect(await page.getByRole('alert').count()).toBe(1);
    await shot(page, 'upload-confirm-message');
    await page.unroute('**/console/api/uploads/*/confirm');
  });
});
