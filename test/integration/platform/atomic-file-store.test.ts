import { createHash, randomBytes } from 'node:crypto';
import fs, { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { makeStoreAtomic, OBJECT_DIGEST, type S3rverFilesystemStore } from '../../../local/atomic-file-store';
import { tempDir } from '../../support/temp-dirs';

const FilesystemStore = createRequire(import.meta.url)('s3rver/lib/stores/filesystem') as new (root: string) => S3rverFilesystemStore;

/** A part as an HTTP body arrives: many pieces, the last of them small. */
const pieces = (bytes: Buffer) => Readable.from(Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536)));

/**
 * A slow disk for large writes: each write of a part's bytes completes late, a checksum's (32
 * bytes) at once. File streams call fs.write at the time they write.
 */
function slowWrites(): () => void {
  const write = fs.write;
  (fs as { write: unknown }).write = (...args: unknown[]) => {
    const callback = args.pop() as (...results: unknown[]) => void;
    const large = (args[1] as { length?: number }).length! >= 1024;
    (write as (...a: unknown[]) => void)(...args, (...results: unknown[]) => (large ? setTimeout(() => callback(...results), 20) : callback(...results)));
  };
  return () => ((fs as { write: unknown }).write = write);
}

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

describe('the embedded store’s parts', () => {
  // The local runtime's own client hands the store the very buffers it sends (in-process-agent.ts)
  // and Finalize's part writer reuses its buffer once a part is answered: a part must be on disk,
  // whole, when putPart resolves (s3rver's own resolves once its hash has seen the bytes).
  it('are written whole, with their checksum, before putPart resolves', async () => {
    const root = tempDir('pvs-parts-');
    const store = new FilesystemStore(root);
    makeStoreAtomic(store);
    restore = slowWrites();
    const part = Buffer.concat([randomBytes(1024 * 1024), randomBytes(17)]);
    const answer = await store.putPart('files', 'upload-1', 3, pieces(part));
    restore();
    const path = join(store.getResourcePath('files', undefined, 'uploads'), 'upload-1', '3');
    // Read at once, in the same turn: nothing may still be on its way to the file.
    expect(readFileSync(path).equals(part)).toBe(true);
    const md5 = createHash(OBJECT_DIGEST).update(part).digest('hex');
    expect(answer).toEqual({ size: part.length, md5 });
    expect(readFileSync(`${path}.md5`, 'utf8')).toBe(md5);
    expect(readdirSync(join(path, '..')).sort()).toEqual(['3', '3.md5']);
  });
});
