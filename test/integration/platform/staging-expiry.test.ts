import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { ensureBuckets, startEmbeddedS3 } from '../../../local/embedded-s3';
import { LOCAL_RESOURCES, localStoreSecret } from '../../../local/environment';
import { STAGED_FILE_MAX_AGE_MS } from '../../../local/staging-expiry';
import { tempDir } from '../../support/temp-dirs';

// The deployed files bucket removes a staged file two days after it was staged (its `staging`
// lifecycle rule); the embedded store does the same (local/staging-expiry.ts): files staged and
// never made into an upload, or left by a create killed before it deleted its file, are not kept
// for good.

const BUCKET = LOCAL_RESOURCES.buckets.files;

/** Sets the times of an object's files (as the embedded store keeps them) to `ms` ago. */
function age(dir: string, key: string, ms: number): void {
  const t = (Date.now() - ms) / 1000;
  const base = join(dir, BUCKET, ...key.split('/'));
  for (const suffix of ['._S3rver_object', '._S3rver_object.md5', '._S3rver_metadata.json']) utimesSync(base + suffix, t, t);
}

describe('staged files in the embedded store', () => {
  it('are removed on start two days after they were staged; newer ones and other prefixes are kept', async () => {
    const dir = tempDir('pvs-staging-expiry-');
    const secret = localStoreSecret(null);
    const keys = { old: 'staging/org-1/old.csv', recent: 'staging/org-1/recent.json', upload: 'uploads/org-1/u-1/original.csv' };
    let store = await startEmbeddedS3(dir, { secret });
    let s3 = new S3Client({ endpoint: store.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: secret });
    try {
      await ensureBuckets(store.endpoint, [BUCKET], secret);
      for (const key of Object.values(keys)) await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: `bytes of ${key}` }));
    } finally {
      s3.destroy();
      await store.close();
    }
    age(dir, keys.old, STAGED_FILE_MAX_AGE_MS + 60_000);
    age(dir, keys.recent, STAGED_FILE_MAX_AGE_MS - 60_000);
    age(dir, keys.upload, 10 * STAGED_FILE_MAX_AGE_MS);

    store = await startEmbeddedS3(dir, { secret });
    s3 = new S3Client({ endpoint: store.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: secret });
    const read = (key: string) =>
      s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key })).then(
        (got) => got.Body!.transformToString(),
        (error: Error) => error.name,
      );
    try {
      expect(await read(keys.old)).toBe('NoSuchKey');
      expect(await read(keys.recent)).toBe(`bytes of ${keys.recent}`);
      expect(await read(keys.upload)).toBe(`bytes of ${keys.upload}`);
    } finally {
      s3.destroy();
      await store.close();
    }
  });
});
