import { readdirSync, readFileSync, rmSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

// s3rver keeps each object as three files next to each other, written one after the other:
//   <name>._S3rver_object          the bytes (streamed)
//   <name>._S3rver_object.md5      its MD5 (hex)
//   <name>._S3rver_metadata.json   content type and user metadata (JSON)
// Each write truncates and rewrites in place, so a kill -9 between or during them leaves a
// zero-byte or half-written file, or bytes newer than their checksum and metadata. s3rver then
// answers 500 for the object and even for HeadBucket on its bucket, and every later start fails.
// A put is complete only when its three files are complete and were written in that order, so
// anything else is an interrupted put: it is removed, as if it never happened (the service's own
// recovery treats a missing object like any other unfinished step).

const SUFFIX = '._S3rver_';
const OBJECT = `${SUFFIX}object`;
const MD5 = `${SUFFIX}object.md5`;
const METADATA = `${SUFFIX}metadata.json`;

export interface RepairReport {
  /** Keys (bucket/key) whose interrupted put was removed. */
  removed: string[];
}

/** Scans every bucket under `root` and removes the files of interrupted puts. */
export function repairFileStore(root: string): RepairReport {
  const removed: string[] = [];
  for (const bucket of entries(root)) if (bucket.isDirectory()) repairDirectory(join(root, bucket.name), bucket.name, removed);
  return { removed };
}

function repairDirectory(dir: string, prefix: string, removed: string[]): void {
  const names = new Set<string>();
  for (const entry of entries(dir)) {
    if (entry.isDirectory()) {
      repairDirectory(join(dir, entry.name), `${prefix}/${entry.name}`, removed);
      continue;
    }
    const at = entry.name.lastIndexOf(SUFFIX);
    // A bucket's own configuration (._S3rver_cors.xml, ...) cut off while written.
    if (at === 0 && stat(join(dir, entry.name))?.size === 0) {
      rmSync(join(dir, entry.name), { force: true });
      removed.push(`${prefix}/${entry.name}`);
    }
    if (at > 0 && [OBJECT, MD5, METADATA].includes(entry.name.slice(at))) names.add(entry.name.slice(0, at));
  }
  for (const name of names) {
    const base = join(dir, name);
    if (isComplete(base)) continue;
    for (const suffix of [OBJECT, MD5, METADATA]) rmSync(base + suffix, { force: true });
    removed.push(`${prefix}/${name}`);
  }
}

function isComplete(base: string): boolean {
  const object = stat(base + OBJECT);
  const metadata = stat(base + METADATA);
  const md5 = stat(base + MD5);
  if (!object || !metadata || !parsesAsJson(base + METADATA)) return false;
  // Written in the order object, md5, metadata: bytes newer than what describes them were being
  // rewritten when the process died. (s3rver recomputes a missing .md5 itself.)
  if (object.mtimeMs > metadata.mtimeMs) return false;
  if (md5) {
    if (!/^[0-9a-f]{32}$/.test(readFileSync(base + MD5, 'utf8'))) return false;
    if (object.mtimeMs > md5.mtimeMs || md5.mtimeMs > metadata.mtimeMs) return false;
  }
  return true;
}

function parsesAsJson(path: string): boolean {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

function stat(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function entries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
