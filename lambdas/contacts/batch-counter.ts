import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../platform/table';
import { newId } from '../platform/ids';
import { stampUpdate } from '../platform/table-entities';

// The organization's current queued max-tier batch (max contacts not yet processing). Positions
// are handed out by an atomic counter, so concurrent creates each get their own place in the
// 2, 1, 2, 1 sequence.

const BATCH_STAMP = stampUpdate('ContactBatch');
const counterKey = (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'CONTACTBATCH#max' });

export async function nextBatchPosition(orgId: string): Promise<{ batchId: string; position: number }> {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: counterKey(orgId),
      UpdateExpression: `SET batch_id = if_not_exists(batch_id, :fresh), ${BATCH_STAMP.set} ADD position_count :one`,
      ExpressionAttributeNames: BATCH_STAMP.names,
      ExpressionAttributeValues: { ':fresh': newId(), ':one': 1, ...BATCH_STAMP.values },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return { batchId: String(out.Attributes!.batch_id), position: Number(out.Attributes!.position_count) };
}

/** The pool took the batch: the next max contact starts a new one at position 1 (charge 2). */
export async function closeBatch(orgId: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: counterKey(orgId),
      UpdateExpression: `SET batch_id = :fresh, position_count = :zero, ${BATCH_STAMP.set}`,
      ExpressionAttributeNames: BATCH_STAMP.names,
      ExpressionAttributeValues: { ':fresh': newId(), ':zero': 0, ...BATCH_STAMP.values },
    }),
  );
}
