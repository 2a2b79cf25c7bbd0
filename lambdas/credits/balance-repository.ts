import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, isConditionFailed, setClause, queryItems, tableName, putItem, insertItem, updateReturning, type Item } from '../platform/table';
import type { Pools } from './balance-rules';
import { placeAttribute, takenAt, type AlternatingPrice, type PoolName, type PricedMark } from './counted-price';
import * as z from '../platform/zod';
import { readEntity } from '../platform/table-read';

export interface BalanceItem extends Pools {
  organization_id: string;
  monthly_allocation: number;
  subscription_cap: number | null;
  period_started_at: string;
  /**
   * Changes applied to the pools whose mark is not yet cleared: not yet in the ledger (crash
   * recovery), or in it with the clear deferred to a later write. A mark may carry when it was
   * made (`at`), a counted place (`place`) and `intent` (a durable record will finish its resource).
   */
  inflight: Record<string, InflightMark>;
  updated_at: string;
}

export interface LedgerEntry {
  change_id: string;
  organization_id: string;
  kind: 'debit' | 'refund' | 'purchase' | 'replenish' | 'adjustment';
  /** Signed change of each pool. */
  subscription_delta: number;
  purchased_delta: number;
  reason: string;
  resource_id: string | null;
  /** For refunds: the debit being returned. */
  refunds_change_id: string | null;
  /** For a debit priced by its place in a counted sequence (the max-tier batch): that place. */
  place?: number | null;
  created_at: string;
}

export interface InflightMark extends Pools {
  at?: string;
  place?: number;
  intent?: boolean;
}

/**
 * A mark as stored: a counted place's take (`takeCountedPlace`) stores its price and pool
 * (`priced`) instead of the pools' change, and its count before the write in its own attribute
 * (`placeAttribute`); `getBalanceItem` hands every mark back resolved, with its pools and place.
 */
interface StoredMark extends Partial<Pools> {
  at?: string;
  place?: number;
  intent?: boolean;
  priced?: PricedMark;
}
interface StoredBalance extends Omit<BalanceItem, 'inflight'> {
  inflight: Record<string, StoredMark>;
}

const pools = { subscription: z.number(), purchased: z.number() };
const storedMark = z.lazySchema(() => z.looseObject({
  subscription: z.optional(z.number()),
  purchased: z.optional(z.number()),
  at: z.optional(z.string()),
  place: z.optional(z.number()),
  intent: z.optional(z.boolean()),
  priced: z.optional(z.object({ odd: z.number(), even: z.number(), pool: z.enum(['subscription', 'purchased']) })),
}));
const balanceSchema: z.ZodMiniType<StoredBalance> = z.lazySchema(() => z.looseObject({
  ...pools,
  organization_id: z.string(),
  monthly_allocation: z.number(),
  subscription_cap: z.nullable(z.number()),
  period_started_at: z.string(),
  inflight: z.record(z.string(), storedMark),
  updated_at: z.string(),
}));
const ledgerSchema: z.ZodMiniType<LedgerEntry> = z.lazySchema(() => z.looseObject({
  change_id: z.string(),
  organization_id: z.string(),
  kind: z.enum(['debit', 'refund', 'purchase', 'replenish', 'adjustment']),
  subscription_delta: z.number(),
  purchased_delta: z.number(),
  reason: z.string(),
  resource_id: z.nullable(z.string()),
  refunds_change_id: z.nullable(z.string()),
  place: z.optional(z.nullable(z.number())),
  created_at: z.string(),
}));

const balanceKey = (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'BALANCE' });
const ledgerKey = (orgId: string, changeId: string) => ({ pk: `ORG#${orgId}`, sk: `LEDGER#${changeId}` });

export async function getBalanceItem(orgId: string): Promise<BalanceItem | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: balanceKey(orgId), ConsistentRead: true }));
  const stored = readEntity('Balance', balanceSchema, out.Item);
  if (!stored) return null;
  const inflight: Record<string, InflightMark> = {};
  for (const [changeId, mark] of Object.entries(stored.inflight)) inflight[changeId] = resolveMark(stored, changeId, mark);
  return { ...stored, inflight };
}

/** A stored mark with its pools' change and its place (a counted change's count before its write, plus one). */
function resolveMark(item: StoredBalance, changeId: string, mark: StoredMark): InflightMark {
  const { priced, subscription, purchased, ...rest } = mark;
  const before = (item as unknown as Record<string, unknown>)[placeAttribute(changeId)];
  const place = typeof before === 'number' ? before + 1 : mark.place;
  if (subscription !== undefined && purchased !== undefined) return { ...rest, subscription, purchased, ...(place === undefined ? {} : { place }) };
  if (!priced || place === undefined) throw new Error(`balance of ${item.organization_id}: in-flight mark ${changeId} has neither its pools' change nor a price and place`);
  return { ...rest, ...takenAt(priced, place).delta, place };
}

/** A counter's parity and stored next price, as the balance item holds them (absent: even, none). */
export function counterState(item: BalanceItem, counter: string): { parity: 0 | 1; next: number | null } {
  const fields = item as unknown as Record<string, unknown>;
  const next = fields[nextPriceAttribute(counter)];
  return { parity: Number(fields[parityAttribute(counter)] ?? 0) === 1 ? 1 : 0, next: typeof next === 'number' ? next : null };
}

const parityAttribute = (counter: string) => `${counter}_parity`;
const nextPriceAttribute = (counter: string) => `${counter}_next_price`;
/**
 * Which sequence of a counter a place belongs to: how many times the counter was started anew
 * (absent: none yet). Taken with the place in the same write, so whoever starts the counter anew
 * knows which places were taken before it did (the contact pool: which max contacts belong to the
 * batch it closed).
 */
const sequenceAttribute = (counter: string) => `${counter}_sequence`;

/** True when this call created it; false when it existed already (then nothing changed). */
export async function createBalance(item: BalanceItem): Promise<boolean> {
  // gsi1 lists every balance for the billing-period job.
  return insertItem('Balance', { ...balanceKey(item.organization_id), gsi1pk: 'BALANCES', gsi1sk: item.organization_id, ...item });
}

/**
 * What keeps a pool change safe, as arithmetic on the balance item itself (never a snapshot of
 * it, so concurrent changes of other ids do not make each other retry):
 * - `cover`: the pools still hold at least what is taken from each (the result is never negative);
 * - `at-most`: the subscription pool is at most `subscription` before the change (a refund or a
 *   replenish never lifts it above its cap);
 * - `period`: the billing period is still `expected` (moved to `next` in the same write), and the
 *   subscription pool at most `subscription`;
 * - `none`: only the change id guard.
 */
export type PoolGuard =
  | { kind: 'cover'; pools: Pools }
  | { kind: 'at-most'; subscription: number }
  | { kind: 'period'; expected: string; next: string; subscription: number }
  | { kind: 'none' };

/**
 * A counter kept on the balance item, advanced by one in the same write as the pools
 * (charge-before-write.ts): `<attribute>` counts the places taken, `<attribute>_parity` is that
 * count's parity and `<attribute>_next_price` the price of the next place. This step is the
 * guarded one (counted-price.ts `planCountedCharge`): the write holds only if the parity is still
 * `parity`, and stores `nextAfter` as the price of the place after it. The usual way to take a
 * place is `takeCountedPlace`, which needs no guess of the parity.
 */
export interface CounterStep {
  attribute: string;
  /** The parity of the places taken that the write expects (0 also matches an absent counter). */
  parity: 0 | 1;
  /** The price of the place after this one. */
  nextAfter: number;
}

/**
 * What else one pool change's write may carry: a counter step, more fields in its in-flight mark
 * (when it was made, what it paid for), and marks of earlier changes, already in the ledger, to
 * remove (their clear deferred to this write, credits.ts).
 */
export interface PoolWriteExtras {
  counter?: CounterStep;
  mark?: Record<string, unknown>;
  clear?: readonly string[];
}

/**
 * Adds `delta` to the pools in one conditional write and marks the change in flight, so a retry of
 * the same change id can tell it was applied. Returns false when the condition failed.
 */
export async function applyPoolDelta(orgId: string, changeId: string, delta: Pools, guard: PoolGuard, at: string, extras: PoolWriteExtras = {}): Promise<boolean> {
  return (await applyPoolDeltaCounted(orgId, changeId, delta, guard, at, extras)) !== null;
}

/**
 * `applyPoolDelta` that answers with the counter's value after the write (0 without a counter),
 * or null when the condition failed.
 */
export async function applyPoolDeltaCounted(orgId: string, changeId: string, delta: Pools, guard: PoolGuard, at: string, extras: PoolWriteExtras = {}): Promise<{ count: number; sequence: number | null } | null> {
  const values: Record<string, unknown> = { ':ds': delta.subscription, ':dp': delta.purchased, ':delta': { ...extras.mark, ...delta }, ':at': at };
  const names: Record<string, string> = { '#change': changeId };
  const conditions = ['attribute_exists(pk)', 'attribute_not_exists(inflight.#change)'];
  const sets = ['subscription = subscription + :ds', 'purchased = purchased + :dp', 'inflight.#change = :delta', 'updated_at = :at'];
  if (guard.kind === 'cover') {
    conditions.push('subscription >= :needS', 'purchased >= :needP');
    values[':needS'] = guard.pools.subscription;
    values[':needP'] = guard.pools.purchased;
  } else if (guard.kind === 'at-most' || guard.kind === 'period') {
    conditions.push('subscription <= :maxS');
    values[':maxS'] = guard.subscription;
  }
  if (guard.kind === 'period') {
    conditions.push('period_started_at = :expected');
    values[':expected'] = guard.expected;
    values[':next'] = guard.next;
    sets.push('period_started_at = :next');
  }
  if (extras.counter) {
    Object.assign(names, { '#counter': extras.counter.attribute, '#parity': parityAttribute(extras.counter.attribute), '#nextPrice': nextPriceAttribute(extras.counter.attribute), '#place': placeAttribute(changeId), '#sequence': sequenceAttribute(extras.counter.attribute) });
    Object.assign(values, { ':parityWas': extras.counter.parity, ':parityNext': 1 - extras.counter.parity, ':one': 1, ':zero': 0, ':nextAfter': extras.counter.nextAfter });
    conditions.push(extras.counter.parity === 0 ? '(attribute_not_exists(#parity) OR #parity = :parityWas)' : '#parity = :parityWas');
    sets.push('#parity = :parityNext', '#nextPrice = :nextAfter', '#counter = if_not_exists(#counter, :zero) + :one', '#place = if_not_exists(#counter, :zero)', '#sequence = if_not_exists(#sequence, :zero)');
  }
  const item = await updateReturning({
    Key: balanceKey(orgId),
    UpdateExpression: `SET ${sets.join(', ')}${removeClause(names, changeId, extras.clear)}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
  if (!item) return null;
  if (!extras.counter) return { count: 0, sequence: null };
  return { count: Number(item[extras.counter.attribute]), sequence: Number(item[sequenceAttribute(extras.counter.attribute)] ?? 0) };
}

/** ` REMOVE …` of earlier changes' marks (and their places, when counted), or nothing. */
function removeClause(names: Record<string, string>, changeId: string, clear: readonly string[] = []): string {
  const paths = clear
    .filter((id) => id !== changeId)
    .flatMap((id, i) => {
      names[`#clear${i}`] = id;
      names[`#clearPlace${i}`] = placeAttribute(id);
      return [`inflight.#clear${i}`, `#clearPlace${i}`];
    });
  return paths.length ? ` REMOVE ${paths.join(', ')}` : '';
}

/**
 * Takes the next place of a counter whose places alternate between two prices, and its price,
 * in one write that needs no guess (counted-price.ts): the stored next price (which must agree
 * with the parity) comes out of `pool`, which must cover it (the purchased pool only when the
 * subscription pool is empty); the price flips, the count and parity advance, the change is
 * marked in flight with its price and pool, and its count before the write is stored as its
 * place. Answers with the place taken, or null when the condition failed (the pool cannot cover
 * it, the next price is missing or disagrees, the change is marked already, no balance).
 */
export async function takeCountedPlace(
  orgId: string,
  changeId: string,
  counter: string,
  price: AlternatingPrice,
  pool: PoolName,
  at: string,
  extras: Omit<PoolWriteExtras, 'counter'> = {},
): Promise<{ place: number; sequence: number } | null> {
  const mark: StoredMark = { ...extras.mark, priced: { odd: price.odd, even: price.even, pool } };
  const names: Record<string, string> = {
    '#change': changeId,
    '#pool': pool,
    '#counter': counter,
    '#parity': parityAttribute(counter),
    '#nextPrice': nextPriceAttribute(counter),
    '#place': placeAttribute(changeId),
    '#sequence': sequenceAttribute(counter),
  };
  const values: Record<string, unknown> = { ':mark': mark, ':at': at, ':zero': 0, ':one': 1, ':odd': price.odd, ':even': price.even, ':sum': price.odd + price.even };
  const conditions = [
    'attribute_exists(pk)',
    'attribute_not_exists(inflight.#change)',
    'attribute_exists(#counter)',
    '((#parity = :zero AND #nextPrice = :odd) OR (#parity = :one AND #nextPrice = :even))',
    '#pool >= #nextPrice',
    ...(pool === 'purchased' ? ['subscription <= :zero'] : []),
  ];
  const sets = ['#pool = #pool - #nextPrice', '#nextPrice = :sum - #nextPrice', '#counter = #counter + :one', '#parity = :one - #parity', '#place = #counter', '#sequence = if_not_exists(#sequence, :zero)', 'inflight.#change = :mark', 'updated_at = :at'];
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: balanceKey(orgId),
        UpdateExpression: `SET ${sets.join(', ')}${removeClause(names, changeId, extras.clear)}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        // Only what the write set: the balance item, with its marks, can be large under load.
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const place = Number(out.Attributes?.[counter]);
    if (!Number.isInteger(place) || place < 1) throw new Error(`balance of ${orgId}: the take of ${changeId} answered no place (${String(out.Attributes?.[counter])})`);
    return { place, sequence: Number(out.Attributes?.[sequenceAttribute(counter)] ?? 0) };
  } catch (error) {
    if (isConditionFailed(error)) return null;
    throw error;
  }
}

/** Sets a counter of the balance item back to no places taken (credits.ts `resetCounter`); false when the balance does not exist. */
/**
 * Starts the counter anew (place 0, the next at the odd price) and answers which sequence that
 * ended: every place taken before this write carries it, every place after carries the next one.
 * Null when the organization has no balance (nothing was counted).
 */
export async function resetBalanceCounter(orgId: string, attribute: string, price: AlternatingPrice, at: string): Promise<number | null> {
  const item = await updateReturning({
    Key: balanceKey(orgId),
    UpdateExpression: 'SET #counter = :zero, #parity = :zero, #nextPrice = :odd, #sequence = if_not_exists(#sequence, :zero) + :one, updated_at = :at',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#counter': attribute, '#parity': parityAttribute(attribute), '#nextPrice': nextPriceAttribute(attribute), '#sequence': sequenceAttribute(attribute) },
    ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':odd': price.odd, ':at': at },
  });
  return item ? Number(item[sequenceAttribute(attribute)]) - 1 : null;
}

/**
 * Gives back a change applied to the pools that never reached the ledger and never became the
 * resource it paid for (credits.ts `reverseUnrecorded`): `back` returns to the pools and the mark
 * goes, in one write conditional on the mark still being there (and on the cap, as a refund).
 */
export async function reverseInflight(orgId: string, changeId: string, back: Pools, maxSubscriptionBefore: number | null, at: string): Promise<boolean> {
  const values: Record<string, unknown> = { ':ds': back.subscription, ':dp': back.purchased, ':at': at };
  const conditions = ['attribute_exists(inflight.#change)'];
  if (maxSubscriptionBefore !== null) {
    conditions.push('subscription <= :maxS');
    values[':maxS'] = maxSubscriptionBefore;
  }
  return updateBalanceIf(orgId, {
    update: 'SET subscription = subscription + :ds, purchased = purchased + :dp, updated_at = :at REMOVE inflight.#change, #place',
    condition: conditions.join(' AND '),
    names: { '#change': changeId, '#place': placeAttribute(changeId) },
    values,
  });
}

export async function clearInflight(orgId: string, changeId: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: balanceKey(orgId),
      UpdateExpression: 'REMOVE inflight.#change, #place',
      ExpressionAttributeNames: { '#change': changeId, '#place': placeAttribute(changeId) },
    }),
  );
}

export async function updateBalanceSettings(
  orgId: string,
  fields: Partial<Pick<BalanceItem, 'monthly_allocation' | 'subscription_cap' | 'period_started_at' | 'subscription'>>,
  expectedPeriodStart?: string,
): Promise<boolean> {
  const { sets, names, values } = setClause(fields);
  let condition = 'attribute_exists(pk)';
  if (expectedPeriodStart !== undefined) {
    condition += ' AND period_started_at = :expected';
    values[':expected'] = expectedPeriodStart;
  }
  return updateBalanceIf(orgId, { update: `SET ${sets.join(', ')}`, condition, names, values });
}

/** One conditional update of the organization's balance item: false when `condition` did not hold. */
async function updateBalanceIf(
  orgId: string,
  write: { update: string; condition: string; names: Record<string, string>; values: Record<string, unknown> },
): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: balanceKey(orgId),
        UpdateExpression: write.update,
        ConditionExpression: write.condition,
        ExpressionAttributeNames: write.names,
        ExpressionAttributeValues: write.values,
      }),
    ),
  );
}

export async function getLedgerEntry(orgId: string, changeId: string): Promise<LedgerEntry | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: ledgerKey(orgId, changeId), ConsistentRead: true }));
  return readEntity('LedgerEntry', ledgerSchema, out.Item);
}

export async function putLedgerEntry(entry: LedgerEntry): Promise<void> {
  await putItem('LedgerEntry', ledgerItem(entry));
}

/** The item of a ledger entry, for a write that carries it beside others (platform/table.ts `putItems`). */
export function ledgerItem(entry: LedgerEntry): Item {
  return {
    ...ledgerKey(entry.organization_id, entry.change_id),
    gsi1pk: `ORG#${entry.organization_id}#LEDGER`,
    gsi1sk: `${entry.created_at}#${entry.change_id}`,
    ...entry,
  };
}

/** Every balance that holds in-flight marks, with their change ids, a page at a time. */
export async function* balancesWithInflight(): AsyncGenerator<{ orgId: string; changeIds: string[] }> {
  for await (const item of queryItems({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': 'BALANCES' } })) {
    const changeIds = Object.keys((item.inflight as Record<string, unknown> | undefined) ?? {});
    if (changeIds.length > 0) yield { orgId: String(item.organization_id), changeIds };
  }
}

/** Every organization that has a balance, a page at a time. */
export async function* balanceOrganizations(): AsyncGenerator<string> {
  for await (const item of queryItems({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': 'BALANCES' } })) {
    yield String(item.organization_id);
  }
}
