import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { shot, useOwnerPage } from './browser';
import { runSpamTestsNow, spamVerificationCodes } from '../../lambdas/admin/admin';

// Spam monitoring in Chromium, the second round: "Send a new code" goes the way the number was
// added (a call stays a call), the messages are in words and next to the number they concern (no
// API paths), and results show the same-carrier warning and why a carrier test failed.

const service = useTestService();
let page: Page;
useOwnerPage(service, (opened) => (page = opened));

/** Moves the runtime's clock forward (it goes back to real time after each test). */
let offset = 0;
function advance(ms: number): void {
  offset += ms;
  const by = offset;
  service.clock.set(() => Date.now() + by);
}
afterEach(() => {
  offset = 0;
});

async function addAndVerify(display: string, e164: string, method: 'text message' | 'phone call') {
  await page.getByLabel('Caller-ID number').fill(display);
  await page.getByLabel('Send the code by').selectOption({ label: method });
  await page.getByRole('button', { name: 'Add number' }).click();
  const card = page.getByRole('article', { name: `Number ${e164}` });
  await card.getByText('not verified').waitFor();
  return card;
}

describe('spam monitoring in Chromium', () => {
  it('sends a new code the way the number was added, with messages in words beside the number', async () => {
    await page.getByRole('link', { name: 'Spam monitoring' }).click();
    await page.getByRole('heading', { name: 'Spam monitoring', level: 1 }).waitFor();
    // The form's method is the API's default (call): a text reaches only an SMS-capable number.
    expect(await page.getByLabel('Send the code by').inputValue()).toBe('call');
    const card = await addAndVerify('(202) 318-0669', '+12023180669', 'phone call');
    await card.getByText('We are calling +12023180669: answer to hear a 6-digit code, then enter it here within 10 minutes.').waitFor();
    expect(await page.locator('#spam-add-note').innerText()).toBe('+12023180669 was added.');

    // The first code is less than 30 s old: the refusal is shown in the card, in the API's words for the wait.
    await card.getByRole('button', { name: 'Send a new code' }).click();
    await card.getByRole('alert').getByText(/A code was sent recently; wait \d+ seconds before requesting another/).waitFor();
    // Past the cooldown (the stored send time moved back), the new code goes by call again.
    advance(31_000);
    await card.getByRole('button', { name: 'Send a new code' }).click();
    await card.getByRole('status').getByText('We are calling +12023180669: answer to hear a 6-digit code, then enter it here within 10 minutes.').waitFor();
    const sent = await spamVerificationCodes('+12023180669');
    expect(sent.map((m) => m.method)).toEqual(['call', 'call']);

    // A wrong code, then an expired one: words beside the form, never the API's path names.
    await card.getByLabel('Verification code for +12023180669').fill('000000');
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.getByRole('alert').getByText('Invalid verification code; 4 attempts left').waitFor();
    advance(11 * 60_000);
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.getByRole('alert').getByText('The verification code has expired. Use “Send a new code” to get another.').waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(/verify\/resend|\/api\/v1|POST /);
    await shot(page, 'spam-code-by-call');

    await card.getByRole('button', { name: 'Send a new code' }).click();
    await card.getByRole('status').getByText(/^We are calling/).waitFor();
    const [latest] = await spamVerificationCodes('+12023180669');
    expect(latest!.method).toBe('call');
    await card.getByLabel('Verification code for +12023180669').fill(latest!.code);
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.getByText('Number verified; daily spam monitoring has begun.').waitFor();
  });

  it('a number added for texts gets its new code by text', async () => {
    const card = await addAndVerify('(202) 318-0666', '+12023180666', 'text message');
    await card.getByText('We sent a text message with a 6-digit code to +12023180666. Enter it here within 10 minutes.').waitFor();
    advance(31_000);
    await card.getByRole('button', { name: 'Send a new code' }).click();
    await card.getByRole('status').getByText(/^We sent a text message with a 6-digit code/).waitFor();
    const sent = await spamVerificationCodes('+12023180666');
    expect(sent.map((m) => m.method)).toEqual(['sms', 'sms']);
    await card.getByLabel('Verification code for +12023180666').fill(sent[0]!.code);
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.getByText('Number verified; daily spam monitoring has begun.').waitFor();
  });

  it('shows the same-carrier warning and why a carrier test failed', async () => {
    await runSpamTestsNow(service.runtime.ports, service.organizationId);
    await page.reload();
    // 0669: the t-mobile test fails with SIP 480 (the simulator's rule).
    const failing = page.getByRole('article', { name: 'Number +12023180669' });
    const tmobile = failing.getByRole('row', { name: /t-mobile/ });
    await tmobile.waitFor();
    expect(await tmobile.innerText()).toMatch(/test failed[\s\S]*The reason is in the history below/);
    await failing.getByRole('button', { name: 'History and screenshots' }).click();
    const failedRow = failing.getByRole('row', { name: /t-mobile/ }).last();
    await failedRow.getByText('The test phone on this carrier was unavailable. The next daily test tries again.').waitFor();
    // 0666: its own carrier is at&t (last digit 6 mod 3 = 0), so its at&t result carries the warning.
    const flagged = page.getByRole('article', { name: 'Number +12023180666' });
    await flagged.getByText('The at&t test ran from this number’s own carrier, so its result may not match what customers of other carriers see.').waitFor();
    expect(await flagged.getByRole('row', { name: /at&t/ }).innerText()).toContain('Same carrier as the number: may be skewed.');
    expect(await flagged.getByRole('row', { name: /verizon/ }).innerText()).not.toContain('Same carrier');
    // At 1280 px no table scrolls sideways: the results, and each history with its longest notes.
    expect(page.viewportSize()?.width).toBe(1280);
    const noSidewaysScroll = async (history: string) => {
      const regions = page.getByRole('region', { name: /^(Last 7 days of tests|Latest result per carrier) for / });
      const names = await Promise.all((await regions.all()).map((r) => r.getAttribute('aria-label')));
      expect(names).toEqual(expect.arrayContaining([history, 'Latest result per carrier for +12023180666', 'Latest result per carrier for +12023180669']));
      for (const region of await regions.all()) {
        const [scroll, client] = await region.evaluate((el: { scrollWidth: number; clientWidth: number }) => [el.scrollWidth, el.clientWidth]);
        expect(scroll, `${await region.getAttribute('aria-label')} scrolls sideways`).toBeLessThanOrEqual(client);
      }
    };
    await noSidewaysScroll('Last 7 days of tests for +12023180669');
    await flagged.getByRole('button', { name: 'History and screenshots' }).click();
    await flagged.getByRole('region', { name: 'Last 7 days of tests for +12023180666' }).getByText('Tested from this number’s own carrier', { exact: false }).waitFor();
    await noSidewaysScroll('Last 7 days of tests for +12023180666');
    await shot(page, 'spam-results-reasons');

    // The API gives the reason too (additive `error` on history rows), in the lab's words.
    const list = (await (await service.request('GET', '/api/v1/spam/numbers')).json()) as { numbers: { id: string; phone_number: string }[] };
    const id = list.numbers.find((n) => n.phone_number === '+12023180669')!.id;
    const history = (await (await service.request('GET', `/api/v1/spam/numbers/${id}/history`)).json()) as { results: { carrier: string; status: string; error: string | null }[] };
    expect(history.results.find((r) => r.carrier === 't-mobile')).toMatchObject({ status: 'failed', error: 'simulated: handset temporarily unavailable' });
    expect(history.results.filter((r) => r.carrier !== 't-mobile').every((r) => r.error === null)).toBe(true);
  });
});
