import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The parts of s3rver's FilesystemStore (lib/stores/filesystem.js) this module replaces or uses. */
export interface S3rverFilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putObject(object: { bucket: string; key: string; content: Buffer | Readable; metadata: Record<string, string> }): Promise<{ size: number; md5: string }>;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
}

/** Suffix of files being written; never a name s3rver reads, removed on start if a crash left one. */
export const PARTIAL_SUFFIX = '.partial';

/** Writes `data` under a temporary name, then renames it into place: the file is whole or absent. */
async function writeWhole(path: string, data: string | Buffer): Promise<void> {
  const temp = `${path}.${randomUUID()}${PARTIAL_SUFFIX}`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
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
    await mkdir(dirname(path), { recursive: true });
    const hash = createHash('md5');
    let size = 0;
    const temp = `${path}.${randomUUID()}${PARTIAL_SUFFIX}`;
    try {
      if (Buffer.isBuffer(object.content)) {
        hash.update(object.content);
        size = object.content.length;
        await writeFile(temp, object.content);
      } else {
        const count = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            hash.update(chunk);
            size += chunk.length;
            callback(null, chunk);
          },
        });
        await pipeline(object.content, count, createWriteStream(temp));
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    const md5 = hash.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, md5);
    return { size, md5 };
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
