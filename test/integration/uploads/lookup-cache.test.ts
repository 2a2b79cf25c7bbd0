import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../../../lambdas/admin/admin';
import { ADMIN_COMMANDS } from '../../../bin/admin-commands';
import { getBalance } from '../../../lambdas/credits/credits';
import { reloadConfig } from '../../../lambdas/platform/config';
import { getUpload } from '../../../lambdas/uploads/upload-repository';
import { runContactPool } from '../../../lambdas/contacts/pool-job';
import { dynamoLookupCache } from '../../../lambdas/classification/lookup-cache-repository';
import { useTestService } from '../../support/runtime';

// Issue 27 items 3 and 6 on the local runtime: the real Twilio adapter behind the lookup cache
// (createProviderFromEnv), against a Twilio Lookup stand-in on loopback that counts every request.
// Uploads run through the local workflow; the cache is the embedded table; time is the runtime's
// manual clock.

interface Request {
  e164: string;
  fields: string[];
  named: boolean;
}
const requests: Request[] = [];
const failing = new Set<string>();
/** How long the stand-in takes to answer (ms). */
let delay = 0;
let lookup: Server;

const env: Record<string, string> = { CLASSIFICATION_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', TWILIO_ATTEMPTS: '2', TWILIO_REQUESTS_PER_SECOND: '2000' };

beforeAll(async () => {
  lookup = createServer(async (req, res) => {
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const url = new URL(req.url ?? '/', 'http://fake');
    const e164 = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    const fields = (url.searchParams.get('Fields') ?? '').split(',').filter(Boolean);
    requests.push({ e164, fields, named: url.searchParams.has('LastName') });
    if (failing.has(e164)) return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"status":503}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        phone_number: e164,
        valid: true,
        line_type_intelligence: fields.includes('line_type_intelligence') ? { type: 'mobile', carrier_name: 'Verizon Wireless', error_code: null } : null,
        line_status: fields.includes('line_status') ? { status: 'active', error_code: null } : null,
        identity_match: fields.includes('identity_match') ? { summary_score: 90, error_code: null } : null,
      }),
    );
  });
  await new Promise<void>((r) => lookup.listen(0, '127.0.0.1', r));
  env.TWILIO_LOOKUP_BASE_URL = `http://127.0.0.1:${(lookup.address() as AddressInfo).port}`;
  Object.assign(process.env, env);
  reloadConfig();
});
const service = useTestService();
afterAll(async () => {
  // test/support/restore-env.ts gives the environment back.
  await new Promise<void>((r) => lookup.close(() => r()));
});

const DAY = 86_400_000;
const e164s = (n: number, area: number) => Array.from({ length: n }, (_, i) => `+1${area}555${String(2000 + i).padStart(4, '0')}`);
const TOLL_FREE = ['+18885551234', '+18005552345'];

async function customer(name: string) {
  const org = await admin.createOrganization({ name, credits: 10_000, subscriptionActive: true });
  const user = await admin.createUser(`lc-${org.id}@example.com`);
  await admin.addMember(org.id, user.id, 'owner');
  return { org, key: (await admin.mintKey(org.id, user.id)).key };
}

/** Uploads the numbers (with a name each when `names`), waits for the workflow, returns the upload and the requests it made. */
async function upload(key: string, phones: string[], names?: (phone: string) => string) {
  const before = requests.length;
  const body = names ? { contacts: phones.map((phone) => ({ phone, name: names(phone) })), phone_column: 'phone', full_name_column: 'name' } : { phone_numbers: phones };
  const res = await service.request('POST', '/api/v1/uploads', { body, key });
  expect(res.status, await res.clone().text()).toBe(200);
  const created = (await res.json()) as { id: string; credits_charged: number };
  await service.runtime.settleWorkflows();
  const record = (await getUpload(created.id))!;
  expect(record.status, record.error_message ?? '').toBe('completed');
  const link = (await (await service.request('GET', `/api/v1/uploads/${created.id}/download/processed`, { key })).json()) as { url: string };
  const processed = await (await fetch(link.url)).text();
  return { created, record, processed, made: requests.slice(before) };
}

describe('the lookup cache in front of a paid provider', () => {
  it('a second upload of the same numbers within TTL makes no paid lookup and is charged and answered the same; after TTL it pays again', async () => {
    const { org, key } = await customer('Cache A');
    const phones = [...e164s(120, 312), ...TOLL_FREE];
    const start = Date.now();
    service.clock.set(() => start);
    const first = await upload(key, phones);
    expect(first.made.map((r) => r.e164).sort()).toEqual(e164s(120, 312).sort()); // toll-free never asked
    expect(first.record).toMatchObject({ lookups_paid: 120, lookups_cached: 0, lookups_failed: 0 });

    service.clock.set(() => start + 29 * DAY);
    const second = await upload(key, phones);
    expect(second.made).toEqual([]);
    expect(second.created.credits_charged).toBe(first.created.credits_charged);
    expect(second.processed).toBe(first.processed);
    expect(second.record).toMatchObject({ lookups_paid: 0, lookups_cached: 120, lookups_failed: 0 });
    expect((await getBalance(org.id)).total).toBe(10_000 - 2 * 122);

    service.clock.set(() => start + 31 * DAY);
    const third = await upload(key, phones);
    expect(third.made).toHaveLength(120);
    expect(third.record).toMatchObject({ lookups_paid: 120, lookups_cached: 0 });

    // npm run admin -- usage: the three uploads (the first two lie more than 30 days back of the clock, not of --since).
    const usage = await ADMIN_COMMANDS.usage!.run({ org: org.id, since: new Date(start - DAY).toISOString() });
    expect(usage).toEqual({ lookups_paid: 240, lookups_cached: 120, lookups_failed: 0, uploads: 3 });
    expect(await admin.lookupUsage(org.id, new Date(start + 30 * DAY).toISOString())).toEqual({ lookups_paid: 120, lookups_cached: 0, lookups_failed: 0, uploads: 1 });
  });

  it('failed lookups are counted and never cached: the next upload asks for them again', async () => {
    const { org, key } = await customer('Cache failures');
    const phones = e164s(100, 646);
    failing.add(phones[7]!);
    const first = await upload(key, phones);
    expect(first.record).toMatchObject({ lookups_paid: 99, lookups_failed: 1, lookups_cached: 0 });
    failing.clear();
    const second = await upload(key, phones);
    expect(second.made.map((r) => r.e164)).toEqual([phones[7]]);
    expect(second.record).toMatchObject({ lookups_paid: 1, lookups_failed: 0, lookups_cached: 99 });
    expect(await admin.lookupUsage(org.id, '2000-01-01')).toMatchObject({ lookups_paid: 100, lookups_cached: 99, lookups_failed: 1, uploads: 2 });
  });

  it('another organization\'s identity answers are not reused (only the identity is bought again); with sharing on they are', async () => {
    const phones = e164s(100, 415);
    const names = (p: string) => `Ada Lovelace ${p.slice(-2)}`;
    const a = await customer('Identity A');
    const first = await upload(a.key, phones, names);
    expect(first.made).toHaveLength(100);
    expect(first.made.every((r) => r.named && r.fields.join() === 'line_type_intelligence,identity_match')).toBe(true);

    const b = await customer('Identity B');
    const other = await upload(b.key, phones, names);
    expect(other.made).toHaveLength(100);
    expect(other.made.every((r) => r.named && r.fields.join() === 'identity_match')).toBe(true);
    expect(other.processed).toBe(first.processed);
    expect(other.record).toMatchObject({ lookups_paid: 100, lookups_cached: 0 });
    // Its own second upload is served whole.
    expect((await upload(b.key, phones, names)).made).toEqual([]);

    process.env.LOOKUP_CACHE_SHARE_IDENTITY = 'true';
    reloadConfig();
    try {
      const c = await customer('Identity C');
      const d = await customer('Identity D');
      expect((await upload(c.key, phones, names)).made).toHaveLength(100); // the shared scope starts empty
      const shared = await upload(d.key, phones, names);
      expect(shared.made).toEqual([]);
      expect(shared.record).toMatchObject({ lookups_paid: 0, lookups_cached: 100 });
    } finally {
      delete process.env.LOOKUP_CACHE_SHARE_IDENTITY;
      reloadConfig();
    }
  });

  it('contacts use the cache too: a number the organization uploaded is answered from it when pooled', async () => {
    const { org, key } = await customer('Cache contacts');
    const phones = e164s(100, 212);
    await upload(key, phones);
    const before = requests.length;
    const created = await service.request('POST', '/api/v2/contacts', { body: { phone: phones[3], idempotency_key: 'cached-contact' }, key });
    expect(created.status, await created.clone().text()).toBe(201);
    const fresh = await service.request('POST', '/api/v2/contacts', { body: { phone: '+12125559876', idempotency_key: 'fresh-contact' }, key });
    expect(fresh.status).toBe(201);
    const run = await runContactPool(service.runtime.ports);
    await service.runtime.settleWorkflows();
    expect(requests.slice(before).map((r) => r.e164)).toEqual(['+12125559876']);
    expect(await getUpload(run.uploads[0]!)).toMatchObject({ source: 'api_pool', status: 'completed', lookups_paid: 1, lookups_cached: 1 });
    const contact = (await (await service.request('GET', `/api/v2/contacts/${((await created.json()) as { id: string }).id}`, { key })).json()) as Record<string, unknown>;
    expect(contact).toMatchObject({ status: 'completed', service_status: 'Likely Answer' });
    expect(await admin.lookupUsage(org.id, '2026-01-01')).toMatchObject({ lookups_paid: 101, lookups_cached: 1, uploads: 2 });
  });

  it('LOOKUP_CACHE=off: every number its range does not decide is paid for again', async () => {
    const { key } = await customer('Cache off');
    const phones = [...e164s(100, 312), ...TOLL_FREE]; // looked up and cached by the first test
    process.env.LOOKUP_CACHE = 'off';
    reloadConfig();
    try {
      const again = await upload(key, phones);
      expect(again.made.map((r) => r.e164).sort()).toEqual(e164s(100, 312).sort());
      expect(again.record).toMatchObject({ lookups_paid: 100, lookups_cached: 0 });
    } finally {
      delete process.env.LOOKUP_CACHE;
      reloadConfig();
    }
  });

  it('uploads running at the same time buy a shared number once: the others wait on its claim and are served its answer', async () => {
    // Three organizations, overlapping numbers, the three workflows running together (the fake
    // provider answers slowly so that their lookups overlap); each upload is charged for its own.
    delay = 15;
    try {
      const shared = e164s(150, 510);
      const lists = [shared, [...shared.slice(0, 100), ...e164s(50, 520)], [...e164s(50, 520), ...shared.slice(50)]];
      const customers = await Promise.all(['Claims A', 'Claims B', 'Claims C'].map(customer));
      const before = requests.length;
      const created = await Promise.all(
        lists.map(async (phones, i) => {
          const res = await service.request('POST', '/api/v1/uploads', { body: { phone_numbers: phones }, key: customers[i]!.key });
          expect(res.status, await res.clone().text()).toBe(200);
          return (await res.json()) as { id: string; credits_charged: number };
        }),
      );
      await service.runtime.settleWorkflows();
      const made = requests.slice(before).map((r) => r.e164);
      const distinct = new Set(lists.flat());
      expect(made.length).toBe(distinct.size);
      expect(new Set(made).size).toBe(distinct.size);
      const records = await Promise.all(created.map((c) => getUpload(c.id)));
      let paid = 0;
      for (const [i, record] of records.entries()) {
        expect(record).toMatchObject({ status: 'completed', lookups_failed: 0 });
        expect(record!.lookups_paid! + record!.lookups_cached!).toBe(150);
        paid += record!.lookups_paid!;
        expect(created[i]!.credits_charged).toBe(150);
        expect((await getBalance(customers[i]!.org.id)).total).toBe(10_000 - 150);
      }
      expect(paid).toBe(distinct.size);
    } finally {
      delay = 0;
    }
  });

  it('claims in the embedded table: one holder at a time, its own retry takes it over, an ended one is taken, a put or a release frees it', async () => {
    const cache = dynamoLookupCache();
    const e164 = '+13125557777';
    const now = Date.now();
    expect(await cache.claim('twilio', e164, { claimant: 'one', untilMs: now + 60_000, nowMs: now })).toEqual({ taken: true, entry: null, expiresAt: null });
    expect(await cache.claim('twilio', e164, { claimant: 'two', untilMs: now + 60_000, nowMs: now })).toEqual({ taken: false });
    // Another provider's entry is its own.
    expect((await cache.claim('telnyx', e164, { claimant: 'two', untilMs: now + 60_000, nowMs: now })).taken).toBe(true);
    expect((await cache.claim('twilio', e164, { claimant: 'one', untilMs: now + 60_000, nowMs: now })).taken).toBe(true);
    expect((await cache.claim('twilio', e164, { claimant: 'two', untilMs: now + 120_000, nowMs: now + 60_001 })).taken).toBe(true);
    // A claim-only item reads as no entry.
    expect((await cache.read('twilio', { numbers: [e164], identities: [] })).numbers.get(e164)).toEqual({});
    // The answer's put replaces the claim; its entry and expiry are what the next claim sees.
    const line = { lineType: 'mobile' as const, carrier: 'Verizon Wireless', callScreening: null, activityScore: null, ported: null, at: now };
    await cache.write('twilio', { numbers: [{ e164, entry: { line }, expiresAt: 4_000_000_000 }], identities: [] });
    expect(await cache.claim('twilio', e164, { claimant: 'three', untilMs: now + 60_000, nowMs: now })).toEqual({ taken: true, entry: { line }, expiresAt: 4_000_000_000 });
    // A release by someone who does not hold it changes nothing; the holder's gives the expiry back.
    await cache.release('twilio', e164, { claimant: 'one', expiresAt: 1 });
    expect((await cache.claim('twilio', e164, { claimant: 'four', untilMs: now + 60_000, nowMs: now })).taken).toBe(false);
    await cache.release('twilio', e164, { claimant: 'three', expiresAt: 4_000_000_000 });
    expect(await cache.claim('twilio', e164, { claimant: 'four', untilMs: now + 60_000, nowMs: now })).toEqual({ taken: true, entry: { line }, expiresAt: 4_000_000_000 });
  });

  it('admin usage refuses a bad --since and an unknown organization', async () => {
    const { org } = await customer('Usage input');
    for (const since of ['yesterday', '2026-11-01T10:00', '', '1e12', '2026-11-01; DROP']) {
      await expect(admin.lookupUsage(org.id, since), since).rejects.toThrow(/--since must be an ISO 8601/);
    }
    await expect(admin.lookupUsage('no-such-org', '2026-01-01')).rejects.toThrow(/does not exist/);
    expect(await admin.lookupUsage(org.id, '2026-01-01')).toEqual({ lookups_paid: 0, lookups_cached: 0, lookups_failed: 0, uploads: 0 });
  });
});
