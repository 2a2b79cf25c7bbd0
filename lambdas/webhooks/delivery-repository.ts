import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { cursorScope } from '../platform/cursor';
import { queryPage } from '../platform/paged-query';
import { conditionalWrite, db, isConditionFailed, queryItems, tableName, type Item } from '../platform/table';
import { stamp } from '../platform/table-entities';
import * as z from '../platform/zod';
import { readExisting } from '../platform/table-read';
import { StoredSecretSchema, type StoredSecret } from './secret-sealer';

export type DeliveryState = 'pending' | 'succeeded' | 'exhausted';

export interface AttemptRecord {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
}

/**
 * One event on its way to one receiver: a webhook endpoint, or a per-contact callback URL. The
 * record exists before any message does, so the sweeper can always find a due delivery.
 */
export interface DeliveryRecord {
  id: string;
  organization_id: string;
  kind: 'webhook' | 'callback';
  webhook_id: string | null;
  /** Callbacks carry their own target; the secret as the contact holds it (sealed, or an old plaintext). */
  callback_url: string | null;
  callback_secret: StoredSecret | null;
  event_id: string;
  event_type: string;
  /** The exact body sent on every attempt (the JSON envelope). */
  body: string;
  state: DeliveryState;
  attempt_count: number;
  attempts: AttemptRecord[];
  next_attempt_at: string | null;
  /** Why the delivery ended without success when no attempt says it (endpoint deleted or inactive). */
  exhausted_reason: string | null;
  /**
   * Set by a redelivery (lambdas/webhooks/redeliver.ts): the number of the one attempt it asked for,
   * after which the delivery ends whatever the answer (no new retry chain).
   */
  final_attempt?: number | null;
  /** When an owner last asked for a redelivery. */
  redelivered_at?: string | null;
  /** Epoch ms until which one worker owns the next attempt; absent (removed) when nobody does. */
  lease_until?: number | null;
  created_at: string;
  updated_at: string;
}

/** The exhausted_reason of a delivery whose endpoint was deleted: ended on purpose, not lost. */
export const ENDPOINT_DELETED = 'endpoint deleted';

/** Delivery log entries expire 30 days after creation (DynamoDB TTL). */
export const DELIVERY_RETENTION_SECONDS = 30 * 24 * 3600;

const key = (id: string) => ({ pk: `DELIVERY#${id}`, sk: 'META' });
const DUE_PARTITION = 'DELIVERY#DUE';
const logPartition = (record: Pick<DeliveryRecord, 'kind' | 'webhook_id' | 'organization_id'>) =>
  record.kind === 'webhook' ? `WEBHOOK#${record.webhook_id}#DELIVERIES` : `ORG#${record.organization_id}#CALLBACKS`;

/** Writes a new delivery; false when one with this id exists already (a repeated fan-out). */
export async function createDelivery(record: DeliveryRecord): Promise<boolean> {
  const item: Record<string, unknown> = {
    ...key(record.id),
    ...stamp('WebhookDelivery'),
    gsi1pk: logPartition(record),
    gsi1sk: `${record.created_at}#${record.id}`,
    ttl: Math.floor(Date.parse(record.created_at) / 1000) + DELIVERY_RETENTION_SECONDS,
    ...record,
  };
  // Absent, not null: the claim condition tests attribute_not_exists / a number.
  delete item.lease_until;
  // gsi2 is sparse: only pending deliveries are on it, keyed by when they are due.
  if (record.state === 'pending' && record.next_attempt_at) Object.assign(item, { gsi2pk: DUE_PARTITION, gsi2sk: `${record.next_attempt_at}#${record.id}` });
  try {
    await db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

export async function getDelivery(id: string): Promise<DeliveryRecord | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(id), ConsistentRead: true }));
  return out.Item ? strip(out.Item) : null;
}

/**
 * Takes the next attempt of a pending, due delivery for `leaseMs`. Only one worker (queue consumer
 * or sweeper) wins; a worker that dies mid-attempt lets the lease lapse and the sweeper retries.
 */
export async function claimAttempt(record: DeliveryRecord, nowMs: number, leaseMs: number): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(record.id),
        UpdateExpression: 'SET lease_until = :until',
        ConditionExpression: '#state = :pending AND attempt_count = :made AND (attribute_not_exists(lease_until) OR lease_until < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':until': nowMs + leaseMs, ':pending': 'pending', ':made': record.attempt_count, ':now': nowMs },
      }),
    ),
  );
}

/** Appends an attempt and moves the delivery on (next due time, or a final state). */
export async function recordAttempt(
  record: DeliveryRecord,
  attempt: AttemptRecord,
  next: { state: DeliveryState; next_attempt_at: string | null },
  at: string,
): Promise<boolean> {
  const values: Record<string, unknown> = {
    ':attempt': [attempt],
    ':n': attempt.attempt,
    ':made': record.attempt_count,
    ':state': next.state,
    ':next': next.next_attempt_at,
    ':at': at,
    ':pending': 'pending',
  };
  let update = 'SET attempts = list_append(attempts, :attempt), attempt_count = :n, #state = :state, next_attempt_at = :next, updated_at = :at';
  if (next.state === 'pending') {
    update += ', gsi2sk = :due REMOVE lease_until';
    values[':due'] = `${next.next_attempt_at}#${record.id}`;
  } else {
    update += ' REMOVE lease_until, gsi2pk, gsi2sk';
  }
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(record.id),
        UpdateExpression: update,
        ConditionExpression: '#state = :pending AND attempt_count = :made',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/** Ends a pending delivery without a further attempt. */
export async function markExhausted(id: string, reason: string, at: string): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(id),
        UpdateExpression: 'SET #state = :exhausted, exhausted_reason = :reason, next_attempt_at = :null, updated_at = :at REMOVE lease_until, gsi2pk, gsi2sk',
        ConditionExpression: '#state = :pending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':exhausted': 'exhausted', ':reason': reason, ':null': null, ':at': at, ':pending': 'pending' },
      }),
    ),
  );
}

/**
 * Makes an ended delivery pending again for one more attempt, due at `dueAt`: conditioned on the
 * delivery as read (still exhausted, no attempt since), so of two requests for it only one reopens.
 */
export async function reopenForRedelivery(record: DeliveryRecord, dueAt: string, at: string): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(record.id),
        UpdateExpression:
          'SET #state = :pending, next_attempt_at = :due, final_attempt = :final, redelivered_at = :at, exhausted_reason = :null, updated_at = :at, gsi2pk = :duePk, gsi2sk = :dueSk',
        ConditionExpression: '#state = :exhausted AND attempt_count = :made',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':exhausted': 'exhausted',
          ':due': dueAt,
          ':final': record.attempt_count + 1,
          ':made': record.attempt_count,
          ':at': at,
          ':null': null,
          ':duePk': DUE_PARTITION,
          ':dueSk': `${dueAt}#${record.id}`,
        },
      }),
    ),
  );
}

/** Pending deliveries due at or before `dueBy` (ISO), oldest due first. */
export async function dueDeliveryIds(dueBy: string, limit: number): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :upper',
      ExpressionAttributeValues: { ':pk': DUE_PARTITION, ':upper': `${dueBy}#\uffff` },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => String(item.id));
}

/**
 * Every pending delivery with when it is due, oldest due first (the local queue's timers, armed
 * again at a start: they do not outlive their process). Read from the due index, whose sort key is
 * the due time and the id.
 */
export async function* pendingDeliveriesByDue(): AsyncGenerator<{ id: string; dueAtMs: number }> {
  for await (const item of queryItems({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': DUE_PARTITION },
    ProjectionExpression: 'id, gsi2sk',
  })) {
    const dueAtMs = Date.parse(String(item.gsi2sk).split('#')[0]!);
    yield { id: String(item.id), dueAtMs: Number.isNaN(dueAtMs) ? 0 : dueAtMs };
  }
}

/** Ids of an endpoint's deliveries that are still pending (endpoint deletion). */
export async function pendingDeliveryIdsOfWebhook(webhookId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of queryItems({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    FilterExpression: '#state = :pending',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':pk': `WEBHOOK#${webhookId}#DELIVERIES`, ':pending': 'pending' },
    ProjectionExpression: 'id',
  })) {
    ids.push(String(item.id));
  }
  return ids;
}

/** One page of an endpoint's delivery log, newest first. */
export async function listDeliveriesOfWebhook(
  organizationId: string,
  webhookId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ items: DeliveryRecord[]; nextCursor: string | null }> {
  const page = await queryPage({
    // A cursor from another endpoint's log (or another organization) does not decode here.
    scope: cursorScope('webhook-deliveries', organizationId, { webhook: webhookId }),
    index: 'gsi1',
    partition: `WEBHOOK#${webhookId}#DELIVERIES`,
    limit,
    cursor,
    map: strip,
  });
  return { items: page.data, nextCursor: page.nextCursor };
}

const attemptSchema: z.ZodMiniType<AttemptRecord> = z.lazySchema(() => z.looseObject({ attempt: z.number(), attempted_at: z.string(), status_code: z.nullable(z.number()), error: z.nullable(z.string()) }));
const deliverySchema: z.ZodMiniType<DeliveryRecord> = z.lazySchema(() => z.looseObject({
  id: z.string(),
  organization_id: z.string(),
  kind: z.enum(['webhook', 'callback']),
  webhook_id: z.nullable(z.string()),
  callback_url: z.nullable(z.string()),
  callback_secret: z.nullable(StoredSecretSchema),
  event_id: z.string(),
  event_type: z.string(),
  body: z.string(),
  state: z.enum(['pending', 'succeeded', 'exhausted']),
  attempt_count: z.number(),
  attempts: z.array(attemptSchema),
  next_attempt_at: z.nullable(z.string()),
  exhausted_reason: z.nullable(z.string()),
  lease_until: z.optional(z.nullable(z.number())),
  final_attempt: z.optional(z.nullable(z.number())),
  redelivered_at: z.optional(z.nullable(z.string())),
  created_at: z.string(),
  updated_at: z.string(),
}));

const strip = (item: Item): DeliveryRecord => readExisting('WebhookDelivery', deliverySchema, item);
