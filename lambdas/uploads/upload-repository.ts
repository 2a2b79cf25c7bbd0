import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, queryItems, tableName } from '../platform/table';
import { cursorScope } from '../platform/cursor';
import { queryPage } from '../platform/paged-query';
import { deleteIfStatus, transitionStatus } from '../platform/status-transition';
import { withoutOutbox } from '../events/outbox';
import type { UploadRecord, UploadStatus } from './upload';

/** A create call finishes in well under this; a `charging` upload older than this was interrupted. */
export const CREATE_BOUND_MS = 15 * 60_000;

const uploadKey = (id: string) => ({ pk: `UPLOAD#${id}`, sk: 'META' });

export const uploadItemKey = uploadKey;

function toRecord(item: Record<string, unknown> | undefined): UploadRecord | null {
  if (!item) return null;
  const { pk: _a, sk: _b, gsi1pk: _c, gsi1sk: _d, gsi2pk: _w, gsi2sk: _x, entity: _e, ...rest } = withoutOutbox(item);
  return rest as unknown as UploadRecord;
}

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
  return conditionalWrite(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...uploadKey(upload.id),
          entity: 'Upload',
          gsi1pk: `ORG#${upload.organization_id}#UPLOADS`,
          gsi1sk: `${upload.created_at}#${upload.id}`,
          ...watchKeys(upload.id, staleAt),
          ...upload,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
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
export async function claimStaleUploads(nowMs: number, leaseMs: number, changedBeforeIso?: string): Promise<UploadRecord[]> {
  const onlyStale = changedBeforeIso === undefined;
  // Read first, then claim: a claim moves the item within the index being read.
  const found: Record<string, unknown>[] = [];
  for await (const item of queryItems({
    IndexName: 'gsi2',
    KeyConditionExpression: onlyStale ? 'gsi2pk = :pk AND gsi2sk < :now' : 'gsi2pk = :pk',
    ExpressionAttributeValues: onlyStale ? { ':pk': WATCH_PK, ':now': new Date(nowMs).toISOString() } : { ':pk': WATCH_PK },
  })) {
    if (changedBeforeIso === undefined || String(item.updated_at) < changedBeforeIso) found.push(item);
  }
  const claimed: UploadRecord[] = [];
  for (const item of found) {
    const id = String(item.id);
    const ok = await conditionalWrite(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: uploadKey(id),
          UpdateExpression: 'SET gsi2sk = :next',
          ConditionExpression: 'gsi2sk = :seen',
          ExpressionAttributeValues: { ':seen': item.gsi2sk, ':next': `${new Date(nowMs + leaseMs).toISOString()}#${id}` },
        }),
      ),
    );
    if (ok) claimed.push(toRecord(item)!);
  }
  return claimed;
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

