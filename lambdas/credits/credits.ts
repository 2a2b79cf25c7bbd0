import { nowIso, nowMs } from '../platform/clock';
import { newId } from '../platform/ids';
import { crashPoint } from '../platform/crash-point';
import {
  applyPoolDelta,
  balancesWithInflight,
  clearInflight,
  createBalance,
  getBalanceItem,
  getLedgerEntry,
  putLedgerEntry,
  updateBalanceSettings,
  type BalanceItem,
  type LedgerEntry,
} from './balance-repository';
import { addMonths, periodsElapsed, replenishedSubscription, splitDebit, splitRefund, type Pools } from './balance-rules';

// The one credits module every feature charges through. Every change to the pools is a single-item
// conditional write on the balance item (dynalite has no transactions), keyed by a change id so that
// one resource is never charged or refunded twice; the ledger entry written after it is the audit
// trail and the proof that the change happened. A charge whose ledger entry goes out with the
// resource it paid for, in one batch write, is in charge-before-write.ts.

export interface Balance {
  total: number;
  subscription: number;
  purchased: number;
}

export class InsufficientCreditsError extends Error {
  constructor(
    readonly required: number,
    readonly available: number,
  ) {
    super(`Insufficient credits: ${required} required, ${available} available`);
    this.name = 'InsufficientCreditsError';
  }
}

/**
 * Every failed attempt means another change of the same balance was applied in between (the guards
 * are arithmetic, not snapshots), so the loop always makes progress; the bound only stops a
 * runaway.
 */
const MAX_ATTEMPTS = 500;

/**
 * Creates the organization's balance once. The first period's subscription allocation (and any
 * purchased credits it starts with) is recorded in the ledger like every later change, so the
 * ledger adds up to the balance; each billing period's top-up is a `replenish` entry
 * (replenishIfDue). A crash between the two writes leaves the balance right and the opening entry
 * missing (docs/credits-and-limits.md).
 */
export async function ensureBalance(orgId: string, init: Partial<Pick<BalanceItem, 'subscription' | 'purchased' | 'monthly_allocation' | 'subscription_cap'>> = {}): Promise<void> {
  const at = nowIso();
  const created = await createBalance({
    organization_id: orgId,
    subscription: init.subscription ?? 0,
    purchased: init.purchased ?? 0,
    monthly_allocation: init.monthly_allocation ?? 0,
    subscription_cap: init.subscription_cap ?? null,
    period_started_at: at,
    inflight: {},
    updated_at: at,
  });
  if (!created) return;
  const subscription = init.subscription ?? 0;
  const purchased = init.purchased ?? 0;
  if (subscription !== 0) await putOpening(orgId, `replenish:opening`, 'replenish', { subscription, purchased: 0 }, 'monthly allocation (first billing period)', at);
  if (purchased !== 0) await putOpening(orgId, `purchase:opening`, 'purchase', { subscription: 0, purchased }, 'opening purchased credits', at);
}

async function putOpening(orgId: string, changeId: string, kind: LedgerEntry['kind'], delta: Pools, reason: string, at: string): Promise<void> {
  await putLedgerEntry({
    change_id: changeId,
    organization_id: orgId,
    kind,
    subscription_delta: delta.subscription,
    purchased_delta: delta.purchased,
    reason,
    resource_id: null,
    refunds_change_id: null,
    created_at: at,
  });
}

export async function getBalance(orgId: string): Promise<Balance> {
  const item = await getBalanceItem(orgId);
  const subscription = item?.subscription ?? 0;
  const purchased = item?.purchased ?? 0;
  return { total: subscription + purchased, subscription, purchased };
}

export interface ChargeResult {
  changeId: string;
  amount: number;
  split: Pools;
  /** True when this change id had already been applied (a retry): nothing more was taken. */
  replayed: boolean;
  /** A debit priced by its place in a counted sequence (charge-before-write.ts): that place. */
  place: number | null;
  /** And which sequence the place is in (how many times the counter had been started anew), when the write that took it said so. */
  sequence?: number;
}

/**
 * Takes `amount` credits for `changeId` (e.g. `upload:<id>`), subscription pool first. Idempotent
 * per change id; throws InsufficientCreditsError and changes nothing when the balance cannot
 * cover it. Two calls with the same change id must not run at once (callers guarantee it with a
 * conditional state change or a lease; see docs/reliability.md).
 */
export async function debit(
  orgId: string,
  changeId: string,
  amount: number,
  meta: { reason: string; resourceId: string },
): Promise<ChargeResult> {
  // A charge for a resource id created in the same call, with no ledger read, is chargeBeforeWrite's (`fresh`).
  const existing = await getLedgerEntry(orgId, changeId);
  if (existing) return fromLedger(existing, true);
  if (amount === 0) return recordChange(orgId, changeId, 'debit', { subscription: 0, purchased: 0 }, meta);

  // Fast path, no read: the subscription pool alone covers it.
  if (await applyPoolDelta(orgId, changeId, { subscription: -amount, purchased: 0 }, { kind: 'cover', pools: { subscription: amount, purchased: 0 } }, nowIso())) {
    return recordChange(orgId, changeId, 'debit', { subscription: -amount, purchased: 0 }, meta);
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const item = await getBalanceItem(orgId);
    if (!item) throw new InsufficientCreditsError(amount, 0);
    const applied = await alreadyApplied(orgId, changeId, item, 'debit', meta);
    if (applied) return applied;
    const split = splitDebit(item, amount);
    if (!split) throw new InsufficientCreditsError(amount, item.subscription + item.purchased);
    const delta = { subscription: -split.subscription, purchased: -split.purchased };
    if (await applyPoolDelta(orgId, changeId, delta, { kind: 'cover', pools: split }, nowIso())) {
      return recordChange(orgId, changeId, 'debit', delta, meta);
    }
    if (attempt > 3) await jitter(attempt);
  }
  throw new Error(`credit debit ${changeId} did not settle after ${MAX_ATTEMPTS} attempts`);
}

/**
 * Returns an earlier debit, exactly once per refund id: the whole of it, or `amount` of it (taken
 * back from what came out of the purchased pool first, since purchased credits never expire). A
 * debit applied to the pools whose ledger entry a crash prevented is recorded first, then
 * refunded. Returns null when the debit never happened.
 */
export async function refund(
  orgId: string,
  refundChangeId: string,
  debitChangeId: string,
  meta: { reason: string; resourceId: string; amount?: number },
): Promise<ChargeResult | null> {
  const existing = await getLedgerEntry(orgId, refundChangeId);
  if (existing) return fromLedger(existing, true);
  const charged = await chargeOf(orgId, debitChangeId, meta.resourceId);
  if (!charged) return null;
  const taken = partOf(charged.split, meta.amount);
  const details = { ...meta, refunds: debitChangeId };

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const item = await getBalanceItem(orgId);
    if (!item) throw new Error(`organization ${orgId} has no balance`);
    const applied = await alreadyApplied(orgId, refundChangeId, item, 'refund', details);
    if (applied) return applied;
    const back = splitRefund(item, taken, item.subscription_cap);
    // Only a concurrent increase of the subscription pool (another refund, a replenish) can make
    // this fail: the cap is the one thing a refund must respect.
    const guard = item.subscription_cap === null ? ({ kind: 'none' } as const) : ({ kind: 'at-most', subscription: item.subscription_cap - back.subscription } as const);
    if (await applyPoolDelta(orgId, refundChangeId, back, guard, nowIso())) {
      return recordChange(orgId, refundChangeId, 'refund', back, details);
    }
    if (attempt > 3) await jitter(attempt);
  }
  throw new Error(`credit refund ${refundChangeId} did not settle after ${MAX_ATTEMPTS} attempts`);
}

/**
 * What change `changeId` took or gave, or null when it was never applied: the ledger entry, or a
 * change applied to the pools whose ledger entry a crash prevented (recorded now, naming
 * `resourceId`, the upload or contact it paid for, like every other entry). Recovery jobs ask
 * this, never the ledger alone.
 */
export async function chargeOf(orgId: string, changeId: string, resourceId: string): Promise<ChargeResult | null> {
  const entry = await getLedgerEntry(orgId, changeId);
  if (entry) return fromLedger(entry, true);
  const item = await getBalanceItem(orgId);
  return item ? alreadyApplied(orgId, changeId, item, 'debit', { reason: 'debit (recorded after an interruption)', resourceId }) : null;
}

/** The change is on the balance item (applied, ledger not yet written): record it; or in the ledger. */
async function alreadyApplied(
  orgId: string,
  changeId: string,
  item: BalanceItem,
  kind: LedgerEntry['kind'],
  meta: { reason: string; resourceId?: string; refunds?: string },
): Promise<ChargeResult | null> {
  const inflight = item.inflight?.[changeId];
  if (inflight) return recordChange(orgId, changeId, kind, inflight, { ...meta, place: inflight.place }, true);
  // Read after the item: a change whose in-flight mark was cleared had its ledger entry first.
  const entry = await getLedgerEntry(orgId, changeId);
  return entry ? fromLedger(entry, true) : null;
}

/**
 * Clears the in-flight marks whose change is already in the ledger: a process that died between
 * the ledger entry and the clear left them (the balance is right; the mark only says the change was
 * under way). A mark with no ledger entry is a change applied but not recorded yet: that is the
 * recovery of the resource it paid for (`chargeOf`), which records it and clears its mark. Safe
 * beside a running change: clearing is idempotent, and a change clears its mark only after its
 * ledger entry exists.
 */
export async function clearRecordedInflightMarks(): Promise<{ cleared: number }> {
  let cleared = 0;
  for await (const balance of balancesWithInflight()) {
    for (const changeId of balance.changeIds) {
      if (!(await getLedgerEntry(balance.orgId, changeId))) continue;
      await clearInflight(balance.orgId, changeId);
      cleared++;
    }
  }
  return { cleared };
}

/**
 * The most credits a balance holds. DynamoDB numbers read back as JavaScript numbers only up to
 * 2^53 - 1; a balance past that would fail every read of it (every call of the organization).
 */
export const MAX_CREDITS = 1_000_000_000_000;

export async function addPurchased(orgId: string, amount: number, reason = 'purchase'): Promise<ChargeResult> {
  if (!Number.isInteger(amount) || amount <= 0 || amount > MAX_CREDITS) throw new Error(`amount must be a whole number from 1 to ${MAX_CREDITS}`);
  const changeId = `purchase:${newId()}`;
  if (!(await applyPoolDelta(orgId, changeId, { subscription: 0, purchased: amount }, { kind: 'none' }, nowIso()))) {
    throw new Error(`organization ${orgId} has no balance`);
  }
  return recordChange(orgId, changeId, 'purchase', { subscription: 0, purchased: amount }, { reason });
}

export async function configureSubscription(orgId: string, settings: { monthlyAllocation?: number; cap?: number | null }): Promise<void> {
  const fields: Parameters<typeof updateBalanceSettings>[1] = {};
  if (settings.monthlyAllocation !== undefined) fields.monthly_allocation = settings.monthlyAllocation;
  if (settings.cap !== undefined) fields.subscription_cap = settings.cap;
  if (!(await updateBalanceSettings(orgId, fields))) throw new Error(`organization ${orgId} has no balance`);
}

/**
 * Starts the next billing period when one is due: the subscription pool is topped up by the
 * monthly allocation, capped. Safe to run as often as wanted (the period start is the guard).
 */
export async function replenishIfDue(orgId: string): Promise<boolean> {
  const item = await getBalanceItem(orgId);
  if (!item) return false;
  const due = periodsElapsed(item.period_started_at, nowMs());
  if (due < 1) return false;
  const target = replenishedSubscription(item.subscription, item.monthly_allocation, item.subscription_cap);
  const changeId = `replenish:${item.period_started_at}`;
  const delta = { subscription: target - item.subscription, purchased: 0 };
  // The period moves in the same write as the pools: two overlapping runs cannot both top up.
  const guard = { kind: 'period', expected: item.period_started_at, next: addMonths(item.period_started_at, due), subscription: item.subscription } as const;
  if (!(await applyPoolDelta(orgId, changeId, delta, guard, nowIso()))) {
    return false; // another run moved the period, or a refund raced it; the next run retries
  }
  await recordChange(orgId, changeId, 'replenish', delta, { reason: 'monthly allocation' });
  return true;
}

function partOf(taken: Pools, amount: number | undefined): Pools {
  if (amount === undefined) return taken;
  const whole = taken.subscription + taken.purchased;
  if (!Number.isInteger(amount) || amount < 0 || amount > whole) throw new Error(`cannot refund ${amount} of a debit of ${whole}`);
  const purchased = Math.min(taken.purchased, amount);
  return { subscription: amount - purchased, purchased };
}

async function recordChange(
  orgId: string,
  changeId: string,
  kind: LedgerEntry['kind'],
  delta: Pools,
  meta: { reason: string; resourceId?: string; refunds?: string; place?: number },
  replayed = false,
): Promise<ChargeResult> {
  crashPoint(`credits.before-ledger:${kind}`);
  const entry: LedgerEntry = {
    change_id: changeId,
    organization_id: orgId,
    kind,
    subscription_delta: delta.subscription,
    purchased_delta: delta.purchased,
    reason: meta.reason,
    resource_id: meta.resourceId ?? null,
    refunds_change_id: meta.refunds ?? null,
    ...(meta.place === undefined ? {} : { place: meta.place }),
    created_at: nowIso(),
  };
  await putLedgerEntry(entry);
  crashPoint(`credits.before-clear:${kind}`);
  await clearInflight(orgId, changeId);
  return fromLedger(entry, replayed);
}

export function fromLedger(entry: LedgerEntry, replayed: boolean): ChargeResult {
  const split = { subscription: Math.abs(entry.subscription_delta), purchased: Math.abs(entry.purchased_delta) };
  return { changeId: entry.change_id, amount: split.subscription + split.purchased, split, replayed, place: entry.place ?? null };
}

const jitter = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 + attempt * 3)));
