import { afterEach, describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import * as admin from '../../../lambdas/admin/admin';
import { forgetKeyUses, LAST_USED_RESOLUTION_MS } from '../../../lambdas/auth/key-usage';
import { forgetPrincipals } from '../../../lambdas/auth/principal-cache';

// A key's last use is recorded when it authenticates, at most once a minute per key, so the hot
// path stays one read; the developer panel lists it.

const service = useTestService();
const BALANCE = '/api/v1/credits/balance';

async function lastUsed(orgId: string, keyId: string): Promise<string | null | undefined> {
  const key = (await admin.listKeys(orgId)).find((k) => k.id === keyId);
  return (key as { last_used_at?: string | null } | undefined)?.last_used_at;
}

async function freshKey() {
  const org = await admin.createOrganization({ name: 'Usage', subscriptionActive: true, credits: 10 });
  const user = await admin.createUser(`usage-${org.id}@example.com`);
  await admin.addMember(org.id, user.id, 'owner');
  return { org, minted: await admin.mintKey(org.id, user.id) };
}

afterEach(() => service.clock.set(null));

describe("API keys' last use", () => {
  it('is empty until the key authenticates, then the time of that request', () => service.clock.run(async () => {
    const { org, minted } = await freshKey();
    expect(await lastUsed(org.id, minted.record.id)).toBeUndefined();
    const t0 = Date.now();
    service.clock.set(() => t0);
    expect((await service.request('GET', BALANCE, { key: minted.key })).status).toBe(200);
    expect(await lastUsed(org.id, minted.record.id)).toBe(new Date(t0).toISOString());
  }));

  it('is written at most once a minute per key, by one process or by several', () => service.clock.run(async () => {
    const { org, minted } = await freshKey();
    const t0 = Date.now();
    service.clock.set(() => t0);
    await service.request('GET', BALANCE, { key: minted.key });
    // 30 s later, past the principal cache: this process skips the write.
    service.clock.set(() => t0 + 30_000);
    forgetPrincipals();
    expect((await service.request('GET', BALANCE, { key: minted.key })).status).toBe(200);
    expect(await lastUsed(org.id, minted.record.id)).toBe(new Date(t0).toISOString());
    // Another process (nothing remembered here) is held back by the stored value's condition.
    forgetKeyUses();
    forgetPrincipals();
    expect((await service.request('GET', BALANCE, { key: minted.key })).status).toBe(200);
    expect(await lastUsed(org.id, minted.record.id)).toBe(new Date(t0).toISOString());
    // Past the resolution: recorded again.
    const t2 = t0 + 30_000 + LAST_USED_RESOLUTION_MS;
    service.clock.set(() => t2);
    forgetPrincipals();
    expect((await service.request('GET', BALANCE, { key: minted.key })).status).toBe(200);
    expect(await lastUsed(org.id, minted.record.id)).toBe(new Date(t2).toISOString());
    // A request served from the principal cache records too, once the minute has passed.
    service.clock.set(() => t2 + 50_000);
    forgetPrincipals();
    await service.request('GET', BALANCE, { key: minted.key });
    expect(await lastUsed(org.id, minted.record.id)).toBe(new Date(t2).toISOString());
    service.clock.set(() => t2 + LAST_USED_RESOLUTION_MS + 1_000);
    expect((await service.request('GET', BALANCE, { key: minted.key })).status).toBe(200);
    expect(await lastUsed(org.id, minted.record.id)).toBe(new Date(t2 + LAST_USED_RESOLUTION_MS + 1_000).toISOString());
  }));

  it('is not recorded for a revoked key, nor for a key that is not one', async () => {
    const { org, minted } = await freshKey();
    await admin.revokeKey(minted.record.id);
    forgetKeyUses();
    expect((await service.request('GET', BALANCE, { key: minted.key })).status).toBe(401);
    expect(await lastUsed(org.id, minted.record.id)).toBeUndefined();
    // An unknown key's hash never becomes an item.
    expect((await service.request('GET', BALANCE, { key: 'svc_live_' + 'q'.repeat(32) })).status).toBe(401);
  });
});
