import { describe, expect, it } from 'vitest';
import { LATE_MS, leaseFrom, leaseSize, MIN_LEASE, nextLead, nextLeaseTokens, slotIntervalMs, slotsOf, usable, wantsLease } from '../../../lambdas/ratelimit/lease';
import type { LeaseStore } from '../../../lambdas/ratelimit/lease-repository';
import { FIRST_LEAD_MS, sharedRateLimiter, takeOnTime, type LimiterTime, type Permit } from '../../../lambdas/ratelimit/shared-limiter';
import { manualClock } from '../../support/manual-clock';

// The shared limiter on a test's clock: sleeps are timers this test fires in order, time moves only
// when it does (with an optional lateness per wake-up, as a busy process wakes late), and the table
// is an in-memory bucket with the same rule (leaseFrom) that counts its calls.

function virtualWorld(lateMs: () => number = () => 0) {
  const clock = manualClock();
  let t = 1_700_000_000_000;
  clock.set(() => t);
  const timers: { at: number; wake: () => void }[] = [];
  const time: LimiterTime = { now: () => clock.nowMs(), sleep: (ms) => new Promise<void>((wake) => timers.push({ at: t + Math.max(0, ms), wake })) };
  let tat: number | undefined;
  let calls = 0;
  const store: LeaseStore = {
    async lease(_bucket, tokens, intervalMs, now) {
      await time.sleep(3); // a table round trip
      calls++;
      const lease = leaseFrom(tat, now, tokens, intervalMs);
      tat = lease.tat;
      return { lease, calls: 1 };
    },
    async giveBack(_bucket, from, to) {
      await time.sleep(3);
      calls++;
      if (tat !== from) return false;
      tat = to;
      return true;
    },
  };
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    time,
    store,
    calls: () => calls,
    tat: () => tat,
    now: () => t,
    /** Moves time on without firing timers (a busy process between two steps). */
    advance: (ms: number) => void (t += ms),
    /** Fires timers in time order until none is left. */
    async run(): Promise<void> {
      for (;;) {
        await settle();
        if (!timers.length) return;
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift()!;
        t = Math.max(t, next.at + lateMs());
        next.wake();
      }
    },
  };
}

/** The most calls in any window of `windowMs` (each window starting at a call). */
function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[j]! < sorted[i]! - windowMs + 1e-9) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

/** `instances` limiters (Lambdas) with `workers` callers each take `total` tokens between them. */
async function drive(world: ReturnType<typeof virtualWorld>, rate: number, instances: number, workers: number, total: number) {
  const limiters = Array.from({ length: instances }, () => sharedRateLimiter('provider#test', rate, { store: world.store, time: world.time }));
  const uses: number[] = [];
  const perInstance = limiters.map(() => 0);
  let left = total;
  const loops = limiters.flatMap((limiter, i) =>
    Array.from({ length: workers }, async () => {
      while (left > 0) {
        left--;
        await limiter.take();
        uses.push(world.now());
        perInstance[i]!++;
      }
    }),
  );
  const done = Promise.all(loops);
  await world.run();
  await done;
  return { uses, perInstance, limiters };
}

describe('lease rules', () => {
  it('a lease starts where the last one ended, or now when the bucket is idle or new', () => {
    expect(leaseFrom(undefined, 1000, 25, 5)).toEqual({ start: 1000, tat: 1125 });
    expect(leaseFrom(900, 1000, 25, 5)).toEqual({ start: 1000, tat: 1125 });
    expect(leaseFrom(1200, 1000, 25, 5)).toEqual({ start: 1200, tat: 1325 });
    expect(slotsOf({ start: 1200, tat: 1215 }, 3, 5)).toEqual([1200, 1205, 1210]);
  });

  it('a lease is a fifth of a second of the rate, at least 25 tokens, at most one second of it', () => {
    expect(leaseSize(100)).toBe(25);
    expect(leaseSize(200)).toBe(40);
    expect(leaseSize(1000)).toBe(200);
    expect(leaseSize(10)).toBe(10);
    expect(leaseSize(0.5)).toBe(1);
    expect(leaseSize(Number.NaN)).toBe(1);
    expect(leaseSize(-5)).toBe(1);
    expect(leaseSize(Infinity)).toBe(1);
  });

  it('a lease is sized to the callers waiting: at least MIN_LEASE, at most a fifth of a second of the rate, or two round trips of it on a slow table', () => {
    // A cold process with its first caller, or a holder near its end: MIN_LEASE, not a full lease.
    expect(nextLeaseTokens(200, 1, 10)).toBe(MIN_LEASE);
    expect(nextLeaseTokens(200, 0, 10)).toBe(MIN_LEASE);
    // A chunk's 32 workers waiting: 32; more callers: a fifth of a second (40 at 200/s).
    expect(nextLeaseTokens(200, 32, 10)).toBe(32);
    expect(nextLeaseTokens(200, 640, 10)).toBe(leaseSize(200));
    // A table answering in 174 ms: two round trips of the rate (70), so one lease at a time keeps up.
    expect(nextLeaseTokens(200, 640, 174)).toBe(70);
    // Never more than a second of the rate; a slow rate leases what it allows.
    expect(nextLeaseTokens(200, 10_000, 5_000)).toBe(200);
    expect(nextLeaseTokens(10, 1, 10)).toBe(10);
    expect(nextLeaseTokens(10, 500, 10)).toBe(10);
    // Hostile inputs: still a whole number within [1, rate].
    expect(nextLeaseTokens(200, Number.NaN, Number.NaN)).toBe(MIN_LEASE);
    expect(nextLeaseTokens(200, Infinity, -1)).toBe(MIN_LEASE);
    expect(nextLeaseTokens(200, 33.7, Infinity)).toBe(33);
    expect(nextLeaseTokens(Number.NaN, 50, 10)).toBe(1);
  });

  it('a holder asks for a lease only while callers wait and its slots run out within two round trips', () => {
    expect(wantsLease(3, undefined, 1000, 10)).toBe(true);
    expect(wantsLease(3, 1015, 1000, 10)).toBe(true);
    expect(wantsLease(3, 1020, 1000, 10)).toBe(false);
    expect(wantsLease(3, 1300, 1000, 174)).toBe(true);
    expect(wantsLease(0, undefined, 1000, 10)).toBe(false);
    expect(wantsLease(-1, 900, 1000, 10)).toBe(false);
  });

  it('a lease starts one round trip ahead: the lead rises at once to a slower trip and falls back smoothly, at most the cap', () => {
    expect(nextLead(100, 900, 500)).toBe(500);
    expect(nextLead(100, 300, 500)).toBe(300);
    expect(nextLead(300, 100, 500)).toBeCloseTo(240);
    expect(nextLead(100, Number.NaN, 500)).toBe(100);
    expect(nextLead(100, -5, 500)).toBe(100);
  });

  it('a slot is usable from its time until LATE_MS later, never before', () => {
    expect(usable(100, 99.9)).toBe(false);
    expect(usable(100, 100)).toBe(true);
    expect(usable(100, 100 + LATE_MS - 0.1)).toBe(true);
    expect(usable(100, 100 + LATE_MS)).toBe(false);
  });

  it('slots are a second and LATE_MS over the rate apart: a 1-second window holds at most the rate even when each is used late', () => {
    expect(slotIntervalMs(200)).toBe(1050 / 200);
    expect(slotIntervalMs(Number.NaN)).toBe(1050);
    // Slots whose use can fall in [a, a + 1000): those in (a - LATE_MS, a + 1000), an interval of 1050 ms.
    expect(Math.ceil((1000 + LATE_MS) / slotIntervalMs(200))).toBe(200);
  });
});

describe('shared limiter: leases of the account rate', () => {
  it('four limiters at 200/s stay within the rate over every 1-second window, at ≤ 0.05 table calls per call', async () => {
    const world = virtualWorld();
    const { uses, limiters } = await drive(world, 200, 4, 10, 3000);
    expect(uses).toHaveLength(3000);
    expect(maxInWindow(uses, 1000)).toBeLessThanOrEqual(200);
    expect(world.calls() / 3000).toBeLessThanOrEqual(0.05);
    expect(limiters.reduce((n, l) => n + l.stats().tableCalls, 0)).toBe(world.calls());
    // The rate is used, not only respected: 3,000 calls at 200/s less 5% take about 15.75 s, and
    // every full second in between holds the rate less 5% (190 calls; 186 allows a lease boundary).
    const span = Math.max(...uses) - Math.min(...uses);
    expect(span).toBeGreaterThanOrEqual(15_700);
    const first = Math.min(...uses);
    for (let s = 1; s < 14; s++) expect(uses.filter((u) => u >= first + s * 1000 && u < first + (s + 1) * 1000).length).toBeGreaterThanOrEqual(186);
    // The tail: the last calls wait for the other limiters' leases queued ahead of theirs (at most one each).
    expect(span).toBeLessThan(15_750 + 3 * leaseSize(200) * slotIntervalMs(200));
  });

  it('a process that wakes late never uses a slot late: the bound holds, late slots are lost instead', async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const world = virtualWorld(() => random() * 80); // wake-ups up to 80 ms late (LATE_MS is 50)
    const { uses, limiters } = await drive(world, 200, 3, 8, 2000);
    expect(uses).toHaveLength(2000);
    expect(maxInWindow(uses, 1000)).toBeLessThanOrEqual(200);
    expect(limiters.reduce((n, l) => n + l.stats().wasted, 0)).toBeGreaterThan(0);
  });

  it('limiters waiting on the rate are served in turn: none gets much more than another', async () => {
    const world = virtualWorld();
    const { perInstance } = await drive(world, 50, 5, 10, 1000);
    const lease = leaseSize(50);
    for (const n of perInstance) expect(Math.abs(n - 200)).toBeLessThanOrEqual(2 * lease);
  });

  it('uploads sharing one process are served in turn: one with 3 callers gets as many slots as one with 30 while both wait', async () => {
    const world = virtualWorld();
    const limiter = sharedRateLimiter('provider#test', 100, { store: world.store, time: world.time });
    const served: string[] = [];
    let left = 400;
    const caller = (lane: string) => async () => {
      while (left > 0) {
        left--;
        await limiter.take(lane);
        served.push(lane);
      }
    };
    const done = Promise.all([...Array.from({ length: 30 }, caller('large')), ...Array.from({ length: 3 }, caller('small'))]);
    await world.run();
    await done;
    expect(served).toHaveLength(400);
    // While both wait (every caller loops until the 400 are taken), the turns alternate.
    const first = served.slice(0, 300);
    const small = first.filter((l) => l === 'small').length;
    expect(Math.abs(small - 150)).toBeLessThanOrEqual(2);
  });

  it('a cold process leases for its callers, not a full lease: one caller making 30 calls leaves fewer than a lease unused', async () => {
    const world = virtualWorld();
    const limiter = sharedRateLimiter('provider#test', 200, { store: world.store, time: world.time });
    const done = (async () => {
      for (let i = 0; i < 30; i++) await limiter.take('one');
    })();
    await world.run();
    await done;
    const stats = limiter.stats();
    expect(stats.tokens).toBe(30);
    expect(stats.leased).toBeLessThanOrEqual(2 * MIN_LEASE);
    expect(stats.leased - stats.tokens).toBeLessThan(leaseSize(200));
  });

  it('a table that fails its lease fails the callers waiting, and the next take leases again', async () => {
    const world = virtualWorld();
    let fail = true;
    const store: LeaseStore = {
      async lease(bucket, tokens, intervalMs, now, busy) {
        if (fail) {
          fail = false;
          throw new Error('table unavailable');
        }
        return world.store.lease(bucket, tokens, intervalMs, now, busy);
      },
      giveBack: world.store.giveBack,
    };
    const limiter = sharedRateLimiter('provider#test', 50, { store, time: world.time });
    const failed = limiter.take('a');
    await expect(failed).rejects.toThrow('table unavailable');
    const next = takeOnTime(limiter, 'a');
    await world.run();
    await expect(next).resolves.toBeUndefined();
    expect(limiter.stats().tokens).toBe(1);
  });

  it('a holder whose turn ends gives back the unused slots of its last lease, and the next holder starts at the first of them', async () => {
    const world = virtualWorld();
    const a = sharedRateLimiter('provider#test', 100, { store: world.store, time: world.time, leaseTokens: 25 });
    const first = takeOnTime(a, 'a');
    await world.run();
    await first;
    const leasedTo = world.tat()!;
    const given = a.release();
    await world.run();
    // 24 of the 25 slots unused; the bucket's end moves back to the first of them.
    await expect(given).resolves.toBe(24);
    expect(world.tat()).toBe(leasedTo - 24 * slotIntervalMs(100));
    expect(a.stats()).toMatchObject({ tokens: 1, returned: 24, leased: 25 });
    const b = sharedRateLimiter('provider#test', 100, { store: world.store, time: world.time, leaseTokens: 25 });
    const asked = world.now();
    const next = takeOnTime(b, 'b');
    await world.run();
    await next;
    // b's first slot is its first lead after it asked, not behind a's 24 unused slots (which end later).
    expect(leasedTo - asked).toBeGreaterThan(FIRST_LEAD_MS + slotIntervalMs(100));
    expect(world.now() - asked).toBeLessThanOrEqual(FIRST_LEAD_MS);
    // Given back once: a holds nothing more to give.
    const again = a.release();
    await world.run();
    await expect(again).resolves.toBe(0);
  });

  it('slots are not given back when another lease was taken after them, nor while callers wait', async () => {
    const world = virtualWorld();
    const a = sharedRateLimiter('provider#test', 100, { store: world.store, time: world.time, leaseTokens: 25 });
    const b = sharedRateLimiter('provider#test', 100, { store: world.store, time: world.time, leaseTokens: 25 });
    const first = takeOnTime(a, 'a');
    await world.run();
    await first;
    const bTakes = takeOnTime(b, 'b');
    const waiting = a.take('a');
    // a caller waits on a: nothing is given back.
    await expect(a.release()).resolves.toBe(0);
    await world.run();
    await bTakes;
    await waiting;
    const endAfterB = world.tat();
    const given = a.release();
    await world.run();
    // b leased after a: moving the bucket back would hand b's slots out twice.
    await expect(given).resolves.toBe(0);
    expect(world.tat()).toBe(endAfterB);
    // a still uses its slots afterwards.
    const later = takeOnTime(a, 'a');
    await world.run();
    await expect(later).resolves.toBeUndefined();
    expect(a.stats().returned).toBe(0);
  });

  it('a permit is on time only in its slot and only once: a caller resuming late takes again (takeOnTime)', async () => {
    const world = virtualWorld();
    const limiter = sharedRateLimiter('provider#test', 100, { store: world.store, time: world.time });
    const first = limiter.take('a');
    await world.run();
    const late = (await first) as Permit;
    world.advance(LATE_MS);
    expect(late.onTime()).toBe(false);
    expect(limiter.stats()).toMatchObject({ tokens: 0, wokeLate: 1 });
    const second = limiter.take('a');
    await world.run();
    const permit = (await second) as Permit;
    expect(permit.onTime()).toBe(true);
    expect(permit.onTime()).toBe(false);
    expect(limiter.stats().tokens).toBe(1);
    // takeOnTime: the permit asked last is on time, whatever came before.
    const third = takeOnTime(limiter, 'a');
    await world.run();
    await expect(third).resolves.toBeUndefined();
    expect(limiter.stats().tokens).toBe(2);
  });

  it('a single caller is paced at the rate from its first call', async () => {
    const world = virtualWorld();
    const { uses } = await drive(world, 10, 1, 1, 25);
    expect(maxInWindow(uses, 1000)).toBeLessThanOrEqual(10);
    // Each call at its slot (105 ms apart): 25 calls span 24 slots, less the first one's lateness.
    expect(uses.at(-1)! - uses[0]!).toBeGreaterThan(24 * 105 - LATE_MS);
  });
});
