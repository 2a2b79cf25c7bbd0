import { reloadConfig } from '../../../lambdas/platform/config';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { startReceiver, header, type Receiver } from './receiver';
import { verifyWebhook } from '../../../lambdas/webhooks/verify-signature';
import { emitEvent } from '../../support/emit-event';
import type { Resolver } from '../../../lambdas/platform/net/resolver';
import { systemNet } from '../../../lambdas/platform/net/outbound';
import { getDelivery } from '../../../lambdas/webhooks/delivery-repository';
import { recordEndpointFailure } from '../../../lambdas/webhooks/endpoint-repository';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { newCustomer } from '../../support/customer';
import { waitFor } from '../../support/wait';
import { randomUUID } from 'node:crypto';
import { claimUrl, releaseUrl } from '../../../lambdas/webhooks/url-claim';
import { URL_CLAIM_BOUND_MS } from '../../../lambdas/webhooks/duplicate-url';

// Loopback receivers need the development setting; DEPLOYMENT=local comes from the local runtime.
process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
reloadConfig();

// This file's runtime reaches receivers through the system's resolver and CAs, or the stub
// resolver and test CA a test sets for itself.
let resolve: Resolver = systemNet().resolve;
let trustedCa: string | null = null;
const setResolver = (stub: Resolver | null) => {
  resolve = stub ?? systemNet().resolve;
};
const setTrustedCaForTests = (pem: string | null) => {
  trustedCa = pem;
};
const service = useTestService({
  ports: {
    net: {
      resolve: (host) => resolve(host),
      timeoutMs: systemNet().timeoutMs,
      get trustedCa() {
        return trustedCa;
      },
    },
  },
});
let ok: Receiver;
let other: Receiver;

beforeAll(async () => {
  ok = await startReceiver();
  other = await startReceiver();
});
afterAll(async () => {
  await ok.close();
  await other.close();
});
afterEach(() => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
  reloadConfig();
  setResolver(null);
  setTrustedCaForTests(null);
});

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  is_active: boolean;
  verified_at: string | null;
  consecutive_failures: number;
  disabled_at: string | null;
  updated_at: string;
}

async function create(body: Record<string, unknown>): Promise<{ webhook: Endpoint; secret: string }> {
  const res = await service.request('POST', '/api/v1/webhooks', { body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { webhook: Endpoint; secret: string };
}

/** A URL of `receiver` no other test of this organization registered (one endpoint per URL). */
const urlOf = (receiver: Receiver, tag: string) => `${receiver.url}?t=${tag}`;

async function until(check: () => Promise<boolean>): Promise<void> {
  await waitFor('the condition', async () => ((await check()) ? true : null), 30_000, 20);
}

describe('endpoint registration', () => {
  it('pings synchronously, saves on 2xx and returns the secret once', async () => {
    const before = ok.requests.length;
    const { webhook, secret } = await create({ url: ok.url, description: 'orders' });
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(webhook).toMatchObject({ url: ok.url, description: 'orders', events: ['upload.completed', 'upload.failed'], is_active: true, consecutive_failures: 0, disabled_at: null });
    expect(webhook.verified_at).not.toBeNull();
    expect(webhook).not.toHaveProperty('secret');

    expect(ok.requests.length).toBe(before + 1);
    const ping = ok.requests.at(-1)!;
    const event = verifyWebhook<{ challenge: string }>(ping.body, header(ping, 'x-service-signature'), secret);
    expect(event.type).toBe('webhook.ping');
    expect(event.id).toMatch(/^evt_[0-9a-f]+$/);
    expect(event.api_version).toBe('2026-04-23');
    expect(event.data.challenge).toMatch(/^[0-9a-f]{32}$/);
    expect(header(ping, 'content-type')).toBe('application/json');
    expect(header(ping, 'user-agent')).toBe('Service-Webhooks/1.0');
    expect(header(ping, 'x-service-event')).toBe('webhook.ping');
    expect(header(ping, 'x-service-event-id')).toBe(event.id);
    expect(header(ping, 'x-service-attempt')).toBe('1');
    expect(header(ping, 'x-service-delivery-id')).toMatch(/^dlv_/);
    expect(header(ping, 'x-service-signature')).toMatch(new RegExp(`^t=${header(ping, 'x-service-timestamp')},v1=[0-9a-f]{64}$`));

    const got = await service.request('GET', `/api/v1/webhooks/${webhook.id}`);
    expect(got.status).toBe(200);
    const text = await got.text();
    expect(text).not.toContain(secret);
    const list = await service.request('GET', '/api/v1/webhooks');
    expect(await list.text()).not.toContain(secret);
  });

  it('refuses to save when the ping fails, with the spec’s ping_failed detail', async () => {
    const failing = await startReceiver({ kind: 'status', status: 503 });
    const closing = await startReceiver({ kind: 'close' });
    try {
      const countBefore = ((await (await service.request('GET', '/api/v1/webhooks')).json()) as unknown[]).length;
      const res = await service.request('POST', '/api/v1/webhooks', { body: { url: failing.url } });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { detail: Record<string, unknown> };
      expect(body.detail).toMatchObject({ error: 'ping_failed', status_code: 503, underlying_error: null });
      expect(typeof body.detail.message).toBe('string');

      const closed = await service.request('POST', '/api/v1/webhooks', { body: { url: closing.url } });
      expect(closed.status).toBe(400);
      const closedBody = (await closed.json()) as { detail: Record<string, unknown> };
      expect(closedBody.detail).toMatchObject({ error: 'ping_failed', status_code: null });
      expect(typeof closedBody.detail.underlying_error).toBe('string');

      const countAfter = ((await (await service.request('GET', '/api/v1/webhooks')).json()) as unknown[]).length;
      expect(countAfter).toBe(countBefore);
    } finally {
      await failing.close();
      await closing.close();
    }
  });

  it('validates events and description', async () => {
    const bad = async (body: unknown, fragment: RegExp) => {
      const res = await service.request('POST', '/api/v1/webhooks', { body });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(fragment);
    };
    await bad({ url: ok.url, events: [] }, /at least one/);
    await bad({ url: ok.url, events: ['upload.deleted'] }, /Unknown event type.*upload\.deleted/);
    await bad({ url: ok.url, events: ['webhook.ping'] }, /Unknown event type/);
    await bad({ url: ok.url, description: 'x'.repeat(501) }, /description/);
    await bad({ url: ok.url, secret: 'a'.repeat(64) }, /secret|Unrecognized/i);
    await bad({}, /url/);
    const { webhook } = await create({ url: urlOf(ok, 'validates'), description: 'x'.repeat(500), events: ['upload.created', 'spam.detected', 'upload.created'] });
    expect(webhook.events).toEqual(['upload.created', 'spam.detected']);
  });

  it('lists newest first and hides other organizations’ endpoints (404)', async () => {
    const a = await create({ url: urlOf(ok, 'list-a') });
    const b = await create({ url: urlOf(ok, 'list-b') });
    const list = (await (await service.request('GET', '/api/v1/webhooks')).json()) as Endpoint[];
    expect(list.findIndex((e) => e.id === b.webhook.id)).toBeLessThan(list.findIndex((e) => e.id === a.webhook.id));

    const { key } = await newCustomer({ name: 'Other' });
    expect((await service.request('GET', `/api/v1/webhooks/${a.webhook.id}`, { key })).status).toBe(404);
    expect((await service.request('PATCH', `/api/v1/webhooks/${a.webhook.id}`, { key, body: { description: 'mine' } })).status).toBe(404);
    expect((await service.request('DELETE', `/api/v1/webhooks/${a.webhook.id}`, { key })).status).toBe(404);
    expect((await service.request('GET', `/api/v1/webhooks/${a.webhook.id}/deliveries`, { key })).status).toBe(404);
    expect(await (await service.request('GET', '/api/v1/webhooks', { key })).json()).toEqual([]);
    expect((await service.request('GET', '/api/v1/webhooks/not-a-uuid')).status).toBe(404);
    expect((await service.request('GET', '/api/v1/webhooks', { key: null })).status).toBe(401);
  });
});

describe('one endpoint per URL and organization', () => {
  it('answers 409 in the envelope for a URL already registered, however spelled, before any ping; PATCH too', async () => {
    const receiver = await startReceiver();
    try {
      const first = await create({ url: receiver.url });
      const pings = receiver.requests.length;
      const spelled = receiver.url.replace('http://', 'HTTP://') + '#again';
      const dup = await service.request('POST', '/api/v1/webhooks', { body: { url: spelled, events: ['spam.detected'] } });
      expect(dup.status).toBe(409);
      expect(await dup.json()).toEqual({ detail: `This organization already has a webhook endpoint for this URL (${first.webhook.id}); change or delete that one instead` });
      expect(receiver.requests.length).toBe(pings);
      const list = (await (await service.request('GET', '/api/v1/webhooks')).json()) as Endpoint[];
      expect(list.filter((e) => e.url.startsWith(receiver.url))).toHaveLength(1);

      // Another path of the same host is another URL; changing it to the first one's URL is refused and changes nothing.
      const second = await create({ url: urlOf(receiver, 'other') });
      const patched = await service.request('PATCH', `/api/v1/webhooks/${second.webhook.id}`, { body: { url: receiver.url, description: 'moved' } });
      expect(patched.status).toBe(409);
      expect(((await (await service.request('GET', `/api/v1/webhooks/${second.webhook.id}`)).json()) as Endpoint)).toMatchObject({ url: urlOf(receiver, 'other'), description: null });
      // Its own URL again is no duplicate; another organization may register the URL.
      expect((await service.request('PATCH', `/api/v1/webhooks/${second.webhook.id}`, { body: { url: urlOf(receiver, 'other'), description: 'same' } })).status).toBe(200);
      const { key } = await newCustomer({ name: 'Elsewhere' });
      expect((await service.request('POST', '/api/v1/webhooks', { key, body: { url: receiver.url } })).status).toBe(201);

      // Once deleted, the URL can be registered again.
      expect((await service.request('DELETE', `/api/v1/webhooks/${first.webhook.id}`)).status).toBe(204);
      await create({ url: receiver.url });
    } finally {
      await receiver.close();
    }
  });
});

describe('one endpoint per URL under concurrency (the URL claim)', () => {
  it('settles simultaneous registrations of one URL: exactly one 201, every other a 409 naming it, one ping', async () => {
    const receiver = await startReceiver();
    try {
      const url = `${receiver.url}race`;
      // Spelled two ways: the claim is on the URL's identity.
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => service.request('POST', '/api/v1/webhooks', { body: { url: i % 2 ? url : url.replace('http://', 'HTTP://') } })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      const winner = (await answers.find((a) => a.status === 201)!.json()) as { webhook: Endpoint };
      for (const loser of answers.filter((a) => a.status === 409)) {
        expect(await loser.json()).toEqual({ detail: `This organization already has a webhook endpoint for this URL (${winner.webhook.id}); change or delete that one instead` });
      }
      expect(receiver.requests.length).toBe(1);
      const list = (await (await service.request('GET', '/api/v1/webhooks')).json()) as Endpoint[];
      expect(list.filter((e) => e.url.toLowerCase() === url.toLowerCase())).toHaveLength(1);

      // Deleted, the URL is free again; simultaneous re-registrations: again exactly one.
      expect((await service.request('DELETE', `/api/v1/webhooks/${winner.webhook.id}`)).status).toBe(204);
      const again = await Promise.all(Array.from({ length: 4 }, () => service.request('POST', '/api/v1/webhooks', { body: { url } })));
      expect(again.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
      const current = (await again.find((a) => a.status === 201)!.json()) as { webhook: Endpoint };

      // Another endpoint moved onto the URL: 409; once its holder moves elsewhere, the URL is free at once.
      const other = await create({ url: `${receiver.url}other` });
      const taken = await service.request('PATCH', `/api/v1/webhooks/${other.webhook.id}`, { body: { url } });
      expect(taken.status).toBe(409);
      expect(((await taken.json()) as { detail: string }).detail).toContain(current.webhook.id);
      expect((await service.request('PATCH', `/api/v1/webhooks/${current.webhook.id}`, { body: { url: `${receiver.url}third` } })).status).toBe(200);
      expect((await service.request('PATCH', `/api/v1/webhooks/${other.webhook.id}`, { body: { url } })).status).toBe(200);
      expect((await service.request('POST', '/api/v1/webhooks', { body: { url: `${receiver.url}third` } })).status).toBe(409);
      expect((await service.request('POST', '/api/v1/webhooks', { body: { url: `${receiver.url}other` } })).status).toBe(201);
    } finally {
      await receiver.close();
    }
  });

  it('frees the URL when the ping fails, and takes over a claim a crash left, never one that may still be in use', async () => {
    const receiver = await startReceiver({ kind: 'status', status: 500 });
    try {
      const url = `${receiver.url}claim`;
      expect((await service.request('POST', '/api/v1/webhooks', { body: { url } })).status).toBe(400);
      receiver.mode = { kind: 'status', status: 200 };
      const first = await create({ url });
      expect((await service.request('DELETE', `/api/v1/webhooks/${first.webhook.id}`)).status).toBe(204);

      // A registration under way (its claim is fresh, its endpoint not written yet): 409 naming it.
      const inFlight = randomUUID();
      expect(await claimUrl(service.organizationId, url, inFlight, Date.now())).toBeNull();
      const refused = await service.request('POST', '/api/v1/webhooks', { body: { url } });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { detail: string }).detail).toContain(inFlight);
      await releaseUrl(service.organizationId, url, inFlight);

      // A claim older than the bound whose endpoint never came: taken over.
      expect(await claimUrl(service.organizationId, url, randomUUID(), Date.now() - URL_CLAIM_BOUND_MS - 1000)).toBeNull();
      await create({ url });
    } finally {
      await receiver.close();
    }
  });
});

describe('delivery of events', () => {
  it('delivers subscribed events signed, skips unsubscribed ones, and logs each delivery', async () => {
    const receiver = await startReceiver();
    try {
      const { webhook, secret } = await create({ url: receiver.url, events: ['upload.completed'] });
      await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.created', data: { upload: { id: 'u0' } } });
      const emitted = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: { upload: { id: 'u1', downloads: { processed: 'https://x', processed_filtered: 'https://y' } } } });
      await receiver.waitFor(2); // ping + upload.completed
      const request = receiver.requests[1]!;
      const event = verifyWebhook(request.body, header(request, 'x-service-signature'), secret);
      expect(event).toEqual(emitted);
      expect(header(request, 'x-service-event')).toBe('upload.completed');
      expect(header(request, 'x-service-event-id')).toBe(emitted.id);
      expect(header(request, 'x-service-attempt')).toBe('1');
      const deliveryId = header(request, 'x-service-delivery-id');

      let log: { data: Array<Record<string, unknown>>; next_cursor: string | null } = { data: [], next_cursor: null };
      await until(async () => {
        log = (await (await service.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).json()) as typeof log;
        return log.data.some((d) => d.id === deliveryId && d.state === 'succeeded');
      });
      const entry = log.data.find((d) => d.id === deliveryId)!;
      expect(entry).toMatchObject({ webhook_id: webhook.id, event_id: emitted.id, event_type: 'upload.completed', attempt_count: 1, next_attempt_at: null });
      expect(entry.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);
      expect(log.data.map((d) => d.event_type).sort()).toEqual(['upload.completed', 'webhook.ping']);

      const after = (await (await service.request('GET', `/api/v1/webhooks/${webhook.id}`)).json()) as Endpoint & { last_success_at: string | null };
      expect(after.last_success_at).not.toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it('pages the deliveries log with an opaque cursor and refuses forged cursors', async () => {
    const receiver = await startReceiver();
    try {
      const { webhook } = await create({ url: receiver.url });
      const second = await create({ url: urlOf(receiver, 'second') });
      for (let i = 0; i < 3; i++) await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.failed', data: { i } });
      await until(async () => {
        const page = (await (await service.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=100`)).json()) as { data: Array<{ state: string }> };
        return page.data.length === 4 && page.data.every((d) => d.state === 'succeeded');
      });
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await service.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        const page = (await res.json()) as { data: Array<{ id: string }>; next_cursor: string | null };
        seen.push(...page.data.map((d) => d.id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(new Set(seen).size).toBe(4);

      const first = (await (await service.request('GET', `/api/v1/webhooks/${second.webhook.id}/deliveries?limit=1`)).json()) as { next_cursor: string };
      expect((await service.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?cursor=${first.next_cursor}`)).status).toBe(400);
      expect((await service.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?cursor=garbage`)).status).toBe(400);
      expect((await service.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=0`)).status).toBe(400);
      expect((await service.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=101`)).status).toBe(400);
    } finally {
      await receiver.close();
    }
  });
});

describe('last_success_at', () => {
  it('is set by the successful registration ping, and again (with the failure count reset) by the ping of a changed URL', () => service.clock.run(async () => {
    // Its own organization and key: the clock moves forward below, and their rate-limit buckets must
    // not be the ones the other tests use.
    const { key } = await newCustomer({ name: 'Last success', subscriptionActive: true, credits: 0 });
    const res0 = await service.request('POST', '/api/v1/webhooks', { key, body: { url: ok.url } });
    expect(res0.status).toBe(201);
    const webhook = ((await res0.json()) as { webhook: Endpoint & { last_success_at: string | null } }).webhook;
    expect(webhook.last_success_at).not.toBeNull();
    expect(webhook.last_success_at).toBe(webhook.verified_at);
    const got = (await (await service.request('GET', `/api/v1/webhooks/${webhook.id}`, { key })).json()) as Endpoint & { last_success_at: string | null };
    expect(got.last_success_at).toBe(webhook.last_success_at);

    // Two failed deliveries later, the URL changes: its 2xx ping is a successful delivery.
    await recordEndpointFailure(webhook.id, new Date(Date.now() + 1_000).toISOString());
    await recordEndpointFailure(webhook.id, new Date(Date.now() + 2_000).toISOString());
    const later = Date.now() + 60_000;
    service.clock.set(() => later);
    try {
      const res = await service.request('PATCH', `/api/v1/webhooks/${webhook.id}`, { key, body: { url: other.url } });
      expect(res.status).toBe(200);
      const updated = (await res.json()) as Endpoint & { last_success_at: string | null; last_failure_at: string | null };
      expect(updated).toMatchObject({ url: other.url, last_success_at: new Date(later).toISOString(), verified_at: new Date(later).toISOString(), consecutive_failures: 0 });
      expect(updated.last_failure_at).not.toBeNull();

      // A PATCH that does not change the URL sends no ping and leaves last_success_at alone.
      service.clock.set(() => later + 60_000);
      const same = (await (await service.request('PATCH', `/api/v1/webhooks/${webhook.id}`, { key, body: { url: other.url, description: 'same url' } })).json()) as Endpoint & { last_success_at: string | null };
      expect(same.last_success_at).toBe(new Date(later).toISOString());
      expect(same.updated_at).toBe(new Date(later + 60_000).toISOString());

      // A PATCH that changes nothing (empty, or every value as it is) writes nothing: updated_at stays.
      service.clock.set(() => later + 120_000);
      for (const body of [{}, { url: other.url, description: 'same url', events: same.events, is_active: true }]) {
        const noop = await service.request('PATCH', `/api/v1/webhooks/${webhook.id}`, { key, body });
        expect(noop.status).toBe(200);
        expect(((await noop.json()) as Endpoint).updated_at, JSON.stringify(body)).toBe(new Date(later + 60_000).toISOString());
      }
    } finally {
      service.clock.set(null);
    }
  }));
});

describe('PATCH and DELETE', () => {
  it('re-pings a changed URL with the existing secret and rejects the update when the ping fails', async () => {
    const { webhook, secret } = await create({ url: urlOf(ok, 'reping') });
    const before = other.requests.length;
    const res = await service.request('PATCH', `/api/v1/webhooks/${webhook.id}`, { body: { url: urlOf(other, 'reping'), events: ['number.verified'], description: null } });
    expect(res.status).toBe(200);
    const updated = (await res.json()) as Endpoint;
    expect(updated).toMatchObject({ url: urlOf(other, 'reping'), events: ['number.verified'], description: null });
    const ping = other.requests[before]!;
    expect(verifyWebhook(ping.body, header(ping, 'x-service-signature'), secret).type).toBe('webhook.ping');

    const failing = await startReceiver({ kind: 'status', status: 404 });
    try {
      const rejected = await service.request('PATCH', `/api/v1/webhooks/${webhook.id}`, { body: { url: failing.url, description: 'new' } });
      expect(rejected.status).toBe(400);
      expect(((await rejected.json()) as { detail: { error: string } }).detail.error).toBe('ping_failed');
      const current = (await (await service.request('GET', `/api/v1/webhooks/${webhook.id}`)).json()) as Endpoint;
      expect(current.url).toBe(urlOf(other, 'reping'));
      expect(current.description).toBeNull();
    } finally {
      await failing.close();
    }
    expect((await service.request('PATCH', `/api/v1/webhooks/${webhook.id}`, { body: { secret: 'f'.repeat(64) } })).status).toBe(400);
    expect((await service.request('PATCH', `/api/v1/webhooks/${webhook.id}`, { body: { events: [] } })).status).toBe(400);
    expect((await service.request('PATCH', `/api/v1/webhooks/${webhook.id}`, { body: { url: 'http://example.com/hook' } })).status).toBe(400);
  });

  it('deletes hard (204) and ends in-flight deliveries as exhausted', async () => {
    const receiver = await startReceiver();
    try {
      const { webhook } = await create({ url: receiver.url });
      receiver.mode = { kind: 'status', status: 500 };
      const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.failed', data: {} });
      await receiver.waitFor(2);
      let deliveryId = '';
      await until(async () => {
        const log = (await (await service.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).json()) as { data: Array<{ id: string; event_id: string; attempt_count: number }> };
        deliveryId = log.data.find((d) => d.event_id === event.id && d.attempt_count === 1)?.id ?? '';
        return deliveryId !== '';
      });
      expect((await getDelivery(deliveryId))!.state).toBe('pending');

      const res = await service.request('DELETE', `/api/v1/webhooks/${webhook.id}`);
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect((await service.request('GET', `/api/v1/webhooks/${webhook.id}`)).status).toBe(404);
      expect((await service.request('DELETE', `/api/v1/webhooks/${webhook.id}`)).status).toBe(404);
      const delivery = (await getDelivery(deliveryId))!;
      expect(delivery.state).toBe('exhausted');
      expect(delivery.exhausted_reason).toBe('endpoint deleted');
      expect(delivery.next_attempt_at).toBeNull();
    } finally {
      await receiver.close();
    }
  });
});

describe('URL safety at registration', () => {
  // Names resolve only through this stub: no test ever looks up an external name.
  const names: Record<string, string[]> = {
    'internal.example.test': ['10.1.2.3'],
    'mixed.example.test': ['93.184.216.34', '127.0.0.1'],
    'v6private.example.test': ['fd12:3456::1'],
    'metadata.example.test': ['169.254.169.254'],
    'mapped.example.test': ['::ffff:192.168.0.1'],
    'nat64.example.test': ['64:ff9b::a00:1'],
    localhost: ['127.0.0.1', '::1'],
  };
  const stub = async (host: string) => {
    const found = names[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };

  const hostile = [
    'http://public.example.test/hook',
    'ftp://public.example.test/hook',
    'not a url',
    'https://127.0.0.1/hook',
    'https://127.1/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://0x7f.0.0.1/hook',
    'https://0177.0.0.1/hook',
    'https://017700000001/hook',
    'https://user@127.0.0.1/hook',
    'https://user:pass@public.example.test/hook',
    'https://public.example.test@127.0.0.1/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:10.0.0.1]/hook',
    'https://[::127.0.0.1]/hook',
    'https://[64:ff9b::7f00:1]/hook',
    'https://[fc00::1]/hook',
    'https://[fe80::1]/hook',
    'https://[ff02::1]/hook',
    'https://[::]/hook',
    'https://[2001:db8::1]/hook',
    'https://0.0.0.0/hook',
    'https://10.0.0.1/hook',
    'https://172.16.5.4/hook',
    'https://192.168.1.1/hook',
    'https://100.64.0.1/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/latest/meta-data/',
    'https://100.100.100.200/latest/meta-data/',
    'https://224.0.0.1/hook',
    'https://255.255.255.255/hook',
    'https://240.0.0.1/hook',
    'https://internal.example.test/hook',
    'https://mixed.example.test/hook',
    'https://v6private.example.test/hook',
    'https://metadata.example.test/hook',
    'https://mapped.example.test/hook',
    'https://nat64.example.test/hook',
    'https://localhost/hook',
    'https://nowhere.example.test/hook',
  ];

  it.each(hostile)('refuses %s with 400 and sends nothing', async (url) => {
    delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
    reloadConfig();
    setResolver(stub);
    const res = await service.request('POST', '/api/v1/webhooks', { body: { url } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { detail: unknown };
    expect(typeof body.detail).toBe('string');
    expect(String(body.detail)).toMatch(/^Invalid url: /);
  });

  it('refuses a loopback receiver without the development setting, even with DEPLOYMENT=local', async () => {
    delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
    reloadConfig();
    const before = ok.requests.length;
    expect((await service.request('POST', '/api/v1/webhooks', { body: { url: ok.url } })).status).toBe(400);
    process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
    process.env.DEPLOYMENT = 'aws';
    reloadConfig();
    try {
      expect((await service.request('POST', '/api/v1/webhooks', { body: { url: ok.url } })).status).toBe(400);
    } finally {
      process.env.DEPLOYMENT = 'local';
      reloadConfig();
    }
    expect(ok.requests.length).toBe(before);
  });
});

describe('URL safety at delivery', () => {
  it('connects to the checked address with the real Host, and fails (and counts) when DNS turns private', async () => {
    const receiver = await startReceiver();
    const names: Record<string, string[]> = { 'hook.example.test': ['127.0.0.1'] };
    setResolver(async (host) => {
      const found = names[host];
      if (!found) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found;
    });
    try {
      const url = `http://hook.example.test:${receiver.port}/hook`;
      const { webhook } = await create({ url });
      expect(header(receiver.requests[0]!, 'host')).toBe(`hook.example.test:${receiver.port}`);

      names['hook.example.test'] = ['10.0.0.5'];
      const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
      let entry: { attempts: Array<{ status_code: number | null; error: string | null }>; state: string } | undefined;
      await until(async () => {
        const log = (await (await service.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).json()) as { data: Array<{ event_id: string; attempt_count: number } & NonNullable<typeof entry>> };
        entry = log.data.find((d) => d.event_id === event.id && d.attempt_count === 1);
        return entry !== undefined;
      });
      expect(entry!.state).toBe('pending');
      expect(entry!.attempts[0]!.status_code).toBeNull();
      expect(entry!.attempts[0]!.error).toMatch(/10\.0\.0\.5 is a private address/);
      expect(receiver.requests.length).toBe(1); // only the ping
      const after = (await (await service.request('GET', `/api/v1/webhooks/${webhook.id}`)).json()) as Endpoint & { last_failure_at: string | null };
      expect(after.consecutive_failures).toBe(1);
      expect(after.last_failure_at).not.toBeNull();
      await service.request('DELETE', `/api/v1/webhooks/${webhook.id}`);
    } finally {
      await receiver.close();
    }
  });
});

describe('TLS to the pinned address', () => {
  // A self-signed certificate for hook.example.test (test fixture, valid for 100 years).
  const cert = readFileSync(new URL('./fixtures/hook.example.test.crt', import.meta.url), 'utf8');
  const key = readFileSync(new URL('./fixtures/hook.example.test.key', import.meta.url), 'utf8');

  it('sends SNI and Host for the real name, validates the certificate against it, and connects to the checked address', async () => {
    const seen: Array<{ servername: string | false | null; host: string | undefined }> = [];
    const server = createHttpsServer({ cert, key }, (req, res) => {
      seen.push({ servername: (req.socket as TLSSocket).servername, host: req.headers.host });
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const names: Record<string, string[]> = { 'hook.example.test': ['127.0.0.1'], 'other.example.test': ['127.0.0.1'] };
    setResolver(async (host) => names[host] ?? Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })));
    setTrustedCaForTests(cert);
    try {
      const res = await service.request('POST', '/api/v1/webhooks', { body: { url: `https://hook.example.test:${port}/hook` } });
      expect(res.status, await res.clone().text()).toBe(201);
      expect(seen).toEqual([{ servername: 'hook.example.test', host: `hook.example.test:${port}` }]);

      // The same address under a name the certificate does not cover: TLS refuses it.
      const wrong = await service.request('POST', '/api/v1/webhooks', { body: { url: `https://other.example.test:${port}/hook` } });
      expect(wrong.status).toBe(400);
      const detail = ((await wrong.json()) as { detail: { error: string; status_code: number | null; underlying_error: string } }).detail;
      expect(detail).toMatchObject({ error: 'ping_failed', status_code: null });
      expect(detail.underlying_error).toMatch(/altname|other\.example\.test|certificate/i);
      expect(seen).toHaveLength(1);
      await service.request('DELETE', `/api/v1/webhooks/${((await res.json()) as { webhook: { id: string } }).webhook.id}`);
    } finally {
      setTrustedCaForTests(null);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
