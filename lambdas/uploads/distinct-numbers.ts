// The distinct numbers of an upload, counted as create reads its rows. A Set of 250,000 E.164
// strings was the largest single cost of planning a file (hashing each new string and rehashing
// the table as it grew, most of a second's CPU per 250,000 rows with the garbage it left): a
// number normalizeUsCa writes is '+1' and its national number's digits (ten, but for a few shapes
// libphonenumber-js reads with fewer), and the planner has that national number as an integer
// (normalize-core.ts's usCaNationalWith), kept in an open-addressing table of doubles, which
// allocates nothing per number.

const EMPTY = 0; // no national number is 0: its first digit is 2-9

/** The planner's national numbers (plan.ts's RowCells: positive integers, ten digits but for what libphonenumber-js reads with fewer). */
export class DistinctNumbers {
  private slots = new Float64Array(1 << 12);
  private mask = this.slots.length - 1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(national: number): void {
    if (!(national > 0 && Number.isSafeInteger(national))) throw new RangeError(`${national} is not a national number`);
    if (this.insert(national) && ++this.count * 2 > this.slots.length) this.grow();
  }

  /** True when `national` was not there. */
  private insert(national: number): boolean {
    const slots = this.slots;
    // The low 32 bits and the high bits mixed: consecutive numbers land far apart.
    let at = Math.imul((national >>> 0) ^ Math.floor(national / 4294967296), 0x9e3779b1) & this.mask;
    for (;;) {
      const held = slots[at]!;
      if (held === EMPTY) {
        slots[at] = national;
        return true;
      }
      if (held === national) return false;
      at = (at + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    this.mask = this.slots.length - 1;
    for (const national of old) if (national !== EMPTY) this.insert(national);
  }
}
