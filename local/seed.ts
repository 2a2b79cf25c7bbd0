import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lambdas/platform/table';
import { addMember, AdminError, createOrganization, createUser, mintKey, revokeKey } from '../lambdas/admin/admin';
import { nowIso } from '../lambdas/platform/clock';
import { stamp } from '../lambdas/platform/table-entities';

export interface DemoAccount {
  organizationId: string;
  userId: string;
  /** Only on a start that minted a key nobody has seen yet: keys are shown once. */
  apiKey: string | null;
}

const SEED_KEY = { pk: 'LOCAL#SEED', sk: 'META' };

/**
 * First start: a demo organization with an active subscription and credits, and a key for it.
 * The key counts as shown only once `markDemoKeyShown` runs (after the banner is printed): a start
 * that fails before that (a busy port) leaves `key_shown` false, and the next start revokes that
 * unseen key and mints another to show. Seeds written before `key_shown` existed count as shown.
 */
export async function ensureDemoAccount(): Promise<DemoAccount> {
  const existing = await db().send(new GetCommand({ TableName: tableName(), Key: SEED_KEY }));
  if (existing.Item) {
    const organizationId = String(existing.Item.organization_id);
    const userId = String(existing.Item.user_id);
    if (existing.Item.key_shown !== false) return { organizationId, userId, apiKey: null };
    // Nobody has seen that key, so nobody can be using it.
    if (typeof existing.Item.key_id === 'string') {
      await revokeKey(existing.Item.key_id).catch((error: unknown) => {
        if (!(error instanceof AdminError)) throw error; // already gone: nothing to revoke
      });
    }
    const minted = await mintKey(organizationId, userId);
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: SEED_KEY, UpdateExpression: 'SET key_id = :k', ExpressionAttributeValues: { ':k': minted.record.id } }),
    );
    return { organizationId, userId, apiKey: minted.key };
  }
  const org = await createOrganization({ name: 'Demo Organization', subscriptionActive: true, monthlyAllocation: 10_000, credits: 1_000_000 });
  const user = await createUser('demo@example.com');
  await addMember(org.id, user.id, 'owner');
  const minted = await mintKey(org.id, user.id);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...SEED_KEY, ...stamp('LocalSeed'), organization_id: org.id, user_id: user.id, key_id: minted.record.id, key_shown: false, created_at: nowIso() },
    }),
  );
  return { organizationId: org.id, userId: user.id, apiKey: minted.key };
}

/** The banner with the demo key has been printed: later starts only print the ids. */
export async function markDemoKeyShown(): Promise<void> {
  await db().send(new UpdateCommand({ TableName: tableName(), Key: SEED_KEY, UpdateExpression: 'SET key_shown = :t', ExpressionAttributeValues: { ':t': true } }));
}
