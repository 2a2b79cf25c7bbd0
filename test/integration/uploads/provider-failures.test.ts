import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../../../lambdas/admin/admin';
import { getBalance } from '../../../lambdas/credits/credits';
import { reloadConfig } from '../../../lambdas/platform/config';
import { readTat } from '../../../lambdas/ratelimit/lease-repository';
import { sharedRateLimiter } from '../../../lambdas/ratelimit/shared-limiter';
import { useTestService } from '../../support/runtime';
import { newCustomer } from '../../support/customer';
import { runContactPool } from '../../../lambdas/contacts/pool-job';
import { NO_RESULT } from '../../../lambdas/contacts/pool-results';
import { poolLookupFailures } from '../../../lambdas/uploads/pool';
import { keys, type UploadRecord } from '../../../lambdas/uploads/upload';
import { filesBucket, putObject } from '../../../lambdas/platform/blob';

// Issue 12 item 5: a Twilio Lookup stand-in on loopback that fails some numbers for good (500 on
// every try) and answers others 429 once. The upload runs through the local workflow with the real
// Twilio adapter, its retries and the shared rate bucket.

const failing = new Set<string>();
/** Every request refused as Twilio refuses bad credentials. */
let refuseCredentials = false;
/** Identity lookups asked with one of these last names fail on every try. */
const failingLastNames = new Set<string>();
const throttledOnce = new Set<string>();
const requests = new Map<string, number>();
let lookup: Server;

const env: Record<string, string> = { CLASSIFICATION_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', TWILIO_ATTEMPTS: '3', TWILIO_REQUESTS_PER_SECOND: '1000', PROVIDER_FAILURE_MAX_SHARE: '0.1' };
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  lookup = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const e164 = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    const seen = (requests.get(e164) ?? 0) + 1;
    requests.set(e164, seen);
    if (refuseCredentials) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":20003,"message":"Authenticate","status":401}');
    if (failing.has(e164) || failingLastNames.has(url.searchParams.get('LastName') ?? '')) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":20500,"status":500}');
    if (throttledOnce.has(e164) && seen === 1) return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"code":20429,"status":429}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ phone_number: e164, valid: true, line_type_intelligence: { type: 'mobile', carrier_name: 'Verizon Wireless', error_code: null } }));
  });
  await new Promise<void>((r) => lookup.listen(0, '127.0.0.1', r));
  env.TWILIO_LOOKUP_BASE_URL = `http://127.0.0.1:${(lookup.address() as AddressInfo).port}`;
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  reloadConfig();
});
const service = useTestService();
afterAll(async () => {
  for (const k of Object.keys(env)) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  reloadConfig();
  await new Promise<void>((r) => lookup.close(() => r()));
});

const e164s = (n: number, area: number) => Array.from({ length: n }, (_, i) => `+1${area}555${String(2000 + i).padStart(4, '0')}`);

async function upload(phones: string[]) {
  const org = await admin.createOrganization({ name: 'Provider failures', credits: 10_000, subscriptionActive: true });
  const user = await admin.createUser(`pf-${org.id}@example.com`);
  await admin.addMember(org.id, user.id, 'owner');
  const key = (await admin.mintKey(org.id, user.id)).key;
  const form = new FormData();
  form.append('phone_columns', 'phone');
  form.append('file', new Blob([['phone', ...phones].join('\r\n') + '\r\n'], { type: 'text/csv' }), 'list.csv');
  const res = await fetch(`${service.url}/api/v1/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
  expect(res.status, await res.clone().text()).toBe(200);
  const created = (await res.json()) as { id: string; credits_charged: number };
  await service.runtime.settleWorkflows();
  const done = (await (await service.request('GET', `/api/v1/uploads/${created.id}`, { key })).json()) as {
    status: string;
    result_summary: { status_counts: Record<string, number> } | null;
    error?: unknown;
  };
  return { org, key, created, done };
}

describe('provider limits: failed lookups become Unknown; only a large share fails the upload', () => {
  it('an upload whose provider fails for 2% of its numbers completes, those numbers Unknown', async () => {
    const phones = e164s(250, 646);
    for (const p of phones.filter((_, i) => i % 50 === 7)) failing.add(p); // 5 of 250 = 2%
    for (const p of phones.filter((_, i) => i % 25 === 3)) throttledOnce.add(p);
    const { org, key, created, done } = await upload(phones);
    expect(done.status).toBe('completed');
    expect(created.credits_charged).toBe(250);
    expect((await getBalance(org.id)).total).toBe(10_000 - 250); // charged, not refunded
    // Each failing number was tried TWILIO_ATTEMPTS times; each throttled one succeeded on its second.
    for (const p of failing) expect(requests.get(p)).toBe(3);
    for (const p of throttledOnce) expect(requests.get(p)).toBe(2);

    const link = (await (await service.request('GET', `/api/v1/uploads/${(created as { id: string }).id}/download/processed`, { key })).json()) as { url: string };
    const rows = (await (await fetch(link.url)).text()).split('\r\n').filter(Boolean);
    expect(rows[0]).toBe('phone,Service_Status');
    const statusOf = new Map(rows.slice(1).map((r) => r.split(',') as [string, string]));
    for (const p of phones) expect(statusOf.get(p), p).toBe(failing.has(p) ? 'Unknown' : 'Likely Answer');
  });

  it('an upload whose provider fails for more than the configured share is failed and refunded', async () => {
    const phones = e164s(200, 917);
    for (const p of phones.slice(0, 50)) failing.add(p); // 25% > 10%
    const { org, done } = await upload(phones);
    expect(done.status).toBe('failed');
    expect(JSON.stringify(done)).toContain('ProviderFailureShareExceeded');
    expect((await getBalance(org.id)).total).toBe(10_000);
  });

  it('a contact whose number the provider never answers fails and is refunded; the others of its pool complete, whatever the share', async () => {
    const { org, key } = await newCustomer({ name: 'Pool failures', credits: 100 });
    const phones = e164s(5, 312);
    for (const p of phones.slice(0, 2)) failing.add(p); // 2 of 5 = 40%: a bulk upload would fail whole
    const ids: string[] = [];
    for (const phone of phones) {
      const res = await service.request('POST', '/api/v2/contacts', { key, body: { phone } });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    expect((await getBalance(org.id)).total).toBe(95);
    const run = await runContactPool(service.runtime.ports);
    expect(run.pooled).toBe(5);
    await service.runtime.settleWorkflows();
    const contacts = await Promise.all(ids.map(async (id) => (await (await service.request('GET', `/api/v2/contacts/${id}`, { key })).json()) as { status: string; service_status: string | null; error_message: string | null }));
    expect(contacts.map((c) => c.status)).toEqual(['failed', 'failed', 'completed', 'completed', 'completed']);
    for (const failed of contacts.slice(0, 2)) expect(failed.error_message).toBe(NO_RESULT);
    for (const done of contacts.slice(2)) expect(done.service_status).toBe('Likely Answer');
    for (const p of phones.slice(0, 2)) expect(requests.get(p)).toBe(3);
    expect((await getBalance(org.id)).total).toBe(97); // the two failed given back
  });

  it('two contacts of one number with other names are two lookups: the one that failed is refunded, the other completes', async () => {
    const { org, key } = await newCustomer({ name: 'Pool names', credits: 100 });
    failingLastNames.add('Lovelace');
    try {
      const phone = '+13125553100';
      const ids: string[] = [];
      for (const full_name of ['Ada Lovelace', 'Grace Hopper']) {
        const res = await service.request('POST', '/api/v2/contacts', { key, body: { phone, properties: { full_name } } });
        expect(res.status, await res.clone().text()).toBe(201);
        ids.push(((await res.json()) as { id: string }).id);
      }
      await runContactPool(service.runtime.ports);
      await service.runtime.settleWorkflows();
      const contacts = await Promise.all(ids.map(async (id) => (await (await service.request('GET', `/api/v2/contacts/${id}`, { key })).json()) as { status: string; error_message: string | null; service_status: string | null }));
      expect(contacts.map((c) => c.status)).toEqual(['failed', 'completed']);
      expect(contacts[0]!.error_message).toBe(NO_RESULT);
      expect(contacts[1]!.service_status).not.toBeNull();
      expect((await getBalance(org.id)).total).toBe(99);
    } finally {
      failingLastNames.clear();
    }
  });

  it('a pool\'s failed lookups are read by row; a list of numbers (as an earlier version wrote it) still settles by number', async () => {
    const upload = { organization_id: 'org-legacy', id: '33333333-3333-4333-8333-333333333333' } as UploadRecord;
    await putObject(filesBucket(), keys.lookupFailures(upload), JSON.stringify({ rows: [0, 2, 7] }), 'application/json');
    expect(await poolLookupFailures(upload, ['c0', 'c1', 'c2'])).toEqual({ contactIds: new Set(['c0', 'c2']), numbers: new Set() });
    await putObject(filesBucket(), keys.lookupFailures(upload), JSON.stringify(['+13125550171']), 'application/json');
    expect(await poolLookupFailures(upload, ['c0'])).toEqual({ contactIds: new Set(), numbers: new Set(['+13125550171']) });
  });

  it('a provider refusing the service\'s credentials fails the upload at once (no step retry), named in its message, refunded', async () => {
    refuseCredentials = true;
    try {
      const phones = e164s(100, 415);
      const { org, key, created, done } = await upload(phones);
      expect(done.status).toBe('failed');
      expect((done as { error_message?: string }).error_message).toMatch(/^Processing failed \(ProviderConfigurationError\); the credits were refunded/);
      // No processed file will ever come: the 409 says so, not "not available yet".
      const processed = await service.request('GET', `/api/v1/uploads/${created.id}/download/processed`, { key });
      expect([processed.status, ((await processed.json()) as { detail: string }).detail]).toEqual([409, 'The upload failed, so it has no processed file; its original is still available (download/original)']);
      expect((await service.request('GET', `/api/v1/uploads/${created.id}/download/original`, { key })).status).toBe(200);
      // Asked once per worker, never retried (by the adapter or the workflow's Task).
      const asked = phones.reduce((n, p) => n + (requests.get(p) ?? 0), 0);
      expect(asked).toBeGreaterThan(0);
      expect(asked).toBeLessThanOrEqual(Number(process.env.CLASSIFY_CONCURRENCY ?? 32));
      expect((await getBalance(org.id)).total).toBe(10_000);
    } finally {
      refuseCredentials = false;
    }
  });

  it('every concurrent caller takes from one bucket in the table, a lease of slots per write', async () => {
    const a = sharedRateLimiter('provider#test', 50);
    const b = sharedRateLimiter('provider#test', 50);
    const before = Date.now();
    await Promise.all([...Array.from({ length: 41 }, () => a.take()), ...Array.from({ length: 40 }, () => b.take())]);
    // 81 tokens from two limiters (two Lambdas): the one bucket's leased slots reach at least 81
    // intervals past the start (more only for leases not used up): no token was handed out off the books.
    expect((await readTat('provider#test'))! - before).toBeGreaterThanOrEqual(81 * (1000 / 50));
    const [sa, sb] = [a.stats(), b.stats()];
    expect(sa.tokens + sb.tokens).toBe(81);
    // Leases of 25 slots: 81 tokens need 4 leases; each may take a second call when it loses a race.
    expect(sa.tableCalls + sb.tableCalls).toBeGreaterThanOrEqual(4);
    expect(sa.tableCalls + sb.tableCalls).toBeLessThanOrEqual(12);
  });

  it('a limiter whose turn ends gives its unused slots back to the bucket in the table, once', async () => {
    // 1/s in leases of 25: the lease's last slots are seconds ahead, however slow this machine is.
    const a = sharedRateLimiter('provider#give-back', 1, { leaseTokens: 25 });
    await a.take();
    const leasedTo = (await readTat('provider#give-back'))!;
    const given = await a.release();
    expect(given).toBeGreaterThan(20);
    expect(a.stats()).toMatchObject({ tokens: 1, returned: given });
    expect(leasedTo - (await readTat('provider#give-back'))!).toBeCloseTo(given * 1050, 6);
    await expect(a.release()).resolves.toBe(0);
  });
});
