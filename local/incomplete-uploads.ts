import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { entries, stat, UPLOADS_FOLDER } from './file-store-repair';

// The embedded store's stand-in for the deployed buckets' lifecycle rule
// (lib/data-construct.ts, abortIncompleteMultipartUploadAfter): a multipart upload never completed
// (a writer that failed or was killed: lambdas/platform/blob.ts's objectWriter never aborts one)
// is removed a day after it started. s3rver keeps each upload's parts in a folder of its own,
// `<bucket>/._S3rver_uploads/<upload id>/`, and removes it only when the upload completes, so
// without this a local store kept every failed Finalize's parts for good.

/** As the deployed rule: a day after the upload started. */
export const INCOMPLETE_UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How often a running store looks for them. */
export const INCOMPLETE_UPLOAD_SWEEP_MS = 60 * 60 * 1000;

/** Removes every upload under `root` (the store's folder, a folder per bucket) started more than `maxAgeMs` before `now`; answers them as bucket/upload id. */
export function removeIncompleteUploads(root: string, now = Date.now(), maxAgeMs = INCOMPLETE_UPLOAD_MAX_AGE_MS): string[] {
  const removed: string[] = [];
  for (const bucket of folders(root)) {
    const uploads = join(root, bucket, UPLOADS_FOLDER);
    for (const id of folders(uploads)) {
      const dir = join(uploads, id);
      // s3rver writes the upload's `key` once, when it starts it; without one (a start cut off), the folder's own time.
      const started = stat(join(dir, 'key')) ?? stat(dir);
      if (!started || now - started.mtimeMs <= maxAgeMs) continue;
      rmSync(dir, { recursive: true, force: true });
      removed.push(`${bucket}/${id}`);
    }
  }
  return removed;
}

function folders(dir: string): string[] {
  return entries(dir)
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}
