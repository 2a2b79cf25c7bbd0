import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, queryItems, tableName, type Item, insertItem } from '../platform/table';
import { cursorScope } from '../platform/cursor';
import { queryPage } from '../platform/paged-query';
import { deleteIfStatus, transitionStatus } from '../platform/status-transition';
import type { ResultSummary, UploadRecord, UploadStatus } from './upload';
import * as z from '../platform/zod';
import { readEntity } from '../platform/table-read';
import { claimStale } from '../platform/index-claim';

/** A create call finishes in well under this; a `charging` upload older than this was interrupted. */
export const CREATE_BOUND_MS = 15 * 60_000;

const uploadKey = (id: string) => ({ pk: `UPLOAD#${id}`, sk: 'META' });

export const uploadItemKey = uploadKey;

const nullableNumber = z.nullable(z.number());
const resultSummary: z.ZodMiniType<ResultSummary> = z.lazySchema(() => z.looseObject({
  format: z.enum(['identity', 'answer_intent']),
  total_rows: z.number(),
  status_counts: z.record(z.string(), z.number()),
  identity_counts: z.record(z.string(), z.number()),
  has_answer_intent_column: z.boolean(),
  has_identity_column: z.boolean(),
  simulated: z.boolean(),
}));
const uploadSchema: z.ZodMiniType<UploadRecord> = z.lazySchema(() => z.looseObject({
  id: z.string(),
  user_id: z.string(),
  organization_id: z.string(),
  original_filename: z.string(),
  file_size_bytes: nullableNumber,
  status: z.enum(['charging', 'pending_mapping', 'validating', 'validation_failed', 'awaiting_confirmation', 'ready_for_processing', 'processing', 'completed', 'failed', 'cancelled']),
  valid_row_count: nullableNumber,
  valid_number_count: nullableNumber,
  invalid_row_count: nullableNumber,
  total_rows: z.number(),
  credits_required: nullableNumber,
  credits_charged: nullableNumber,
  credits_refunded: nullableNumber,
  source: z.enum(['web', 'api', 'api_pool']),
  api_key_id: z.nullable(z.string()),
  skip_mobile_lookup: z.boolean(),
  validation_tier: z.enum(['standard', 'max']),
  identity_enabled: z.boolean(),
  phone_columns: z.array(z.string()),
  name_columns: z.looseObject({ full: z.optional(z.string()), first: z.optional(z.string()), last: z.optional(z.string()) }),
  result_summary: z.nullable(resultSummary),
  export_count: z.number(),
  last_exported_at: z.nullable(z.string()),
  processed_available: z.boolean(),
  error_message: z.nullable(z.string()),
  exceeded_daily_limit: z.nullable(z.boolean()),
  created_at: z.string(),
  updated_at: z.string(),
  lookups_paid: z.optional(z.number()),
  lookups_cached: z.optional(z.number()),
  lookups_failed: z.optional(z.number()),
}));

const toRecord = (item: Item | undefined): UploadRecord | null => readEntity('Upload', uploadSchema, item);

/**
 * An upload that still owes something (to be charged, started, finished, refunded, or its pooled
 * contacts settled) is listed in the sparse index gsi2 (`UPLOAD#WATCH`) by the time after which
 * recovery takes it over. `null` leaves the index: nothing is owed any more.
 */
const WATCH_PK = 'UPLOAD#WATCH';
const watchKeys = (id: string, staleAt: string | null) =>
  staleAt === null ? {} : { gsi2pk: WATCH_PK, gsi2sk: `${staleAt}#${id}` };

/** False when an upload with this id exists already. A `charging` upload is watched from `created_at + CREATE_BOUND_MS`. */
export async function insertUpload(upload: UploadRecord, staleAt: string | null = upload.status === 'charging' ? new Date(Date.parse(upload.created_at) + CREATE_BOUND_MS).toISOString() : null): Promise<boolean> {
  return insertItem('Upload', {
    ...uploadKey(upload.id),
    gsi1pk: `ORG#${upload.organization_id}#UPLOADS`,
    gsi1sk: `${upload.created_at}#${upload.id}`,
    ...watchKeys(upload.id, staleAt),
    ...upload,
  });
}

export async function getUpload(id: string): Promise<UploadRecord | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: uploadKey(id), ConsistentRead: true }));
  return toRecord(out.Item);
}

/**
 * Moves an upload from one of `from` to `to` with `fields`; null when it was not in `from`.
 * `staleAt`: when recovery should take the upload over if it is still in `to` (null: never).
 */
export async function transitionUpload(
  id: string,
  from: readonly (UploadStatus | 'charging')[],
  to: UploadStatus,
  fields: Partial<UploadRecord> & Record<string, unknown>,
  at: string,
  staleAt: string | null = null,
): Promise<UploadRecord | null> {
  const watch = watchKeys(id, staleAt);
  return toRecord((await transitionStatus(uploadKey(id), from, to, { ...fields, ...watch }, at, staleAt === null ? ['gsi2pk', 'gsi2sk'] : [])) ?? undefined);
}

/** Nothing more is owed for this upload: it leaves the recovery index. */
export async function settleUpload(id: string): Promise<void> {
  await conditionalWrite(() =>
    db().send(new UpdateCommand({ TableName: tableName(), Key: uploadKey(id), UpdateExpression: 'REMOVE gsi2pk, gsi2sk', ConditionExpression: 'attribute_exists(pk)' })),
  );
}

/**
 * Uploads whose stale time has passed, each claimed for one recovery worker for `leaseMs`; with
 * `changedBeforeIso`, every watched upload last changed before then, stale or not (a restart).
 */
export function claimStaleUploads(nowMs: number, leaseMs: number, changedBeforeIso?: string): Promise<UploadRecord[]> {
  const keep = changedBeforeIso === undefined ? undefined : (item: Item) => String(item.updated_at) < changedBeforeIso;
  return claimStale({ index: 'gsi2', partition: WATCH_PK, nowMs, leaseMs, changed: 'updated_at', before: changedBeforeIso, keep }, {
    keyOf: (item) => ({ key: uploadKey(String(item.id)), id: String(item.id) }),
    read: (base) => toRecord(base)!,
  });
}

export async function deleteChargingUpload(id: string): Promise<void> {
  await deleteIfStatus(uploadKey(id), 'charging');
}

export async function recordExport(id: string, at: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: uploadKey(id),
      UpdateExpression: 'ADD export_count :one SET last_exported_at = :at',
      ExpressionAttributeValues: { ':one': 1, ':at': at },
    }),
  );
}

/** Newest first: created_at descending, then id descending (the sort key is `<created_at>#<id>`). */
export async function listUploads(orgId: string, limit: number, cursor?: string): Promise<{ data: UploadRecord[]; nextCursor: string | null }> {
  return queryPage({
    scope: cursorScope('uploads', orgId),
    index: 'gsi1',
    partition: `ORG#${orgId}#UPLOADS`,
    limit,
    cursor,
    // Internal `charging` records are not uploads yet.
    visible: (item) => item.status !== 'charging',
    map: (item) => toRecord(item)!,
  });
}


/** Every upload of the organization created at or after `sinceIso`, oldest first (internal `charging` records left out). */
export async function* uploadsCreatedSince(orgId: string, sinceIso: string): AsyncGenerator<UploadRecord> {
  for await (const item of queryItems({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :since',
    ExpressionAttributeValues: { ':pk': `ORG#${orgId}#UPLOADS`, ':since': sinceIso },
  })) {
    if (item.status !== 'charging') yield toRecord(item)!;
  }
}
