import { setTimeout as sleep } from 'node:timers/promises';
import { LATE_MS, leaseSize, slotIntervalMs, slotsOf, usable, wholeRate } from './lease';
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
  /** Leased slots not used in time; they are lost, never used late. */
  wasted: number;
  /** Of those, slots whose caller woke too late (a busy process); the rest had no caller in time. */
  wokeLate: number;
  /** Slots leased (used, wasted, or still queued). */
  leased: number;
  /** Milliseconds callers spent in take(), summed (waiting on the rate). */
  waitMs: number;
  /** Milliseconds the leases' table round trips took, summed. */
  leaseMs: number;
}

export interface SharedLimiter extends Limiter {
  stats(): LimiterStats;
}

/** The time a limiter paces by: real time in the service, a test's clock in unit tests. */
export interface LimiterTime {
  now(): number;
  sleep(ms: number): Promise<void>;
}

// Every shared limiter of this process together (a Lambda container runs one invocation at a time;
// the local runtime and the bench run many): what the shared rate has cost here.
const processTotals: LimiterStats = emptyStats();

/** Stats with nothing counted. */
export function emptyStats(): LimiterStats {
  return { tokens: 0, tableCalls: 0, wasted: 0, wokeLate: 0, leased: 0, waitMs: 0, leaseMs: 0 };
}

/** The stats of every shared limiter this process has made, summed. */
export function limiterTotals(): LimiterStats {
  return { ...processTotals };
}

/** The most a lease starts ahead of its request. */
const MAX_LEAD_MS = 500;

const realTime: LimiterTime = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

export interface SharedLimiterOptions {
  store?: LeaseStore;
  time?: LimiterTime;
  /** Tokens per lease (default: leaseSize(perSecond)). */
  leaseTokens?: number;
}

/**
 * The account's rate shared by every process that calls the same provider (each concurrent chunk
 * of every upload is its own Lambda): at most `perSecond` calls in any 1-second window. Tokens
 * come in leases (lease.ts): one table write takes the next slice of slots, and this process
 * spends them at their times (at most the rate in any 1-second window). Leases are granted in the order they are asked for, so every chunk
 * waiting on the rate gets its slice in turn. A caller without a token waits for its slot rather
 * than failing. Real time, not the service clock: it paces calls to a real provider.
 */
export function sharedRateLimiter(bucketId: string, perSecond: number, options: SharedLimiterOptions = {}): SharedLimiter {
  const store = options.store ?? tableLeaseStore;
  const time = options.time ?? realTime;
  const rate = wholeRate(perSecond);
  const interval = slotIntervalMs(rate);
  const tokens = options.leaseTokens ?? leaseSize(rate);
  const slots: number[] = [];
  let lastTat = -Infinity;
  // A lease's round trip, smoothed.
  let lead = 10;
  let leasing: Promise<void> | null = null;
  const stats: LimiterStats = emptyStats();
  const count = (add: Partial<LimiterStats>) => {
    for (const [k, v] of Object.entries(add) as [keyof LimiterStats, number][]) {
      stats[k] += v;
      processTotals[k] += v;
    }
  };

  // One lease at a time per process; takers without a slot wait for it.
  const refill = (): Promise<void> =>
    (leasing ??= (async () => {
      try {
        // Slots from one round trip ahead: a lease's first slots would otherwise be stale by the
        // time its answer arrives (a busy table, or a busy process).
        const asked = time.now();
        const notBefore = asked + lead;
        const { lease, calls } = await store.lease(bucketId, tokens, interval, notBefore, lastTat >= notBefore);
        const took = time.now() - asked;
        lead = Math.min(MAX_LEAD_MS, 0.7 * lead + 0.3 * took);
        count({ tableCalls: calls, leased: tokens, leaseMs: took });
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
      const asked = time.now();
      for (;;) {
        let now = time.now();
        while (slots.length && now - slots[0]! >= LATE_MS) {
          slots.shift();
          count({ wasted: 1 });
        }
        const slot = slots.shift();
        if (slot === undefined) {
          await refill();
          continue;
        }
        // The next lease is asked for while the slots queued still last two round trips: no gap.
        if (slots.length <= tokens / 4 || (slots.at(-1) ?? 0) - now < 2 * lead) void refill().catch(() => undefined);
        if (slot > now) {
          await time.sleep(slot - now);
          now = time.now();
        }
        if (!usable(slot, now)) {
          count({ wasted: 1, wokeLate: 1 });
          continue;
        }
        count({ tokens: 1, waitMs: now - asked });
        return;
      }
    },
  };
}

// One limiter per bucket and rate for the life of the container: a warm Lambda's next invocation
// (the next turn of its chunk's loop) spends what the last one leased instead of leasing again.
const perContainer = new Map<string, SharedLimiter>();

/** The container's shared limiter for `bucketId` at `perSecond` (made on first use). */
export function containerRateLimiter(bucketId: string, perSecond: number): SharedLimiter {
  const key = `${bucketId}\u0000${wholeRate(perSecond)}`;
  let limiter = perContainer.get(key);
  if (!limiter) perContainer.set(key, (limiter = sharedRateLimiter(bucketId, perSecond)));
  return limiter;
}
