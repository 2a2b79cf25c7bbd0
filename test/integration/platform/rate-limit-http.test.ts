import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';

const service = useTestService();

describe('rate limits over HTTP', () => {
  it('a burst of 700 write calls with one key gets exactly 600 through, then 429s of the spec shape; reads bypass', () => service.clock.run(async () => {
    const t0 = Date.now() + 3_600_000; // a clock ahead of anything earlier tests used, pinned: no refill mid-burst
    service.clock.set(() => t0);
    try {
      // Malformed bodies: the bucket is spent before validation, so nothing is created or charged.
      const responses = await Promise.all(Array.from({ length: 700 }, () => service.request('POST', '/api/v1/contacts', { body: {} })));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 400)).toHaveLength(600);
      expect(statuses.filter((s) => s === 429)).toHaveLength(100);
      const limited = responses.find((r) => r.status === 429)!;
      expect(await limited.json()).toEqual({ detail: { error: 'rate_limit_exceeded', scope: 'per_key', limit: 600, retry_after_seconds: 1 } });
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(limited.headers.get('x-ratelimit-limit')).toBe('600');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(t0 / 1000));
      const allowed = responses.find((r) => r.status === 400)!;
      expect(allowed.headers.get('x-ratelimit-limit')).toBe('600');

      expect((await service.request('GET', '/api/v1/contacts')).status).toBe(200);
      expect((await service.request('GET', '/api/v1/credits/balance')).status).toBe(200);
    } finally {
      service.clock.set(null);
    }
    // 700 requests through the whole stack: on a loaded 2-core machine this outlasts the default 60 s.
  }), 240_000);
});
