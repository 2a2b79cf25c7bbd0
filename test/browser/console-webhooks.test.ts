import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { useTestService } from '../support/runtime';
import { emitEvent } from '../support/emit-event';
import { waitFor } from '../support/wait';
import { verifyWebhook } from '../../lambdas/webhooks/verify-signature';
import { shot, useOwnerPage } from './browser';

// Sending a failed webhook delivery again from the Webhooks page, in Chromium: a receiver that
// refuses an event for good (410), then answers; the owner presses "Send again" (twice, quickly),
// and the receiver gets the same event once more, signed, with the same event and delivery ids.

// The webhook receiver below listens on loopback, which the service refuses unless told (local only).
process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
const service = useTestService();
let page: Page;
useOwnerPage(service, (opened) => (page = opened));

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A loopback receiver answering `status.code`, keeping every request. */
async function startReceiver() {
  const status = { code: 200 };
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ body, headers: req.headers });
      res.writeHead(status.code).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/in`,
    status,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('registering an endpoint', () => {
  it('is offered once the list has loaded: a click before would send no event types, which the API refuses', async () => {
    // The list (which brings the event types and the defaults to tick) is held back, as on a slow network.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const isList = (url: URL) => url.pathname.endsWith('/console/api/webhooks');
    const holdList = async (route: Route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    };
    await page.route(isList, holdList);
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/in');
      expect(await page.getByRole('button', { name: 'Register endpoint' }).isDisabled()).toBe(true);
      release();
      await page.getByRole('button', { name: 'Register endpoint', disabled: false }).waitFor();
      expect(await page.getByRole('checkbox', { name: 'upload.completed' }).isChecked()).toBe(true);
    } finally {
      release();
      await page.unroute(isList, holdList);
      await page.getByLabel('Endpoint URL').fill('');
    }
  });
});

describe('sending a failed delivery again', () => {
  it('re-sends an exhausted delivery once, signed, with the same event id, after a receiver that failed now answers', async () => {
    const receiver = await startReceiver();
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      await page.getByText(`Ping answered: ${receiver.url} is registered.`).waitFor();
      const secret = await page.getByLabel('Signing secret').inputValue();
      const [hook] = ((await (await service.request('GET', '/api/v1/webhooks')).json()) as { id: string; url: string }[]).filter((h) => h.url === receiver.url);

      // The receiver refuses the event for good: the delivery ends after one attempt.
      receiver.status.code = 410;
      const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: { upload: { id: 'redeliver-me' } } });
      await waitFor('the delivery to end', async () => {
        const { data } = (await (await service.request('GET', `/api/v1/webhooks/${hook!.id}/deliveries`)).json()) as { data: { event_id: string; state: string }[] };
        return data.find((d) => d.event_id === event.id && d.state === 'exhausted') ?? null;
      });
      receiver.status.code = 200;

      const card = page.getByRole('article', { name: `Endpoint ${receiver.url}` });
      await card.getByRole('button', { name: 'Show deliveries' }).click();
      const row = card.getByRole('row').filter({ hasText: 'upload.completed' });
      await row.getByText('exhausted').waitFor();
      // Only the ended delivery offers it; the ping (succeeded) does not.
      expect(await card.getByRole('button', { name: /^Send again: / }).count()).toBe(1);
      await shot(page, 'webhooks-redeliver-before');
      await row.getByRole('button', { name: /^Send again: the upload\.completed delivery of / }).dblclick();
      await row.getByText(/^sent again /).waitFor();
      await row.getByText("succeeded").waitFor();
      expect(await row.innerText()).toMatch(/upload\.completed\s+succeeded\s+sent again .*\s+2\s+410, 200/);
      // The log fits its card at 1280 px: no column pushed out of view.
      expect(await card.locator('.table-wrap').evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await shot(page, 'webhooks-redeliver-after');

      // The receiver got the event twice (the refusal and the one redelivery), byte for byte the same, validly signed.
      const events = receiver.received.filter((r) => JSON.parse(r.body).type === 'upload.completed');
      expect(events).toHaveLength(2);
      expect(events[0]!.body).toBe(events[1]!.body);
      for (const [i, r] of events.entries()) {
        expect(verifyWebhook(r.body, String(r.headers['x-service-signature']), secret).id).toBe(event.id);
        expect(r.headers['x-service-event-id']).toBe(event.id);
        expect(r.headers['x-service-attempt']).toBe(String(i + 1));
      }
      expect(events[0]!.headers['x-service-delivery-id']).toBe(events[1]!.headers['x-service-delivery-id']);
      // Nothing more: the redelivery was one attempt, and the double click reopened it once.
      expect(receiver.received.filter((r) => JSON.parse(r.body).type === 'upload.completed')).toHaveLength(2);
      expect(await page.locator('main').innerText()).not.toMatch(/\/api\/v1|redeliver/);
    } finally {
      await receiver.close();
    }
  });
});
