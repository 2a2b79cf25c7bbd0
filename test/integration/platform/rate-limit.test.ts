import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { consumeRateLimit } from '../../../lambdas/ratelimit/rate-limiter';
import { toHttpError } from '../../../lambdas/platform/http/error-response';
import { setClock } from '../../../lambdas/platform/clock';

useTestService();

async function burst(n: number, keyId: string, orgId: string) {
  return Promise.allSettled(Array.from({ length: n }, () => consumeRateLimit(keyId, orgId)));
}

describe('token buckets in the table', () => {
  it('a concurrent burst of 700 on one key lets exactly 600 through, then 429 per_key', async () => {
    const t0 = Date.now();
    setClock(() => t0); // no refill during the burst: the count is exact
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
      setClock(() => t0 + 250);
      expect((await burst(5, 'key-burst', 'org-burst')).filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    } finally {
      setClock(null);
    }
  });

  it('the organization bucket sums all keys: 1,500 per minute', async () => {
    const t0 = Date.now();
    setClock(() => t0);
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, (_, k) => burst(500, `org-key-${k}`, 'org-shared')).flat(),
      );
      const all = (await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value : [])))).flat();
      expect(all.filter((r) => r.status === 'fulfilled')).toHaveLength(1500);
      const refused = all.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused).toHaveLength(500);
      expect(toHttpError(refused[0]!.reason)!.detail).toMatchObject({ scope: 'per_org', limit: 1500 });
    } finally {
      setClock(null);
    }
    // 2,000 conditional writes: on a loaded 2-core machine this outlasts the default 60 s, and a
    // timed-out test would leave its pinned clock to the next one.
  }, 240_000);

  it('successful calls carry the X-RateLimit headers', async () => {
    const headers = await consumeRateLimit('key-headers', 'org-headers');
    expect(headers['X-RateLimit-Limit']).toBe('600');
    expect(headers['X-RateLimit-Remaining']).toBe('599');
    expect(Number(headers['X-RateLimit-Reset'])).toBeGreaterThan(Date.now() / 1000 - 1);
  });
});
