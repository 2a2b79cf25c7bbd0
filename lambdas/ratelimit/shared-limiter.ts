import { setTimeout as sleep } from 'node:timers/promises';
import { laneQueue } from './lane-queue';
import { nextLead, nextLeaseTokens, slotIntervalMs, slotsOf, usable, wantsLease, wholeRate } from './lease';
import { tableLeaseStore, type LeaseStore } from './lease-repository';

export interface Limiter {
  /**
   * Resolves when the caller may make one call; `lane`: whom the call is for (an upload), served
   * in turn with the others. A shared limiter resolves with a Permit the caller asks just before
   * its call (nothing in between): a slot that passed meanwhile is not used, and the caller takes again.
   */
  take(lane?: string): Promise<void | Permit>;
}

export interface Permit {
  /** Whether the slot may still be used now (true at most once); false: it passed, take again. */
  onTime(): boolean;
}

/** Takes from `limiter` until its permit, asked last, is on time: call right after, with nothing awaited in between. */
export async function takeOnTime(limiter: Limiter, lane?: string): Promise<void> {
  for (;;) {
    const permit = await limiter.take(lane);
    if (!permit || permit.onTime()) return;
  }
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
  /** Slots leased (used, wasted, given back, or still queued). */
  leased: number;
  /** Leased slots given back to the bucket unused (release()): others use them. */
  returned: number;
  /** Milliseconds callers spent in take(), summed (waiting on the rate). */
  waitMs: number;
  /** Milliseconds the leases' table round trips took, summed. */
  leaseMs: number;
}

export interface SharedLimiter extends Limiter {
  stats(): LimiterStats;
  /**
   * Gives the bucket back the unused slots of this process's last lease when no caller waits and
   * no lease was taken after it (one conditional write; nothing when there is nothing to give):
   * called when a chunk's turn ends, so the processes still waiting get them instead of waiting
   * behind slots no one here will use. Resolves with the number of slots given back.
   */
  release(): Promise<number>;
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
  return { tokens: 0, tableCalls: 0, wasted: 0, wokeLate: 0, leased: 0, returned: 0, waitMs: 0, leaseMs: 0 };
}

/** The stats of every shared limiter this process has made, summed. */
export function limiterTotals(): LimiterStats {
  return { ...processTotals };
}

/** The most a lease starts ahead of its request. */
const MAX_LEAD_MS = 500;
/** A process's first lease starts this far ahead of its request. */
export const FIRST_LEAD_MS = 100;

const realTime: LimiterTime = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

export interface SharedLimiterOptions {
  store?: LeaseStore;
  time?: LimiterTime;
  /** Tokens per lease, fixed (default: nextLeaseTokens, from the callers waiting and the table's round trip). */
  leaseTokens?: number;
}

/**
 * The account's rate shared by every process that calls the same provider (each concurrent chunk
 * of every upload is its own Lambda): at most `perSecond` calls in any 1-second window. Tokens
 * come in leases (lease.ts): one table write takes the next slice of slots, and this process
 * spends them at their times. Leases are granted in the order they are asked for, so every process
 * waiting on the rate gets its slice in turn; a process asks for one only while callers wait and
 * its slots are about to run out, sized to its callers (nextLeaseTokens, wantsLease), so it holds
 * few slots ahead (each one a newcomer waits behind, or lost if the process dies before its turn ends: release()). Inside the process
 * one dispatcher hands each slot, at its time, to the next caller in turn by lane (lane-queue.ts:
 * the uploads sharing this process get equal shares). A caller without a token waits for its slot
 * rather than failing. Real time, not the service clock: it paces calls to a real provider.
 */
export function sharedRateLimiter(bucketId: string, perSecond: number, options: SharedLimiterOptions = {}): SharedLimiter {
  const store = options.store ?? tableLeaseStore;
  const time = options.time ?? realTime;
  const rate = wholeRate(perSecond);
  const interval = slotIntervalMs(rate);
  const slots: number[] = [];
  const waiters = laneQueue<{ served: (slot: number) => void; failed: (error: unknown) => void }>();
  let lastTat = -Infinity;
  // The first slot of the last lease: release() gives back only that lease's unused slots (earlier
  // leases may have other holders' slots after them).
  let lastStart = Infinity;
  let releasing = false;
  // A lease's round trip (nextLead); the first is a cold process's first table call (its connection
  // and credentials too), so its slots start FIRST_LEAD_MS ahead rather than be stale on arrival.
  let lead = FIRST_LEAD_MS;
  let leasing = false;
  // When the dispatcher's timer is set for (the first slot's time), or null.
  let wakeAt: number | null = null;
  const stats: LimiterStats = emptyStats();
  const count = (add: Partial<LimiterStats>) => {
    for (const [k, v] of Object.entries(add) as [keyof LimiterStats, number][]) {
      stats[k] += v;
      processTotals[k] += v;
    }
  };

  // One lease at a time per process.
  const lease = async (): Promise<void> => {
    leasing = true;
    try {
      const tokens = options.leaseTokens ?? nextLeaseTokens(rate, waiters.size, lead);
      // Slots from one round trip ahead: a lease's first slots would otherwise be stale by the
      // time its answer arrives (a busy table, or a busy process).
      const asked = time.now();
      const notBefore = asked + lead;
      const { lease: granted, calls } = await store.lease(bucketId, tokens, interval, notBefore, lastTat >= notBefore);
      const took = time.now() - asked;
      lead = nextLead(lead, took, MAX_LEAD_MS);
      count({ tableCalls: calls, leased: tokens, leaseMs: took });
      lastTat = granted.tat;
      lastStart = granted.start;
      slots.push(...slotsOf(granted, tokens, interval));
      slots.sort((a, b) => a - b);
    } catch (error) {
      // The table failed: every caller waiting fails with it (the lookup's retry takes again).
      for (let w = waiters.shift(); w; w = waiters.shift()) w.failed(error);
    } finally {
      leasing = false;
    }
    dispatch();
  };

  // Hands the slots due now to the callers waiting, in turn by lane; sets the timer for the next
  // slot; asks for a lease when the callers waiting will need one.
  const dispatch = (): void => {
    const now = time.now();
    while (slots.length && !usable(slots[0]!, now) && slots[0]! <= now) {
      slots.shift();
      // A slot that passed while a caller waited for it: this process woke too late.
      count(waiters.size ? { wasted: 1, wokeLate: 1 } : { wasted: 1 });
    }
    while (waiters.size && slots.length && usable(slots[0]!, now)) waiters.shift()!.served(slots.shift()!);
    if (!leasing && !releasing && wantsLease(waiters.size, slots.at(-1), now, lead)) void lease();
    if (waiters.size && slots.length && (wakeAt === null || slots[0]! < wakeAt)) {
      const at = slots[0]!;
      wakeAt = at;
      void time.sleep(Math.max(0, at - now)).then(() => {
        if (wakeAt === at) wakeAt = null;
        dispatch();
      });
    }
  };

  const release = async (): Promise<number> => {
    if (leasing || releasing || waiters.size) return 0;
    const now = time.now();
    // The unused slots of the last lease, still ahead (a slot in its window may yet be handed out).
    const from = slots.findIndex((slot) => slot >= lastStart && slot > now);
    if (from < 0) return 0;
    const unused = slots.splice(from);
    const tat = lastTat;
    releasing = true;
    let given = false;
    try {
      given = await store.giveBack(bucketId, tat, unused[0]!);
    } catch {
      // Handled below as not given.
    } finally {
      releasing = false;
    }
    count({ tableCalls: 1 });
    if (given) {
      lastTat = unused[0]!;
      count({ returned: unused.length });
    } else {
      // A lease was taken after ours (or the table failed): the slots stay ours.
      slots.push(...unused);
      slots.sort((a, b) => a - b);
    }
    // Callers that came while the table answered.
    dispatch();
    return given ? unused.length : 0;
  };

  return {
    stats: () => ({ ...stats }),
    release,
    async take(lane = '') {
      const asked = time.now();
      for (;;) {
        const slot = await new Promise<number>((served, failed) => {
          waiters.push(lane, { served, failed });
          dispatch();
        });
        // Checked as the caller resumes, and again by the caller just before its call (the
        // permit): a busy event loop runs other work between the hand-out, this moment and the
        // call (the other callers served with it), and a slot is never used late.
        if (usable(slot, time.now())) {
          count({ tokens: 1, waitMs: time.now() - asked });
          let spent = false;
          return {
            onTime: () => {
              if (spent) return false;
              spent = true;
              if (usable(slot, time.now())) return true;
              count({ tokens: -1, wasted: 1, wokeLate: 1 });
              return false;
            },
          };
        }
        count({ wasted: 1, wokeLate: 1 });
      }
    },
  };
}

// One limiter per bucket and rate for the life of the container (its lead, the last lease's end); the
// slots a turn leased and did not use are given back when it ends (releaseContainerLimiters).
const perContainer = new Map<string, SharedLimiter>();

/** Gives back what every limiter of this container holds unused (release(), which never throws). */
export async function releaseContainerLimiters(): Promise<void> {
  await Promise.all([...perContainer.values()].map((limiter) => limiter.release()));
}

/** The container's shared limiter for `bucketId` at `perSecond` (made on first use). */
export function containerRateLimiter(bucketId: string, perSecond: number): SharedLimiter {
  const key = `${bucketId}\u0000${wholeRate(perSecond)}`;
  let limiter = perContainer.get(key);
  if (!limiter) perContainer.set(key, (limiter = sharedRateLimiter(bucketId, perSecond)));
  return limiter;
}
