import { describe, expect, it } from 'vitest';
import { allows, intervalMs, remainingAfter, resetAtUnix, retryAfterMs, toleranceMs } from '../../../lambdas/ratelimit/gcra';

const shape = { limit: 600 };

describe('GCRA token bucket', () => {
  it('a fresh bucket allows a burst of exactly `limit` requests at one instant', () => {
    const now = 1_000_000;
    let tat: number | undefined;
    let allowed = 0;
    for (let i = 0; i < 700; i++) {
      if (!allows(shape, tat, now)) continue;
      tat = Math.max(tat ?? now, now) + intervalMs(shape);
      allowed++;
    }
    expect(allowed).toBe(600);
  });

  it('refills continuously at limit/60 tokens per second', () => {
    const now = 0;
    const emptyTat = now + 600 * intervalMs(shape);
    expect(allows(shape, emptyTat, now)).toBe(false);
    expect(allows(shape, emptyTat, now + 100)).toBe(true); // 600/min = one token per 100 ms
    expect(retryAfterMs(shape, emptyTat, now)).toBe(100);
  });

  it('reports remaining tokens and reset time', () => {
    const now = 5_000;
    expect(remainingAfter(shape, now + intervalMs(shape), now)).toBe(599);
    expect(remainingAfter(shape, now + 600 * intervalMs(shape), now)).toBe(0);
    expect(toleranceMs(shape)).toBe(599 * 100);
    expect(resetAtUnix(now + 60_000, now)).toBe(65);
  });
});
