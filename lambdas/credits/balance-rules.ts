// Pure rules of the two credit pools (spec: Credit balance). No storage here.

export interface Pools {
  subscription: number;
  purchased: number;
}

/** Subscription pool first, then purchased; null when the total cannot cover the amount. */
export function splitDebit(pools: Pools, amount: number): Pools | null {
  if (!Number.isInteger(amount) || amount < 0) throw new Error(`invalid debit amount ${amount}`);
  if (pools.subscription + pools.purchased < amount) return null;
  const fromSubscription = Math.min(pools.subscription, amount);
  return { subscription: fromSubscription, purchased: amount - fromSubscription };
}

/**
 * A refund goes back to the pools it came from, but the subscription pool never rises above its
 * cap; the overflow lands in purchased so the customer loses nothing.
 */
export function splitRefund(current: Pools, charged: Pools, cap: number | null): Pools {
  if (cap === null) return charged;
  const room = Math.max(0, cap - current.subscription);
  const toSubscription = Math.min(room, charged.subscription);
  return { subscription: toSubscription, purchased: charged.purchased + (charged.subscription - toSubscription) };
}

/** The monthly allocation tops the subscription pool up, capped (unused credits roll over up to the cap). */
export function replenishedSubscription(current: number, allocation: number, cap: number | null): number {
  const next = current + allocation;
  return cap === null ? next : Math.max(current, Math.min(cap, next));
}


/** Start of the billing period that contains `at`, for a period anchored on `anchor` (monthly). */
export function periodsElapsed(anchorIso: string, atMs: number): number {
  const anchor = new Date(anchorIso);
  const at = new Date(atMs);
  let months = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
  if (at.getUTCDate() < anchor.getUTCDate() || (at.getUTCDate() === anchor.getUTCDate() && at.getTime() % 86_400_000 < anchor.getTime() % 86_400_000)) {
    months -= 1;
  }
  return Math.max(0, months);
}

export function addMonths(iso: string, months: number): string {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString();
}
