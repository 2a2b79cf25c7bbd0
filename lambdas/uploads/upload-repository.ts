import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, isConditionFailed, tableName } from '../platform/table';
import { cursorScope } from '../platform/cursor';
import { queryPage } from '../platform/paged-query';
import { transitionStatus } from '../platform/status-transition';
import type { UploadRecord, UploadStatus } from './upload';

const uploadKey = (id: string) => ({ pk: `UPLOAD#${id}`, sk: 'META' });

function toRecord(item: Record<string, unknown> | undefined): UploadRecord | null {
  if (!item) return null;
  const { pk: _a, sk: _b, gsi1pk: _c, gsi1sk: _d, entity: _e, ...rest } = item;
  return rest as unknown as UploadRecord;
}

/** False when an upload with this id exists already. */
export async function insertUpload(upload: UploadRecord): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...uploadKey(upload.id),
          entity: 'Upload',
          gsi1pk: `ORG#${upload.organization_id}#UPLOADS`,
          gsi1sk: `${upload.created_at}#${upload.id}`,
          // Sparse index of uploads still being charged, for the reconciler; removed on leaving `charging`.
          ...(upload.status === 'charging' ? { gsi2pk: 'UPLOAD#CHARGING', gsi2sk: `${upload.created_at}#${upload.id}` } : {}),
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

/** Moves an upload from one of `from` to `to` with `fields`; null when it was not in `from`. */
export async function transitionUpload(
  id: string,
  from: readonly (UploadStatus | 'charging')[],
  to: UploadStatus,
  fields: Partial<UploadRecord>,
  at: string,
): Promise<UploadRecord | null> {
  // Leaving `charging` also leaves the reconciler's sparse index.
  return toRecord((await transitionStatus(uploadKey(id), from, to, fields, at, ['gsi2pk', 'gsi2sk'])) ?? undefined);
}

export async function deleteChargingUpload(id: string): Promise<void> {
  await db()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: uploadKey(id),
        ConditionExpression: '#status = :charging',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':charging': 'charging' },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailed(error)) throw error;
    });
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

/** Uploads left in `charging` before `olderThan` (a crash between record, charge and visibility). */
export async function listStaleCharging(olderThanIso: string): Promise<UploadRecord[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :before',
      ExpressionAttributeValues: { ':pk': 'UPLOAD#CHARGING', ':before': olderThanIso },
      Limit: 100,
    }),
  );
  return (out.Items ?? []).map((item) => toRecord(item)!);
}
