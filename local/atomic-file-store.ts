import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crashPoint } from '../lambdas/platform/crash-point';

/** The parts of s3rver's FilesystemStore (lib/stores/filesystem.js) this module replaces or uses. */
export interface S3rverFilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putObject(object: { bucket: string; key: string; content: Buffer | Readable; metadata: Record<string, string> }): Promise<{ size: number; md5: string }>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: Readable): Promise<{ size: number; md5: string }>;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
  getMetadata(bucket: string, key: string): Promise<Record<string, string>>;
  copyObject(srcBucket: string, srcKey: string, destBucket: string, destKey: string, replacementMetadata: Record<string, string> | null): Promise<Record<string, string>>;
}

/** Suffix of files being written; never a name s3rver reads, removed on start if a crash left one. */
export const PARTIAL_SUFFIX = '.partial';

/** Writes a file through `write` under a temporary name, then renames it into place: the file is whole or absent. */
async function intoPlace(path: string, write: (temp: string) => Promise<void>): Promise<void> {
  const temp = `${path}.${randomUUID()}${PARTIAL_SUFFIX}`;
  try {
    await write(temp);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

const writeWhole = (path: string, data: string | Buffer): Promise<void> => intoPlace(path, (temp) => writeFile(temp, data));

/**
 * The digest the store keeps of each object and part, and answers as its ETag. S3 promises an
 * ETag that changes with the content, not an MD5 ("may or may not be an MD5 digest of the object
 * data", the S3 API's Object): SHA-256, which this machine's CPUs compute in hardware, took 28 ms
 * per 43 MB against MD5's 69, and every create stores 43 MB (docs/performance.md, "Create's CPU,
 * eighth step"). Objects stored before keep their MD5 (file-store-repair.ts reads both).
 */
export const OBJECT_DIGEST = 'sha256';

/** Writes `content` whole into place (intoPlace), hashing it (OBJECT_DIGEST) on the way. */
async function writeHashed(path: string, content: Buffer | Readable): Promise<{ size: number; md5: string }> {
  await mkdir(dirname(path), { recursive: true });
  const hash = createHash(OBJECT_DIGEST);
  let size = 0;
  await intoPlace(path, async (temp) => {
    if (Buffer.isBuffer(content)) {
      hash.update(content);
      size = content.length;
      await writeFile(temp, content);
      return;
    }
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    await pipeline(content, count, createWriteStream(temp));
  });
  return { size, md5: hash.digest('hex') };
}

/**
 * Makes s3rver's puts crash-safe. s3rver truncates and rewrites each of an object's three files in
 * place, and answers before the bytes have reached the file (it resolves when its hashing transform
 * finishes, not the file stream). Here the bytes are written completely to a temporary file and
 * renamed into place, then the checksum, then the metadata, each the same way and strictly one
 * after the other. A kill -9 therefore leaves whole files only, written in that order, which is
 * what local/file-store-repair.ts checks on the next start.
 */
export function makeStoreAtomic(store: S3rverFilesystemStore): void {
  const { pick, pickBy } = metadataFilters();
  store.putMetadata = async (bucket, key, metadata, md5) => {
    const json = { ...pick(metadata), ...pickBy(metadata) };
    if (md5) await writeWhole(store.getResourcePath(bucket, key, 'object.md5'), md5);
    await writeWhole(store.getResourcePath(bucket, key, 'metadata.json'), JSON.stringify(json, null, 2));
  };
  store.putObject = async (object) => {
    const path = store.getResourcePath(object.bucket, object.key, 'object');
    const { size, md5 } = await writeHashed(path, object.content);
    await store.putMetadata(object.bucket, object.key, object.metadata, md5);
    return { size, md5 };
  };
  // s3rver's own answers once its hashing transform has seen the bytes, before its file stream has
  // written them: a client that reuses its part buffer as soon as the answer comes (Finalize's part
  // writer does; through the in-process agent the server reads that very buffer) could have a
  // part stored with the next one's bytes. Here the answer waits for the whole file.
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const path = join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
    const { size, md5 } = await writeHashed(path, content);
    crashPoint('store.part-written');
    await writeWhole(`${path}.md5`, md5);
    return { size, md5 };
  };
  // A copy (create stores a staged file as an upload's original this way) in the same order: the
  // bytes to a temporary file renamed into place, then the checksum, then the metadata (the
  // source's, or the request's with REPLACE). s3rver's own copies each file in place.
  store.copyObject = async (srcBucket, srcKey, destBucket, destKey, replacementMetadata) => {
    const src = store.getResourcePath(srcBucket, srcKey, 'object');
    const dest = store.getResourcePath(destBucket, destKey, 'object');
    if (src !== dest) {
      await mkdir(dirname(dest), { recursive: true });
      await intoPlace(dest, (temp) => copyFile(src, temp));
    }
    const md5 = (await readFile(store.getResourcePath(srcBucket, srcKey, 'object.md5'), 'utf8').catch(() => undefined)) ?? undefined;
    const metadata = replacementMetadata ?? (JSON.parse(await readFile(store.getResourcePath(srcBucket, srcKey, 'metadata.json'), 'utf8')) as Record<string, string>);
    await store.putMetadata(destBucket, destKey, metadata, md5);
    return store.getMetadata(destBucket, destKey);
  };
}

/** The metadata s3rver keeps (S3Object.ALLOWED_METADATA and x-amz-meta-*), as its own putMetadata does. */
function metadataFilters() {
  const S3Object = createRequire(import.meta.url)('s3rver/lib/models/object') as { ALLOWED_METADATA: string[] };
  const allowed = new Set(S3Object.ALLOWED_METADATA);
  return {
    pick: (m: Record<string, string>) => Object.fromEntries(Object.entries(m).filter(([k]) => allowed.has(k))),
    pickBy: (m: Record<string, string>) => Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith('x-amz-meta-'))),
  };
}
