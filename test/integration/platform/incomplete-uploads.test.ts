import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, GetObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { ensureBuckets, startEmbeddedS3 } from '../../../local/embedded-s3';
import { LOCAL_RESOURCES, localStoreSecret } from '../../../local/environment';
import { INCOMPLETE_UPLOAD_MAX_AGE_MS, removeIncompleteUploads } from '../../../local/incomplete-uploads';
import { tempDir } from '../../support/temp-dirs';

// The deployed buckets remove a multipart upload never completed a day after it started (their
// lifecycle rule); the embedded store does the same (local/incomplete-uploads.ts), or a local
// store would keep every failed Finalize's parts for good.

const BUCKET = LOCAL_RESOURCES.buckets.files;
const DAY = INCOMPLETE_UPLOAD_MAX_AGE_MS;

/** Sets a file's or folder's times to `ms` ago. */
const age = (path: string, ms: number) => {
  const t = (Date.now() - ms) / 1000;
  utimesSync(path, t, t);
};

describe('incomplete multipart uploads in the embedded store', () => {
  it('are removed on start once a day old, by when they started; newer ones are kept and still complete', async () => {
    const dir = tempDir('pvs-incomplete-');
    const secret = localStoreSecret(null);
    const uploads = join(dir, BUCKET, '._S3rver_uploads');
    const started: { id: string; etag: string }[] = [];
    let store = await startEmbeddedS3(dir, { secret });
    let s3 = new S3Client({ endpoint: store.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: secret });
    try {
      await ensureBuckets(store.endpoint, [BUCKET], secret);
      for (const key of ['old.csv', 'new.csv']) {
        const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
        const { ETag } = await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 1, Body: `a part of ${key}` }));
        started.push({ id: UploadId!, etag: ETag! });
      }
    } finally {
      s3.destroy();
      await store.close();
    }
    const [old, recent] = started as [{ id: string; etag: string }, { id: string; etag: string }];
    // Both folders' parts were written just now (a writer going on for a while): when the upload started decides.
    age(join(uploads, old.id, 'key'), DAY + 60_000);
    age(join(uploads, recent.id, 'key'), DAY - 60_000);

    store = await startEmbeddedS3(dir, { secret });
    s3 = new S3Client({ endpoint: store.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: secret });
    try {
      expect(readdirSync(uploads)).toEqual([recent.id]);
      const last = await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'new.csv', UploadId: recent.id, PartNumber: 2, Body: ', and the last' }));
      const Parts = [
        { PartNumber: 1, ETag: recent.etag },
        { PartNumber: 2, ETag: last.ETag! },
      ];
      await s3.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: 'new.csv', UploadId: recent.id, MultipartUpload: { Parts } }));
      const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'new.csv' }));
      expect(await got.Body!.transformToString()).toBe('a part of new.csv, and the last');
    } finally {
      s3.destroy();
      await store.close();
    }
  });

  it('are judged by their folder when the start was cut off before its key was written, in every bucket, and nothing else is touched', () => {
    const dir = tempDir('pvs-incomplete-');
    const make = (bucket: string, id: string, { key, ms }: { key: boolean; ms: number }) => {
      const folder = join(dir, bucket, '._S3rver_uploads', id);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, '1'), 'part');
      if (key) {
        writeFileSync(join(folder, 'key'), 'some/key.csv');
        age(join(folder, 'key'), ms);
      }
      age(folder, ms);
    };
    make('files', 'keyless-old', { key: false, ms: 2 * DAY });
    make('files', 'keyless-new', { key: false, ms: 1000 });
    make('screenshots', 'old', { key: true, ms: DAY + 1000 });
    // An object's own files and a bucket without uploads stay as they are.
    writeFileSync(join(dir, 'files', 'x.csv._S3rver_object'), 'phone\n');
    age(join(dir, 'files', 'x.csv._S3rver_object'), 3 * DAY);
    mkdirSync(join(dir, 'empty'));

    expect(removeIncompleteUploads(dir).sort()).toEqual(['files/keyless-old', 'screenshots/old']);
    expect(readdirSync(join(dir, 'files', '._S3rver_uploads'))).toEqual(['keyless-new']);
    expect(existsSync(join(dir, 'files', 'x.csv._S3rver_object'))).toBe(true);
    expect(removeIncompleteUploads(join(dir, 'no-such-folder'))).toEqual([]);
  });
});
