import { describe, expect, it } from 'vitest';
import { DistinctNumbers } from '../../../lambdas/uploads/distinct-numbers';

// create counts an upload's distinct numbers with DistinctNumbers (plan.ts): it must count what a
// Set of the E.164 strings counts, for any numbers, repeats and order.

describe('DistinctNumbers', () => {
  it('counts as a Set of the strings does, through many growths, with repeats far apart and near', () => {
    const distinct = new DistinctNumbers();
    const set = new Set<string>();
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 300_000; i++) {
      // A narrow range makes repeats; consecutive numbers and multiples of 2^32 test the hash's spread.
      const national = i % 3 === 0 ? 2_000_000_000 + (next() % 150_000) : i % 3 === 1 ? 9_999_999_999 - (i % 70_000) : 2_000_000_000 + (i % 2) * 4_294_967_296 + (i % 40_000);
      const e164 = `+1${national}`;
      distinct.add(e164);
      set.add(e164);
      if (i % 50_000 === 0) expect(distinct.size, `after ${i + 1}`).toBe(set.size);
    }
    expect(distinct.size).toBe(set.size);
  });

  it('counts text that is not a +1 E.164 apart, exactly', () => {
    const distinct = new DistinctNumbers();
    for (const text of ['+12125550100', '+12125550100', '+442071838750', '+442071838750', '', '+1212555010x', '+10000000000', '12125550100']) distinct.add(text);
    // +12125550100 once; the others each once (+10000000000 is no national number: kept as text).
    expect(distinct.size).toBe(6);
  });
});
