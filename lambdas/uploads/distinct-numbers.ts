// The distinct numbers of an upload, counted as create reads its rows. A Set of 250,000 E.164
// strings was the largest single cost of planning a file (hashing each new string and rehashing
// the table as it grew, most of a second's CPU per 250,000 rows with the garbage it left): a
// number normalizeUsCa writes is '+1' and ten digits, so it is kept as that ten-digit number in
// an open-addressing table of doubles, which allocates nothing per number.

const EMPTY = 0; // no national number is 0: its first digit is 2-9

/** '+1' + 10 ASCII digits (normalizeUsCa's E.164) → the ten-digit number; -1 for any other text. */
function nationalOf(e164: string): number {
  if (e164.length !== 12 || e164.charCodeAt(0) !== 43 || e164.charCodeAt(1) !== 49) return -1;
  let national = 0;
  for (let i = 2; i < 12; i++) {
    const d = e164.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    national = national * 10 + d;
  }
  return national === EMPTY ? -1 : national;
}

export class DistinctNumbers {
  private slots = new Float64Array(1 << 12);
  private mask = this.slots.length - 1;
  private count = 0;
  /** Any text that is not a +1 E.164 (never written by normalizeUsCa; kept so the count stays exact). */
  private other: Set<string> | null = null;

  get size(): number {
    return this.count + (this.other?.size ?? 0);
  }

  add(e164: string): void {
    const national = nationalOf(e164);
    if (national < 0) {
      (this.other ??= new Set()).add(e164);
      return;
    }
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
