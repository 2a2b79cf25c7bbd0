import { setTimeout as sleep } from 'node:timers/promises';
import { leaseSize, slotsOf, usable, wholeRate } from './lease';
import { tableLeaseStore, type LeaseStore } from './lease-repository';

export interface Limiter {
  /** Resolves when the caller may make one call. */
  take(): Promise<void>;
}

/** What a shared limiter has done in this process: the cost of the shared rate. */
export interface LimiterStats {
  /** Calls admitted. */
  tokens: number;
  /** Table calls its leases took. */
  tableCalls: number;
  /** Leased slots not used in time (a lagging process, a stop); they are lost, never used late. */
  wasted: number;
}

export interface SharedLimiter extends Limiter {
  stats(): LimiterStats;
}

/** The time a limiter paces by: real time in the service, a test's clock in unit tests. */
export interface LimiterTime {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realTime: LimiterTime = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

export interface SharedLimiterOptions {
  store?: LeaseStore;
  time?: LimiterTime;
  /** Tokens per lease (default: leaseSize(perSecond)). */
  leaseTokens?: number;
}

/**
 * The account's rate shared by every process that calls the same provider (each concurrent chunk
 * of every upload is its own Lambda): `perSecond` calls a second over any window, plus one. Tokens
 * come in leases (lease.ts): one table write takes the next slice of slots, and this process
 * spends them at their times. Leases are granted in the order they are asked for, so every chunk
 * waiting on the rate gets its slice in turn. A caller without a token waits for its slot rather
 * than failing. Real time, not the service clock: it paces calls to a real provider.
 */
export function sharedRateLimiter(bucketId: string, perSecond: number, options: SharedLimiterOptions = {}): SharedLimiter {
  const store = options.store ?? tableLeaseStore;
  const time = options.time ?? realTime;
  const rate = wholeRate(perSecond);
  const interval = 1000 / rate;
  const tokens = options.leaseTokens ?? leaseSize(rate);
  const slots: number[] = [];
  let lastTat = -Infinity;
  let leasing: Promise<void> | null = null;
  const stats: LimiterStats = { tokens: 0, tableCalls: 0, wasted: 0 };

  // One lease at a time per process; takers without a slot wait for it.
  const refill = (): Promise<void> =>
    (leasing ??= (async () => {
      try {
        const now = time.now();
        const { lease, calls } = await store.lease(bucketId, tokens, interval, now, lastTat >= now);
        stats.tableCalls += calls;
        lastTat = lease.tat;
        slots.push(...slotsOf(lease, tokens, interval));
        slots.sort((a, b) => a - b);
      } finally {
        leasing = null;
      }
    })());

  return {
    stats: () => ({ ...stats }),
    async take() {
      for (;;) {
        let now = time.now();
        while (slots.length && !usable(slots[0]!, now, interval)) {
          slots.shift();
          stats.wasted++;
        }
        const slot = slots.shift();
        if (slot === undefined) {
          await refill();
          continue;
        }
        // The next lease is asked for while this one still has a quarter left: no gap between them.
        if (slots.length <= tokens / 4) void refill().catch(() => undefined);
        if (slot > now) {
          await time.sleep(slot - now);
          now = time.now();
        }
        if (!usable(slot, now, interval)) {
          stats.wasted++;
          continue;
        }
        stats.tokens++;
        return;
      }
    },
  };
}
