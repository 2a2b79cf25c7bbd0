import { nowIso } from '../platform/clock';
import { crashPoint } from '../platform/crash-point';
import type { EntityName } from '../platform/table-entities';
import type { Item } from '../platform/table';
import {
  applyPoolDeltaCounted,
  balancesWithInflight,
  clearInflight,
  counterState,
  getBalanceItem,
  getLedgerEntry,
  ledgerItem,
  reverseInflight,
  resetBalanceCounter,
  takeCountedPlace,
  type InflightMark,
  type LedgerEntry,
} from './balance-repository';
import { splitDebit, splitRefund, type Pools } from './balance-rules';
import { planCountedCharge, takenAt, type AlternatingPrice, type CountedPlan, type PoolName } from './counted-price';
import { chargeOf, InsufficientCreditsError, type ChargeResult } from './credits';

// A charge made before the one write that creates what it pays for (a contact): the pools change
// in one conditional write that also marks the change in flight (and, for a counted price, takes
// the next place of a counter on the balance item), and the ledger entry goes out in the resource's
// own batch write (`ledgerEntryOf`). Its mark is then cleared by a later write of this process
// (`chargeRecorded`), or by the recovery job; a charge whose resource write never came is given
// back (`reverseUnrecorded`). Two calls in all, instead of the debit's three plus the resource's.

/**
 * How much: a fixed amount, or the price of the next place of a counter kept on the balance item,
 * whose odd places cost `odd` and even places `even` (counted-price.ts).
 */
export type Price = { amount: number } | ({ counter: string } & AlternatingPrice);

export interface PendingCharge extends ChargeResult {
  orgId: string;
  /** The signed change of each pool. */
  delta: { subscription: number; purchased: number };
  reason: string;
  resourceId: string;
}

/** Each failed write means another change of the same balance came in between: the bound only stops a runaway. */
const MAX_ATTEMPTS = 500;

// The pool this process's last counted take of an organization came from: the pool its next take
// most likely comes from (a balance of purchased credits only would otherwise cost every take a
// refused write on the empty subscription pool and a read). Only the order of attempts follows it.
const lastPool = new Map<string, PoolName>();
const MAX_REMEMBERED = 10_000;
function rememberPool(orgId: string, pool: PoolName): void {
  if (lastPool.size >= MAX_REMEMBERED && !lastPool.has(orgId)) lastPool.clear();
  lastPool.set(orgId, pool);
}

/**
 * Takes the price for `changeId` before its resource is written. `fresh`: the change id is new
 * in this very call (a new resource id), so no earlier attempt can have charged it and nothing
 * is read first; otherwise an earlier charge of the same id (in the ledger, or applied and marked)
 * is returned as it was, at its place, with `replayed`. `intent`: a durable record of the resource
 * exists (an idempotency claim) that recovery finishes, so the charge must never be given back
 * without it. Throws InsufficientCreditsError, changing nothing and taking no place, when the
 * balance cannot cover the price.
 */
export async function chargeBeforeWrite(
  orgId: string,
  changeId: string,
  price: Price,
  meta: { reason: string; resourceId: string; fresh: boolean; intent: boolean },
): Promise<PendingCharge> {
  const pending = (charge: ChargeResult, delta: PendingCharge['delta']): PendingCharge => ({ ...charge, orgId, delta, reason: meta.reason, resourceId: meta.resourceId });
  if (!meta.fresh) {
    const earlier = await chargeOf(orgId, changeId, meta.resourceId);
    if (earlier) return pending(earlier, { subscription: -earlier.split.subscription, purchased: -earlier.split.purchased });
  }
  const counted = 'counter' in price ? price : null;
  // The first attempt assumes a pool covers it (the subscription pool, or the one this process's
  // last take used) and, for a counted price, takes the next place without knowing it; after a
  // refused write the item is read and the plan made from it.
  let plan: CountedPlan | { kind: 'fixed'; split: Pools } =
    'amount' in price ? { kind: 'fixed', split: { subscription: price.amount, purchased: 0 } } : { kind: 'take', pool: lastPool.get(orgId) ?? 'subscription' };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const at = nowIso();
    const clear = takeClears(orgId);
    const mark = { at, ...(meta.intent ? { intent: true } : {}) };
    if (plan.kind === 'take' && counted) {
      const taken = await takeCountedPlace(orgId, changeId, counted.counter, counted, plan.pool, at, { mark, clear });
      if (taken !== null) {
        rememberPool(orgId, plan.pool);
        const { amount, split, delta } = takenAt({ odd: counted.odd, even: counted.even, pool: plan.pool }, taken.place);
        return pending({ changeId, amount, split, replayed: false, place: taken.place, sequence: taken.sequence }, delta);
      }
    } else if (plan.kind === 'fixed' || plan.kind === 'guarded') {
      const split = plan.split;
      const delta = { subscription: -split.subscription, purchased: -split.purchased };
      const step = plan.kind === 'guarded' && counted ? { attribute: counted.counter, parity: plan.parity, nextAfter: plan.nextAfter } : undefined;
      const count = await applyPoolDeltaCounted(orgId, changeId, delta, { kind: 'cover', pools: split }, at, { counter: step, mark, clear });
      if (count !== null) {
        // The pool a take of this organization most likely draws from next (after a split, the subscription pool is empty).
        if (step) rememberPool(orgId, split.purchased > 0 ? 'purchased' : 'subscription');
        return pending({ changeId, amount: split.subscription + split.purchased, split, replayed: false, place: step ? count.count : null, ...(step && count.sequence !== null ? { sequence: count.sequence } : {}) }, delta);
      }
    }
    giveBackClears(orgId, clear);
    const item = await getBalanceItem(orgId);
    if (!item) throw new InsufficientCreditsError(counted ? counted.odd : (price as { amount: number }).amount, 0);
    const applied = item.inflight[changeId];
    if (applied && meta.fresh) {
      // Only this call uses a fresh id: its write was applied and the answer lost (the SDK's retry was refused).
      const split = { subscription: 0 - applied.subscription, purchased: 0 - applied.purchased };
      return pending({ changeId, amount: split.subscription + split.purchased, split, replayed: false, place: applied.place ?? null }, { subscription: applied.subscription, purchased: applied.purchased });
    }
    if (applied) {
      // Applied by a concurrent attempt of the same change since our first look: recorded now, returned as it was.
      const earlier = await chargeOf(orgId, changeId, meta.resourceId);
      if (earlier) return pending(earlier, { subscription: -earlier.split.subscription, purchased: -earlier.split.purchased });
    }
    if (counted) {
      plan = planCountedCharge({ pools: item, ...counterState(item, counted.counter) }, counted);
      if (plan.kind === 'insufficient') throw new InsufficientCreditsError(plan.required, plan.available);
    } else {
      const amount = (price as { amount: number }).amount;
      const split = splitDebit(item, amount);
      if (!split) throw new InsufficientCreditsError(amount, item.subscription + item.purchased);
      plan = { kind: 'fixed', split };
    }
    if (attempt > 3) await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 + attempt * 3)));
  }
  throw new Error(`credit charge ${changeId} did not settle after ${MAX_ATTEMPTS} attempts`);
}

/** The ledger entry of a charge, as an item for the batch write that creates its resource. */
export function ledgerEntryOf(charge: PendingCharge): { entity: EntityName; item: Item } {
  const entry: LedgerEntry = {
    change_id: charge.changeId,
    organization_id: charge.orgId,
    kind: 'debit',
    subscription_delta: charge.delta.subscription,
    purchased_delta: charge.delta.purchased,
    reason: charge.reason,
    resource_id: charge.resourceId,
    refunds_change_id: null,
    ...(charge.place === null ? {} : { place: charge.place }),
    created_at: nowIso(),
  };
  return { entity: 'LedgerEntry', item: ledgerItem(entry) };
}

// Marks of changes already in the ledger, by organization: removed by this process's next charge
// of the same organization (in the same write), so a steady stream of creates costs no clearing
// write; what is left when the process ends, the recovery job clears.
const toClear = new Map<string, Set<string>>();
/** At most this many marks removed by one write (keeps the expression small). */
const CLEAR_PER_WRITE = 20;
const MAX_TRACKED_ORGS = 1_000;

/** The charge's ledger entry is written: its mark is cleared later (the crash point names the moment before). */
export function chargeRecorded(charge: Pick<PendingCharge, 'orgId' | 'changeId'>): void {
  crashPoint('credits.before-clear:debit');
  if (toClear.size >= MAX_TRACKED_ORGS && !toClear.has(charge.orgId)) return; // the recovery job clears it
  const ids = toClear.get(charge.orgId) ?? new Set<string>();
  ids.add(charge.changeId);
  toClear.set(charge.orgId, ids);
}

function takeClears(orgId: string): string[] {
  const ids = toClear.get(orgId);
  if (!ids) return [];
  const taken = [...ids].slice(0, CLEAR_PER_WRITE);
  for (const id of taken) ids.delete(id);
  if (ids.size === 0) toClear.delete(orgId);
  return taken;
}

function giveBackClears(orgId: string, ids: readonly string[]): void {
  if (!ids.length) return;
  const set = toClear.get(orgId) ?? new Set<string>();
  for (const id of ids) set.add(id);
  toClear.set(orgId, set);
}

/** Forget the deferred clears and remembered pools (tests). */
export function forgetPendingCharges(): void {
  toClear.clear();
  lastPool.clear();
}

/**
 * Starts a new counted sequence (the max-tier batch closed): the next charge takes place 1, at
 * `price.odd`. Answers the sequence that ended (every charge before carries it: `sequence`), or
 * null when the organization has no balance.
 */
export async function resetCounter(orgId: string, price: { counter: string } & AlternatingPrice): Promise<number | null> {
  return resetBalanceCounter(orgId, price.counter, { odd: price.odd, even: price.even }, nowIso());
}

/** A change still marked in flight on a balance: `recorded` when its ledger entry exists (its clear deferred or interrupted). */
export interface MarkedCharge {
  orgId: string;
  changeId: string;
  mark: InflightMark;
  recorded: boolean;
}

/**
 * Every in-flight mark whose change id starts with `prefix` and was made before `beforeIso` (a
 * mark from before marks carried a time counts as old), for its resource's recovery to decide:
 * clear it (`clearInflight`), record it (`chargeOf`), refund it or give it back (`reverseUnrecorded`).
 */
export async function* markedCharges(prefix: string, beforeIso: string): AsyncGenerator<MarkedCharge> {
  for await (const balance of balancesWithInflight()) {
    const item = await getBalanceItem(balance.orgId);
    for (const [changeId, mark] of Object.entries(item?.inflight ?? {})) {
      if (!changeId.startsWith(prefix) || (mark.at ?? '') >= beforeIso) continue;
      yield { orgId: balance.orgId, changeId, mark, recorded: (await getLedgerEntry(balance.orgId, changeId)) !== null };
    }
  }
}

/** Removes a change's in-flight mark (its ledger entry exists). */
export const clearMark = (orgId: string, changeId: string): Promise<void> => clearInflight(orgId, changeId);

/**
 * Gives back a charge that never reached the ledger and whose resource was never written (its
 * request died between the two writes): the pools get it back (the subscription pool capped, as a
 * refund), the mark goes, nothing is recorded (nothing was). False when the mark is gone already
 * (recorded or given back meanwhile). Callers make sure the resource cannot be written any more.
 */
export async function reverseUnrecorded(orgId: string, changeId: string): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const item = await getBalanceItem(orgId);
    const mark = item?.inflight[changeId];
    if (!item || !mark) return false;
    if (await getLedgerEntry(orgId, changeId)) return false;
    const back = splitRefund(item, { subscription: -mark.subscription, purchased: -mark.purchased }, item.subscription_cap);
    const maxBefore = item.subscription_cap === null ? null : item.subscription_cap - back.subscription;
    if (await reverseInflight(orgId, changeId, back, maxBefore, nowIso())) return true;
  }
  throw new Error(`reversal of ${changeId} did not settle after ${MAX_ATTEMPTS} attempts`);
}
