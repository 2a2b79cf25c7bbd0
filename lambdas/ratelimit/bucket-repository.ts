import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName } from '../platform/table';
import { intervalMs, toleranceMs, type BucketShape } from './gcra';
import { stampUpdate } from '../platform/table-entities';

// Path 2 below creates the bucket (or restarts it): that write says what the item is.
const BUCKET_STAMP = stampUpdate('RateBucket');
const bucketKey = (bucketId: string) => ({ pk: `RATE#${bucketId}`, sk: 'BUCKET' });
// A bucket idle for a day is as good as full; TTL deletes it.
const IDLE_TTL_S = 86_400;

/** Takes one token. Returns the new tat, or null when the bucket is empty. */
export async function takeToken(bucketId: string, shape: BucketShape, now: number): Promise<number | null> {
  // Both conditional paths can lose a race with a concurrent request that moved tat between them;
  // only a bucket that is really empty (tat beyond the tolerance) is a refusal.
  for (let attempt = 0; attempt < 5; attempt++) {
    const tat = await tryTake(bucketId, shape, now);
    if (tat !== null) return tat;
    const current = await readTat(bucketId);
    if (current !== undefined && current - now > toleranceMs(shape)) return null;
  }
  return null;
}

// The tat this container last wrote per bucket: which of the two conditional writes below will
// most likely succeed. Only the order of the attempts follows it, never the outcome (each write
// keeps its own condition), so a stale guess costs one more call, as every attempt used to.
const lastTat = new Map<string, number>();
const MAX_REMEMBERED = 10_000;

function remember(bucketId: string, tat: number): number {
  if (lastTat.size >= MAX_REMEMBERED && !lastTat.has(bucketId)) lastTat.clear();
  lastTat.set(bucketId, tat);
  return tat;
}

async function tryTake(bucketId: string, shape: BucketShape, now: number): Promise<number | null> {
  const t = intervalMs(shape);
  const ttl = Math.ceil(now / 1000) + IDLE_TTL_S;
  // Path 1: the bucket has been used recently (tat in the future) and still has room.
  const spend = async (): Promise<number | null> => {
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: bucketKey(bucketId),
          UpdateExpression: 'SET tat = tat + :t, #ttl = :ttl',
          ConditionExpression: 'tat >= :now AND tat <= :limit',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':t': t, ':now': now, ':limit': now + toleranceMs(shape), ':ttl': ttl },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return remember(bucketId, Number(out.Attributes?.tat));
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return null;
    }
  };
  // Path 2: the bucket is full (tat in the past, or never used): restart it from now.
  const restart = async (): Promise<number | null> => {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: bucketKey(bucketId),
          UpdateExpression: `SET tat = :next, #ttl = :ttl, ${BUCKET_STAMP.set}`,
          ConditionExpression: 'attribute_not_exists(tat) OR tat < :now',
          ExpressionAttributeNames: { '#ttl': 'ttl', ...BUCKET_STAMP.names },
          ExpressionAttributeValues: { ':next': now + t, ':now': now, ':ttl': ttl, ...BUCKET_STAMP.values },
        }),
      );
      return remember(bucketId, now + t);
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return null;
    }
  };
  const known = lastTat.get(bucketId);
  if (known !== undefined && known < now) return (await restart()) ?? (await spend());
  return (await spend()) ?? (await restart());
}

export async function readTat(bucketId: string): Promise<number | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: bucketKey(bucketId), ConsistentRead: true }));
  return out.Item?.tat === undefined ? undefined : Number(out.Item.tat);
}
