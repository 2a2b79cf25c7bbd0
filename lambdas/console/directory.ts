import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../platform/table';
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

/** Newest first, at most `limit` entries. */
export async function listLedger(orgId: string, limit: number): Promise<LedgerLine[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `ORG#${orgId}#LEDGER` },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => {
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
  });
}
