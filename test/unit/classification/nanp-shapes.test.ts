import { describe, expect, it } from 'vitest';
import stored from '../../../lambdas/classification/nanp-shapes.json';
import { buildValidShapes } from '../../../lambdas/classification/nanp-pattern-shapes';
import { loadValidShapes, nationalMayBeValid } from '../../../lambdas/classification/nanp-shapes';
import { analyzeWithLibphonenumber } from '../../../lambdas/classification/normalize';

// scan-nanp.ts answers an input as invalid, without libphonenumber-js, when no national number
// libphonenumber-js can make of its digits has a length and first three digits where a valid +1
// number can be. The stored shapes must be what the stored metadata gives (run
// `npm run metadata:nanp` after an upgrade of libphonenumber-js).

describe('NANP valid shapes', () => {
  it('are what the metadata gives', () => {
    expect(stored).toEqual(buildValidShapes());
  });

  it('hold every valid number libphonenumber-js finds among numbers of each length and first three digits', () => {
    // One number per (length, first three digits), the other digits random: each valid one must be
    // in a stored shape (the stored shapes over-approximate; the differential tests hold the rest).
    let state = 7;
    const r = (n: number) => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state % n;
    };
    const missed: string[] = [];
    for (let length = 1; length <= 12; length++) {
      for (let prefix = 0; prefix < 1000; prefix++) {
        let national = String(prefix).padStart(3, '0').slice(0, length);
        while (national.length < length) national += String(r(10));
        // Valid as this national number (not as what stripping a national prefix 1 leaves of it).
        const a = analyzeWithLibphonenumber(`+1${national}`);
        if (a.valid && a.e164 === `+1${national}` && !nationalMayBeValid(length, length < 3 ? Number(national.padEnd(3, '0')) : prefix)) missed.push(national);
      }
    }
    expect(missed).toEqual([]);
  });

  it('decodes ranges, and refuses lengths out of range', () => {
    const table = loadValidShapes({ version: 0, lengths: { '7': '310', '10': '200-202,999' } });
    expect([7310, 7311, 10199, 10200, 10202, 10203, 10999].map((i) => table[i])).toEqual([1, 0, 0, 1, 1, 0, 1]);
    expect(nationalMayBeValid(0, 0)).toBe(false);
    expect(nationalMayBeValid(18, 310)).toBe(false);
    expect(nationalMayBeValid(-1, 310)).toBe(false);
  });
});
