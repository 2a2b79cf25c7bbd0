import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName } from '../platform/table';
import { stampUpdate } from '../platform/table-entities';
import type { Lease } from './lease';

// The shared rate's item (the same RATE#… item the per-token bucket used): `tat` is the end of the
// last leased slot. A lease is one conditional UpdateItem when the guess below is right.
const BUCKET_STAMP = stampUpdate('RateBucket');
const bucketKey = (bucketId: string) => ({ pk: `RATE#${bucketId}`, sk: 'BUCKET' });
// A bucket idle for a day is as good as empty; TTL deletes it.
const IDLE_TTL_S = 86_400;

/** Where leases are taken: the table in the service, an in-memory bucket in unit tests. */
export interface LeaseStore {
  /** Takes `tokens` slots `intervalMs` apart; `busyGuess`: the bucket is probably in use (its tat ahead of now). */
  lease(bucketId: string, tokens: number, intervalMs: number, now: number, busyGuess: boolean): Promise<{ lease: Lease; calls: number }>;
  /**
   * Moves the bucket's tat back from `from` (the end of the holder's last lease) to `to` (its first
   * unused slot), only while no lease was taken after it; whether it did.
   */
  giveBack(bucketId: string, from: number, to: number): Promise<boolean>;
}

export const tableLeaseStore: LeaseStore = {
  async lease(bucketId, tokens, intervalMs, now, busyGuess) {
    const span = tokens * intervalMs;
    const ttl = Math.ceil(now / 1000) + IDLE_TTL_S;
    // In use: the lease starts where the last one ended.
    const extend = async (): Promise<Lease | null> => {
      try {
        const out = await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: bucketKey(bucketId),
            UpdateExpression: 'SET tat = tat + :span, #ttl = :ttl',
            ConditionExpression: 'tat >= :now',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':span': span, ':now': now, ':ttl': ttl },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        const tat = Number(out.Attributes?.tat);
        return { start: tat - span, tat };
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
        return null;
      }
    };
    // Idle (tat in the past, or never used): the lease starts now.
    const restart = async (): Promise<Lease | null> => {
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: bucketKey(bucketId),
            UpdateExpression: `SET tat = :tat, #ttl = :ttl, ${BUCKET_STAMP.set}`,
            ConditionExpression: 'attribute_not_exists(tat) OR tat < :now',
            ExpressionAttributeNames: { '#ttl': 'ttl', ...BUCKET_STAMP.names },
            ExpressionAttributeValues: { ':tat': now + span, ':now': now, ':ttl': ttl, ...BUCKET_STAMP.values },
          }),
        );
        return { start: now, tat: now + span };
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
        return null;
      }
    };
    // Exactly one of the two conditions holds at any moment; a race between them (another lease
    // moved tat in between) only costs another try.
    const order = busyGuess ? [extend, restart] : [restart, extend];
    for (let calls = 1; ; calls++) {
      const lease = await order[(calls - 1) % 2]!();
      if (lease) return { lease, calls };
    }
  },

  async giveBack(bucketId, from, to) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: bucketKey(bucketId),
          UpdateExpression: 'SET tat = :to',
          ConditionExpression: 'tat = :from',
          ExpressionAttributeValues: { ':to': to, ':from': from },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return false;
    }
  },
};

/** The bucket's tat (the end of its last leased slot), undefined when never used. */
export async function readTat(bucketId: string): Promise<number | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: bucketKey(bucketId), ConsistentRead: true }));
  return out.Item?.tat === undefined ? undefined : Number(out.Item.tat);
}
