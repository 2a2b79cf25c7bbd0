import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, setClause, tableName, updateReturning } from './table';

/**
 * Moves an item's `status` from one of `from` to `to` in one conditional write, setting `fields`
 * (and `updated_at`) too and removing `remove`. The condition is what keeps two workers from both
 * completing, failing or charging the same thing. Returns the item after the write, or null when
 * it was not in one of `from` (or does not exist).
 */
export async function transitionStatus(
  key: Record<string, string>,
  from: readonly string[],
  to: string,
  fields: Record<string, unknown>,
  at: string,
  remove: readonly string[] = [],
): Promise<Record<string, unknown> | null> {
  const clause = setClause(fields);
  const names: Record<string, string> = { '#status': 'status', ...clause.names };
  const values: Record<string, unknown> = { ':to': to, ':at': at, ...clause.values };
  const sets = ['#status = :to', 'updated_at = :at', ...clause.sets];
  const froms = from.map((status, i) => {
    values[`:from${i}`] = status;
    return `:from${i}`;
  });
  return updateReturning({
    Key: key,
    UpdateExpression: `SET ${sets.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
    ConditionExpression: `#status IN (${froms.join(', ')})`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/** Deletes an item only while it is in `status` (an invisible record whose creation was abandoned). */
export async function deleteIfStatus(key: Record<string, string>, status: string): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ConditionExpression: '#status = :status',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status },
      }),
    ),
  );
}
