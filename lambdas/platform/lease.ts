import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { nowMs } from './clock';
import { newId } from './ids';
import { conditionalWrite, db, tableName } from './table';
import { stamp } from './table-entities';

// A named lease in the table: EventBridge Scheduler delivers at least once and may run two copies of
// a job at once, so a job that must not overlap itself takes the lease first (one conditional
// write), and a copy that finds it held skips its run. The lease expires on its own, so a crashed
// holder blocks the job for at most `ttlMs`; a holder must finish well within it. The local runtime
// is one process per data folder, so at its start every lease taken earlier belongs to a dead
// process and is released at once (releaseLeasesTakenBefore).

const leaseKey = (name: string) => ({ pk: `LEASE#${name}`, sk: 'META' });

/** Runs `work` while holding lease `name`, or returns `{ skipped: true }` when another holder has it. */
export async function withLease<T>(name: string, ttlMs: number, work: () => Promise<T>): Promise<{ skipped: true } | { skipped: false; result: T }> {
  const holder = newId();
  const now = nowMs();
  const taken = await conditionalWrite(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...leaseKey(name), ...stamp('Lease'), holder, taken_at: now, expires_at: now + ttlMs, ttl: Math.ceil((now + ttlMs) / 1000) + 86_400 },
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

/**
 * Releases the named leases taken before `beforeMs` (a lease written before `taken_at` existed
 * counts as earlier). For a runtime that knows every earlier holder is gone: the local runtime at
 * start. Returns how many were released.
 */
export async function releaseLeasesTakenBefore(names: string[], beforeMs: number): Promise<number> {
  let released = 0;
  for (const name of names) {
    const done = await conditionalWrite(() =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: leaseKey(name),
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(taken_at) OR taken_at < :before)',
          ExpressionAttributeValues: { ':before': beforeMs },
        }),
      ),
    );
    if (done) released++;
  }
  return released;
}
