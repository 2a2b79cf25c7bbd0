import { BatchGetCommand, BatchWriteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient, type QueryCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { required } from './config';
import { storage } from './storage';
import { stamp, type EntityName } from './table-entities';

/** The table's client: the storage the composition root built (./storage.ts). */
export const db = (): DynamoDBDocumentClient => storage().table();

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
export async function putItem(entity: EntityName, item: Item, condition?: string, values?: Record<string, unknown>): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...item, ...stamp(entity) },
      ...(condition === undefined ? {} : { ConditionExpression: condition }),
      ...(values === undefined ? {} : { ExpressionAttributeValues: values }),
    }),
  );
}

/** Creates `item`: true when written, false when an item with its key exists (a guard, a taken id). */
export function insertItem(entity: EntityName, item: Item): Promise<boolean> {
  return conditionalWrite(() => putItem(entity, item, IF_NEW));
}

/**
 * Replaces the item under `item`'s key with `item` while `condition` (on the item as read, with
 * `values`) still holds: a takeover of a guard or claim. False when another writer changed it first.
 */
export function replaceItemIf(entity: EntityName, item: Item, condition: string, values: Record<string, unknown>): Promise<boolean> {
  return conditionalWrite(() => putItem(entity, item, condition, values));
}

/** Unprocessed keys or items of a batch call are sent again this many times (DynamoDB hands them back under load). */
const BATCH_ATTEMPTS = 6;
const batchPause = (attempt: number) => new Promise((r) => setTimeout(r, Math.min(200, 10 * 2 ** attempt)));

/**
 * Reads up to 100 items by key in one BatchGetItem (keys it hands back unprocessed are asked for
 * again), each found item by its `pk|sk`. A key that never comes back after the retries throws:
 * a caller must not take "unprocessed" for "absent".
 */
export async function getItems(keys: readonly { pk: string; sk: string }[], consistent = false): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  if (keys.length > 100) throw new Error(`getItems reads at most 100 keys a call (got ${keys.length})`);
  let pending: Record<string, unknown>[] = [...keys];
  for (let attempt = 0; pending.length; attempt++) {
    if (attempt >= BATCH_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed after ${BATCH_ATTEMPTS} attempts`);
    if (attempt) await batchPause(attempt);
    const out = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent } } }));
    for (const item of out.Responses?.[tableName()] ?? []) found.set(`${String(item.pk)}|${String(item.sk)}`, item);
    pending = out.UnprocessedKeys?.[tableName()]?.Keys ?? [];
  }
  return found;
}

/**
 * Writes up to 25 whole items in one BatchWriteItem, each stamped with its entity (items handed
 * back unprocessed are sent again). Unconditional, and not atomic: for items no other writer can
 * be writing at the same time (a new id this call owns, an entry keyed by it).
 */
export async function putItems(items: readonly { entity: EntityName; item: Item }[]): Promise<void> {
  if (items.length > 25) throw new Error(`putItems writes at most 25 items a call (got ${items.length})`);
  let pending: Record<string, unknown>[] = items.map(({ entity, item }) => ({ PutRequest: { Item: { ...item, ...stamp(entity) } } }));
  for (let attempt = 0; pending.length; attempt++) {
    if (attempt >= BATCH_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed after ${BATCH_ATTEMPTS} attempts`);
    if (attempt) await batchPause(attempt);
    const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
    pending = (out.UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
  }
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

/**
 * How many items a query matches, counted by the table (`Select: COUNT`: no item is sent), page
 * after page as `queryItems` reads them; `max` stops counting there.
 */
export async function countItems(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Select' | 'Limit'>, max?: number): Promise<number> {
  let count = 0;
  let startKey: Item | undefined;
  do {
    const out = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), Select: 'COUNT', ExclusiveStartKey: startKey, ...(max === undefined ? {} : { Limit: Math.max(1, max - count) }) }),
    );
    count += out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (startKey && (max === undefined || count < max));
  return count;
}
