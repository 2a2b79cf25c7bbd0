// The distinct numbers of an upload, counted as create reads its rows. A Set of 250,000 E.164
// strings was the largest single cost of planning a file (hashing each new string and rehashing
// the table as it grew, most of a second's CPU per 250,000 rows with the garbage it left): a
// number normalizeUsCa writes is '+1' and its national number's digits (ten, but for a few shapes
// libphonenumber-js reads with fewer), and the planner has that national number as an integer
// (normalize-core.ts's usCaNationalWith), kept in typed arrays, which allocate nothing per number.
//
// One open-addressing table of them all (4 MiB at 250,000 numbers) was read at a random place per
// number, and rebuilt at each doubling: that one read held 41% of the time a profile gave to
// reading a row's cells (inferred to be cache misses: the time sat on the load). So the numbers are only written down as they come, in order, and counted once, when the
// count is asked for: spread by their hash into buckets of about a thousand, and each bucket
// counted in a table small enough to stay in the core's first-level cache. Equal numbers have
// equal hashes, so they meet in one bucket.

const EMPTY = 0; // no national number is 0: its first digit is 2-9
/** The most numbers a piece of the list holds: the list grows by pieces, never copied whole. */
const PIECE = 1 << 16;
/** About this many numbers per bucket: its table (twice as many slots, 16 KiB) fits a first-level cache. */
const PER_BUCKET = 1024;
const MAX_BUCKET_BITS = 16;

/** The low 32 bits and the high bits mixed: consecutive numbers land far apart. */
const hashOf = (national: number): number => Math.imul((national >>> 0) ^ Math.floor(national / 4294967296), 0x9e3779b1);

/** The planner's national numbers (plan.ts's RowCells: positive integers, ten digits but for what libphonenumber-js reads with fewer). */
export class DistinctNumbers {
  private readonly full: Float64Array[] = [];
  private piece = new Float64Array(256);
  private at = 0;
  private added = 0;
  private counted = 0;
  private countedAt = 0;

  /** How many distinct numbers were added (counted when asked, after any add since the last time). */
  get size(): number {
    if (this.countedAt !== this.added) {
      this.counted = countDistinct([...this.full, this.piece.subarray(0, this.at)], this.added);
      this.countedAt = this.added;
    }
    return this.counted;
  }

  add(national: number): void {
    if (!(national > 0 && Number.isSafeInteger(national))) throw new RangeError(`${national} is not a national number`);
    if (this.at === this.piece.length) {
      // Small pieces first, so that a small upload holds little.
      if (this.piece.length < PIECE) {
        const bigger = new Float64Array(this.piece.length * 4);
        bigger.set(this.piece);
        this.piece = bigger;
      } else {
        this.full.push(this.piece);
        this.piece = new Float64Array(PIECE);
        this.at = 0;
      }
    }
    this.piece[this.at++] = national;
    this.added++;
  }
}

/** The distinct values of `pieces` (`total` values in all), in three passes over them. */
function countDistinct(pieces: Float64Array[], total: number): number {
  const bits = Math.min(MAX_BUCKET_BITS, Math.max(0, Math.ceil(Math.log2(total / PER_BUCKET))));
  const buckets = 1 << bits;
  // The hash's top bits choose the bucket, its low bits the slot (x >>> 32 is x >>> 0: one bucket is bucket 0 by the mask).
  const shift = 32 - bits;
  const only = buckets - 1;
  const ends = new Int32Array(buckets);
  for (const piece of pieces) for (let i = 0; i < piece.length; i++) ends[(hashOf(piece[i]!) >>> shift) & only]!++;
  let largest = 0;
  for (let b = 0, at = 0; b < buckets; b++) {
    largest = Math.max(largest, ends[b]!);
    at += ends[b]!;
    ends[b] = at;
  }
  // Each bucket filled from its end down to its start.
  const spread = new Float64Array(total);
  const fill = ends.slice();
  for (const piece of pieces) {
    for (let i = 0; i < piece.length; i++) {
      const national = piece[i]!;
      spread[--fill[(hashOf(national) >>> shift) & only]!] = national;
    }
  }
  let size = 8;
  while (size < largest * 2) size *= 2;
  const slots = new Float64Array(size);
  let distinct = 0;
  for (let b = 0, start = 0; b < buckets; start = ends[b++]!) {
    const end = ends[b]!;
    let mask = 7;
    while (mask + 1 < (end - start) * 2) mask = mask * 2 + 1;
    slots.fill(EMPTY, 0, mask + 1);
    for (let i = start; i < end; i++) {
      const national = spread[i]!;
      for (let at = hashOf(national) & mask; ; at = (at + 1) & mask) {
        const held = slots[at]!;
        if (held === EMPTY) {
          slots[at] = national;
          distinct++;
          break;
        }
        if (held === national) break;
      }
    }
  }
  return distinct;
}
