import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { badRequest } from '../platform/errors';
import { nowUnix } from '../platform/clock';
import { newId } from '../platform/ids';
import { filesBucket, getObject, linkSigner } from '../platform/blob';
import { MAX_CSV_BYTES } from './request';

// Large files in AWS: API Gateway carries at most 10 MB, so a CSV up to 100 MB goes to S3 first
// through a presigned POST whose policy bounds its size (a presigned PUT could not), then the
// create call names the staged object and the same rules apply to it.

const STAGING_SECONDS = 3600;
const stagedKey = (orgId: string, id: string) => `staging/${orgId}/${id}.csv`;

export async function stageUpload(orgId: string) {
  const id = newId();
  const post = await createPresignedPost(linkSigner(), {
    Bucket: filesBucket(),
    Key: stagedKey(orgId, id),
    Conditions: [['content-length-range', 1, MAX_CSV_BYTES]],
    Expires: STAGING_SECONDS,
  });
  return { staged_upload_id: id, url: post.url, fields: post.fields, expires_at: nowUnix() + STAGING_SECONDS, max_bytes: MAX_CSV_BYTES };
}

/** The staged CSV of this organization (another organization's id finds nothing). */
export async function readStaged(orgId: string, id: string): Promise<Buffer> {
  const bytes = await getObject(filesBucket(), stagedKey(orgId, id));
  if (!bytes) throw badRequest(`No staged file for staged_upload_id ${id}: POST the file to the staging URL first (links expire after an hour)`);
  return bytes;
}
