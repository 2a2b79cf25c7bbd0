import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { OBJECT_DIGEST, PARTIAL_SUFFIX } from './atomic-file-store';

// s3rver keeps each object as three files next to each other:
//   <name>._S3rver_object          the bytes
//   <name>._S3rver_object.md5      their digest (hex; the name is s3rver's: atomic-file-store.ts's OBJECT_DIGEST, or MD5)
//   <name>._S3rver_metadata.json   content type and user metadata (JSON)
// Stock s3rver truncates and rewrites each in place, so a kill -9 could leave a zero-byte or
// half-written file; s3rver then answered 500 for the object and even for HeadBucket on its
// bucket, and every later start failed. Puts now write whole files, in that order
// (local/atomic-file-store.ts), but a crash between two of them, or a folder written by an older
// version, still leaves incomplete objects. On start, each object is checked and one that is not
// whole is taken out of the store, as if never put (the service's own recovery treats a missing
// object like any other unfinished step). Taken out, not deleted: what looks like an interrupted
// put may be a finished file damaged since (a disk error, a hand edit), and its bytes are moved
// to a quarantine folder beside the store for the operator to look at.

const SUFFIX = '._S3rver_';
/** s3rver's folder of a bucket's multipart uploads, a folder per upload holding its parts. */
export const UPLOADS_FOLDER = `${SUFFIX}uploads`;
const OBJECT = `${SUFFIX}object`;
const MD5 = `${SUFFIX}object.md5`;
const METADATA = `${SUFFIX}metadata.json`;

export interface RepairReport {
  /** Temporary files of puts never finished, removed (never an object). */
  removed: string[];
  /** Keys (bucket/key) of objects not whole, moved to `quarantine` (their files under bucket/key). */
  quarantined: string[];
}

/** Scans every bucket under `root`: removes temporary files, moves objects that are not whole into `quarantine`. */
export function repairFileStore(root: string, quarantine: string): RepairReport {
  const report: RepairReport = { removed: [], quarantined: [] };
  for (const bucket of entries(root)) if (bucket.isDirectory()) repairDirectory(join(root, bucket.name), bucket.name, report, quarantine);
  return report;
}

function repairDirectory(dir: string, prefix: string, report: RepairReport, quarantine: string): void {
  const removed = report.removed;
  const names = new Set<string>();
  for (const entry of entries(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      repairDirectory(path, `${prefix}/${entry.name}`, report, quarantine);
      continue;
    }
    const at = entry.name.lastIndexOf(SUFFIX);
    // A temporary file a crash left behind (an object's, or a part's in a multipart upload's
    // folder, `._S3rver_uploads/<upload>/<part>.<uuid>.partial`), or a bucket's own configuration
    // (._S3rver_cors.xml, …) cut off while stock s3rver wrote it.
    if ((entry.name.endsWith(PARTIAL_SUFFIX) && (at >= 0 || prefix.includes(UPLOADS_FOLDER))) || (at === 0 && stat(path)?.size === 0)) {
      rmSync(path, { force: true });
      removed.push(`${prefix}/${entry.name}`);
      continue;
    }
    if (at > 0 && [OBJECT, MD5, METADATA].includes(entry.name.slice(at))) names.add(entry.name.slice(0, at));
  }
  for (const name of names) {
    const base = join(dir, name);
    if (isComplete(base)) continue;
    for (const suffix of [OBJECT, MD5, METADATA]) {
      if (!stat(base + suffix)) continue;
      const to = join(quarantine, prefix, name + suffix);
      mkdirSync(dirname(to), { recursive: true });
      renameSync(base + suffix, to);
    }
    report.quarantined.push(`${prefix}/${name}`);
  }
}

function isComplete(base: string): boolean {
  const object = stat(base + OBJECT);
  const metadata = stat(base + METADATA);
  if (!object || !metadata || !parsesAsJsonObject(base + METADATA)) return false;
  const md5 = stat(base + MD5);
  const digest = md5 ? readFileSync(base + MD5, 'utf8') : null;
  if (digest !== null && !/^(?:[0-9a-f]{32}|[0-9a-f]{64})$/.test(digest)) return false;
  // Written in the order bytes, checksum, metadata. Bytes newer than what describes them were
  // being rewritten when the process died; so were bytes on which stock s3rver's own writes
  // raced, so the checksum decides: matching bytes are whole. (s3rver recomputes a missing .md5.)
  const inOrder = object.mtimeMs <= metadata.mtimeMs && (!md5 || (object.mtimeMs <= md5.mtimeMs && md5.mtimeMs <= metadata.mtimeMs));
  if (inOrder) return true;
  return digest !== null && digestOf(base + OBJECT, digest.length === 32 ? 'md5' : OBJECT_DIGEST) === digest;
}

/**
 * A file's digest, read in 1 MiB pieces (objects reach 100 MB): MD5 for a 32-digit digest (s3rver's
 * own, and this store's before it kept OBJECT_DIGEST), else OBJECT_DIGEST.
 */
function digestOf(path: string, algorithm: string): string {
  const hash = createHash(algorithm);
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  const fd = openSync(path, 'r');
  try {
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

function parsesAsJsonObject(path: string): boolean {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** A file's or folder's stat, or null when there is none. */
export function stat(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** A folder's entries, or none when it cannot be read. */
export function entries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
