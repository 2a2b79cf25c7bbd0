import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> };

export interface EmbeddedS3 {
  endpoint: string;
  close(): Promise<void>;
}

/** s3rver on loopback, objects stored as files under `dir`. */
export async function startEmbeddedS3(dir: string, port = 0): Promise<EmbeddedS3> {
  mkdirSync(dir, { recursive: true });
  const s3 = new S3rver({ address: '127.0.0.1', port, directory: dir, silent: true, vhostBuckets: false });
  const address = await s3.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return { endpoint, close: () => s3.close() };
}

export async function ensureBuckets(endpoint: string, buckets: string[]): Promise<void> {
  const client = new S3Client({ endpoint, forcePathStyle: true, region: process.env.AWS_REGION ?? 'us-east-1' });
  try {
    for (const bucket of buckets) {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
      }
    }
  } finally {
    client.destroy();
  }
}
