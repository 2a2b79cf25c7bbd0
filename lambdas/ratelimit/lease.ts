// A lease of a shared per-second rate: the bucket is one number, `tat`, the end of the last slot
// anyone has taken. A lease of `tokens` takes the next `tokens` slots, one every `intervalMs`,
// starting at `tat` (or now, when the bucket has been idle): one table write hands out a slice of
// the rate, and the holder spends it locally. Slots never overlap, so calls made at their slots
// (never before, and less than one interval after) stay within the rate over any window: at most
// rate × window + 1 calls.

export interface Lease {
  /** The first slot's time (epoch ms); slot i is at start + i × intervalMs. */
  start: number;
  /** The bucket's tat after the lease: the end of its last slot. */
  tat: number;
}

/** The lease a bucket at `tat` (undefined: never used) grants at `now`. */
export function leaseFrom(tat: number | undefined, now: number, tokens: number, intervalMs: number): Lease {
  const start = tat === undefined || tat < now ? now : tat;
  return { start, tat: start + tokens * intervalMs };
}

/** The slot times of a lease. */
export function slotsOf(lease: Lease, tokens: number, intervalMs: number): number[] {
  return Array.from({ length: tokens }, (_, i) => lease.start + i * intervalMs);
}

/**
 * Tokens per lease for a rate: a tenth of a second's worth, and never fewer than 25, so the table
 * is written at most once per 25 calls (≤ 0.04 writes per call). Capped at one second's worth: a
 * holder that stops (its chunk done, its budget spent) wastes at most its lease.
 */
export function leaseSize(perSecond: number): number {
  const rate = wholeRate(perSecond);
  return Math.min(rate, Math.max(25, Math.ceil(rate / 10)));
}

/** Whether a slot at `slot` may still be used at `now` without exceeding the rate (less than one interval late). */
export function usable(slot: number, now: number, intervalMs: number): boolean {
  return now - slot < intervalMs;
}

/** A rate as whole calls a second, at least one (a missing or broken setting paces at 1/s, never unbounded). */
export function wholeRate(perSecond: number): number {
  return Number.isFinite(perSecond) ? Math.max(1, Math.floor(perSecond)) : 1;
}
