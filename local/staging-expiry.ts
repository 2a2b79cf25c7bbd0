import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { entries, stat } from './file-store-repair';

// The embedded store's stand-in for the deployed files bucket's `staging` lifecycle rule
// (lib/uploads-construct.ts, `retention.stagingDays`, 2 days by default): a staged file is removed
// two days after it was posted. A create deletes its staged file once the upload holds its own copy
// (lambdas/uploads/staging.ts); this removes the rest, as the rule does in AWS: files staged and
// never made into an upload, and those a create left (killed before its delete, or a create that
// failed with a 5xx and was finished by recovery). Without it a local store kept them for good.
// s3rver keeps an object as files next to each other (`<key>._S3rver_object`, `.md5`,
// `_metadata.json`); they go together, the bytes last, so an object is never left half-described.

/** As the deployed default (`retention.stagingDays`): two days after the file was staged. */
export const STAGED_FILE_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;

const STAGING = 'staging';
const OBJECT = '._S3rver_object';
const SIDE_FILES = ['._S3rver_object.md5', '._S3rver_metadata.json'];

/** Removes every object under `staging/` of each bucket under `root` staged more than `maxAgeMs` before `now`; answers them as bucket/key. */
export function removeExpiredStagedFiles(root: string, now = Date.now(), maxAgeMs = STAGED_FILE_MAX_AGE_MS): string[] {
  const removed: string[] = [];
  for (const bucket of entries(root)) {
    if (bucket.isDirectory()) sweep(join(root, bucket.name, STAGING), `${bucket.name}/${STAGING}`, now, maxAgeMs, removed);
  }
  return removed;
}

function sweep(dir: string, prefix: string, now: number, maxAgeMs: number, removed: string[]): void {
  for (const entry of entries(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      sweep(path, `${prefix}/${entry.name}`, now, maxAgeMs, removed);
      continue;
    }
    if (!entry.name.endsWith(OBJECT)) continue;
    // A staged file is written once (a presigned POST) and never changed: its bytes' time is when it was staged.
    const staged = stat(path);
    if (!staged || now - staged.mtimeMs <= maxAgeMs) continue;
    const base = path.slice(0, -OBJECT.length);
    for (const side of SIDE_FILES) rmSync(base + side, { force: true });
    rmSync(path, { force: true });
    removed.push(`${prefix}/${entry.name.slice(0, -OBJECT.length)}`);
  }
}
