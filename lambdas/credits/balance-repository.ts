import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, isConditionFailed, setClause, tableName } from '../platform/table';
import type { Pools } from './balance-rules';

export interface BalanceItem extends Pools {
  organization_id: string;
  monthly_allocation: number;
  subscription_cap: number | null;
  period_started_at: string;
  /** Changes applied to the pools whose ledger entry is not yet written (crash recovery). */
  inflight: Record<string, Pools>;
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
  created_at: string;
}

const balanceKey = (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'BALANCE' });
const ledgerKey = (orgId: string, changeId: string) => ({ pk: `ORG#${orgId}`, sk: `LEDGER#${changeId}` });

export async function getBalanceItem(orgId: string): Promise<BalanceItem | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: balanceKey(orgId), ConsistentRead: true }));
  return (out.Item as BalanceItem | undefined) ?? null;
}

export async function createBalance(item: BalanceItem): Promise<void> {
  // The balance exists already: creating it again changes nothing.
  await conditionalWrite(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        // gsi1 lists every balance for the billing-period job.
        Item: { ...balanceKey(item.organization_id), entity: 'Balance', gsi1pk: 'BALANCES', gsi1sk: item.organization_id, ...item },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/**
 * Adds `delta` to the pools in one conditional write and marks the change in flight, so a retry of
 * the same change id can tell it was applied. `guard` adds the condition that keeps the write safe
 * (enough credits, or an unchanged snapshot). Returns false when the condition failed.
 */
export async function applyPoolDelta(
  orgId: string,
  changeId: string,
  delta: Pools,
  guard: { kind: 'sufficient'; pool: keyof Pools; amount: number } | { kind: 'snapshot'; pools: Pools } | { kind: 'none' },
  at: string,
): Promise<boolean> {
  const values: Record<string, unknown> = {
    ':ds': delta.subscription,
    ':dp': delta.purchased,
    ':delta': delta,
    ':at': at,
  };
  let condition = 'attribute_exists(pk) AND attribute_not_exists(inflight.#change)';
  if (guard.kind === 'sufficient') {
    condition += ` AND ${guard.pool} >= :need`;
    values[':need'] = guard.amount;
  } else if (guard.kind === 'snapshot') {
    condition += ' AND subscription = :s AND purchased = :p';
    values[':s'] = guard.pools.subscription;
    values[':p'] = guard.pools.purchased;
  }
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: balanceKey(orgId),
        UpdateExpression: 'SET subscription = subscription + :ds, purchased = purchased + :dp, inflight.#change = :delta, updated_at = :at',
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#change': changeId },
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

export async function clearInflight(orgId: string, changeId: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: balanceKey(orgId),
      UpdateExpression: 'REMOVE inflight.#change',
      ExpressionAttributeNames: { '#change': changeId },
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
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: balanceKey(orgId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

export async function getLedgerEntry(orgId: string, changeId: string): Promise<LedgerEntry | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: ledgerKey(orgId, changeId), ConsistentRead: true }));
  return (out.Item as LedgerEntry | undefined) ?? null;
}

export async function putLedgerEntry(entry: LedgerEntry): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...ledgerKey(entry.organization_id, entry.change_id),
        entity: 'LedgerEntry',
        gsi1pk: `ORG#${entry.organization_id}#LEDGER`,
        gsi1sk: `${entry.created_at}#${entry.change_id}`,
        ...entry,
      },
    }),
  );
}

/** Every organization that has a balance, a page at a time. */
export async function* balanceOrganizations(): AsyncGenerator<string> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': 'BALANCES' },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) yield String(item.organization_id);
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}
