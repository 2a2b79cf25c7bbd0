import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { required } from './config';
import { perConfig } from './per-config';
import { stamp, type EntityName } from './table-entities';

// Created once per configuration; the endpoint comes from the SDK's own configuration
// (AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL), which is how the local runtime and
// LocalStack runs point it elsewhere.
export const db: () => DynamoDBDocumentClient = /* @__PURE__ */ perConfig(() =>
  DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } }),
);

export function tableName(): string {
  return required('TABLE_NAME');
}

export function isConditionFailed(error: unknown): boolean {
  return (
    error instanceof ConditionalCheckFailedException ||
    (error instanceof Error && error.name === 'ConditionalCheckFailedException')
  );
}

export type Item = Record<string, unknown>;

/**
 * `#f0 = :f0, …` for the defined entries of `fields`, with their names and values, for an
 * UpdateExpression's SET clause (attribute names are always aliased: many are reserved words).
 */
export function setClause(fields: Record<string, unknown>): { sets: string[]; names: Record<string, string>; values: Record<string, unknown> } {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .forEach(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:f${i}`] = v;
      sets.push(`#f${i} = :f${i}`);
    });
  return { sets, names, values };
}

/**
 * Runs one conditional write: true when it was applied, false when its condition failed (a
 * uniqueness guard, a lost race, a state that moved on). Other errors propagate.
 */
export async function conditionalWrite(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** The condition of a create: no item under this key yet. */
export const IF_NEW = 'attribute_not_exists(pk)';

/**
 * Writes `item` whole, stamped with what it is (`entity`, `version`: docs/data-model.md). A failed
 * `condition` throws, as DynamoDB does; insertItem turns that into false.
 */
export async function putItem(entity: EntityName, item: Item, condition?: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...item, ...stamp(entity) }, ...(condition === undefined ? {} : { ConditionExpression: condition }) }));
}

/** Creates `item`: true when written, false when an item with its key exists (a guard, a taken id). */
export function insertItem(entity: EntityName, item: Item): Promise<boolean> {
  return conditionalWrite(() => putItem(entity, item, IF_NEW));
}

/** One conditional update: true when it was applied, false when its condition failed. */
export function updateItem(input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> {
  return conditionalWrite(() => db().send(new UpdateCommand({ ...input, TableName: tableName() })));
}

/**
 * One conditional update that answers with the item as the write left it (ReturnValues ALL_NEW),
 * or null when its condition failed: the caller has the new state without reading it again.
 */
export async function updateReturning(input: Omit<UpdateCommandInput, 'TableName' | 'ReturnValues'>): Promise<Item | null> {
  try {
    const out = await db().send(new UpdateCommand({ ...input, TableName: tableName(), ReturnValues: 'ALL_NEW' }));
    return out.Attributes ?? null;
  } catch (error) {
    if (isConditionFailed(error)) return null;
    throw error;
  }
}

/**
 * Every item a query matches, page after page (DynamoDB returns at most 1 MB a call): the one
 * paging loop of the repositories. `max` stops early; `keep` reads past items it refuses (they
 * are not counted); `startKey` resumes after a known position (a list cursor).
 */
export async function* queryItems(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
  max?: number,
  options: { startKey?: Item; keep?: (item: Item) => boolean } = {},
): AsyncGenerator<Item> {
  let startKey: Item | undefined = options.startKey;
  let count = 0;
  do {
    const out = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: startKey, ...(max === undefined ? {} : { Limit: Math.max(1, max - count) }) }),
    );
    for (const item of out.Items ?? []) {
      if (max !== undefined && count >= max) return;
      if (options.keep && !options.keep(item)) continue;
      count++;
      yield item;
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey && (max === undefined || count < max));
}
