// A lease of a shared per-second rate: the bucket is one number, `tat`, the end of the last slot
// anyone has taken. A lease of `tokens` takes the next `tokens` slots, one every `intervalMs`,
// starting at `tat` (or now, when the bucket has been idle): one table write hands out a slice of
// the rate, and the holder spends it locally. Slots never overlap, and a call is made at its slot,
// never before and less than LATE_MS after (a busy process wakes late; a slot it missed is lost,
// never used later). Slots are (1000 + LATE_MS) / rate apart, so the calls whose slots lie in any
// 1-second window, even each LATE_MS late, number at most the rate: the account's rate is never
// exceeded over any 1-second window, at the cost of 5% of it.

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
 * Tokens per lease for a rate: a fifth of a second's worth, and never fewer than 25, so the table
 * is written at most once per 25 calls (≤ 0.04 writes per call; 0.025 at 200/s, which leaves room
 * for the retries of a contended bucket and for slots left unused). Capped at one second's worth:
 * a holder that stops (its chunk done, its budget spent) wastes at most its lease.
 */
export function leaseSize(perSecond: number): number {
  const rate = wholeRate(perSecond);
  return Math.min(rate, Math.max(25, Math.ceil(rate / 5)));
}

/** The fewest tokens a lease takes once the rate allows it: ≤ 0.04 table writes per call. */
export const MIN_LEASE = 25;

/**
 * Tokens for the next lease of a holder with `waiting` callers and a table round trip of
 * `roundTripMs`: what its callers need, so a holder near its end (few callers left, or a cold
 * process with its first caller) does not take slots it will leave unused (lost, as every other
 * holder waits behind them); at least MIN_LEASE (the table's cost per call), and at most
 * leaseSize's fifth of a second, or two round trips of the rate when the table is slow, so one
 * lease at a time keeps the rate busy. Never more than a second of the rate.
 */
export function nextLeaseTokens(perSecond: number, waiting: number, roundTripMs: number): number {
  const rate = wholeRate(perSecond);
  const cover = Number.isFinite(roundTripMs) && roundTripMs > 0 ? Math.ceil((rate * 2 * roundTripMs) / 1000) : 0;
  const most = Math.min(rate, Math.max(leaseSize(rate), cover));
  const need = Number.isFinite(waiting) ? Math.floor(waiting) : 0;
  return Math.max(Math.min(most, MIN_LEASE), Math.min(most, need));
}

/**
 * Whether a holder asks for its next lease: when callers wait and its slots run out within two
 * round trips (no gap for a holder alone; a holder among others then waits its turn behind their
 * leases). Never while its slots last longer: every slot held ahead is a slot a newcomer (a small
 * upload's chunk) waits behind, and one left unused when the holder stops.
 */
export function wantsLease(waiting: number, lastSlot: number | undefined, now: number, roundTripMs: number): boolean {
  if (waiting <= 0) return false;
  return lastSlot === undefined || lastSlot - now < 2 * roundTripMs;
}

/**
 * The lead a holder's next lease starts with (its slots start this far after the request): the
 * table's round trip, rising at once to a slower one (else the next lease's first slots are stale
 * when it arrives, and lost) and falling back smoothly; at most `maxMs`.
 */
export function nextLead(lead: number, tookMs: number, maxMs: number): number {
  if (!Number.isFinite(tookMs) || tookMs < 0) return lead;
  return Math.min(maxMs, tookMs > lead ? tookMs : 0.7 * lead + 0.3 * tookMs);
}

/** How late a call may still use its slot. */
export const LATE_MS = 50;

/** Milliseconds between slots for a rate: a second and LATE_MS over the rate. */
export function slotIntervalMs(perSecond: number): number {
  return (1000 + LATE_MS) / wholeRate(perSecond);
}

/** Whether a slot at `slot` may still be used at `now` (never before its time, less than LATE_MS after). */
export function usable(slot: number, now: number): boolean {
  return now >= slot && now - slot < LATE_MS;
}

/** A rate as whole calls a second, at least one (a missing or broken setting paces at 1/s, never unbounded). */
export function wholeRate(perSecond: number): number {
  return Number.isFinite(perSecond) ? Math.max(1, Math.floor(perSecond)) : 1;
}
