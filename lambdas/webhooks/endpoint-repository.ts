import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, setClause, queryItems, tableName, updateReturning, type Item, putItem, IF_NEW, updateItem } from '../platform/table';
import { EVENT_TYPES, type EventType } from './envelope';
import * as z from '../platform/zod';
import { readExisting } from '../platform/table-read';
import { StoredSecretSchema, type StoredSecret } from './secret-sealer';

/**
 * A webhook endpoint as stored. `secret` is kept in the item so deliveries can sign, sealed with the
 * service's KMS key under the endpoint's context (items written before sealing hold the plaintext
 * string; both are read). It never leaves through the API after creation.
 */
export interface EndpointRecord {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  events: EventType[];
  is_active: boolean;
  verified_at: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  consecutive_failures: number;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
  secret: StoredSecret;
}

const key = (id: string) => ({ pk: `WEBHOOK#${id}`, sk: 'META' });
const orgPartition = (orgId: string) => `ORG#${orgId}#WEBHOOKS`;

export async function putEndpoint(record: EndpointRecord): Promise<void> {
  await putItem('WebhookEndpoint', { ...key(record.id), gsi1pk: orgPartition(record.organization_id), gsi1sk: `${record.created_at}#${record.id}`, ...record }, IF_NEW);
}

export async function getEndpoint(id: string): Promise<EndpointRecord | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(id), ConsistentRead: true }));
  return out.Item ? strip(out.Item) : null;
}

/** Every endpoint of an organization, newest first (created_at descending, then id descending). */
export async function listEndpoints(orgId: string): Promise<EndpointRecord[]> {
  const items: EndpointRecord[] = [];
  for await (const item of queryItems({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': orgPartition(orgId) }, ScanIndexForward: false })) {
    items.push(strip(item));
  }
  return items;
}

/** Sets fields on an endpoint of `orgId`; null when it does not exist there. */
export async function updateEndpointFields(
  id: string,
  orgId: string,
  fields: Partial<Omit<EndpointRecord, 'id' | 'organization_id' | 'created_at' | 'secret'>>,
): Promise<EndpointRecord | null> {
  const { sets, names, values } = setClause(fields);
  values[':org'] = orgId;
  const item = await updateReturning({
    Key: key(id),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk) AND organization_id = :org',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
  return item && strip(item);
}

export async function deleteEndpointItem(id: string, orgId: string): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new DeleteCommand({ TableName: tableName(), Key: key(id), ConditionExpression: 'attribute_exists(pk) AND organization_id = :org', ExpressionAttributeValues: { ':org': orgId } }),
    ),
  );
}

export async function recordEndpointSuccess(id: string, at: string): Promise<void> {
  // A failed condition: the endpoint was deleted meanwhile, nothing to count.
  await updateItem({
    Key: key(id),
    UpdateExpression: 'SET consecutive_failures = :zero, last_success_at = :at',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':zero': 0, ':at': at },
  });
}

/** Counts one failed attempt; returns the new count and whether the endpoint is still active. */
export async function recordEndpointFailure(id: string, at: string): Promise<{ consecutive_failures: number; is_active: boolean } | null> {
  const item = await updateReturning({
    Key: key(id),
    UpdateExpression: 'SET last_failure_at = :at ADD consecutive_failures :one',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':one': 1, ':at': at },
  });
  if (!item) return null;
  const endpoint = strip(item);
  return { consecutive_failures: endpoint.consecutive_failures, is_active: endpoint.is_active };
}

/** Auto-disable; true only for the call that actually switched the endpoint off. */
export async function disableEndpoint(id: string, at: string, threshold: number): Promise<boolean> {
  return updateItem({
    Key: key(id),
    UpdateExpression: 'SET is_active = :false, disabled_at = :at, updated_at = :at',
    ConditionExpression: 'attribute_exists(pk) AND is_active = :true AND consecutive_failures >= :threshold',
    ExpressionAttributeValues: { ':false': false, ':true': true, ':at': at, ':threshold': threshold },
  });
}

const endpointSchema: z.ZodMiniType<EndpointRecord> = z.lazySchema(() => z.looseObject({
  id: z.string(),
  organization_id: z.string(),
  url: z.string(),
  description: z.nullable(z.string()),
  events: z.array(z.enum(EVENT_TYPES)),
  is_active: z.boolean(),
  verified_at: z.nullable(z.string()),
  last_success_at: z.nullable(z.string()),
  last_failure_at: z.nullable(z.string()),
  consecutive_failures: z.number(),
  disabled_at: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  secret: StoredSecretSchema,
}));

const strip = (item: Item): EndpointRecord => readExisting('WebhookEndpoint', endpointSchema, item);
