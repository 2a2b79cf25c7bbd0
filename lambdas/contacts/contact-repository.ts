import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, tableName, type Item, insertItem } from '../platform/table';
import type { EntityName } from '../platform/table-entities';
import { cursorScope } from '../platform/cursor';
import { queryPage } from '../platform/paged-query';
import { deleteIfStatus, transitionStatus } from '../platform/status-transition';
import * as z from '../platform/zod';
import { fromJsonText, toJsonText } from '../platform/json-text';
import { readEntity } from '../platform/table-read';
import { claimStale } from '../platform/index-claim';
import type { ContactRecord, ContactStatus } from './contact';
import { StoredSecretSchema } from '../webhooks/secret-sealer';

const contactKey = (id: string) => ({ pk: `CONTACT#${id}`, sk: 'META' });
export const contactItemKey = contactKey;
const byOrg = (orgId: string) => `ORG#${orgId}#CONTACTS`;
const byOrgStatus = (orgId: string, status: string) => `ORG#${orgId}#CONTACTS#${status}`;
/** Queued contacts waiting for the pool (gsi3), spread over shards so one partition never gets hot. */
const QUEUE_SHARDS = 8;
const queueShard = (contactId: string) => `CONTACTQ#${parseInt(contactId.slice(0, 2), 16) % QUEUE_SHARDS}`;

function indexKeys(contact: ContactRecord) {
  return {
    gsi1pk: byOrg(contact.organization_id),
    gsi1sk: `${contact.created_at}#${contact.id}`,
    gsi2pk: byOrgStatus(contact.organization_id, contact.status),
    gsi2sk: `${contact.created_at}#${contact.id}`,
  };
}

const contactSchema: z.ZodMiniType<ContactRecord> = z.lazySchema(() => z.looseObject({
  id: z.string(),
  organization_id: z.string(),
  api_key_id: z.string(),
  phone: z.string(),
  // JSON text (platform/json-text.ts); a map in items written before.
  properties: z.pipe(z.union([z.string(), z.record(z.string(), z.unknown())]), z.transform((v) => fromJsonText<Record<string, unknown>>(v))),
  status: z.enum(['creating', 'queued', 'processing', 'completed', 'failed', 'discarded']),
  validation_tier: z.enum(['standard', 'max']),
  credits_charged: z.number(),
  batch_position: z.nullable(z.number()),
  batch_sequence: z.optional(z.number()),
  answer_intent: z.nullable(z.enum(['Likely Answer', 'Likely Call Screening', 'Likely Voicemail', 'Non-Mobile', 'Unknown'])),
  identity: z.nullable(z.enum(['Very High', 'High', 'Medium', 'Low', 'Unknown'])),
  error_message: z.nullable(z.string()),
  callback_url: z.nullable(z.string()),
  callback_secret: z.nullable(StoredSecretSchema),
  pool_upload_id: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
}));

const toRecord = (item: Item | undefined): ContactRecord | null => readEntity('Contact', contactSchema, item);

/**
 * While `creating`, a contact is listed for recovery (gsi3) by the time it becomes stale. Creates no
 * longer write `creating` contacts (an idempotency claim is the durable record now); those an
 * earlier version left are still recovered.
 */
const RECOVERY_PK = 'RECOVER#Contact';

/** Writes a new contact; false when one with this id exists already. */
export async function insertContact(contact: ContactRecord, staleAt: string): Promise<boolean> {
  return insertItem('Contact', { ...contactKey(contact.id), ...indexKeys(contact), gsi3pk: RECOVERY_PK, gsi3sk: `${staleAt}#${contact.id}`, ...contact, properties: toJsonText(contact.properties) });
}

/**
 * A new contact, written once as `queued` with its queue entry (gsi3), as an item for the batch
 * write that also carries its ledger entry (create-contact.ts).
 */
export function queuedContactItem(contact: ContactRecord): { entity: EntityName; item: Item } {
  return { entity: 'Contact', item: { ...contactKey(contact.id), ...indexKeys(contact), ...queueIndexKeys(contact), ...contact, properties: toJsonText(contact.properties) } };
}

/** Writes a new queued contact only when none with its id exists (a create finished after an interruption); false when one does. */
export async function insertQueuedContact(contact: ContactRecord): Promise<boolean> {
  const { item } = queuedContactItem(contact);
  return insertItem('Contact', item);
}

/** Removes a contact that never became visible (its creation was refused). */
export async function deleteCreatingContact(id: string): Promise<void> {
  await deleteIfStatus(contactKey(id), 'creating');
}

export async function getContact(id: string): Promise<ContactRecord | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: contactKey(id), ConsistentRead: true }));
  return toRecord(out.Item);
}

/**
 * Moves a contact between states, only from one of `from` (so two workers never both complete
 * it), setting `fields` too. Returns the updated contact, or null when it was not in `from`.
 */
export async function transitionContact(
  contact: Pick<ContactRecord, 'id' | 'organization_id' | 'created_at'>,
  from: readonly (ContactStatus | 'creating')[],
  to: ContactStatus,
  fields: Partial<ContactRecord> & Record<string, unknown>,
  at: string,
  remove: readonly string[] = [],
): Promise<ContactRecord | null> {
  // The by-status index key moves with the status.
  return toRecord((await transitionStatus(contactKey(contact.id), from, to, { ...fields, gsi2pk: byOrgStatus(contact.organization_id, to) }, at, remove)) ?? undefined);
}

/**
 * Contacts left in `creating` past their stale time, each claimed for one recovery worker: the
 * claim moves its stale time `leaseMs` ahead in a conditional write, so overlapping recovery runs
 * never drive the same contact at once.
 */
export function claimStaleCreating(nowMs: number, leaseMs: number, createdBeforeIso?: string): Promise<ContactRecord[]> {
  return claimStale({ index: 'gsi3', partition: RECOVERY_PK, nowMs, leaseMs, changed: 'created_at', before: createdBeforeIso, max: 200 }, {
    keyOf: (item) => ({ key: contactKey(String(item.id)), id: String(item.id) }),
    qualifies: (current) => current.status === 'creating',
    also: { expression: '#status = :creating', names: { '#status': 'status' }, values: { ':creating': 'creating' } },
    read: (base) => toRecord(base)!,
  });
}

export interface Page {
  data: ContactRecord[];
  nextCursor: string | null;
}

export async function listContacts(orgId: string, options: { status?: ContactStatus; limit: number; cursor?: string }): Promise<Page> {
  // v1 and v2 list the same contacts, so a cursor of one serves the other; the status filter is
  // part of the list.
  return queryPage({
    scope: cursorScope('contacts', orgId, { status: options.status }),
    index: options.status ? 'gsi2' : 'gsi1',
    partition: options.status ? byOrgStatus(orgId, options.status) : byOrg(orgId),
    limit: options.limit,
    cursor: options.cursor,
    visible: (item) => item.status !== 'creating',
    map: (item) => toRecord(item)!,
  });
}

/**
 * A contact waiting for the pool. Since the queue moved onto the contact item itself, `legacy` is
 * false; a `ContactQueueEntry` item written before that (its own item in `CONTACTQ#<shard>`) is
 * still read and removed, so no contact queued before an upgrade is stranded.
 */
export interface QueueEntry {
  contact_id: string;
  organization_id: string;
  created_at: string;
  shard: string;
  sk: string;
  legacy: boolean;
}

/**
 * The attributes that put a contact in the pool's queue (gsi3, sparse): written in the same
 * conditional write as `creating → queued`, so a queued contact without a queue entry cannot
 * exist. They replace the recovery entry (also gsi3) the contact had while `creating`.
 */
export function queueIndexKeys(contact: Pick<ContactRecord, 'id' | 'created_at'>): { gsi3pk: string; gsi3sk: string } {
  return { gsi3pk: queueShard(contact.id), gsi3sk: `${contact.created_at}#${contact.id}` };
}

/** Oldest queued contacts first, across all organizations. */
export async function readQueue(limitPerShard: number): Promise<QueueEntry[]> {
  const entries: QueueEntry[] = [];
  for (let shard = 0; shard < QUEUE_SHARDS; shard++) {
    const pk = `CONTACTQ#${shard}`;
    const indexed = await db().send(
      new QueryCommand({ TableName: tableName(), IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Limit: limitPerShard }),
    );
    for (const item of indexed.Items ?? []) {
      entries.push({ contact_id: String(item.id), organization_id: String(item.organization_id), created_at: String(item.created_at), shard: pk, sk: String(item.gsi3sk), legacy: false });
    }
    const legacy = await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Limit: limitPerShard }));
    for (const item of legacy.Items ?? []) {
      entries.push({ contact_id: String(item.contact_id), organization_id: String(item.organization_id), created_at: String(item.created_at), shard: pk, sk: String(item.sk), legacy: true });
    }
  }
  return entries.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/**
 * Takes a contact out of the queue. Only the queue's own index entry is removed: a contact that
 * meanwhile carries another gsi3 entry (its outbox, once terminal) keeps it.
 */
export async function dequeue(entry: Pick<QueueEntry, 'contact_id' | 'shard' | 'sk' | 'legacy'>): Promise<void> {
  if (entry.legacy) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: entry.shard, sk: entry.sk } }));
    return;
  }
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: contactKey(entry.contact_id),
        UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
        ConditionExpression: 'gsi3pk = :pk AND gsi3sk = :sk',
        ExpressionAttributeValues: { ':pk': entry.shard, ':sk': entry.sk },
      }),
    ),
  );
}
