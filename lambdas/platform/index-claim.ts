import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, tableName, type Item } from './table';

// Something found through a secondary index is only a hint: an index copy can lag its item (in
// AWS, global indexes are eventually consistent; in the embedded store, a kill -9 between the index
// write and the item write left them apart until the start's integrity pass). So a claim or a
// conditional write never conditions on a value read from the index: it re-reads the base item,
// strongly consistent, decides on that, and conditions on the base item's own value.

/** The base item under `key`, strongly consistent; undefined when it is gone. */
export async function readBaseItem(key: Record<string, string>): Promise<Item | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return out.Item;
}

export interface IndexClaim {
  /** The item's table key. */
  key: Record<string, string>;
  /** The lease attribute the claim moves (an index sort key such as `gsi2sk`). */
  attribute: string;
  /** Its new value (the lease's end). */
  next: string;
  /** Whether the base item, as it is now, still owes what the index said it owed. */
  qualifies: (base: Item) => boolean;
  /** A further condition on the base item, for what can change without the lease attribute (`#status = :creating`). */
  also?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
}

/**
 * Claims an item found through an index: re-reads its base item and, if that still qualifies,
 * moves `attribute` from the base item's value to `next` in one write conditioned on that value.
 * Returns the base item as read (null when it is gone, no longer qualifies, or another worker
 * claimed it first).
 */
export async function claimFoundThroughIndex(claim: IndexClaim): Promise<Item | null> {
  const base = await readBaseItem(claim.key);
  if (!base || base[claim.attribute] === undefined || !claim.qualifies(base)) return null;
  const ok = await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: claim.key,
        UpdateExpression: 'SET #lease = :next',
        ConditionExpression: claim.also ? `#lease = :seen AND (${claim.also.expression})` : '#lease = :seen',
        ExpressionAttributeNames: { '#lease': claim.attribute, ...claim.also?.names },
        ExpressionAttributeValues: { ':seen': base[claim.attribute], ':next': claim.next, ...claim.also?.values },
      }),
    ),
  );
  return ok ? base : null;
}
