import stored from './nanp-shapes.json';

// Where a valid +1 number can be, by length and first three digits (nanp-pattern-shapes.ts
// buildValidShapes, stored by `npm run metadata:nanp`; test/unit/classification/nanp-shapes.test.ts
// checks the stored file against the metadata). Deriving it at run time took ~0.3 s.

// Kept here, not beside the builder (nanp-pattern-shapes.ts, which reads the 15 KB metadata), so
// that reading the stored shapes does not bring the metadata into a bundle.
export const MAX_NATIONAL = 17;

/** Per national number length, the first three digits a valid +1 number can have, as "from-to" ranges (a shorter number's digits padded with zeros). */
export interface ValidShapesJson {
  version: number;
  lengths: Record<string, string>;
}

let table: Uint8Array | null = null;

/** The stored shapes as one byte per (length, first three digits). */
export function loadValidShapes(json: ValidShapesJson): Uint8Array {
  const out = new Uint8Array((MAX_NATIONAL + 1) * 1000);
  for (const [length, ranges] of Object.entries(json.lengths)) {
    for (const range of ranges.split(',')) {
      const [from, to] = range.split('-').map(Number);
      out.fill(1, Number(length) * 1000 + from!, Number(length) * 1000 + (to ?? from!) + 1);
    }
  }
  return out;
}

/**
 * Whether a national number of `length` digits whose first three are `prefix` (as a number: 310
 * for "310…", 300 for "3" alone) can be valid to libphonenumber-js. Decoded on first use.
 */
export function nationalMayBeValid(length: number, prefix: number): boolean {
  table ??= loadValidShapes(stored as ValidShapesJson);
  return length > 0 && length <= MAX_NATIONAL && table[length * 1000 + prefix] === 1;
}
