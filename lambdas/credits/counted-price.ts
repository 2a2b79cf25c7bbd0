import { splitDebit, type Pools } from './balance-rules';

// A price by place in a counted sequence whose places alternate between two prices (the max-tier
// batch: 2, 1, 2, 1 …), taken in one write on the balance item without knowing the place first.
// The balance item keeps, beside the count and its parity, the price of the next place; a write
// subtracts that attribute from one pool and flips it (`next = odd + even - next`), so however many
// creates race, each write that covers its price holds, and each gets its own place at its own price
// (no guess of the parity to lose). Pure rules here; the write is balance-repository.ts's.

/** Odd places (1, 3, 5 …) cost `odd`, even places `even`. */
export interface AlternatingPrice {
  odd: number;
  even: number;
}

export type PoolName = 'subscription' | 'purchased';

export const priceAt = (price: AlternatingPrice, place: number): number => (place % 2 === 1 ? price.odd : price.even);

/** The next place's price when `parity` places (mod 2) are taken. */
export const nextPrice = (price: AlternatingPrice, parity: 0 | 1): number => (parity === 0 ? price.odd : price.even);

/** What the balance item says about a counter: the parity of its count, and the stored next price (null when absent). */
export interface CounterState {
  pools: Pools;
  parity: 0 | 1;
  next: number | null;
}

/**
 * How to take the next place:
 * - `take`: one write that reads the price from the item (the stored next price agrees with the
 *   parity) and takes it from one pool (the subscription pool covers it, or is empty and the
 *   purchased pool covers it); no guess can be wrong, so concurrent takes do not refuse each other;
 * - `guarded`: the price split over both pools (or no stored next price yet, or one that disagrees
 *   with the parity, e.g. written by an earlier version): a write conditional on the parity, which
 *   also stores the next price, so the following takes are `take`s;
 * - `insufficient`: the pools cannot cover the next place's price.
 */
export type CountedPlan =
  | { kind: 'take'; pool: PoolName }
  | { kind: 'guarded'; parity: 0 | 1; amount: number; split: Pools; nextAfter: number }
  | { kind: 'insufficient'; required: number; available: number };

export function planCountedCharge(state: CounterState, price: AlternatingPrice): CountedPlan {
  const amount = nextPrice(price, state.parity);
  const split = splitDebit(state.pools, amount);
  if (!split) return { kind: 'insufficient', required: amount, available: state.pools.subscription + state.pools.purchased };
  if (state.next === amount) {
    if (split.purchased === 0) return { kind: 'take', pool: 'subscription' };
    if (split.subscription === 0) return { kind: 'take', pool: 'purchased' };
  }
  return { kind: 'guarded', parity: state.parity, amount, split, nextAfter: nextPrice(price, state.parity === 0 ? 1 : 0) };
}

/**
 * The in-flight mark of a `take`, as stored: the price and the pool, not the amount (the write
 * learns its place only as it applies). The place is stored beside it, as the count before the
 * write (`placeAttribute`).
 */
export interface PricedMark {
  odd: number;
  even: number;
  pool: PoolName;
}

/** The balance item's attribute that holds a counted change's count before its write (its place − 1). */
export const placeAttribute = (changeId: string): string => `inflight_place#${changeId}`;

/** What a `take` took, once its place is known: the amount, what came out of each pool, and the signed change of each. */
export function takenAt(mark: PricedMark, place: number): { amount: number; split: Pools; delta: Pools } {
  const amount = priceAt(mark, place);
  const split = mark.pool === 'subscription' ? { subscription: amount, purchased: 0 } : { subscription: 0, purchased: amount };
  return { amount, split, delta: { subscription: 0 - split.subscription, purchased: 0 - split.purchased } };
}
