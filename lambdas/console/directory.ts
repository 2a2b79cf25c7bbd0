import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type Item } from '../platform/table';
import { readBaseItem } from '../platform/index-claim';
import { getUser } from '../auth/identity-repository';

// Reads the console needs that the identity and credits repositories do not offer yet: the members
// of an organization and its ledger. Read-only, over the items those repositories write.

export interface Member {
  user_id: string;
  email: string | null;
  role: string;
  created_at: string;
}

export async function listMembers(orgId: string): Promise<Member[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':sk': 'MEMBER#' },
    }),
  );
  return Promise.all(
    (out.Items ?? []).map(async (item) => ({
      user_id: String(item.user_id),
      email: (await getUser(String(item.user_id)))?.email ?? null,
      role: String(item.role),
      created_at: String(item.created_at),
    })),
  );
}

export interface LedgerLine {
  change_id: string;
  kind: string;
  amount: number;
  subscription_delta: number;
  purchased_delta: number;
  reason: string;
  resource_id: string | null;
  created_at: string;
}

/**
 * Newest first, at most `limit` entries, leaving out changes of 0 credits (an `api_pool` upload's
 * charge: its contacts were charged one by one; under steady contact traffic those crowded out
 * every other entry). Read through gsi1, whose entries are copies: a copy can outlive a move of
 * its item (a kill -9 inside the embedded store's write; in AWS, an index not yet caught up), so
 * one change can be listed twice. Entries are one per base key (the change id), and a change
 * listed more than once is shown as its item says, read strongly consistent.
 */
export async function listLedger(orgId: string, limit: number): Promise<LedgerLine[]> {
  const lines: LedgerLine[] = [];
  const shown = new Set<string>();
  let start: Record<string, unknown> | undefined;
  // A filter is applied after each page is read: pages until enough are shown, at most this many.
  for (let page = 0; page < LEDGER_PAGES && lines.length < limit; page++) {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        FilterExpression: 'NOT (subscription_delta = :zero AND purchased_delta = :zero)',
        ExpressionAttributeValues: { ':pk': `ORG#${orgId}#LEDGER`, ':zero': 0 },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: start,
      }),
    );
    const items = out.Items ?? [];
    const copies = new Map<string, number>();
    for (const item of items) copies.set(String(item.sk), (copies.get(String(item.sk)) ?? 0) + 1);
    for (const copy of items) {
      const key = String(copy.sk);
      if (shown.has(key) || lines.length >= limit) continue;
      shown.add(key);
      const item = copies.get(key) === 1 ? copy : await readBaseItem({ pk: String(copy.pk), sk: key });
      if (item) lines.push(ledgerLine(item));
    }
    start = out.LastEvaluatedKey;
    if (!start) break;
  }
  return lines;
}

/** Pages of `limit` ledger entries read at most for one listing (zero changes filtered out). */
const LEDGER_PAGES = 10;

function ledgerLine(item: Item): LedgerLine {
  const subscription = Number(item.subscription_delta ?? 0);
  const purchased = Number(item.purchased_delta ?? 0);
  return {
    change_id: String(item.change_id),
    kind: String(item.kind),
    amount: subscription + purchased,
    subscription_delta: subscription,
    purchased_delta: purchased,
    reason: String(item.reason ?? ''),
    resource_id: item.resource_id ? String(item.resource_id) : null,
    created_at: String(item.created_at),
  };
}
