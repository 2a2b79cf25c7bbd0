import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { startRuntime } from '../../../local/runtime';
import { LOCAL_RESOURCES, localStoreSecret } from '../../../local/environment';
import { OBJECT_DIGEST } from '../../../local/atomic-file-store';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../../support/child-runtime';
import { waitFor } from '../../support/wait';
import { tempDir } from '../../support/temp-dirs';

const BUCKET = LOCAL_RESOURCES.buckets.files;
afterAll(killAllChildRuntimes);

/** Writes one object the way s3rver lays it out: bytes, .md5, metadata, in that order. */
function writeObject(dir: string, key: string, parts: { object?: string; md5?: string; metadata?: string }, ageSeconds: { object?: number; md5?: number; metadata?: number } = {}) {
  const path = join(dir, ...key.split('/'));
  mkdirSync(join(path, '..'), { recursive: true });
  const now = Date.now() / 1000;
  for (const [part, suffix] of [['object', '._S3rver_object'], ['md5', '._S3rver_object.md5'], ['metadata', '._S3rver_metadata.json']] as const) {
    const content = parts[part];
    if (content === undefined) continue;
    writeFileSync(path + suffix, content);
    const t = now - (ageSeconds[part] ?? 0);
    utimesSync(path + suffix, t, t);
  }
}

/** Lists and reads every object of the files bucket, signed with the data folder's secret. */
async function readAll(endpoint: string, dataDir: string): Promise<Map<string, string>> {
  const s3 = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: localStoreSecret(dataDir) });
  const out = new Map<string, string>();
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  for (const o of listed.Contents ?? []) {
    const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: o.Key! }));
    out.set(o.Key!, await got.Body!.transformToString());
  }
  s3.destroy();
  return out;
}

describe('embedded S3 store after a kill -9', () => {
  it('starts and serves on a folder with the files interrupted writes leave', async () => {
    const dataDir = tempDir('pvs-damaged-');
    const bucketDir = join(dataDir, 's3', BUCKET);
    const md5 = 'ec0405c5aef93e771cd80e0db180b88b'; // any well-formed hex digest
    const meta = JSON.stringify({ 'content-type': 'text/csv' });
    writeObject(bucketDir, 'uploads/ok/original.csv', { object: 'phone\n1\n', md5, metadata: meta }, { object: 3, md5: 2, metadata: 1 });
    writeObject(bucketDir, 'uploads/a/zero-metadata.csv', { object: 'phone\n', md5, metadata: '' });
    writeObject(bucketDir, 'uploads/b/zero-md5.csv', { object: 'phone\n', md5: '', metadata: meta });
    writeObject(bucketDir, 'uploads/c/no-metadata.csv', { object: 'phone\n' });
    writeObject(bucketDir, 'uploads/d/half-json.csv', { object: 'phone\n', md5, metadata: '{"content-ty' });
    // Bytes rewritten after their metadata: an overwrite cut off mid-way.
    writeObject(bucketDir, 'uploads/e/rewritten.csv', { object: 'pho', md5, metadata: meta }, { object: 0, md5: 5, metadata: 5 });
    writeObject(bucketDir, 'uploads/f/orphan-metadata.csv', { metadata: meta });
    // Bytes newer than their metadata but matching their checksum (stock s3rver answered before its
    // file stream had finished): whole, kept.
    writeObject(bucketDir, 'uploads/g/raced.csv', { object: 'phone\n2\n', md5: createHash('md5').update('phone\n2\n').digest('hex'), metadata: meta }, { object: 0, md5: 1, metadata: 1 });
    // The same with the store's own digest (SHA-256, OBJECT_DIGEST); and with one its bytes do not match.
    writeObject(bucketDir, 'uploads/i/raced-sha.csv', { object: 'phone\n3\n', md5: createHash(OBJECT_DIGEST).update('phone\n3\n').digest('hex'), metadata: meta }, { object: 0, md5: 1, metadata: 1 });
    writeObject(bucketDir, 'uploads/j/torn-sha.csv', { object: 'phone\n', md5: createHash(OBJECT_DIGEST).update('phone\n4\n').digest('hex'), metadata: meta }, { object: 0, md5: 1, metadata: 1 });
    // A temporary file of a put that never got renamed into place.
    writeFileSync(join(bucketDir, 'uploads', 'h.csv._S3rver_object.0b1c.partial'), 'pho');
    // A part of a multipart upload cut off mid-write, beside a whole one.
    const parts = join(bucketDir, '._S3rver_uploads', 'upload-1');
    mkdirSync(parts, { recursive: true });
    writeFileSync(join(parts, '1'), 'whole part');
    writeFileSync(join(parts, '2.7d3f0c4e-1b2a-4c5d-8e9f-0a1b2c3d4e5f.partial'), 'half');
    writeObject(join(dataDir, 's3', LOCAL_RESOURCES.buckets.screenshots), 'x/zero.jpg', { object: '', metadata: '' });

    const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir, maxBodyBytes: 1024 * 1024, seedDemo: true });
    try {
      const res = await fetch(`${runtime.url}/api/v1/credits/balance`, { headers: { authorization: `Bearer ${runtime.demo!.apiKey}` } });
      expect(res.status).toBe(200);
      expect([...(await readAll(runtime.backends.s3, dataDir)).entries()].sort()).toEqual([
        ['uploads/g/raced.csv', 'phone\n2\n'],
        ['uploads/i/raced-sha.csv', 'phone\n3\n'],
        ['uploads/ok/original.csv', 'phone\n1\n'],
      ]);
      expect(existsSync(join(bucketDir, 'uploads', 'h.csv._S3rver_object.0b1c.partial'))).toBe(false);
      expect(readdirSync(parts)).toEqual(['1']);
      expect(existsSync(join(bucketDir, 'uploads/f/orphan-metadata.csv._S3rver_metadata.json'))).toBe(false);
      // Not deleted: moved beside the store, bytes intact (a finished file damaged since looks the same as a torn one).
      const [stamp, ...others] = readdirSync(join(dataDir, 's3-quarantine'));
      expect(others).toEqual([]);
      const aside = join(dataDir, 's3-quarantine', stamp!, BUCKET);
      expect(readFileSync(join(aside, 'uploads/j/torn-sha.csv._S3rver_object'), 'utf8')).toBe('phone\n');
      expect(readFileSync(join(aside, 'uploads/e/rewritten.csv._S3rver_object'), 'utf8')).toBe('pho');
      expect(existsSync(join(aside, 'uploads/f/orphan-metadata.csv._S3rver_metadata.json'))).toBe(true);
      expect(existsSync(join(aside, 'uploads/ok'))).toBe(false);
    } finally {
      await runtime.stop();
    }
  });

  it('a runtime killed with SIGKILL during writes starts again on the same folder and every stored file reads', async () => {
    const dataDir = freshDataDir();
    let child = await startChildRuntime(dataDir);
    const key = child.apiKey!;
    const body = JSON.stringify({ phone_numbers: Array.from({ length: 2_000 }, (_, i) => `+1212555${String(i).padStart(4, '0')}`) });
    for (let round = 0; round < 2; round++) {
      let answered = 0;
      const writers = Array.from({ length: 6 }, async () => {
        for (;;) {
          const res = await fetch(`${child.url}/api/v1/uploads`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body }).catch(() => null);
          if (!res) return;
          await res.arrayBuffer();
          answered++;
        }
      });
      // Kill while uploads are being written and processed, after some have completed.
      await waitFor('uploads answered before the kill', () => (answered >= 4 + round * 3 ? true : null), 60_000, 20);
      await child.kill('SIGKILL');
      await Promise.all(writers);

      child = await startChildRuntime(dataDir);
      const res = await fetch(`${child.url}/api/v1/credits/balance`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect((await readAll(child.s3Url!, dataDir)).size).toBeGreaterThan(0);
    }
    await child.kill('SIGTERM');
    expect(readdirSync(join(dataDir, 's3'))).toContain(BUCKET);
  });
});

describe('embedded S3 puts', () => {
  it('leave whole files written in order (bytes, checksum, metadata) and no temporary files', async () => {
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    const { startEmbeddedS3, ensureBuckets } = await import('../../../local/embedded-s3');
    const dir = tempDir('pvs-atomic-');
    const secret = localStoreSecret(null);
    const store = await startEmbeddedS3(dir, { secret });
    const s3 = new S3Client({ endpoint: store.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: secret });
    try {
      await ensureBuckets(store.endpoint, [BUCKET], secret);
      const big = Buffer.alloc(3 * 1024 * 1024, 'x');
      await Promise.all(Array.from({ length: 12 }, (_, i) => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `k/${i}.bin`, Body: i % 2 ? big : `small ${i}` }))));
      // Overwrites too.
      await Promise.all(Array.from({ length: 12 }, (_, i) => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `k/${i}.bin`, Body: i % 2 ? `small ${i}` : big }))));
    } finally {
      s3.destroy();
      await store.close();
    }
    const files = readdirSync(join(dir, BUCKET, 'k'));
    expect(files.filter((f) => f.endsWith('.partial'))).toEqual([]);
    for (let i = 0; i < 12; i++) {
      const at = (suffix: string) => statSync(join(dir, BUCKET, 'k', `${i}.bin._S3rver_${suffix}`)).mtimeMs;
      expect(at('object')).toBeLessThanOrEqual(at('object.md5'));
      expect(at('object.md5')).toBeLessThanOrEqual(at('metadata.json'));
      expect(statSync(join(dir, BUCKET, 'k', `${i}.bin._S3rver_object`)).size).toBe(i % 2 ? `small ${i}`.length : 3 * 1024 * 1024);
    }
  });
});
