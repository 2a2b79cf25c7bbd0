import { describe, expect, it } from 'vitest';
import { nowMs, runWithClock, systemClock } from '../../../lambdas/platform/clock';
import { manualClock } from '../../support/manual-clock';

const YEAR_2000 = Date.UTC(2000, 0, 1);
const year = () => new Date(nowMs()).getUTCFullYear();

// The clock is carried by the work a root starts, not held by the module: nothing a test sets can
// be seen by another test, or by anything outside the scope it was set in.
describe('the service clock', () => {
  it('is the system clock outside any scope', () => {
    expect(Math.abs(nowMs() - Date.now())).toBeLessThan(1_000);
  });

  it('a scope reads its own clock, in its awaits and timers, and the code around it does not', async () => {
    const clock = manualClock();
    clock.set(() => YEAR_2000);
    const seen = await runWithClock(clock, async () => {
      const first = year();
      await new Promise((r) => setTimeout(r, 5));
      const inTimer = await new Promise<number>((r) => setTimeout(() => r(year()), 5));
      return [first, year(), inTimer];
    });
    expect(seen).toEqual([2000, 2000, 2000]);
    expect(year()).toBeGreaterThan(2020);
  });

  it('two scopes at once each read their own clock', async () => {
    const a = manualClock();
    a.set(() => YEAR_2000);
    const read = (clock: typeof a | typeof systemClock) =>
      runWithClock(clock, async () => {
        await new Promise((r) => setTimeout(r, 5));
        return year();
      });
    const [inA, inSystem] = await Promise.all([read(a), read(systemClock)]);
    expect(inA).toBe(2000);
    expect(inSystem).toBeGreaterThan(2020);
  });

  it('a test that pinned a clock and never released it leaves the next test real time', () => {
    manualClock().set(() => YEAR_2000);
    expect(year()).toBeGreaterThan(2020);
  });
});
