import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { consumeRateLimit } from '../../../lambdas/ratelimit/rate-limiter';
import { toHttpError } from '../../../lambdas/platform/http/error-response';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../lambdas/platform/table';

const service = useTestService();

async function burst(n: number, keyId: string, orgId: string) {
  return Promise.allSettled(Array.from({ length: n }, () => consumeRateLimit(keyId, orgId)));
}

describe('token buckets in the table', () => {
  it('a concurrent burst of 700 on one key lets exactly 600 through, then 429 per_key', () => service.clock.run(async () => {
    const t0 = Date.now();
    service.clock.set(() => t0); // no refill during the burst: the count is exact
    try {
      const results = await burst(700, 'key-burst', 'org-burst');
      const ok = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(ok).toHaveLength(600);
      expect(refused).toHaveLength(100);
      const error = toHttpError(refused[0]!.reason)!;
      expect(error.status).toBe(429);
      expect(error.detail).toEqual({ error: 'rate_limit_exceeded', scope: 'per_key', limit: 600, retry_after_seconds: 1 });
      expect(error.headers).toMatchObject({ 'Retry-After': '1', 'X-RateLimit-Limit': '600', 'X-RateLimit-Remaining': '0' });
      // Refill is continuous: 600/min is one token per 100 ms.
      service.clock.set(() => t0 + 250);
      expect((await burst(5, 'key-burst', 'org-burst')).filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    } finally {
      service.clock.set(null);
    }
  }));

  it('the organization bucket sums all keys: 1,500 per minute', () => service.clock.run(async () => {
    const t0 = Date.now();
    service.clock.set(() => t0);
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, (_, k) => burst(500, `org-key-${k}`, 'org-shared')).flat(),
      );
      const all = (await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value : [])))).flat();
      expect(all.filter((r) => r.status === 'fulfilled')).toHaveLength(1500);
      const refused = all.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused).toHaveLength(500);
      // Every refusal is the spec's 429 (a store error would show here by its message, not as a null).
      expect(new Set(refused.map((r) => toHttpError(r.reason)?.status ?? String(r.reason)))).toEqual(new Set([429]));
      expect(toHttpError(refused[0]!.reason)!.detail).toMatchObject({ scope: 'per_org', limit: 1500 });
    } finally {
      service.clock.set(null);
    }
    // 2,000 conditional writes: on a loaded 2-core machine this outlasts the default 60 s, and a
    // timed-out test would leave its pinned clock to the next one.
  }), 240_000);

  it('successful calls carry the X-RateLimit headers', async () => {
    const headers = await consumeRateLimit('key-headers', 'org-headers');
    expect(headers['X-RateLimit-Limit']).toBe('600');
    expect(headers['X-RateLimit-Remaining']).toBe('599');
    expect(Number(headers['X-RateLimit-Reset'])).toBeGreaterThan(Date.now() / 1000 - 1);
  });

  it('both buckets of a request are one item and one write; a refusal by the organization takes nothing from the key', () => service.clock.run(async () => {
    // Only calls about this organization's buckets: the runtime's own jobs share the client, and
    // one of them calling during the loop made 11 of 10 on a loaded machine.
    let calls = 0;
    db().middlewareStack.add((next) => (args) => {
      if (JSON.stringify(args.input).includes('org-one-write')) calls++;
      return next(args);
    }, { step: 'initialize', name: 'rateLimitCallCounter' });
    const t0 = Date.now() + 7_200_000;
    service.clock.set(() => t0);
    try {
      await consumeRateLimit('key-one-write', 'org-one-write'); // this container learns the buckets
      const before = calls;
      for (let i = 1; i <= 10; i++) await consumeRateLimit('key-one-write', 'org-one-write');
      expect(calls - before).toBe(10);
      const item = (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'RATE#org#org-one-write', sk: 'BUCKET' }, ConsistentRead: true }))).Item!;
      expect(Object.keys(item).filter((name) => name.startsWith('key_'))).toEqual(['key_key-one-write']);

      // The organization's bucket empty, the key's untouched: the refusal is per_org and the key keeps every token.
      await db().send(
        new UpdateCommand({ TableName: tableName(), Key: { pk: 'RATE#org#org-one-write', sk: 'BUCKET' }, UpdateExpression: 'SET tat = :full', ExpressionAttributeValues: { ':full': t0 + 60_000 } }),
      );
      await expect(consumeRateLimit('key-spare', 'org-one-write')).rejects.toMatchObject({ detail: { scope: 'per_org' } });
      const after = (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'RATE#org#org-one-write', sk: 'BUCKET' }, ConsistentRead: true }))).Item!;
      expect(after['key_key-spare']).toBeUndefined();
    } finally {
      service.clock.set(null);
      db().middlewareStack.remove('rateLimitCallCounter');
    }
  }));

  it('key attributes that went idle are removed, a key in use keeps its state', () => service.clock.run(async () => {
    const t0 = Date.now() + 10_800_000;
    service.clock.set(() => t0);
    try {
      for (let k = 0; k < 20; k++) await consumeRateLimit(`idle-${k}`, 'org-prune');
      for (let i = 0; i < 300; i++) await consumeRateLimit('busy', 'org-prune'); // busy's tat: 30 s ahead
      service.clock.set(() => t0 + 10_000); // the idle keys' buckets are full again, busy's is not
      const headers = await consumeRateLimit('late', 'org-prune');
      const item = (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'RATE#org#org-prune', sk: 'BUCKET' }, ConsistentRead: true }))).Item!;
      expect(Object.keys(item).filter((name) => name.startsWith('key_')).sort()).toEqual(['key_busy', 'key_late']);
      expect(headers['X-RateLimit-Remaining']).toBe('599');
      // busy's bucket still holds what it spent: 300 taken, 100 refilled in 10 s.
      expect((await consumeRateLimit('busy', 'org-prune'))['X-RateLimit-Remaining']).toBe('399');
    } finally {
      service.clock.set(null);
    }
  }), 120_000);
});
