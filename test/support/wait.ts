import { availableParallelism, loadavg } from 'node:os';

// Tests that wait, wait on a condition, and their deadlines scale with how loaded the machine is:
// a bound fit for an idle 2-core machine is too short beside a second copy of the suite (a load of
// 14-22 made fixed bounds fail where nothing was wrong). The bound only stops a hung test; the
// condition is what a test waits for.

/**
 * How much slower than an idle machine this run is: TEST_TIME_SCALE when set, else the load
 * average over the cores (never below 1), read when asked, so a deadline set later sees later load.
 */
export function timeScale(): number {
  const fixed = Number(process.env.TEST_TIME_SCALE);
  if (Number.isFinite(fixed) && fixed > 0) return Math.max(1, fixed);
  return Math.max(1, loadavg()[0]! / availableParallelism());
}

/** `ms` scaled for the machine's load (a test's timeout, a wait's deadline). */
export const scaled = (ms: number): number => Math.round(ms * timeScale());

/**
 * Polls until `probe` answers (anything but null) and returns that; throws when `timeoutMs`,
 * scaled, has passed without one.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | null> | T | null, timeoutMs = 120_000, intervalMs = 200): Promise<T> {
  const until = Date.now() + scaled(timeoutMs);
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
