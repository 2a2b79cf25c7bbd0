import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import * as admin from '../../../lambdas/admin/admin';
import { newCustomer } from '../../support/customer';

const service = useTestService();
const BALANCE = '/api/v1/credits/balance';

async function expect401(res: Response, detail: string) {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer');
  expect(await res.json()).toEqual({ detail });
}

const orgWithOwner = () => newCustomer({ name: 'Other', subscriptionActive: true, credits: 10, keys: 0 });

describe('authentication (spec, Authentication 8)', () => {
  it('accepts the demo key and returns the balance', async () => {
    const res = await service.request('GET', BALANCE);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ total: 1_010_000, subscription: 10_000, purchased: 1_000_000 });
  });

  it('missing or empty header: API key required', async () => {
    await expect401(await service.request('GET', BALANCE, { key: null }), 'API key required');
    await expect401(await service.request('GET', BALANCE, { key: null, headers: { authorization: '' } }), 'API key required');
    await expect401(await service.request('GET', BALANCE, { key: null, headers: { authorization: 'Bearer ' } }), 'API key required');
  });

  it('value without the key prefix: Invalid API key format', async () => {
    await expect401(await service.request('GET', BALANCE, { key: 'sk_test_abc' }), 'Invalid API key format');
    await expect401(await service.request('GET', BALANCE, { key: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 'Invalid API key format');
    // Case-sensitive: an upper-cased prefix is not the prefix.
    await expect401(await service.request('GET', BALANCE, { key: service.apiKey.toUpperCase() }), 'Invalid API key format');
  });

  it('Bearer is the only scheme: a bare key or another scheme is a malformed value; the scheme name is case-insensitive', async () => {
    await expect401(await service.request('GET', BALANCE, { key: null, headers: { authorization: service.apiKey } }), 'Invalid API key format');
    await expect401(await service.request('GET', BALANCE, { key: null, headers: { authorization: `Token ${service.apiKey}` } }), 'Invalid API key format');
    await expect401(await service.request('GET', BALANCE, { key: null, headers: { authorization: `Bearer${service.apiKey}` } }), 'Invalid API key format');
    await expect401(await service.request('GET', BALANCE, { key: null, headers: { authorization: 'bearer' } }), 'API key required');
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect((await service.request('GET', BALANCE, { key: null, headers: { authorization: `${scheme} ${service.apiKey}` } })).status).toBe(200);
    }
  });

  it('unknown, revoked or expired key: Invalid or revoked API key', () => service.clock.run(async () => {
    await expect401(await service.request('GET', BALANCE, { key: 'svc_live_' + 'x'.repeat(32) }), 'Invalid or revoked API key');
    // One character changed (case) in the random part is another key.
    const flipped = service.apiKey.slice(0, -1) + (service.apiKey.endsWith('a') ? 'A' : 'a');
    await expect401(await service.request('GET', BALANCE, { key: flipped }), 'Invalid or revoked API key');

    const { org, user } = await orgWithOwner();
    const revoked = await admin.mintKey(org.id, user.id);
    expect((await service.request('GET', BALANCE, { key: revoked.key })).status).toBe(200);
    await admin.revokeKey(revoked.record.id);
    await expect401(await service.request('GET', BALANCE, { key: revoked.key }), 'Invalid or revoked API key');

    const expiring = await admin.mintKey(org.id, user.id, new Date(Date.now() + 60_000).toISOString());
    expect((await service.request('GET', BALANCE, { key: expiring.key })).status).toBe(200);
    service.clock.set(() => Date.now() + 120_000);
    try {
      await expect401(await service.request('GET', BALANCE, { key: expiring.key }), 'Invalid or revoked API key');
    } finally {
      service.clock.set(null);
    }
  }));

  it('a member leaving revokes every key they minted for that organization', async () => {
    const { org, user } = await orgWithOwner();
    const a = await admin.mintKey(org.id, user.id);
    const b = await admin.mintKey(org.id, user.id);
    const other = await admin.createUser(`second-${org.id}@example.com`);
    await admin.addMember(org.id, other.id, 'owner');
    const kept = await admin.mintKey(org.id, other.id);
    expect(await admin.removeMember(org.id, user.id)).toEqual({ revokedKeys: 2 });
    await expect401(await service.request('GET', BALANCE, { key: a.key }), 'Invalid or revoked API key');
    await expect401(await service.request('GET', BALANCE, { key: b.key }), 'Invalid or revoked API key');
    expect((await service.request('GET', BALANCE, { key: kept.key })).status).toBe(200);
  });

  it('deleted creator and deleted organization have their own details', async () => {
    const first = await orgWithOwner();
    const key = await admin.mintKey(first.org.id, first.user.id);
    await admin.deleteUser(first.user.id);
    await expect401(await service.request('GET', BALANCE, { key: key.key }), 'API key creator no longer exists');

    const second = await orgWithOwner();
    const key2 = await admin.mintKey(second.org.id, second.user.id);
    await admin.deleteOrganization(second.org.id);
    await expect401(await service.request('GET', BALANCE, { key: key2.key }), 'Organization for this API key no longer exists');
  });

  it('keys are bound to one organization and only owners mint them', async () => {
    const { org, user } = await orgWithOwner();
    const key = await admin.mintKey(org.id, user.id);
    const res = await service.request('GET', BALANCE, { key: key.key });
    expect(await res.json()).toEqual({ total: 10, subscription: 0, purchased: 10 });
    const member = await admin.createUser(`member-${org.id}@example.com`);
    await admin.addMember(org.id, member.id, 'member');
    await expect(admin.mintKey(org.id, member.id)).rejects.toThrow(/only an owner/);
    const listed = await admin.listKeys(org.id);
    expect(listed.map((k) => k.display_prefix)).toContain(key.key.slice(0, 12));
    expect(JSON.stringify(listed)).not.toContain(key.key);
  });
});

describe('error envelope', () => {
  it('unknown route is 404 and wrong method 405, both in the envelope', async () => {
    const missing = await service.request('GET', '/api/v1/nothing');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'No route for GET /api/v1/nothing' });
    const wrong = await service.request('DELETE', BALANCE);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect(((await wrong.json()) as { detail: string }).detail).toMatch(/not allowed/);
  });

  it('serves the OpenAPI document without authentication', async () => {
    const res = await service.request('GET', '/openapi.json', { key: null });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths[BALANCE]).toBeDefined();
  });
});
