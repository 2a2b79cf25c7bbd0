import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { nowMs } from './clock';
import { newId } from './ids';
import { conditionalWrite, db, tableName } from './table';
import { stamp } from './table-entities';

// A named lease in the table: EventBridge Scheduler delivers at least once and may run two copies of
// a job at once, so a job that must not overlap itself takes the lease first (one conditional
// write), and a copy that finds it held skips its run. The lease expires on its own, so a crashed
// holder blocks the job for at most `ttlMs`; a holder must finish well within it.

const leaseKey = (name: string) => ({ pk: `LEASE#${name}`, sk: 'META' });

/** Runs `work` while holding lease `name`, or returns `{ skipped: true }` when another holder has it. */
export async function withLease<T>(name: string, ttlMs: number, work: () => Promise<T>): Promise<{ skipped: true } | { skipped: false; result: T }> {
  const holder = newId();
  const now = nowMs();
  const taken = await conditionalWrite(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...leaseKey(name), ...stamp('Lease'), holder, expires_at: now + ttlMs, ttl: Math.ceil((now + ttlMs) / 1000) + 86_400 },
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    ),
  );
  if (!taken) return { skipped: true };
  try {
    return { skipped: false, result: await work() };
  } finally {
    await conditionalWrite(() =>
      db().send(new DeleteCommand({ TableName: tableName(), Key: leaseKey(name), ConditionExpression: 'holder = :me', ExpressionAttributeValues: { ':me': holder } })),
    );
  }
}
