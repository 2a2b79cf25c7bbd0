import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, queryItems, tableName } from '../platform/table';
import { logger } from '../platform/logger';
import { fromStoredEvent, toStoredEvent, type EventEnvelope, type StoredEventEnvelope } from './envelope';
import { publishEvent } from './events';
import { enqueueCallback } from './fan-out';
import type { DeliveryPorts } from './delivery-queue-port';
import type { StoredSecret } from './secret-sealer';

// The transactional outbox: an event is written into the same item, in the same conditional write,
// as the state change it announces (dynalite has no transactions, so it cannot be a second item).
// Publishing it afterwards is idempotent (stable event ids, delivery ids derived from them), so a
// crash between the state change and the publication is repaired by publishing again: right away
// by the writer, or by the drain job, which finds every item with an unpublished event through the
// sparse index gsi3 (`OUTBOX`).

export interface OutboxEntry {
  organization_id: string;
  event: EventEnvelope;
  /** A per-contact callback that goes with the event, signed with its own secret. */
  callback?: { url: string; secret: StoredSecret } | null;
}

const PREFIX = 'outbox_';
const INDEX_PK = 'OUTBOX';

type Key = { pk: string; sk: string };

/** Attributes to add to a state change's write: the entries and the index entry that finds them. */
export function outboxFields(key: Key, entries: readonly OutboxEntry[], at: string): Record<string, unknown> {
  if (entries.length === 0) return {};
  const fields: Record<string, unknown> = { gsi3pk: INDEX_PK, gsi3sk: `${at}#${key.pk}#${key.sk}` };
  for (const entry of entries) fields[`${PREFIX}${entry.event.id}`] = { ...entry, event: toStoredEvent(entry.event) };
  return fields;
}

export const hasOutbox = (item: Record<string, unknown>): boolean => Object.keys(item).some((k) => k.startsWith(PREFIX));

/**
 * Publishes the item's unpublished events (and callbacks), then removes them. Safe to run any
 * number of times, concurrently too: at worst an event is published twice with the same id.
 */
export async function flushOutbox(ports: DeliveryPorts, key: Key, item?: Record<string, unknown>): Promise<number> {
  const current = item ?? (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  if (!current) return 0;
  const names = Object.keys(current).filter((k) => k.startsWith(PREFIX));
  if (names.length === 0) return 0;
  for (const name of names) {
    const stored = current[name] as Omit<OutboxEntry, 'event'> & { event: StoredEventEnvelope | EventEnvelope };
    const entry: OutboxEntry = { ...stored, event: fromStoredEvent(stored.event) };
    await publishEvent(ports, entry.organization_id, entry.event);
    if (entry.callback) await enqueueCallback(ports, { organizationId: entry.organization_id, url: entry.callback.url, secret: entry.callback.secret, event: entry.event });
  }
  const aliases: Record<string, string> = {};
  names.forEach((n, i) => (aliases[`#ob${i}`] = n));
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: `REMOVE ${Object.keys(aliases).join(', ')}, gsi3pk, gsi3sk`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: aliases,
      ReturnValues: 'ALL_NEW',
    }),
  ).catch((error: unknown) => {
    if (isConditionFailed(error)) return { Attributes: undefined };
    throw error;
  });
  // An event added by another state change while this one was publishing keeps its index entry.
  if (out.Attributes && hasOutbox(out.Attributes)) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
        ExpressionAttributeValues: { ':pk': INDEX_PK, ':sk': `${new Date().toISOString()}#${key.pk}#${key.sk}` },
      }),
    );
  }
  return names.length;
}

/** Publishes every event whose state change is older than `olderThanIso` and still unpublished. */
export async function drainOutbox(ports: DeliveryPorts, olderThanIso: string): Promise<{ items: number; events: number }> {
  let items = 0;
  let events = 0;
  // Read first, then publish: publishing removes the items from the index being read.
  const found: Record<string, unknown>[] = [];
  for await (const item of queryItems({ IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk < :before', ExpressionAttributeValues: { ':pk': INDEX_PK, ':before': olderThanIso } })) {
    found.push(item);
  }
  for (const item of found) {
    try {
      events += await flushOutbox(ports, { pk: String(item.pk), sk: String(item.sk) });
      items++;
    } catch (error) {
      logger.error('outbox item could not be published; the next drain retries it', { pk: item.pk, error: error as Error });
    }
  }
  if (events) logger.warn('published events a crash had left unpublished', { items, events });
  return { items, events };
}
