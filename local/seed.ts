import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lambdas/platform/table';
import { addMember, createOrganization, createUser, mintKey } from '../lambdas/admin/admin';
import { nowIso } from '../lambdas/platform/clock';

export interface DemoAccount {
  organizationId: string;
  userId: string;
  /** Only on the start that created the account: keys are shown once. */
  apiKey: string | null;
}

const SEED_KEY = { pk: 'LOCAL#SEED', sk: 'META' };

/** First start: a demo organization with an active subscription and credits, and a key for it. */
export async function ensureDemoAccount(): Promise<DemoAccount> {
  const existing = await db().send(new GetCommand({ TableName: tableName(), Key: SEED_KEY }));
  if (existing.Item) {
    return { organizationId: String(existing.Item.organization_id), userId: String(existing.Item.user_id), apiKey: null };
  }
  const org = await createOrganization({ name: 'Demo Organization', subscriptionActive: true, monthlyAllocation: 10_000, credits: 1_000_000 });
  const user = await createUser('demo@example.com');
  await addMember(org.id, user.id, 'owner');
  const minted = await mintKey(org.id, user.id);
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { ...SEED_KEY, organization_id: org.id, user_id: user.id, created_at: nowIso() } }),
  );
  return { organizationId: org.id, userId: user.id, apiKey: minted.key };
}
