import { describe, expect, it } from 'vitest';
import { DistinctNumbers } from '../../../lambdas/uploads/distinct-numbers';

// create counts an upload's distinct numbers with DistinctNumbers (plan.ts): it must count what a
// Set of the E.164 strings counts, for any numbers, repeats and order, asked at any time.

describe('DistinctNumbers', () => {
  it('counts as a Set of the strings does, through many growths, with repeats far apart and near', () => {
    const distinct = new DistinctNumbers();
    const set = new Set<string>();
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 300_000; i++) {
      // A narrow range makes repeats; consecutive numbers and multiples of 2^32 test the hash's spread.
      const national = i % 3 === 0 ? 2_000_000_000 + (next() % 150_000) : i % 3 === 1 ? 9_999_999_999 - (i % 70_000) : 2_000_000_000 + (i % 2) * 4_294_967_296 + (i % 40_000);
      distinct.add(national);
      set.add(`+1${national}`);
      if (i % 50_000 === 0) expect(distinct.size, `after ${i + 1}`).toBe(set.size);
    }
    expect(distinct.size).toBe(set.size);
  });

  it('counts the same at every size where its list or its buckets change shape (a piece fills, a bucket count doubles)', () => {
    let seed = 99;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const total of [0, 1, 255, 256, 257, 1024, 1025, 2049, 65_536, 65_537, 131_073]) {
      const distinct = new DistinctNumbers();
      const set = new Set<number>();
      for (let i = 0; i < total; i++) {
        // About half of them repeats of earlier ones.
        const national = 2_000_000_000 + (next() % Math.max(1, Math.floor(total / 2)));
        distinct.add(national);
        set.add(national);
      }
      expect(distinct.size, `${total} numbers`).toBe(set.size);
    }
  });

  it('counts national numbers of any length and refuses what is none (the planner gives it nothing else)', () => {
    const distinct = new DistinctNumbers();
    for (const bad of [0, -1, 2_125_550_100.5, Number.NaN, 2 ** 53]) expect(() => distinct.add(bad), String(bad)).toThrow(RangeError);
    // What libphonenumber-js reads as a valid US number of seven digits (+13101234) counts apart from ten-digit ones.
    for (const national of [2_125_550_100, 2_125_550_100, 3_101_234, 3_101_234, 999_999_999_999_999]) distinct.add(national);
    expect(distinct.size).toBe(3);
  });
});
