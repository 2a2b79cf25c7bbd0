import { afterEach, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestService } from '../../support/runtime';
import * as admin from '../../../lambdas/admin/admin';
import { db, tableName } from '../../../lambdas/platform/table';
import { hashApiKey } from '../../../lambdas/auth/api-key';
import { PRINCIPAL_CACHE_MS } from '../../../lambdas/auth/principal-cache';
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
});
