import { setTimeout as sleep } from 'node:timers/promises';
import { readTat, takeToken } from './bucket-repository';
import { toleranceMs, type BucketShape } from './gcra';

export interface Limiter {
  /** Resolves when the caller may make one call. */
  take(): Promise<void>;
}

/**
 * One token bucket in the table shared by every process that calls the same provider (each
 * concurrent chunk of every upload is its own Lambda), so together they stay under the account's
 * rate: `perSecond` calls a second, with a burst of one second's worth. A caller without a token
 * waits until the bucket has one rather than failing. Real time, not the service clock: it paces
 * calls to a real provider.
 */
export function sharedRateLimiter(bucketId: string, perSecond: number): Limiter {
  const shape: BucketShape = { limit: Math.max(1, Math.floor(perSecond)), windowMs: 1000 };
  return {
    async take() {
      for (;;) {
        const now = Date.now();
        if ((await takeToken(bucketId, shape, now)) !== null) return;
        const tat = (await readTat(bucketId)) ?? now;
        // Until the bucket admits one more, plus a little spread so waiters do not all wake at once.
        await sleep(Math.max(1, tat - toleranceMs(shape) - now) + Math.random() * 10);
      }
    },
  };
}
