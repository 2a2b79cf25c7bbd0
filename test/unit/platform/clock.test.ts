import { describe, expect, it } from 'vitest';
import { nowMs, setClock } from '../../../lambdas/platform/clock';

// test/support/restore-time.ts runs after every test: these two run in order, and the second
// would see the first's year-2000 clock if a pinned clock could outlive its test.
describe('the service clock between tests', () => {
  it('a test pins the clock and does not restore it', () => {
    setClock(() => Date.UTC(2000, 0, 1));
    expect(new Date(nowMs()).getUTCFullYear()).toBe(2000);
  });

  it('the next test reads real time', () => {
    expect(Math.abs(nowMs() - Date.now())).toBeLessThan(1_000);
  });
});
