import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, InvalidInput, isRefusal, TooLarge } from '../platform/domain-errors';
import { nowIso, nowMs, nowUnix } from '../platform/clock';
import { newId } from '../platform/ids';
import { conditionalWrite, db, tableName, insertItem } from '../platform/table';
import { copyObject, deleteObjects, discardObjectStream, filesBucket, getObjectStream, linkSigner, readObjectStream, type ObjectStream } from '../platform/blob';
import { crashPoint } from '../platform/crash-point';
import { logger } from '../platform/logger';
import type { StreamedCsv } from './original-csv';
import { MAX_CSV_BYTES } from './request';
import { lazyModule } from '../platform/aws/lazy-module';

/** The presigned-POST builder, loaded at first use (staging is a large file's first step only). */
const presignedPost = /* @__PURE__ */ lazyModule(() => import('../platform/aws/sdk/s3-presigned-post'));
import { getUpload } from './upload-repository';

// Large files in AWS: API Gateway carries at most 10 MB and a Lambda takes a 6 MB event (binary
// bodies base64 encoded, so a multipart body over about 4.7 MB), so a CSV or a JSON document up to
// 100 MB goes to S3 first through a presigned POST whose policy bounds its size (a presigned PUT
// could not), then the create call names the staged object and the same rules apply to it.

const STAGING_SECONDS = 3600;
export type StagedFormat = 'csv' | 'json';
const stagedKey = (orgId: string, id: string, format: StagedFormat = 'csv') => `staging/${orgId}/${id}.${format}`;

export async function stageUpload(orgId: string, format: StagedFormat = 'csv') {
  const id = newId();
  const [{ createPresignedPost }, signer] = await Promise.all([presignedPost(), linkSigner()]);
  const post = await createPresignedPost(signer, {
    Bucket: filesBucket(),
    Key: stagedKey(orgId, id, format),
    Conditions: [['content-length-range', 1, MAX_CSV_BYTES]],
    Expires: STAGING_SECONDS,
  });
  return { staged_upload_id: id, format, url: post.url, fields: post.fields, expires_at: nowUnix() + STAGING_SECONDS, max_bytes: MAX_CSV_BYTES };
}

/** The staged JSON document of this organization, or null when the id was staged as CSV (or not at all). */
export async function readStagedJson(orgId: string, id: string): Promise<Buffer | null> {
  return readStagedObject(stagedKey(orgId, id, 'json'));
}

const noStagedFile = (id: string) => new InvalidInput(`No staged file for staged_upload_id ${id}: POST the file to the staging URL first (links expire after an hour)`);

/** The staged CSV of this organization (another organization's id finds nothing). */
export async function readStaged(orgId: string, id: string): Promise<Buffer> {
  const bytes = await readStagedObject(stagedKey(orgId, id));
  if (!bytes) throw noStagedFile(id);
  return bytes;
}

async function readStagedObject(key: string): Promise<Buffer | null> {
  const object = await getObjectStream(filesBucket(), key);
  return object && readObjectStream(withinLimit(object));
}

/**
 * The staging policy bounds the file's size and S3 enforces it, but the object is checked again
 * before anything is charged for it: a store that let a larger file in (the embedded one checks the
 * policy against the whole form's length) must not make a larger upload than the API accepts.
 */
function withinLimit(object: ObjectStream): ObjectStream {
  if (object.length <= MAX_CSV_BYTES) return object;
  discardObjectStream(object);
  throw new TooLarge(`The staged file is ${object.length} bytes; at most ${MAX_CSV_BYTES} bytes (100 MB)`);
}

/**
 * The staged CSV a create call names, opened by create once it holds the claim: read as a stream,
 * then copied to the original's key inside the store, on condition that it is still the version
 * read. (Here, not in create: functions that create only from bytes, the contact pool's, bundle
 * no staged read.)
 */
export function stagedCsv(orgId: string, id: string): StreamedCsv {
  return {
    open: async () => {
      const key = stagedKey(orgId, id);
      const found = await getObjectStream(filesBucket(), key);
      if (!found) throw noStagedFile(id);
      const object = withinLimit(found);
      return { body: object.body, length: object.length, storeAs: (to) => copyObject(filesBucket(), key, to, 'text/csv', object.etag) };
    },
  };
}

// A staged file makes one upload. The claim is one guard item keyed by the staged id, written with
// a single conditional put before anything is charged, so of two creates naming the same staged id
// (in sequence or at the same instant) exactly one goes on; the other is a 409 and charges nothing.
// Claims outlive the staged object (deleted once its create succeeded, else after 2 days by the
// bucket's lifecycle rule), so a reused id is always a 409, never a silent second upload.
const CLAIM_TTL_SECONDS = 30 * 86_400;
const claimKey = (orgId: string, id: string) => ({ pk: `STAGED#${orgId}#${id}`, sk: 'CLAIM' });

/**
 * Runs `create(uploadId)` at most once per staged id. A create refused with a 4xx (bad mapping, too
 * few numbers, insufficient credits: refused before or by the charge, so nothing was charged)
 * releases the claim, so the same staged file can be used again once the request is fixed. A
 * create that succeeded holds its own copy (its original), and the id can make no other upload:
 * the staged object is deleted then, not kept until the lifecycle rule's two days (for good, on
 * the embedded store, which has no such rule). A create that failed keeps it for a retry.
 */
export async function createFromStagedOnce<T>(orgId: string, stagedId: string, create: (uploadId: string) => Promise<T>): Promise<T> {
  const uploadId = newId();
  const key = claimKey(orgId, stagedId);
  const claimed = await insertItem('StagedUploadClaim', { ...key, organization_id: orgId, upload_id: uploadId, claimed_at: nowIso(), ttl: nowUnix() + CLAIM_TTL_SECONDS });
  if (!claimed && !(await takeOverAbandonedClaim(key, uploadId))) throw (await claimState(orgId, stagedId))?.conflict ?? new Conflict(`staged_upload_id ${stagedId} is in use by a create still under way; retry in a few minutes`);
  let made: T;
  try {
    made = await create(uploadId);
  } catch (error) {
    if (isRefusal(error)) await releaseClaim(key, uploadId);
    throw error;
  }
  // Killed here, the staged object stays until the lifecycle rule removes it; a retry of the create is a 409 (used).
  crashPoint('upload.after-staged-create');
  await deleteStaged(orgId, stagedId);
  return made;
}

/**
 * Deletes a used staged file, CSV or JSON (the id names one; deleting the other is a delete of
 * nothing). The upload (or the console's draft) holds its own copy by then, so a failed delete
 * does not fail it: it is logged, and the lifecycle rule removes the file.
 */
export async function deleteStaged(orgId: string, id: string): Promise<void> {
  const staged = [stagedKey(orgId, id, 'csv'), stagedKey(orgId, id, 'json')];
  try {
    await deleteObjects(filesBucket(), staged);
  } catch (error) {
    logger.warn('staged file not deleted after its upload was created; the staging lifecycle rule removes it', { staged_upload_id: id, organization_id: orgId, keys: staged, error: error as Error });
  }
}

/** Whether a create holds the staged id or has made its upload, with the 409 that says which; null when none does. */
async function claimState(orgId: string, stagedId: string): Promise<{ used: boolean; conflict: Conflict } | null> {
  const existing = await db().send(new GetCommand({ TableName: tableName(), Key: claimKey(orgId, stagedId), ConsistentRead: true }));
  if (!existing.Item) return null;
  const holder = existing.Item.upload_id ? String(existing.Item.upload_id) : null;
  const upload = holder ? await getUpload(holder) : null;
  const again = 'To upload it again, POST /api/v1/uploads/staging for a new staged_upload_id and send the file there';
  if (upload && upload.status !== 'charging') return { used: true, conflict: new Conflict(`staged_upload_id ${stagedId} was already used by upload ${holder}; a staged file makes one upload. ${again}`) };
  // Its create is under way, or was cut off mid-charge and recovery finishes it (docs/uploads.md).
  return { used: false, conflict: new Conflict(`staged_upload_id ${stagedId} is in use by a create still under way${holder ? ` (upload ${holder})` : ''}; a staged file makes one upload. If that create does not finish, retry in a few minutes. ${again}`) };
}

/**
 * The 409 for a staged id whose upload was made, or null. Its file is deleted then, so a JSON
 * create body staged under it is gone, and without this a reuse would read as an unknown id (400).
 */
export async function usedStagedId(orgId: string, stagedId: string): Promise<Conflict | null> {
  const state = await claimState(orgId, stagedId);
  return state?.used ? state.conflict : null;
}

/** A request lives at most 30 s behind API Gateway: a claim this old whose upload never appeared was abandoned. */
const ABANDONED_CLAIM_MS = 2 * 60_000;

/**
 * A create killed after its claim and before its upload record existed charged nothing (the charge
 * comes after the record): its claim passes to this create, so the retry goes on instead of naming
 * an upload that does not exist. A record in `charging` is recovery's; the claim stays with it.
 */
async function takeOverAbandonedClaim(key: { pk: string; sk: string }, uploadId: string): Promise<boolean> {
  const existing = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  const holder = existing.Item?.upload_id as string | undefined;
  const claimedAt = Date.parse(String(existing.Item?.claimed_at ?? ''));
  if (!holder || !(nowMs() - claimedAt > ABANDONED_CLAIM_MS) || (await getUpload(holder))) return false;
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET upload_id = :mine, claimed_at = :at',
        ConditionExpression: 'upload_id = :abandoned',
        ExpressionAttributeValues: { ':mine': uploadId, ':at': nowIso(), ':abandoned': holder },
      }),
    ),
  );
}

async function releaseClaim(key: { pk: string; sk: string }, uploadId: string): Promise<void> {
  await conditionalWrite(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ConditionExpression: 'upload_id = :mine',
        ExpressionAttributeValues: { ':mine': uploadId },
      }),
    ),
  );
}
