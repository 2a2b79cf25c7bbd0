import { afterEach, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestService } from '../../support/runtime';
import * as admin from '../../../lambdas/admin/admin';
import { db, tableName } from '../../../lambdas/platform/table';
import { hashApiKey } from '../../../lambdas/auth/api-key';
import { forgetPrincipals, PRINCIPAL_CACHE_MS } from '../../../lambdas/auth/principal-cache';
import { authenticate } from '../../../lambdas/auth/authenticate';
import { forgetKeyUses, LAST_USED_RESOLUTION_MS } from '../../../lambdas/auth/key-usage';
import { newCustomer } from '../../support/customer';

// Issue 15, item 3: a container reuses what it read for a key for PRINCIPAL_CACHE_MS. A revoke
// made by another container (a direct write to the table here) is honoured within that bound; one
// made through this process at once; an expiry to the millisecond; and a warm balance read makes
// at most 2 DynamoDB calls (counted by a middleware on the SDK client).

const service = useTestService();
const BALANCE = '/api/v1/credits/balance';

afterEach(() => service.clock.set(null));

async function freshKey(expiresAt?: string) {
  return (await newCustomer({ name: 'Cache', subscriptionActive: true, credits: 10, expiresAt })).minted[0]!;
}

/** A revoke written by another process: this one's cache is not told. */
async function revokeElsewhere(key: string, at: string) {
  await db().send(new UpdateCommand({ TableName: tableName(), Key: { pk: `APIKEY#${hashApiKey(key)}`, sk: 'META' }, UpdateExpression: 'SET revoked_at = :at', ExpressionAttributeValues: { ':at': at } }));
}

describe('the key → organization cache', () => {
  it('honours a revoke by another container within the bound, and not before it has read the key again', () => service.clock.run(async () => {
    const { key } = await freshKey();
    const start = Date.now();
    service.clock.set(() => start);
    expect((await service.request('GET', BALANCE, { key })).status).toBe(200);
    await revokeElsewhere(key, new Date(start).toISOString());
    service.clock.set(() => start + PRINCIPAL_CACHE_MS - 1);
    expect((await service.request('GET', BALANCE, { key })).status).toBe(200);
    service.clock.set(() => start + PRINCIPAL_CACHE_MS);
    const res = await service.request('GET', BALANCE, { key });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'Invalid or revoked API key' });
  }));

  it('honours a revoke made through this process at once', async () => {
    const { key, record } = await freshKey();
    expect((await service.request('GET', BALANCE, { key })).status).toBe(200);
    await admin.revokeKey(record.id);
    expect((await service.request('GET', BALANCE, { key })).status).toBe(401);
  });

  it('honours a subscription turned off through this process at once', async () => {
    const { key, record } = await freshKey();
    expect((await service.request('GET', '/api/v1/uploads', { key })).status).toBe(200);
    await admin.setSubscription(record.organization_id, false);
    expect((await service.request('POST', '/api/v1/uploads', { key, body: { phone_numbers: ['+12125550100'] } })).status).toBe(403);
  });

  it('a cached key stops at its expiry to the millisecond', () => service.clock.run(async () => {
    const start = Date.now();
    const { key } = await freshKey(new Date(start + 5_000).toISOString());
    service.clock.set(() => start);
    expect((await service.request('GET', BALANCE, { key })).status).toBe(200);
    service.clock.set(() => start + 4_999);
    expect((await service.request('GET', BALANCE, { key })).status).toBe(200);
    service.clock.set(() => start + 5_000);
    expect((await service.request('GET', BALANCE, { key })).status).toBe(401);
  }));

  it('a warm balance read makes at most 2 DynamoDB calls', async () => {
    const { key } = await freshKey();
    expect((await service.request('GET', BALANCE, { key })).status).toBe(200);
    let calls = 0;
    db().middlewareStack.add((next) => (args) => {
      calls++;
      return next(args);
    }, { step: 'initialize', name: 'principalCacheTestCounter' });
    try {
      for (let i = 0; i < 5; i++) expect((await service.request('GET', BALANCE, { key })).status).toBe(200);
    } finally {
      db().middlewareStack.remove('principalCacheTestCounter');
    }
    expect(calls / 5).toBeLessThanOrEqual(2);
  });

  it('a cold cache costs at most 2 DynamoDB calls: first sight of a key, an expired entry, and either with the use due', () => service.clock.run(async () => {
    const { key, record } = await freshKey();
    const start = Date.now();
    service.clock.set(() => start);
    const counted = async (at: number): Promise<number> => {
      service.clock.set(() => at);
      let calls = 0;
      db().middlewareStack.add((next) => (args) => {
        calls++;
        return next(args);
      }, { step: 'initialize', name: 'authColdCounter' });
      try {
        expect((await authenticate(`Bearer ${key}`)).apiKeyId).toBe(record.id);
      } finally {
        db().middlewareStack.remove('authColdCounter');
      }
      return calls;
    };
    // A container that never saw the key (its use due): the key read that records the use, then the user and organization together.
    forgetPrincipals();
    forgetKeyUses();
    expect(await counted(start)).toBe(2);
    // The entry expired, the use recorded within the minute: one BatchGetItem.
    expect(await counted(start + PRINCIPAL_CACHE_MS)).toBe(1);
    // Expired again, with the use due: the BatchGetItem and the use.
    expect(await counted(start + PRINCIPAL_CACHE_MS + LAST_USED_RESOLUTION_MS)).toBe(2);
    // Warm: nothing.
    expect(await counted(start + PRINCIPAL_CACHE_MS + LAST_USED_RESOLUTION_MS + 1)).toBe(0);
    // Another process recorded the use within the minute before this one first saw the key: the
    // refused write, then the key, then its user and organization (the one case of 3).
    forgetPrincipals();
    forgetKeyUses();
    expect(await counted(start + PRINCIPAL_CACHE_MS + LAST_USED_RESOLUTION_MS + 2)).toBe(3);
  }));

  it('an expired entry of a key revoked elsewhere is refused after the one combined read', () => service.clock.run(async () => {
    const { key } = await freshKey();
    const start = Date.now();
    service.clock.set(() => start);
    await authenticate(`Bearer ${key}`);
    await revokeElsewhere(key, new Date(start).toISOString());
    service.clock.set(() => start + PRINCIPAL_CACHE_MS);
    await expect(authenticate(`Bearer ${key}`)).rejects.toThrow('Invalid or revoked API key');
  }));
});
